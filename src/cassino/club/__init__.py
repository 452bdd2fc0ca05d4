"""The club: the place to play around the tables (accounts now; profiles, the lobby's seeks,
ratings, tournaments to come).

Each room is a module with its rules and what it needs of storage, and no knowledge of HTTP or
SQL: a front end (``cassino.web``) brings the transport and implements the storage. The club sits
between the table and the front ends: it imports the table and below, and the front ends import it.
"""
