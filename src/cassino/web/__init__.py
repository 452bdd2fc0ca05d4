"""Casino in the browser: a FastAPI app with per-seat views, provably fair deals and durable games.

``cassino serve`` starts it (``run_server``); ``create_app`` builds the app for tests and embedding.
The engine never depends on this package: it needs the ``web`` extra (FastAPI, uvicorn, SQLAlchemy).
``create_app`` and ``run_server`` are imported on first use, so that the modules that need no extra
(``cassino.web.fair``, ``payloads``) import without FastAPI installed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app, run_server

__all__ = ["create_app", "run_server"]


def __getattr__(name: str) -> Any:
    """``create_app`` and ``run_server`` from ``.app``, imported (with FastAPI) only when asked for."""
    if name in __all__:
        from . import app

        return getattr(app, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
