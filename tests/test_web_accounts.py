"""Accounts at the web app (``cassino.club.accounts`` over ``cassino.web.accounts``): signing up,
in and out, ``/api/me``, the session cookie's attributes, passwords stored only as Argon2id hashes
(and hashed again when the parameters change), the rules of names and passwords, the cross-site
guard (a foreign Origin, no Origin, no or a wrong CSRF token), the limit on wrong passwords per
address and per name, the same answer for an unknown name as for a wrong password, one account never
acting for another, changing the password, deleting the account, the seats a browser holds becoming
the account's, the public profile, and two server processes on one PostgreSQL sharing sessions and
counts. On SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("sqlalchemy")
pytest.importorskip("argon2")

import httpx
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import select

from account_support import ORIGIN, PASSWORD, QUICK, each_database
from cassino.club.accounts import (
    FAILURE_LIMIT,
    FAILURE_WINDOW,
    SESSION_SECONDS,
    Accounts,
    Passwords,
    secret_digest,
)
from cassino.club.errors import SignInError, TooManyAttemptsError
from cassino.web import create_app
from cassino.web.accounts import COOKIE, MARK, csrf_of
from cassino.web.i18n import LANGUAGES, catalogue
from cassino.web.schema import accounts_table, metadata, sessions_table
from cassino.web.store import Store, database_url
from web_support import Server, create, postgres_url

"""Argon2id still, with small parameters so that a test signs in many times quickly; the app's own
defaults are checked by ``test_the_database_holds_only_argon2id_hashes``."""


class CountingHasher(PasswordHasher):
    """A ``PasswordHasher`` that records the parameters of every hash it checks a password against."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.checked: list[str] = []

    def verify(self, hash: str | bytes, password: str | bytes) -> bool:
        text = hash.decode() if isinstance(hash, bytes) else hash
        self.checked.append(text.rsplit("$", 2)[0])  # $argon2id$v=19$m=...,t=...,p=...
        return super().verify(hash, password)


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database of each kind."""
    return each_database(request.param, tmp_path)


@pytest.fixture
def client(url: str) -> Iterator[TestClient]:
    with TestClient(create_app(database=url, bot_delay=0, rate_limits=False, passwords=Passwords(QUICK))) as c:
        yield c


def writes(csrf: str, origin: str = ORIGIN) -> dict[str, str]:
    """The headers of the page's own state-changing requests when signed in."""
    return {"origin": origin, "x-csrf-token": csrf}


def page_headers(c: TestClient) -> dict[str, str]:
    """What the page sends with a write: its origin and, while it holds a session, its CSRF token."""
    return writes(csrf_of(c.cookies[COOKIE])) if COOKIE in c.cookies else {}


def sign_up(c: TestClient, name: str = "Ann", password: str = PASSWORD, **more: Any) -> httpx.Response:
    return c.post("/api/accounts", json={"name": name, "password": password, **more}, headers=page_headers(c))


def sign_in(c: TestClient, name: str = "Ann", password: str = PASSWORD, **more: Any) -> httpx.Response:
    return c.post("/api/session", json={"name": name, "password": password, **more}, headers=page_headers(c))


def cookie_attributes(response: httpx.Response, name: str = COOKIE) -> dict[str, str]:
    """A cookie's Set-Cookie attributes, names in lower case (a bare one maps to '')."""
    header = next(h for h in response.headers.get_list("set-cookie") if h.startswith(name + "="))
    out = {}
    for part in header.split(";")[1:]:
        key, _, value = part.strip().partition("=")
        out[key.lower()] = value
    return out


NOT_SIGNED_IN = {
    "error": "you are not signed in (or your session has ended): sign in first",
    "code": "not_signed_in",
}
WRONG = {"error": "wrong name or password", "code": "wrong_password"}


# ---------------------------------------------------------------------- signing up, in and out
def test_sign_up_in_and_out(client: TestClient) -> None:
    r = client.get("/api/me")
    assert (r.status_code, r.json()) == (401, NOT_SIGNED_IN)
    r = sign_up(client)
    assert r.status_code == 201, r.text
    body = r.json()
    token = client.cookies[COOKIE]
    assert body == {"name": "Ann", "csrf": csrf_of(token), "ratings": {}, "claimed": [], "not_claimed": []}
    assert re.fullmatch(r"[0-9a-f]{64}", body["csrf"])
    assert r.headers["cache-control"] == "no-store"
    mark = client.cookies[MARK]  # the page's sign that a session may be open: random, no secret
    assert re.fullmatch(r"[0-9a-f]{16}", mark) and mark not in (token, body["csrf"])
    me = client.get("/api/me")
    assert (me.status_code, me.json()) == (200, {"name": "Ann", "csrf": body["csrf"], "ratings": {}})
    out = client.request("DELETE", "/api/session", headers=writes(body["csrf"]))
    assert (out.status_code, out.json()) == (200, {"signed_in": False})
    assert cookie_attributes(out)["max-age"] == cookie_attributes(out, MARK)["max-age"] == "0"
    assert COOKIE not in client.cookies and MARK not in client.cookies
    assert client.get("/api/me").status_code == 401
    again = sign_in(client, "ann")  # names are one whatever their case
    assert again.status_code == 200, again.text
    assert again.json()["name"] == "Ann" and client.cookies[COOKIE] != token
    assert client.get("/api/me").json()["csrf"] == again.json()["csrf"] != body["csrf"]
    assert client.cookies[MARK] != mark  # each sign-in its own mark


def test_the_session_cookie_is_http_only_lax_and_secure_over_https(url: str) -> None:
    app = create_app(database=url, bot_delay=0, rate_limits=False, passwords=Passwords(QUICK))
    with TestClient(app) as plain:
        made = sign_up(plain)
        attributes = cookie_attributes(made)
        assert attributes == {"httponly": "", "max-age": str(SESSION_SECONDS), "path": "/", "samesite": "lax"}
        assert cookie_attributes(made, MARK) == {"max-age": str(SESSION_SECONDS), "path": "/", "samesite": "lax"}
    with TestClient(app, base_url="https://testserver") as tls:
        attributes = cookie_attributes(sign_in(tls))
        assert attributes == {
            "httponly": "",
            "max-age": str(SESSION_SECONDS),
            "path": "/",
            "samesite": "lax",
            "secure": "",
        }


def test_an_ended_session_is_cleared_by_api_me(client: TestClient) -> None:
    """A cookie whose session is gone is answered 401 and cleared, so the page's writes stop carrying it."""
    sign_up(client)
    client.cookies.set(COOKIE, "no-such-session")
    r = client.get("/api/me")
    assert (r.status_code, r.json()) == (401, NOT_SIGNED_IN)
    assert cookie_attributes(r)["max-age"] == cookie_attributes(r, MARK)["max-age"] == "0"


def test_the_database_holds_only_argon2id_hashes(tmp_path: Path) -> None:
    """With the app's own hasher (argon2-cffi's defaults): no password and no session token in any
    column of any table; the hash is Argon2id with 64 MiB, 3 passes and 4 lanes."""
    url = database_url(None, tmp_path)
    with TestClient(create_app(database=url, bot_delay=0, rate_limits=False)) as c:
        r = sign_up(c, "Ann", PASSWORD)
        assert r.status_code == 201, r.text
        token = c.cookies[COOKIE]
        assert sign_in(c, "Ann", PASSWORD).status_code == 200
        second = c.cookies[COOKIE]
    store = Store(url)
    try:
        with store.engine.connect() as conn:
            every = [str(v) for table in metadata.sorted_tables for row in conn.execute(select(table)) for v in row]
            hashes = [r.password_hash for r in conn.execute(select(accounts_table.c.password_hash))]
            sessions = {r.token_hash for r in conn.execute(select(sessions_table.c.token_hash))}
    finally:
        store.close()
    for secret in (PASSWORD, token, second):
        assert not [v for v in every if secret in v]
    assert len(hashes) == 1 and hashes[0].startswith("$argon2id$v=19$m=65536,t=3,p=4$")
    assert sessions == {secret_digest(second)}  # signing in again ended the browser's first session


def test_a_hash_made_under_other_parameters_is_made_again_at_sign_in(url: str) -> None:
    with TestClient(create_app(database=url, rate_limits=False, passwords=Passwords(QUICK))) as old:
        assert sign_up(old).status_code == 201

    def stored() -> str:
        store = Store(url)
        try:
            with store.engine.connect() as conn:
                return str(conn.execute(select(accounts_table.c.password_hash)).scalar_one())
        finally:
            store.close()

    assert stored().startswith("$argon2id$v=19$m=1024,t=1,p=1$")
    stronger = PasswordHasher(time_cost=2, memory_cost=2048, parallelism=1)
    with TestClient(create_app(database=url, rate_limits=False, passwords=Passwords(stronger))) as new:
        assert sign_in(new).status_code == 200
        assert stored().startswith("$argon2id$v=19$m=2048,t=2,p=1$")
        assert sign_in(new).status_code == 200  # the new hash opens it too
        assert sign_in(new, password="wrong password").status_code == 401


# ---------------------------------------------------------------------- the rules of names and passwords
@pytest.mark.parametrize(
    ("body", "status", "error", "code"),
    [
        ({"name": "Al", "password": PASSWORD}, 400,
         "name must be 3 to 20 letters, digits, _ or -; this one has 2 characters", "bad_name"),
        ({"name": "A" * 21, "password": PASSWORD}, 400,
         "name must be 3 to 20 letters, digits, _ or -; this one has 21 characters", "bad_name"),
        ({"name": "Ann Lee", "password": PASSWORD}, 400,
         "name must be 3 to 20 letters, digits, _ or -; ' ' is none of them", "bad_name"),
        ({"name": "Zoë", "password": PASSWORD}, 400,
         "name must be 3 to 20 letters, digits, _ or -; 'ë' is none of them", "bad_name"),
        ({"name": 42, "password": PASSWORD}, 400, "name must be text: 3 to 20 letters, digits, _ or -", "bad_name"),
        ({"password": PASSWORD}, 400, "name must be text: 3 to 20 letters, digits, _ or -", "bad_name"),
        ({"name": "Ann", "password": "short77"}, 400, "password must be at least 8 characters long", "short_password"),
        ({"name": "Ann", "password": "é" * 65}, 400,
         "password may be at most 128 bytes long (in UTF-8)", "long_password"),
        ({"name": "Ann", "password": ["x"] * 9}, 400, "password must be text", "bad_password"),
        ({"name": "Ann", "password": PASSWORD, "seats": {"g": "t"}}, 400,
         'seats must be a list of the seats this browser holds, each {"game": ID, "token": TOKEN}', "bad_seats"),
        ({"name": "Ann", "password": PASSWORD, "seats": [{"game": "g"}]}, 400,
         'seats[0] must be {"game": ID, "token": TOKEN}: a game id and its seat token', "bad_seats"),
    ],
)  # fmt: skip
def test_names_and_passwords_follow_the_rules(
    client: TestClient, body: dict[str, Any], status: int, error: str, code: str
) -> None:
    r = client.post("/api/accounts", json=body)
    assert (r.status_code, r.json()) == (status, {"error": error, "code": code})
    assert COOKIE not in client.cookies


def test_names_are_unique_whatever_their_case(client: TestClient) -> None:
    assert sign_up(client, "Ann_42").status_code == 201
    for name in ("Ann_42", "ann_42", "ANN_42"):
        r = sign_up(client, name, "another password")
        assert (r.status_code, r.json()) == (
            409,
            {"error": f"the name {name!r} is taken: choose another", "code": "name_taken"},
        )
    assert sign_up(client, "Ann-42").status_code == 201  # another name
    body = {"name": "Bob", "password": PASSWORD, "email": "b@example.org"}
    r = client.post("/api/accounts", json=body, headers=page_headers(client))
    assert (r.status_code, r.json()["error"]) == (
        400,
        "unknown field 'email' for a new account; the fields are: name, password, seats",
    )
    assert sign_up(client, "Cleo", "abcdefgh").status_code == 201  # 8 characters are enough
    assert sign_up(client, "Dora", "é" * 64).status_code == 201  # 128 bytes is enough


# ---------------------------------------------------------------------- the cross-site guard
def test_a_write_with_the_cookie_must_come_from_the_page_with_its_token(client: TestClient) -> None:
    csrf = sign_up(client).json()["csrf"]
    body = {"seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}
    refusals = [
        ({"origin": "https://evil.example", "x-csrf-token": csrf}, "cross_site"),
        ({"origin": "null", "x-csrf-token": csrf}, "cross_site"),
        ({"referer": "https://evil.example/page", "x-csrf-token": csrf}, "cross_site"),
        ({"x-csrf-token": csrf}, "cross_site"),
        ({"origin": ORIGIN}, "csrf"),
        ({"origin": ORIGIN, "x-csrf-token": "0" * 64}, "csrf"),
        ({"origin": ORIGIN, "x-csrf-token": csrf_of("another session")}, "csrf"),
    ]
    for headers, code in refusals:
        r = client.post("/api/games", json=body, headers=headers)
        assert r.status_code == 403, (headers, r.text)
        assert r.json()["code"] == code
        assert r.headers["x-frame-options"] == "DENY"  # the refusal has the security headers too
    assert client.post("/api/games", json=body, headers=writes(csrf)).status_code == 201
    referred = {"referer": ORIGIN + "/#lobby", "x-csrf-token": csrf}
    assert client.post("/api/games", json=body, headers=referred).status_code == 201
    # the account's own writes are guarded the same way
    r = client.request("DELETE", "/api/me", json={"password": PASSWORD}, headers={"origin": "https://evil.example"})
    assert r.status_code == 403 and client.get("/api/me").status_code == 200
    r = client.request("DELETE", "/api/session", headers={"origin": ORIGIN})
    assert r.status_code == 403 and client.get("/api/me").status_code == 200
    # reading needs no token; without the cookie, the API is as it was: no origin, no token needed
    assert client.get("/api/config").status_code == 200
    client.cookies.clear()
    assert client.post("/api/games", json=body).status_code == 201


def test_the_exact_cross_site_refusals(client: TestClient) -> None:
    csrf = sign_up(client).json()["csrf"]
    r = client.post("/api/deals", headers={"origin": "https://evil.example", "x-csrf-token": csrf})
    assert r.json() == {
        "error": "this request carries the session cookie but comes from another site ('https://evil.example'): "
        "only this site's page may change anything with it",
        "code": "cross_site",
    }
    assert client.post("/api/deals", headers={"origin": ORIGIN}).json() == {
        "error": "this request carries the session cookie without the right X-CSRF-Token header "
        "(GET /api/me answers the token)",
        "code": "csrf",
    }
    assert client.post("/api/deals").json() == {
        "error": "this request carries the session cookie, so it must come from this site's page: it names no "
        "Origin or Referer",
        "code": "cross_site",
    }


def test_an_allowed_origin_may_write(url: str) -> None:
    app = create_app(
        database=url,
        rate_limits=False,
        passwords=Passwords(QUICK),
        allowed_origins=["https://cassino.example"],
    )
    with TestClient(app) as c:
        csrf = sign_up(c).json()["csrf"]
        assert c.post("/api/deals", headers=writes(csrf, "https://cassino.example")).status_code == 201
        assert c.post("/api/deals", headers=writes(csrf, "https://other.example")).status_code == 403


# ---------------------------------------------------------------------- guessing passwords
def test_ten_wrong_passwords_for_a_name_then_429_from_any_address(url: str) -> None:
    app = create_app(database=url, rate_limits=False, passwords=Passwords(QUICK))
    with TestClient(app) as c:
        assert sign_up(c, "Ann").status_code == 201
        for i in range(FAILURE_LIMIT):  # each from an address of its own: the name's limit
            guesser = TestClient(app, client=(f"10.0.0.{i}", 1000))
            r = sign_in(guesser, "Ann", f"guess number {i}")
            assert (r.status_code, r.json()) == (401, WRONG)
        late = TestClient(app, client=("10.0.1.1", 1000))
        r = sign_in(late, "ann", f"guess number {FAILURE_LIMIT}")
        assert r.status_code == 429
        wait = int(r.headers["retry-after"])
        assert 0 < wait <= FAILURE_WINDOW
        assert r.json() == {
            "error": "too many wrong passwords for this name or from this address (at most 10 in 15 minutes): "
            f"try again in {wait} s",
            "code": "too_many",
        }
        assert sign_in(late, "Ann", PASSWORD).status_code == 429  # the right one waits too
        assert sign_in(late, "Bob", "a password").status_code == 401  # another name is not held up


def test_ten_wrong_passwords_from_an_address_then_429_for_any_name(client: TestClient) -> None:
    assert sign_up(client, "Ann").status_code == 201
    for i in range(FAILURE_LIMIT):  # ten names, one address
        assert sign_in(client, f"name{i}", "some password").json() == WRONG
    r = sign_in(client, "Ann", PASSWORD)
    assert r.status_code == 429 and int(r.headers["retry-after"]) > 0
    elsewhere = TestClient(client.app, client=("10.9.9.9", 1000))
    assert sign_in(elsewhere, "Ann", PASSWORD).status_code == 200  # the account itself is not held up


def test_right_passwords_do_not_count(client: TestClient) -> None:
    assert sign_up(client, "Ann").status_code == 201
    for _ in range(FAILURE_LIMIT - 1):
        assert sign_in(client, "Ann", "wrong password").status_code == 401
    for _ in range(3):
        assert sign_in(client, "Ann", PASSWORD).status_code == 200
    assert sign_in(client, "Ann", "wrong password").status_code == 401  # the tenth
    assert sign_in(client, "Ann", PASSWORD).status_code == 429


def test_the_window_ends(tmp_path: Path) -> None:
    """At the club: past the window, a name may be tried again (a fake clock)."""
    store = Store(database_url(None, tmp_path))
    now = [1_000_000.0]
    accounts = Accounts(store.accounts, Passwords(QUICK), clock=lambda: now[0])

    async def scenario() -> None:
        await accounts.sign_up("Ann", PASSWORD)
        for _ in range(FAILURE_LIMIT):
            with pytest.raises(SignInError):
                await accounts.sign_in("Ann", "wrong password", address="10.0.0.1")
        now[0] += 60
        with pytest.raises(TooManyAttemptsError) as refused:
            await accounts.sign_in("Ann", PASSWORD, address="10.0.0.2")
        assert refused.value.retry_after == FAILURE_WINDOW - 60
        now[0] += FAILURE_WINDOW - 60
        session = await accounts.sign_in("Ann", PASSWORD, address="10.0.0.2")
        assert session.account.name == "Ann"

    try:
        asyncio.run(scenario())
    finally:
        accounts.passwords.close()
        store.close()


def test_an_unknown_name_and_a_wrong_password_get_the_same_answer_after_the_same_work(url: str) -> None:
    hasher = CountingHasher()  # the defaults: the work a real server does
    with TestClient(create_app(database=url, rate_limits=False, passwords=Passwords(hasher))) as c:
        assert sign_up(c, "Ann").status_code == 201
        hasher.checked.clear()
        wrong = sign_in(c, "Ann", "not the password")
        after_wrong = list(hasher.checked)
        hasher.checked.clear()
        unknown = sign_in(c, "Nobody", "not the password")
        after_unknown = list(hasher.checked)
    assert (wrong.status_code, wrong.json()) == (unknown.status_code, unknown.json()) == (401, WRONG)
    same = ("content-type", "content-length", "cache-control", "retry-after", "set-cookie")
    assert [wrong.headers.get(h) for h in same] == [unknown.headers.get(h) for h in same]
    assert after_wrong == after_unknown == ["$argon2id$v=19$m=65536,t=3,p=4"]  # one check of one cost each


# ---------------------------------------------------------------------- one account, its own
def test_one_account_never_acts_for_another(client: TestClient) -> None:
    ann_csrf = sign_up(client, "Ann", PASSWORD).json()["csrf"]
    bob = TestClient(client.app, client=("10.0.0.2", 1000))
    bob_csrf = sign_up(bob, "Bob", "bobs own password").json()["csrf"]
    # Ann's session with Bob's password can neither delete nor change an account: it names its own
    r = client.request("DELETE", "/api/me", json={"password": "bobs own password"}, headers=writes(ann_csrf))
    assert (r.status_code, r.json()) == (401, {"error": "the password is wrong", "code": "wrong_password"})
    body = {"password": "bobs own password", "new_password": "taken over now"}
    assert client.post("/api/me/password", json=body, headers=writes(ann_csrf)).status_code == 401
    assert sign_in(TestClient(client.app, client=("10.0.0.3", 1)), "Bob", "bobs own password").status_code == 200
    # Ann's CSRF token does not open Bob's session, nor his hers
    assert bob.request("DELETE", "/api/session", headers=writes(ann_csrf)).json()["code"] == "csrf"
    assert client.request("DELETE", "/api/session", headers=writes(bob_csrf)).json()["code"] == "csrf"
    assert client.get("/api/me").json()["name"] == "Ann" and bob.get("/api/me").json()["name"] == "Bob"
    # Bob's seat stays his
    game = create(TestClient(client.app), seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    seats = [{"game": game["game"], "token": game["seats"][0]["token"]}]
    assert sign_in(bob, "Bob", "bobs own password", seats=seats).json()["claimed"] == [
        {"game": game["game"], "seat": 0}
    ]
    taken = sign_in(client, "Ann", PASSWORD, seats=seats).json()
    assert (taken["claimed"], taken["not_claimed"]) == ([], [game["game"]])
    assert client.app.state.service.store.accounts.holders(game["game"]) == {0: "Bob"}


def test_changing_the_password(client: TestClient) -> None:
    csrf = sign_up(client).json()["csrf"]
    elsewhere = TestClient(client.app, client=("10.0.0.2", 1000))
    assert sign_in(elsewhere).status_code == 200
    change = {"password": "not the password", "new_password": "a new password"}
    r = client.post("/api/me/password", json=change, headers=writes(csrf))
    assert (r.status_code, r.json()) == (401, {"error": "the password is wrong", "code": "wrong_password"})
    short = {"password": PASSWORD, "new_password": "short"}
    r = client.post("/api/me/password", json=short, headers=writes(csrf))
    assert (r.status_code, r.json()) == (
        400,
        {"error": "new_password must be at least 8 characters long", "code": "short_password"},
    )
    r = client.post(
        "/api/me/password", json={"password": PASSWORD, "new_password": "a new password"}, headers=writes(csrf)
    )
    assert (r.status_code, r.json()) == (200, {"name": "Ann", "csrf": csrf, "ratings": {}, "changed": True})
    assert client.get("/api/me").status_code == 200  # this session goes on
    assert elsewhere.get("/api/me").status_code == 401  # every other one ended
    assert sign_in(elsewhere, "Ann", PASSWORD).status_code == 401
    assert sign_in(elsewhere, "Ann", "a new password").status_code == 200
    signed_out = TestClient(client.app)
    r = signed_out.post("/api/me/password", json={"password": PASSWORD, "new_password": "whatever else"})
    assert (r.status_code, r.json()) == (401, NOT_SIGNED_IN)


def test_deleting_the_account_keeps_its_games_under_an_anonymous_name(client: TestClient) -> None:
    game = create(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    token = game["seats"][0]["token"]
    csrf = sign_up(client, "Ann", seats=[{"game": game["game"], "token": token}]).json()["csrf"]
    store = client.app.state.service.store
    assert store.accounts.holders(game["game"]) == {0: "Ann"}
    r = client.request("DELETE", "/api/me", json={"password": "not the password"}, headers=writes(csrf))
    assert r.status_code == 401 and client.get("/api/me").status_code == 200
    r = client.request("DELETE", "/api/me", headers=writes(csrf))
    assert (r.status_code, r.json()) == (400, {"error": "password must be text", "code": "bad_password"})
    r = client.request("DELETE", "/api/me", json={"password": PASSWORD}, headers=writes(csrf))
    assert (r.status_code, r.json()) == (200, {"deleted": True})
    assert COOKIE not in client.cookies
    assert client.get("/api/me").status_code == 401
    assert client.get("/api/users/Ann").status_code == 404
    assert sign_in(client, "Ann", PASSWORD).json() == WRONG
    with store.engine.connect() as conn:
        rows = conn.execute(select(accounts_table)).all()
        sessions = conn.execute(select(sessions_table)).all()
    assert len(rows) == 1 and not sessions
    (row,) = rows
    assert re.fullmatch(r"deleted:[0-9a-f]{8}", row.name) and row.name_key == row.name
    assert row.password_hash == "" and row.deleted is not None
    assert store.accounts.holders(game["game"]) == {0: row.name}  # the game keeps its player, nameless
    assert client.get(f"/api/games/{game['game']}", headers={"x-cassino-token": token}).json()["you"] == 0
    assert sign_up(client, "ann").status_code == 201  # the name is free again


# ---------------------------------------------------------------------- seats and profiles
def test_the_seats_a_browser_holds_become_the_accounts(client: TestClient) -> None:
    mine = create(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    invited = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    claim = client.post(f"/api/games/{invited['game']}/claim", json={"invite": invited["seats"][1]["invite"]})
    other = create(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    seats = [
        {"game": mine["game"], "token": mine["seats"][0]["token"]},
        {"game": invited["game"], "token": claim.json()["token"]},
        {"game": other["game"], "token": mine["seats"][0]["token"]},  # a token of another game
        {"game": "0123456789abcdef", "token": "f" * 32},  # no such game
    ]
    r = sign_up(client, "Ann", seats=seats)
    assert r.status_code == 201, r.text
    assert r.json()["claimed"] == [{"game": mine["game"], "seat": 0}, {"game": invited["game"], "seat": 1}]
    assert r.json()["not_claimed"] == [other["game"], "0123456789abcdef"]
    holders = client.app.state.service.store.accounts.holders
    assert holders(mine["game"]) == {0: "Ann"} and holders(invited["game"]) == {1: "Ann"}
    assert holders(other["game"]) == {}
    again = sign_in(client, "Ann", seats=seats[:1]).json()  # brought again: still Ann's
    assert again["claimed"] == [{"game": mine["game"], "seat": 0}] and again["not_claimed"] == []


def test_a_players_profile(client: TestClient) -> None:
    assert sign_up(client, "Ann_42").status_code == 201
    joined = client.app.state.accounts.profile("Ann_42").joined
    for name in ("Ann_42", "ann_42"):
        r = client.get(f"/api/users/{name}")
        expected = {"name": "Ann_42", "joined": joined, "ratings": {}, "games": [], "page": 1, "more": False}
        expected |= {"daily": [], "streak": 0}  # no daily deal played yet
        assert (r.status_code, r.json()) == (200, expected)
    for name in ("Bob", "x", "deleted:0000"):
        r = client.get(f"/api/users/{name}")
        assert (r.status_code, r.json()) == (404, {"error": f"no player is named {name!r} here", "code": "no_player"})


def test_junk_is_refused_with_words_never_a_traceback(client: TestClient) -> None:
    csrf = sign_up(client).json()["csrf"]
    junk: list[Any] = [None, 0, 1.5, True, "x" * 2000, [], {}, ["Ann"], {"a": 1}, "é" * 200]
    for value in junk:
        for url, field, method in (
            ("/api/accounts", "name", "POST"),
            ("/api/accounts", "password", "POST"),
            ("/api/accounts", "seats", "POST"),
            ("/api/session", "name", "POST"),
            ("/api/session", "password", "POST"),
            ("/api/session", "seats", "POST"),
            ("/api/me/password", "new_password", "POST"),
            ("/api/me", "password", "DELETE"),
        ):
            body = {"name": "Bob", "password": "short", field: value}  # never a new account
            if url == "/api/session":
                body = {"name": "Bob", "password": "wrong password", field: value}
            elif url == "/api/me/password":
                body = {"password": "wrong password", field: value}
            elif url == "/api/me":
                body = {field: value}
            r = client.request(method, url, json=body, headers=writes(csrf))
            assert 400 <= r.status_code < 500, (url, field, value, r.text)
            assert set(r.json()) <= {"error", "code"} and r.json()["error"]
    for raw in (b"[", b"[]", b'"x"', b"{" * 40 + b"}" * 40):
        r = client.post("/api/session", content=raw, headers={"content-type": "application/json", **writes(csrf)})
        assert r.status_code == 400, r.text
    assert client.get("/api/users/" + "x" * 3000).status_code == 404


def test_sign_ups_spend_the_clients_rate(url: str) -> None:
    """With the rate limits on, each client has a bucket for sign-ups, sign-ins and password
    changes (``ACCOUNT_RATE``); a taken name costs no hash, so the bucket is what stops a flood."""
    with TestClient(create_app(database=url, passwords=Passwords(QUICK))) as c:
        assert sign_up(c, "Ann").status_code == 201
        c.cookies.clear()
        for _ in range(29):
            assert sign_up(c, "Ann").status_code == 409
        r = sign_up(c, "Ann")
        assert r.status_code == 429 and 0 < int(r.headers["retry-after"]) <= 10
        assert r.json()["error"].startswith("too many sign-ups, sign-ins and password changes: at most 30 at once")


# ---------------------------------------------------------------------- the page's words
def test_the_account_words_are_translated() -> None:
    """Every message of the account area exists in every language, and none is left in English."""
    english = {k: v for k, v in catalogue("en").items() if k.startswith("account.")}
    assert len(english) > 20
    for language in LANGUAGES:
        if language == "en":
            continue
        theirs = {k: v for k, v in catalogue(language).items() if k.startswith("account.")}
        assert theirs.keys() == english.keys(), language
        assert [k for k, v in theirs.items() if v == english[k]] == [], language


# ---------------------------------------------------------------------- several servers
def test_a_session_made_through_one_process_opens_the_other() -> None:
    database = postgres_url()
    first, second = Server(database), Server(database)
    try:
        made = httpx.post(f"{first.url}/api/accounts", json={"name": "Ann", "password": PASSWORD}, timeout=30)
        assert made.status_code == 201, made.text
        cookie = {COOKIE: made.cookies[COOKIE]}
        csrf = made.json()["csrf"]
        me = httpx.get(f"{second.url}/api/me", cookies=cookie, timeout=10)
        assert (me.status_code, me.json()) == (200, {"name": "Ann", "csrf": csrf, "ratings": {}})
        # a write through the second, from its own page, with the token the first answered
        deal = httpx.post(f"{second.url}/api/deals", cookies=cookie, headers=writes(csrf, second.url), timeout=10)
        assert deal.status_code == 201, deal.text
        # wrong passwords count in the database: five through each make ten
        for server in (first, second) * (FAILURE_LIMIT // 2):
            r = httpx.post(f"{server.url}/api/session", json={"name": "Ann", "password": "a wrong one"}, timeout=30)
            assert r.status_code == 401, r.text
        r = httpx.post(f"{first.url}/api/session", json={"name": "Ann", "password": PASSWORD}, timeout=30)
        assert r.status_code == 429
        out = httpx.request("DELETE", f"{second.url}/api/session", cookies=cookie, headers=writes(csrf, second.url))
        assert out.status_code == 200
        assert httpx.get(f"{first.url}/api/me", cookies=cookie, timeout=10).status_code == 401
    finally:
        first.stop()
        second.stop()
