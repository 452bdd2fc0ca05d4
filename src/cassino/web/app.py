"""The FastAPI app: the page, the JSON API and the WebSocket, over one ``GameService``.

Seats authenticate with their token (header ``X-Cassino-Token`` or ``?token=``); without one a
client is a spectator. The creator of a game gets their own seat's token; each other person's seat
gets a one-time invitation, exchanged for its token at ``/claim``. Every error is
``{"error": "..."}`` with a 4xx status (a wrong link's also has ``watch``) and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..cards import CARD_NAMES
from ..errors import ServiceError
from ..learn import TUTORIAL_RULES
from ..players import LEVELS
from ..rules import OPTIONS, PARTNERSHIP_PLAYERS, PLAYER_COUNTS, PRESETS, OptionValue, Rules
from .card_images import back_svg, card_svg
from .i18n import LANGUAGES, catalogue_json
from .model import LiveGame
from .payloads import encode, state_payload
from .service import DEFAULT_OPPONENT, GameService, bot_player, rules_of_request, watch_link
from .store import Store, database_url
from .teaching import lessons_json, tutorial

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("cassino.web")


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


def table_players() -> list[dict[str, str]]:
    """The computer players the lobby offers people: the ladder of levels, gentlest first, each
    with the ``lobby`` catalogue keys of its plain name and of how it plays. The engines under
    them (``random``, ``greedy``, ``heuristic``, ``search``) still sit at any table the API makes,
    for bot writers, but are not offered: two of them are levels already (``expert`` and
    ``master``) and the other two play worse than any level, so listing them would only make
    people wonder which to choose."""
    out = []
    for level in LEVELS:
        bot_player(level.name, 0)  # every level may sit at a table: one that could not is a bug
        out.append({"name": level.name, "label": f"player.{level.name}.name", "about": f"player.{level.name}.about"})
    return out


def config() -> dict[str, Any]:
    """What the lobby offers, from the option schema of ``rules.OPTIONS``, keyed for translation
    (every text is in the ``lobby`` catalogue): the presets in order with their option values;
    each option with its kind, choices, default in each preset, when it matters (``needs``,
    ``needs_not``, ``needs_sides``) and which values are refused unless a condition holds; the
    seats; the computer players; and the guided first game of "Learn to play"."""

    def word(value: OptionValue) -> str:
        """A value as catalogue keys write it (``true``, ``count_out``), like JSON."""
        return str(value).lower() if isinstance(value, bool) else str(value)

    presets = [
        {
            "name": p,
            "label": f"preset.{p}.name",
            "about": f"preset.{p}.about",
            "options": {o.name: getattr(r, o.name) for o in OPTIONS},
        }
        for p, r in PRESETS.items()
    ]
    options = []
    for o in OPTIONS:
        key = f"option.{o.name}"
        entry: dict[str, Any] = {
            "name": o.name,
            "type": o.type,
            "label": f"{key}.label",
            "about": f"{key}.about",
            "choices": list(o.choices),
            "choice_labels": {c: f"{key}.choice.{c}" for c in o.choices},
            "default": o.default,
            "defaults": {p: getattr(r, o.name) for p, r in PRESETS.items()},
            **o.matters.to_json(),
            "refused": [
                {"value": ref.value, "unless": ref.unless.to_json(), "reason": f"{key}.refused.{word(ref.value)}"}
                for ref in o.refused
            ],
        }
        if o.minimum is not None:
            entry["min"] = o.minimum
        options.append(entry)
    seats = {"players": list(PLAYER_COUNTS), "default": Rules().players, "partnerships_players": PARTNERSHIP_PLAYERS}
    return {
        "presets": presets,
        "options": options,
        "seats": seats,
        "players": table_players(),
        "default_player": DEFAULT_OPPONENT,
        "tutorial": tutorial(),
    }


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
        return JSONResponse(exc.payload(), status_code=exc.status)

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

    @app.get("/api/i18n/{language}")
    async def get_messages(language: str) -> Response:
        if language not in LANGUAGES:
            raise ServiceError(404, f"no catalogue for language {language!r}: the languages are {', '.join(LANGUAGES)}")
        return Response(catalogue_json(language), media_type="application/json", headers={"Cache-Control": "no-cache"})

    @app.get("/api/config")
    async def get_config() -> dict[str, Any]:
        return config()

    @app.get("/api/lessons")
    async def get_lessons(request: Request) -> dict[str, Any]:
        """Every lesson to read at any time, worded for a game's rules (``?game=ID``), a variant
        (``?preset=royal&players=3``) or, without either, the guided first game's."""
        query = request.query_params
        if "game" in query:
            rules = service.get(query["game"]).rules
        elif "preset" in query or "players" in query:
            players = query.get("players", "2")
            if not players.isdigit():
                raise ServiceError(400, "players must be a number of players: 2, 3 or 4")
            rules = rules_of_request({"preset": query.get("preset", "classic"), "players": int(players)})
        else:
            rules = TUTORIAL_RULES
        return {"lessons": lessons_json(rules)}

    @app.get("/api/games")
    async def list_games() -> dict[str, Any]:
        return {"games": service.store.recent()}

    @app.post("/api/games", status_code=201)
    async def create_game(request: Request) -> dict[str, Any]:
        live, tokens, invites = service.create(await _json_body(request))
        seats = []
        for s in live.seats:
            entry: dict[str, Any] = {"seat": s.seat, "kind": s.kind, "name": s.name, "bot": s.bot}
            if s.seat in tokens:
                entry["token"] = tokens[s.seat]
                entry["link"] = f"/#game={live.id}&token={tokens[s.seat]}"
            elif s.seat in invites:
                entry["invite"] = invites[s.seat]
                entry["link"] = f"/#game={live.id}&invite={invites[s.seat]}"
            seats.append(entry)
        return {
            "game": live.id,
            "you": next(iter(tokens), None),
            "seats": seats,
            "spectate": watch_link(live.id),
            "listed": live.listed,
            "next_hand_after": live.next_after,
        }

    @app.post("/api/games/{game_id}/claim")
    async def claim_seat(game_id: str, request: Request) -> dict[str, Any]:
        seat, token = service.claim(game_id, await _json_body(request))
        return {"seat": seat, "token": token, "link": f"/#game={game_id}&token={token}"}

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

    @app.post("/api/games/{game_id}/next")
    async def post_next(game_id: str, request: Request) -> dict[str, Any]:
        token = _token(request)
        service.press_next(game_id, token)
        live = service.get(game_id)
        return state_payload(live, service.seat_of(live, token))

    @app.post("/api/games/{game_id}/undo")
    async def post_undo(game_id: str, request: Request) -> dict[str, Any]:
        token = _token(request)
        live = service.undo(game_id, token)
        return state_payload(live, service.seat_of(live, token))

    @app.get("/api/games/{game_id}/hint")
    async def get_hint(game_id: str, request: Request) -> dict[str, Any]:
        return await service.hint(game_id, _token(request))

    @app.get("/api/games/{game_id}/review")
    async def get_review(game_id: str, request: Request) -> dict[str, Any]:
        return await service.review(game_id, _token(request))

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
            await websocket.send_json({"type": "error", "status": exc.status, **exc.payload()})
            await websocket.close(code=4000 + exc.status)
            return
        await _serve_socket(service, websocket, live, seat)

    return app


async def _serve_socket(service: GameService, websocket: WebSocket, live: LiveGame, seat: int | None) -> None:
    """Send the watcher's queue; answer its messages (move, next, undo, state, and the teaching
    library's hint, coach and lessons) until it leaves. The coach's answers take a search, so each
    is a task of its own: the socket goes on reading meanwhile."""
    sub = service.subscribe(live, seat)
    token = websocket.query_params.get("token")
    answering: set[asyncio.Task[None]] = set()

    def refused(exc: ServiceError) -> None:
        sub.queue.put_nowait(encode({"type": "error", "status": exc.status, **exc.payload()}))

    async def answer(kind: str, work: Awaitable[dict[str, Any]]) -> None:
        try:
            sub.queue.put_nowait(encode({"type": kind, **await work}))
        except ServiceError as exc:
            refused(exc)
        except Exception:
            log.exception("game %s: the %s answer failed", live.id, kind)
            refused(ServiceError(500, f"the {kind} could not be worked out just now: try again"))

    def later(kind: str, work: Awaitable[dict[str, Any]]) -> None:
        task = asyncio.create_task(answer(kind, work))
        answering.add(task)
        task.add_done_callback(answering.discard)

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
                elif kind == "next":
                    if not service.press_next(live.id, token):  # pressed before: nothing was broadcast
                        sub.queue.put_nowait(encode(state_payload(service.get(live.id), seat)))
                elif kind == "undo":
                    service.undo(live.id, token)
                elif kind == "hint":
                    later("hint", service.hint(live.id, token))
                elif kind == "coach":
                    later("coach", service.coach(live.id, token, message.get("ply")))
                elif kind == "lessons":
                    due = service.lessons(live.id, token, message.get("seen"))
                    sub.queue.put_nowait(encode({"type": "lessons", "version": live.ply, "due": due}))
                elif kind == "state":
                    sub.queue.put_nowait(encode(state_payload(service.get(live.id), seat)))
                else:
                    raise ServiceError(
                        400, "message type must be 'move', 'next', 'undo', 'hint', 'coach', 'lessons' or 'state'"
                    )
            except ServiceError as exc:
                refused(exc)
    except WebSocketDisconnect:
        pass
    finally:
        sending.cancel()
        for task in answering:
            task.cancel()
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
