"""The FastAPI app: the page, the JSON API and the WebSocket, over one ``GameService``.

Seats authenticate with their token (header ``X-Cassino-Token`` or ``?token=``); without one a
client is a spectator. The creator of a game gets their own seat's token; each other person's seat
gets a one-time invitation, exchanged for its token at ``/claim``. Every error is
``{"error": "..."}`` with a 4xx status (a wrong link's also has ``watch``) and changes nothing; the
limits on input (``limits``) are enforced here, before the service sees a request.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import socket as sockets
import time
from collections.abc import AsyncIterator, Callable, Collection
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..cards import CARD_NAMES
from ..club.accounts import Accounts, Passwords
from .accounts import CrossSiteGuard, add_account_routes
from .answers import Searches, answer_message, created, error_frame, lessons
from .card_images import back_svg, card_svg
from .daily import Daily, add_daily_routes
from .errors import ListenError, ServiceError
from .i18n import LANGUAGES, catalogue_json
from .leave import GRACE
from .limits import (
    JSON_TYPE,
    MAX_BODY_BYTES,
    MAX_WS_FRAME_BYTES,
    SECURITY_HEADERS,
    brief,
    move_text,
    parse_json,
    whole_number,
)
from .model import LiveGame
from .page_config import config
from .payloads import state_payload
from .programs import Programs
from .rating_store import RatingStore
from .ratings import Ratings, add_rating_routes
from .seeks import Lobby, add_seek_routes
from .service import EXPIRE_AFTER, GameService
from .site import OFFLINE_POLICY, media_type, read, site_etag, site_files
from .store import Store, database_url
from .thinking import DEFAULT_WORKERS, Thinkers
from .tournaments import Tournaments, add_tournament_routes

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("cassino.web")


def _error(status: int, message: str, headers: dict[str, str] | None = None, **extra: Any) -> JSONResponse:
    return JSONResponse(
        {"error": brief(message), **extra}, status_code=status, headers={**SECURITY_HEADERS, **(headers or {})}
    )


def _token(request: Request) -> str | None:
    return request.headers.get("x-cassino-token") or request.query_params.get("token")


async def _json_body(request: Request) -> dict[str, Any]:
    return parse_json(await request.body())


class Guard:
    """Middleware round every HTTP request: the security headers on each response; ``HEAD``
    answered wherever ``GET`` is (the GET's headers, no body); and a body with a method that takes
    one read here, before any route, refused 413 past ``MAX_BODY_BYTES`` (from Content-Length,
    else while it streams, never reading the rest) and 415 when it declares a type other than
    JSON (every form and simple cross-site request declares one), so that no page of another site
    can post to the API and no large body costs other tables any time."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        head = scope["method"] == "HEAD"
        if head:
            scope = {**scope, "method": "GET"}

        async def guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers.setdefault(name, value)
            elif head and message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        if scope["method"] in ("POST", "PUT", "PATCH", "DELETE"):
            try:
                body = await _read_body(scope, receive)
            except ServiceError as exc:
                await _error(exc.status, exc.message, exc.headers, **exc.extra)(scope, receive, guarded)
                return
            replayed = False

            async def replay() -> Message:
                nonlocal replayed
                if replayed:
                    return await receive()
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}

            await self.app(scope, replay, guarded)
            return
        await self.app(scope, receive, guarded)


async def _read_body(scope: Scope, receive: Receive) -> bytes:
    """A request's whole body, at most ``MAX_BODY_BYTES`` of it, and JSON when there is one."""
    headers = Headers(scope=scope)
    declared = headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY_BYTES):
        raise ServiceError(413, f"the request body may be at most {MAX_BODY_BYTES} bytes (Content-Length: {declared})")
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise ServiceError(413, f"the request body may be at most {MAX_BODY_BYTES} bytes")
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    body = b"".join(chunks)
    media = headers.get("content-type", "").split(";")[0].strip().lower()
    if body and media not in (JSON_TYPE, ""):
        shown = brief(repr(media)) if media else "none"
        raise ServiceError(415, f"request bodies must be {JSON_TYPE}, not {shown}")
    return body


def _same_origin(websocket: WebSocket, allowed: Collection[str]) -> bool:
    """Whether a WebSocket may connect: no ``Origin`` (not a browser), one naming the request's
    own host, or one in the allowed list: a browser opens a socket from any site's page, and the
    page of another site must not play or watch through a visitor's seat."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    host = websocket.headers.get("host", "")
    return origin.lower() in allowed or origin.lower().partition("://")[2] == host.lower()


def create_app(
    database: str | None = None,
    data_dir: Path | None = None,
    bot_delay: float = 0.5,
    store: Store | None = None,
    allowed_origins: Collection[str] | None = None,
    rate_limits: bool = True,
    expire_after: float = EXPIRE_AFTER,
    bot_workers: int = 0,
    programs: Programs | None = None,
    passwords: Passwords | None = None,
    grace: float = GRACE,
    clock: Callable[[], float] = time.time,
) -> FastAPI:
    """The app over a database URL (SQLite in ``data_dir`` by default) or a given store. Pages of
    ``allowed_origins`` (default: ``CASSINO_ALLOWED_ORIGINS``, comma-separated, e.g.
    ``https://cassino.example``) may open its WebSockets besides its own. With ``rate_limits``
    each client (by its address) may create games and move at the service's rates only; off, for
    load benchmarks and tests that play hundreds of games from one address. Games with no move for
    ``expire_after`` seconds are abandoned. Computer players and coaches think in ``bot_workers``
    worker processes (0: in threads of this process, as tests do). ``programs``: the folder of bot
    programs a seat may name (``--allow-bots``), each run in a process of its own under limits.
    ``passwords``: how account passwords are hashed (argon2-cffi's defaults unless given).
    ``grace``: seconds one who left a rated game has to come back before the others may claim it.
    ``clock``: epoch seconds, for the games, the lobby and the accounts (tests fake it)."""
    if allowed_origins is None:
        allowed_origins = os.environ.get("CASSINO_ALLOWED_ORIGINS", "").split(",")
    origins = {o.strip().lower().rstrip("/") for o in allowed_origins if o.strip()}
    the_store = store or Store(database_url(database, data_dir))
    service = GameService(
        the_store,
        bot_delay=bot_delay,
        expire_after=expire_after,
        thinkers=Thinkers(workers=bot_workers),
        programs=programs,
        grace=grace,
        clock=clock,
    )
    accounts = Accounts(the_store.accounts, passwords or Passwords(), service.clock)
    ratings = Ratings(RatingStore(the_store.engine), service, service.clock)
    daily = Daily(service, accounts, the_store)
    tournaments = Tournaments(service, accounts, the_store)

    def client_of(connection: Request | WebSocket) -> str:
        """The rate limits' key: the client's address (behind a proxy, the proxy's: see docs/web.md);
        empty, so never limited, when the limits are off."""
        return connection.client.host if rate_limits and connection.client else ""

    def address_of(request: Request) -> str:
        """The address wrong passwords count against: the client's, whether or not the rate
        limits are on (a guard against guessing, not a limit on load)."""
        return request.client.host if request.client else ""

    # ---- the lobby's seeks and Play now (web/seeks.py)
    lobby = Lobby(the_store, accounts, service.clock)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        service.thinkers.warm()
        await service.start()
        await lobby.start()
        try:
            ratings.recover()  # rated games a stopped process left uncounted
        except Exception:
            log.exception("the rated games left uncounted could not be looked for")
        try:
            tournaments.recover()  # tables a stopped process left unrecorded, rounds left undealt
        except Exception:
            log.exception("the running tournaments could not be looked at")
        clock = asyncio.get_running_loop().create_task(tournaments.run(), name="cassino-tournaments")
        try:
            yield
        finally:
            clock.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await clock
            await lobby.stop()
            await service.stop()
            accounts.passwords.close()
            if store is None:
                the_store.close()

    app = FastAPI(title="cassino", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.service = service
    app.state.accounts = accounts
    app.state.ratings = ratings
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(CrossSiteGuard, origins=origins)  # inside Guard: its refusals get the headers too
    app.add_middleware(Guard)
    add_account_routes(
        app,
        accounts,
        client_of,
        address_of,
        ratings.ratings_of,
        daily.with_history(ratings.profile_of),
        on_claimed=daily.claimed,
    )
    add_rating_routes(app, ratings, STATIC / "index.html")
    app.state.lobby = lobby
    add_seek_routes(app, lobby, client_of, lambda websocket: _same_origin(websocket, origins))
    add_daily_routes(app, daily, client_of)
    add_tournament_routes(app, tournaments, STATIC / "index.html")

    @app.exception_handler(ServiceError)
    async def service_error(_request: Request, exc: ServiceError) -> JSONResponse:
        return _error(exc.status, exc.message, exc.headers, **exc.extra)

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        """A bug, never the input's fault: logged with its traceback, which the client never sees."""
        log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        return _error(500, "internal error")

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

    @app.get("/offline")
    async def offline_page() -> RedirectResponse:
        return RedirectResponse("/offline/", status_code=308)

    @app.get("/offline/{path:path}")
    async def offline_file(path: str, request: Request) -> Response:
        """The page that plays offline (``site``): the same files ``cassino site`` writes, each
        checked again on every use (``no-cache``) and answered 304 when the browser has it."""
        name = path or "index.html"
        if name not in site_files():
            raise ServiceError(404, f"the page that plays offline has no file {path!r}")
        tag = site_etag(name)
        headers = {"Cache-Control": "no-cache", "ETag": tag, "content-security-policy": OFFLINE_POLICY}
        if tag in (t.strip() for t in request.headers.get("if-none-match", "").split(",")):
            return Response(status_code=304, headers=headers)
        return Response(read(site_files()[name]), media_type=media_type(name), headers=headers)

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
        offered = config()
        if programs is not None:
            offered["players"] += [
                {"name": name, "label": name, "about": "lobby.program_about"} for name in programs.names()
            ]
        return offered

    @app.get("/api/lessons")
    async def get_lessons(request: Request) -> dict[str, Any]:
        return lessons(service, request.query_params)

    @app.get("/api/games")
    async def list_games() -> dict[str, Any]:
        return {"games": service.store.recent()}

    @app.post("/api/deals", status_code=201)
    async def new_deal(request: Request) -> dict[str, Any]:
        body = await request.body()
        if body.strip() and parse_json(body):
            raise ServiceError(400, "a new deal takes no fields: send no body, or {}")
        return service.deals.new_deal(client=client_of(request))

    @app.post("/api/games", status_code=201)
    async def create_game(request: Request) -> dict[str, Any]:
        live, tokens, invites = service.create(await _json_body(request), client=client_of(request))
        return created(service, live, tokens, invites)

    @app.post("/api/games/{game_id}/claim")
    async def claim_seat(game_id: str, request: Request) -> dict[str, Any]:
        seat, token = service.claim(game_id, await _json_body(request))
        return {"seat": seat, "token": token, "link": f"/#game={game_id}&token={token}"}

    @app.post("/api/games/{game_id}/claim-game")
    async def claim_game(game_id: str, request: Request) -> dict[str, Any]:
        """Claim a rated game from a seat whose person left for the grace time, or whose move clock
        ran out (``leave``): that seat forfeits. Not ``/claim``, which exchanges an invitation."""
        token = _token(request)
        live = service.claim_game(game_id, token, await _json_body(request), client=client_of(request))
        return state_payload(live, service.seat_of(live, token))

    @app.get("/api/games/{game_id}")
    async def get_state(game_id: str, request: Request) -> dict[str, Any]:
        live = service.get(game_id)
        return state_payload(live, service.seat_of(live, _token(request)))

    @app.post("/api/games/{game_id}/moves")
    async def post_move(game_id: str, request: Request) -> dict[str, Any]:
        body = await _json_body(request)
        token = _token(request)
        live = service.play(
            game_id,
            token,
            move_text(body.get("move")),
            whole_number(body.get("version"), "version"),
            client=client_of(request),
        )
        return state_payload(live, service.seat_of(live, token))

    @app.post("/api/games/{game_id}/next")
    async def post_next(game_id: str, request: Request) -> dict[str, Any]:
        token = _token(request)
        service.press_next(game_id, token)
        live = service.get(game_id)
        return state_payload(live, service.seat_of(live, token))

    @app.post("/api/games/{game_id}/contribute")
    async def post_contribution(game_id: str, request: Request) -> dict[str, Any]:
        body = await _json_body(request)
        token = _token(request)
        live = service.contribute(game_id, token, body.get("hand"), body.get("value"), client=client_of(request))
        return state_payload(live, service.seat_of(live, token))

    @app.post("/api/games/{game_id}/undo")
    async def post_undo(game_id: str, request: Request) -> dict[str, Any]:
        token = _token(request)
        live = service.undo(game_id, token, client=client_of(request))
        return state_payload(live, service.seat_of(live, token))

    @app.get("/api/games/{game_id}/hint")
    async def get_hint(game_id: str, request: Request) -> dict[str, Any]:
        return await service.coaching.hint(game_id, _token(request))

    @app.get("/api/games/{game_id}/review")
    async def get_review(game_id: str, request: Request) -> dict[str, Any]:
        return await service.coaching.review(game_id, _token(request))

    @app.get("/api/games/{game_id}/hands/{number}")
    async def get_hand(game_id: str, number: int) -> dict[str, Any]:
        return service.reveal(game_id, number)

    @app.get("/api/games/{game_id}/record")
    async def get_record(game_id: str) -> dict[str, Any]:
        return service.record(game_id)

    # ------------------------------------------------------------------ chat at the table (chat.py)
    @app.get("/api/games/{game_id}/chat")
    async def get_chat(game_id: str, request: Request) -> dict[str, Any]:
        service.chat_reads.take(client_of(request))
        live, seat = service.asker(game_id, _token(request))
        return service.chats.history(live, seat)

    @app.post("/api/games/{game_id}/chat")
    async def post_chat(game_id: str, request: Request) -> dict[str, Any]:
        return service.chats.send(game_id, _token(request), await _json_body(request)).to_json()

    @app.post("/api/games/{game_id}/chat/settings")
    async def post_chat_settings(game_id: str, request: Request) -> dict[str, Any]:
        service.move_limit.take(client_of(request))
        return service.chats.set_free(game_id, _token(request), await _json_body(request))

    @app.websocket("/api/games/{game_id}/ws")
    async def socket(websocket: WebSocket, game_id: str) -> None:
        await websocket.accept()
        if not _same_origin(websocket, origins):
            await websocket.close(code=1008, reason="this page's origin may not open the game's socket")
            return
        try:
            live = service.get(game_id)
            seat = service.seat_of(live, websocket.query_params.get("token"))
        except ServiceError as exc:
            await websocket.send_json(error_frame(exc))
            await websocket.close(code=4000 + exc.status)
            return
        await _serve_socket(service, websocket, live, seat, client_of(websocket))

    return app


async def _serve_socket(
    service: GameService, websocket: WebSocket, live: LiveGame, seat: int | None, client: str
) -> None:
    """Send the watcher's queue; answer its messages (move, next, undo, state, and the teaching
    library's hint, coach and lessons) until it leaves. The coach's answers take a search, so each
    is a task of its own: the socket goes on reading meanwhile."""
    sub = service.subscribe(live, seat)
    token = websocket.query_params.get("token")
    searches = Searches(live.id, sub.queue.put_nowait)

    async def writer() -> None:
        while True:
            await websocket.send_text(await sub.queue.get())

    sending = asyncio.create_task(writer())
    try:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            answer_message(service, live, seat, token, client, frame.get("text"), sub.queue.put_nowait, searches.later)
    except WebSocketDisconnect:
        pass
    finally:
        sending.cancel()
        searches.cancel()
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
    bot_workers: int = DEFAULT_WORKERS,
    expire_after: float = EXPIRE_AFTER,
    rate_limits: bool = True,
    programs: Programs | None = None,
    grace: float = GRACE,
    clock_offset: float = 0.0,
) -> None:
    """``cassino serve``: the app under uvicorn, printing where to open it once it has the port (a
    taken port is a one-line ``ListenError``, before any address is printed)."""
    import uvicorn

    listener = listen(host, port)
    store = Store(database_url(database, data_dir), durable=durable)
    app = create_app(
        store=store,
        bot_delay=bot_delay,
        bot_workers=bot_workers,
        expire_after=expire_after,
        rate_limits=rate_limits,
        programs=programs,
        grace=grace,
        clock=(lambda: time.time() + clock_offset) if clock_offset else time.time,
    )
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    print(f"cassino: open http://{shown}:{port}/ to play (games stored in {store.describe()})", flush=True)
    config = uvicorn.Config(
        app,
        log_level="warning",
        ws_ping_interval=20,
        ws_per_message_deflate=False,
        ws_max_size=MAX_WS_FRAME_BYTES,
    )
    try:
        uvicorn.Server(config).run(sockets=[listener])
    finally:
        listener.close()
        store.close()


def listen(host: str, port: int) -> sockets.socket:
    """A socket bound to ``host:port`` for uvicorn, or a ``ListenError`` saying why it cannot be."""
    family = sockets.AF_INET6 if ":" in host else sockets.AF_INET
    listener = sockets.socket(family, sockets.SOCK_STREAM)
    listener.setsockopt(sockets.SOL_SOCKET, sockets.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as exc:
        listener.close()
        if exc.errno == errno.EADDRINUSE:
            raise ListenError(
                f"port {port} is taken on {host}: another program listens there; choose another with --port"
            ) from None
        raise ListenError(f"cannot listen on {host} port {port}: {exc.strerror or exc}") from None
    return listener
