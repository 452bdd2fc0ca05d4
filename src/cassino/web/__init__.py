"""Casino in the browser: a FastAPI app with per-seat views, provably fair deals and durable games.

``cassino serve`` starts it (``run_server``); ``create_app`` builds the app for tests and embedding.
The engine never depends on this package: it needs the ``web`` extra (FastAPI, uvicorn, SQLAlchemy).
"""

from __future__ import annotations

from .app import create_app, run_server

__all__ = ["create_app", "run_server"]
