"""The full-screen terminal app (needs the ``tui`` extra: Textual)."""
