"""Accounts over HTTP: the routes (``/api/accounts``, ``/api/session``, ``/api/me``,
``/api/users/{name}``), the session cookie, and the guard against cross-site forgery.

The cookie ``cassino_session`` holds the session's token: HttpOnly (no script reads it),
SameSite=Lax (no other site's POST carries it), Path=/, and Secure when the request came over https
(behind a proxy, as uvicorn read ``X-Forwarded-Proto`` from a trusted one: docs/web.md). Every
state-changing request (POST, PUT, PATCH, DELETE) that carries the cookie must come from this
site's own page: its ``Origin`` (without one, its ``Referer``) must be the server's own origin or an
allowed one, and it must carry ``X-CSRF-Token``, a token derived from the session's (HMAC-SHA-256
keyed with it, so only a page of the cookie's own browser learns it, from ``/api/me`` or at
sign-in). Anything else is refused 403 before any route. A request without the cookie is judged as
before, by its seat token: accounts add to the API and change none of it.

Beside it, the cookie ``cassino_account`` (readable by the page: a random mark of the sign-in, no
secret, nothing derived from one) says that a session may be open, so that the page asks ``/api/me``
only then (a visitor who never signed in costs no request, and meets no 401), and again when the
mark changes (another tab signed in or out).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Final
from urllib.parse import urlsplit

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.datastructures import Headers
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from ..club.accounts import SESSION_SECONDS, AccountRow, Accounts, Session
from ..club.errors import (
    AccountError,
    AccountInputError,
    NameTakenError,
    NoSuchPlayerError,
    NotSignedInError,
    SignInError,
    TooManyAttemptsError,
)
from .errors import ServiceError
from .limits import ACCOUNT_RATE, RateLimit, brief, parse_json
from .requests import known_fields

COOKIE: Final = "cassino_session"
MARK: Final = "cassino_account"
"""The cookie the page reads to know that a session may be open, and which (a random mark)."""
CSRF_HEADER: Final = "x-csrf-token"
WRITES: Final = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""The methods that change something: each must come from the site's own page when it carries
the cookie. GET and HEAD change nothing here."""
NO_STORE: Final = {"cache-control": "no-store"}
"""On every answer that holds a CSRF token: no cache keeps it."""

ACCOUNT_FIELDS = ("name", "password", "seats")
PASSWORD_FIELDS = ("password", "new_password")
DELETE_FIELDS = ("password",)

REFUSAL_STATUS: tuple[tuple[type[AccountError], int], ...] = (
    (AccountInputError, 400),
    (SignInError, 401),
    (NotSignedInError, 401),
    (NoSuchPlayerError, 404),
    (NameTakenError, 409),
    (TooManyAttemptsError, 429),
)
"""The HTTP status of each kind of refusal of the accounts."""


def csrf_of(token: str) -> str:
    """A session's CSRF token: derived from its secret token, so every server process knows it
    without storing it, and no one without the cookie can make it."""
    return hmac.new(token.encode("utf-8"), b"cassino-csrf-v1", hashlib.sha256).hexdigest()


@contextmanager
def answer_account_refusals() -> Iterator[None]:
    """Answer the accounts' refusals as ``ServiceError`` with their HTTP status, their words and
    their ``code`` (for the page's own words), and ``Retry-After`` on a 429."""
    try:
        yield
    except TooManyAttemptsError as exc:
        raise ServiceError(429, exc.message, headers={"retry-after": str(exc.retry_after)}, code=exc.code) from None
    except AccountError as exc:
        status = next((code for kind, code in REFUSAL_STATUS if isinstance(exc, kind)), 400)
        raise ServiceError(status, exc.message, code=exc.code) from None


def _default_port(scheme: str, host: str) -> str:
    """A host as an origin writes it: without the scheme's default port."""
    suffix = {"http": ":80", "https": ":443"}.get(scheme)
    return host[: -len(suffix)] if suffix and host.endswith(suffix) else host


def origin_of(headers: Headers) -> str | None:
    """Where a request says it comes from: its ``Origin``, else the origin of its ``Referer``;
    None when it names neither (``null``, a sandboxed or private origin, is kept as it is)."""
    origin = headers.get("origin")
    if origin is None:
        referer = headers.get("referer")
        if not referer:
            return None
        parts = urlsplit(referer)
        if not parts.scheme or not parts.netloc:
            return "null"
        origin = f"{parts.scheme}://{parts.netloc}"
    scheme, _, host = origin.strip().lower().rstrip("/").partition("://")
    return f"{scheme}://{_default_port(scheme, host)}" if host else origin.strip().lower()


def cross_site_refusal(scope: Scope, allowed: Collection[str]) -> tuple[str, str] | None:
    """Why a request may not change anything (its message and code), or None when it may: one
    that carries no session cookie is not judged here; one that does must name this site (or an
    allowed one) as its origin and carry its session's CSRF token."""
    token = HTTPConnection(scope).cookies.get(COOKIE)
    if scope["method"] not in WRITES or not token:
        return None
    headers = Headers(scope=scope)
    origin = origin_of(headers)
    scheme = str(scope.get("scheme", "http"))
    own = f"{scheme}://{_default_port(scheme, headers.get('host', '').lower())}"
    if origin is None:
        return (
            "this request carries the session cookie, so it must come from this site's page: it names no Origin "
            "or Referer",
            "cross_site",
        )
    if origin != own and origin not in allowed:
        return (
            f"this request carries the session cookie but comes from another site ({origin!r}): only this "
            "site's page may change anything with it",
            "cross_site",
        )
    if not hmac.compare_digest(headers.get(CSRF_HEADER, "").encode("utf-8"), csrf_of(token).encode("utf-8")):
        return (
            "this request carries the session cookie without the right X-CSRF-Token header (GET /api/me answers "
            "the token)",
            "csrf",
        )
    return None


class CrossSiteGuard:
    """Middleware refusing (403) every state-changing request that carries the session cookie and
    does not come from this site's own page (``cross_site_refusal``), before any route reads it."""

    def __init__(self, app: ASGIApp, origins: Collection[str] = ()) -> None:
        self.app = app
        self.origins = frozenset(origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refusal = cross_site_refusal(scope, self.origins)
            if refusal is not None:
                message, code = refusal
                await JSONResponse({"error": brief(message), "code": code}, status_code=403)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _secure(request: Request) -> bool:
    """Whether the request came over https (through a trusted proxy, as it said)."""
    return request.url.scheme == "https"


def _set_cookie(response: JSONResponse, request: Request, token: str) -> None:
    """The session's cookie, and the mark the page reads, for as long as the session lasts."""
    secure = _secure(request)
    response.set_cookie(COOKIE, token, max_age=SESSION_SECONDS, path="/", secure=secure, httponly=True, samesite="lax")
    response.set_cookie(
        MARK, secrets.token_hex(8), max_age=SESSION_SECONDS, path="/", secure=secure, httponly=False, samesite="lax"
    )


def _clear_cookie(response: JSONResponse, request: Request) -> None:
    secure = _secure(request)
    response.delete_cookie(COOKIE, path="/", secure=secure, httponly=True, samesite="lax")
    response.delete_cookie(MARK, path="/", secure=secure, httponly=False, samesite="lax")


def _me(account: AccountRow, token: str, ratings: dict[str, Any]) -> dict[str, Any]:
    """Who is signed in, as ``/api/me`` answers, with their ratings (``{KEY: {"rating", "rd",
    "games", "provisional"}}``: ``cassino.web.ratings``)."""
    return {"name": account.name, "csrf": csrf_of(token), "ratings": ratings}


RatingsOf = Callable[[AccountRow], dict[str, Any]]
"""An account's ratings by pool, as ``/api/me`` shows them."""
ProfileOf = Callable[[AccountRow, Mapping[str, str], AccountRow | None], dict[str, Any]]
"""What a profile shows of an account beyond its name and when it joined (its ratings and its
games), from the request's query (``?page=``), to whoever is signed in (None: nobody)."""


def _no_ratings(_account: AccountRow) -> dict[str, Any]:
    return {}


def _no_games(_account: AccountRow, _query: Mapping[str, str], _viewer: AccountRow | None) -> dict[str, Any]:
    return {"ratings": {}, "games": []}


def require_signed_in(accounts: Accounts, request: Request) -> tuple[AccountRow, str]:
    """The signed-in account of a request and its session's secret (seat tokens derive from it);
    401 without one."""
    token = request.cookies.get(COOKIE)
    with answer_account_refusals():
        account = accounts.require(token)
    assert token is not None
    return account, token


async def json_body(request: Request) -> dict[str, Any]:
    """A JSON object body; no body is an empty one (so a missing field is named, not the body)."""
    raw = await request.body()
    return parse_json(raw) if raw.strip() else {}


def no_store(status: int, body: dict[str, Any]) -> JSONResponse:
    """An answer no cache keeps: the club's answers hold seat tokens or change all the time."""
    return JSONResponse(body, status_code=status, headers=NO_STORE)


def add_account_routes(
    app: FastAPI,
    accounts: Accounts,
    client_of: Callable[[Request], str],
    address_of: Callable[[Request], str],
    ratings_of: RatingsOf = _no_ratings,
    profile_of: ProfileOf = _no_games,
    on_claimed: Callable[[AccountRow, list[tuple[str, int]]], object] | None = None,
) -> None:
    """The accounts' routes on the app. ``client_of`` keys the rate of sign-ups, sign-ins and
    password changes (empty: not limited, ``--no-rate-limits``); ``address_of`` is the address
    wrong passwords count against, always (a guard, not a limit on load). ``ratings_of`` and
    ``profile_of`` fill in an account's ratings and games (none without them); ``on_claimed`` hears
    of the seats a sign-up or sign-in brought (a guest's daily attempt becomes the account's)."""
    limit = RateLimit(ACCOUNT_RATE, "sign-ups, sign-ins and password changes", accounts.clock)

    def signed_in(request: Request, session: Session, status: int) -> JSONResponse:
        """The answer to a sign-up or sign-in: who, the CSRF token, the seats brought, the cookie.
        A session the browser had before ends."""
        accounts.sign_out(request.cookies.get(COOKIE))
        if on_claimed is not None and session.claimed:
            on_claimed(session.account, list(session.claimed))
        body = {
            **_me(session.account, session.token, ratings_of(session.account)),
            "claimed": [{"game": game, "seat": seat} for game, seat in session.claimed],
            "not_claimed": list(session.not_claimed),
        }
        response = JSONResponse(body, status_code=status, headers=NO_STORE)
        _set_cookie(response, request, session.token)
        return response

    @app.post("/api/accounts", status_code=201)
    async def sign_up(request: Request) -> JSONResponse:
        body = await json_body(request)
        known_fields(body, ACCOUNT_FIELDS, "a new account")
        limit.take(client_of(request))
        with answer_account_refusals():
            session = await accounts.sign_up(body.get("name"), body.get("password"), body.get("seats"))
        return signed_in(request, session, 201)

    @app.post("/api/session")
    async def sign_in(request: Request) -> JSONResponse:
        body = await json_body(request)
        known_fields(body, ACCOUNT_FIELDS, "a sign-in")
        limit.take(client_of(request))
        with answer_account_refusals():
            session = await accounts.sign_in(
                body.get("name"), body.get("password"), body.get("seats"), address_of(request)
            )
        return signed_in(request, session, 200)

    @app.delete("/api/session")
    async def sign_out(request: Request) -> JSONResponse:
        accounts.sign_out(request.cookies.get(COOKIE))
        response = JSONResponse({"signed_in": False}, headers=NO_STORE)
        _clear_cookie(response, request)
        return response

    @app.get("/api/me")
    async def me(request: Request) -> JSONResponse:
        """Who is signed in; 401 without a session, and a cookie whose session has ended is
        cleared, so that the page's writes no longer carry it."""
        token = request.cookies.get(COOKIE)
        try:
            account = accounts.require(token)
        except NotSignedInError as exc:
            refused = JSONResponse({"error": exc.message, "code": exc.code}, status_code=401, headers=NO_STORE)
            if token is not None or MARK in request.cookies:
                _clear_cookie(refused, request)
            return refused
        assert token is not None
        return JSONResponse(_me(account, token, ratings_of(account)), headers=NO_STORE)

    @app.post("/api/me/password")
    async def change_password(request: Request) -> JSONResponse:
        body = await json_body(request)
        known_fields(body, PASSWORD_FIELDS, "a change of password")
        limit.take(client_of(request))
        token = request.cookies.get(COOKIE)
        with answer_account_refusals():
            await accounts.change_password(token, body.get("password"), body.get("new_password"), address_of(request))
            account = accounts.require(token)
        assert token is not None
        return JSONResponse({**_me(account, token, ratings_of(account)), "changed": True}, headers=NO_STORE)

    @app.delete("/api/me")
    async def delete_account(request: Request) -> JSONResponse:
        body = await json_body(request)
        known_fields(body, DELETE_FIELDS, "deleting an account")
        limit.take(client_of(request))
        with answer_account_refusals():
            await accounts.delete(request.cookies.get(COOKIE), body.get("password"), address_of(request))
        response = JSONResponse({"deleted": True}, headers=NO_STORE)
        _clear_cookie(response, request)
        return response

    @app.get("/api/users/{name}")
    async def profile(name: str, request: Request) -> dict[str, Any]:
        """A player's public page: the name, when they joined, their ratings and their finished
        games (``profile_of``: some only to the player, signed in)."""
        with answer_account_refusals():
            account = accounts.profile(name)
        viewer = accounts.session(request.cookies.get(COOKIE))
        return {"name": account.name, "joined": account.joined, **profile_of(account, request.query_params, viewer)}
