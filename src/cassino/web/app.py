"""The FastAPI app: the page, the JSON API and the WebSocket, over one ``GameService``.

Seats authenticate with their token (header ``X-Cassino-Token`` or ``?token=``); without one a
client is a spectator. Every error is ``{"error": "..."}`` with a 4xx status and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..cards import CARD_NAMES
from ..players import player_names
from ..rules import COURT_CAPTURES, OPTION_NAMES, PRESETS, SCORINGS, TIEBREAKS, TRAIL_RESTRICTIONS
from .card_images import back_svg, card_svg
from .payloads import encode, state_payload
from .service import GameService, LiveGame, ServiceError, bot_player
from .store import Store, database_url

STATIC = Path(__file__).parent / "static"
_CHOICES = {
    "court_capture": COURT_CAPTURES,
    "trail_restriction": TRAIL_RESTRICTIONS,
    "scoring": SCORINGS,
    "tiebreak": TIEBREAKS,
}


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _token(request: Request) -> str | None:
    return request.headers.get("x-cassino-token") or request.query_params.get("token")


async def _json_body(request: Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError:
        raise ServiceError(400, "the request body must be a JSON object") from None
    if not isinstance(body, dict):
        raise ServiceError(400, "the request body must be a JSON object")
    return body


def table_players() -> list[str]:
    """The computer players that may sit at a table (none that sees hidden cards)."""
    out = []
    for name in player_names():
        try:
            bot_player(name, 0)
        except ServiceError:
            continue
        out.append(name)
    return out


def config() -> dict[str, Any]:
    """What the variant builder offers: presets with their option values, options, players."""
    options = []
    for name in OPTION_NAMES:
        value = getattr(PRESETS["classic"], name)
        kind = "bool" if isinstance(value, bool) else "int" if isinstance(value, int) else "choice"
        options.append({"name": name, "type": kind, "choices": list(_CHOICES.get(name, ()))})
    presets = {p: {n: getattr(r, n) for n in OPTION_NAMES} for p, r in PRESETS.items()}
    return {"presets": presets, "options": options, "players": table_players()}


def create_app(
    database: str | None = None,
    data_dir: Path | None = None,
    bot_delay: float = 0.5,
    store: Store | None = None,
) -> FastAPI:
    """The app over a database URL (SQLite in ``data_dir`` by default) or a given store."""
    the_store = store or Store(database_url(database, data_dir))
    service = GameService(the_store, bot_delay=bot_delay)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await service.start()
        try:
            yield
        finally:
            await service.stop()
            if store is None:
                the_store.close()

    app = FastAPI(title="cassino", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.service = service
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.exception_handler(ServiceError)
    async def service_error(_request: Request, exc: ServiceError) -> JSONResponse:
        return _error(exc.status, exc.message)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return _error(exc.status_code, str(exc.detail))

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return _error(400, f"{where}: {first.get('msg', 'invalid request')}")

    @app.get("/")
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/cards/{name}.svg")
    async def card_image(name: str) -> Response:
        if name == "back":
            return Response(back_svg(), media_type="image/svg+xml")
        if name not in CARD_NAMES:
            raise ServiceError(404, f"{name!r} is not a card: names are like 'Td' or 'As'")
        return Response(
            card_svg(CARD_NAMES.index(name)),
            media_type="image/svg+xml",
            headers={"Cache-Control": "public, max-age=86400"},
        )

    @app.get("/api/config")
    async def get_config() -> dict[str, Any]:
        return config()

    @app.get("/api/games")
    async def list_games() -> dict[str, Any]:
        return {"games": service.store.recent()}

    @app.post("/api/games", status_code=201)
    async def create_game(request: Request) -> dict[str, Any]:
        live, tokens = service.create(await _json_body(request))
        seats = []
        for s in live.seats:
            entry: dict[str, Any] = {"seat": s.seat, "kind": s.kind, "name": s.name, "bot": s.bot}
            if s.seat in tokens:
                entry["token"] = tokens[s.seat]
                entry["link"] = f"/#game={live.id}&token={tokens[s.seat]}"
            seats.append(entry)
        return {"game": live.id, "seats": seats, "spectate": f"/#game={live.id}"}

    @app.get("/api/games/{game_id}")
    async def get_state(game_id: str, request: Request) -> dict[str, Any]:
        live = service.get(game_id)
        return state_payload(live, service.seat_of(live, _token(request)))

    @app.post("/api/games/{game_id}/moves")
    async def post_move(game_id: str, request: Request) -> dict[str, Any]:
        body = await _json_body(request)
        token = _token(request)
        live = service.play(game_id, token, body.get("move"), body.get("version"))
        return state_payload(live, service.seat_of(live, token))

    @app.get("/api/games/{game_id}/hint")
    async def get_hint(game_id: str, request: Request) -> dict[str, Any]:
        return {"move": service.hint(game_id, _token(request))}

    @app.get("/api/games/{game_id}/hands/{number}")
    async def get_hand(game_id: str, number: int) -> dict[str, Any]:
        return service.reveal(game_id, number)

    @app.get("/api/games/{game_id}/record")
    async def get_record(game_id: str) -> dict[str, Any]:
        return service.record(game_id)

    @app.websocket("/api/games/{game_id}/ws")
    async def socket(websocket: WebSocket, game_id: str) -> None:
        await websocket.accept()
        try:
            live = service.get(game_id)
            seat = service.seat_of(live, websocket.query_params.get("token"))
        except ServiceError as exc:
            await websocket.send_json({"type": "error", "status": exc.status, "error": exc.message})
            await websocket.close(code=4000 + exc.status)
            return
        await _serve_socket(service, websocket, live, seat)

    return app


async def _serve_socket(service: GameService, websocket: WebSocket, live: LiveGame, seat: int | None) -> None:
    """Send the watcher's queue; answer its messages (move, hint, state) until it leaves."""
    sub = service.subscribe(live, seat)
    token = websocket.query_params.get("token")

    async def writer() -> None:
        while True:
            await websocket.send_text(await sub.queue.get())

    sending = asyncio.create_task(writer())
    try:
        while True:
            try:
                message = await websocket.receive_json()
            except ValueError:
                sub.queue.put_nowait(encode({"type": "error", "status": 400, "error": "messages must be JSON objects"}))
                continue
            kind = message.get("type") if isinstance(message, dict) else None
            try:
                if kind == "move":
                    service.play(live.id, token, message.get("move"), message.get("version"))
                elif kind == "hint":
                    sub.queue.put_nowait(encode({"type": "hint", "move": service.hint(live.id, token)}))
                elif kind == "state":
                    sub.queue.put_nowait(encode(state_payload(service.get(live.id), seat)))
                else:
                    raise ServiceError(400, "message type must be 'move', 'hint' or 'state'")
            except ServiceError as exc:
                sub.queue.put_nowait(encode({"type": "error", "status": exc.status, "error": exc.message}))
    except WebSocketDisconnect:
        pass
    finally:
        sending.cancel()
        service.unsubscribe(live, sub)
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sending


def run_server(
    host: str = "127.0.0.1",
    port: int = 8000,
    database: str | None = None,
    data_dir: Path | None = None,
    bot_delay: float = 0.5,
    durable: bool = False,
) -> None:
    """``cassino serve``: the app under uvicorn, printing where to open it."""
    import uvicorn

    store = Store(database_url(database, data_dir), durable=durable)
    app = create_app(store=store, bot_delay=bot_delay)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    print(f"cassino: open http://{shown}:{port}/ to play (games stored in {store.describe()})", flush=True)
    try:
        uvicorn.run(app, host=host, port=port, log_level="warning", ws_ping_interval=20, ws_per_message_deflate=False)
    finally:
        store.close()
