"""Casino at the terminal: the table session both front ends drive, the table text they share with
the replay, the plain-lines game, the full-screen game (Textual, imported only by whoever runs it)
and the replay and record check.
"""
