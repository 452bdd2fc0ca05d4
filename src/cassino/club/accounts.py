"""Accounts: a name and a password that keep a person's seats (and, to come, ratings) across
browsers. They are optional: anyone plays without one, as before.

- **Names**: 3 to 20 ASCII letters, digits, ``_`` or ``-``, unique whatever their case
  (``name_key``), so that no two players look alike.
- **Passwords**: at least 8 characters and at most 128 bytes (UTF-8), kept only as Argon2id
  hashes (argon2-cffi's ``PasswordHasher`` with its defaults). Hashing takes a lot of memory and
  CPU on purpose, so it runs in a small pool of threads of its own (``Passwords``): the event loop
  never waits for it, and a flood of sign-ins cannot make many hashes at once. A hash made under
  older parameters is made again at the next sign-in.
- **Sessions**: a random token (``secrets``) that only the browser holds; the store keeps its
  SHA-256 with its account and expiry, so that the database opens no session.
- **Guessing**: each sign-in counts against the address it came from and the name it gives, in
  the store (so every server process sees the same counts), and a right password takes its count
  back; past ``FAILURE_LIMIT`` wrong ones within ``FAILURE_WINDOW`` seconds, either is refused
  until the window ends. A name no account has is checked against a dummy hash, so it costs as
  long as a wrong password and gets the same answer: nobody learns which names exist by guessing.
- **Seats**: at sign-up and sign-in the seats a browser holds (a game and its seat token) become
  the account's, each token checked; a seat another account holds stays that account's.
- **Deleting** an account forgets its name and password hash and ends its sessions; the seats it
  held stay linked to it under an anonymous name, so its games keep their players.

Nothing here speaks HTTP or SQL: the storage is ``AccountRecords``, which a front end implements
over its database (``cassino.web.account_store``).
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import re
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Final, Protocol, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from .errors import (
    AccountInputError,
    NameTakenError,
    NoSuchPlayerError,
    NotSignedInError,
    SignInError,
    TooManyAttemptsError,
)

MIN_NAME: Final = 3
MAX_NAME: Final = 20
NAME_RULE: Final = re.compile(r"[A-Za-z0-9_-]+")
"""The characters of a name: ASCII letters, digits, ``_`` and ``-`` (no look-alike letters)."""
MIN_PASSWORD: Final = 8
"""The shortest password, in characters."""
MAX_PASSWORD_BYTES: Final = 128
"""The longest password, in UTF-8 bytes: longer adds no strength and costs the hash time."""
MAX_TYPED_NAME: Final = 64
"""The longest name a sign-in may give (longer is refused unread: no account has one)."""
SESSION_SECONDS: Final = 30 * 24 * 3600
"""How long a session lasts: 30 days, then the person signs in again."""
FAILURE_LIMIT: Final = 10
"""Wrong passwords allowed per address and per name within ``FAILURE_WINDOW``."""
FAILURE_WINDOW: Final = 15 * 60
"""Seconds from an address's or name's first wrong password in which its failures are counted."""
MAX_SEAT_CLAIMS: Final = 100
"""The most seats one sign-in may bring (the page sends the ones it used last)."""
MAX_TOKEN_CHARS: Final = 128
"""The longest game id, seat token or session token read at all (real ones have 16 to 43)."""
HASH_WORKERS: Final = 2
"""Hashes made at once: each takes 64 MiB and several cores for most of a second."""
ANONYMOUS: Final = "deleted:"
"""The start of a deleted account's name: ``:`` is no letter of a name, so none can take it."""

T = TypeVar("T")


def name_key(name: str) -> str:
    """What makes names the same: their lower case (``Ann`` and ``ann`` are one name)."""
    return name.lower()


def secret_digest(secret: str) -> str:
    """What is stored of a session token: its SHA-256, so the database opens no session."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def check_name(value: Any) -> str:
    """A new account's name, or ``AccountInputError`` (code ``bad_name``) saying what is wrong."""
    rule = f"{MIN_NAME} to {MAX_NAME} letters, digits, _ or -"
    if not isinstance(value, str):
        raise AccountInputError(f"name must be text: {rule}", "bad_name")
    if not MIN_NAME <= len(value) <= MAX_NAME:
        raise AccountInputError(f"name must be {rule}; this one has {len(value)} characters", "bad_name")
    if not NAME_RULE.fullmatch(value):
        wrong = next(c for c in value if not NAME_RULE.fullmatch(c))
        raise AccountInputError(f"name must be {rule}; {wrong!r} is none of them", "bad_name")
    return value


def given_password(value: Any, field: str = "password") -> str:
    """A password as typed to be checked: text of at most ``MAX_PASSWORD_BYTES`` (its length
    otherwise is the account's business). The message never quotes it."""
    if not isinstance(value, str):
        raise AccountInputError(f"{field} must be text", "bad_password")
    if len(value.encode("utf-8")) > MAX_PASSWORD_BYTES:
        raise AccountInputError(f"{field} may be at most {MAX_PASSWORD_BYTES} bytes long (in UTF-8)", "long_password")
    return value


def check_password(value: Any, field: str = "password") -> str:
    """A new password: ``MIN_PASSWORD`` characters to ``MAX_PASSWORD_BYTES`` bytes."""
    password = given_password(value, field)
    if len(password) < MIN_PASSWORD:
        raise AccountInputError(f"{field} must be at least {MIN_PASSWORD} characters long", "short_password")
    return password


def seat_claims(value: Any) -> list[tuple[str, str]]:
    """The seats a sign-in brings: ``[{"game": ID, "token": TOKEN}, ...]`` (none when absent), each
    once. Whether a token opens its seat is checked later; here only the shape."""
    if value is None:
        return []
    shape = '{"game": ID, "token": TOKEN}'
    if not isinstance(value, list):
        raise AccountInputError(f"seats must be a list of the seats this browser holds, each {shape}", "bad_seats")
    if len(value) > MAX_SEAT_CLAIMS:
        raise AccountInputError(f"seats may list at most {MAX_SEAT_CLAIMS} seats, not {len(value)}", "bad_seats")
    out: dict[tuple[str, str], None] = {}
    for i, item in enumerate(value):
        if (
            not isinstance(item, dict)
            or set(item) != {"game", "token"}
            or not all(isinstance(item[k], str) and 0 < len(item[k]) <= MAX_TOKEN_CHARS for k in ("game", "token"))
        ):
            raise AccountInputError(f"seats[{i}] must be {shape}: a game id and its seat token", "bad_seats")
        out[(item["game"], item["token"])] = None
    return list(out)


@dataclass(frozen=True, slots=True)
class AccountRow:
    """An account as stored: its id (never shown), name, password hash and when it was made."""

    id: str
    name: str
    password_hash: str
    joined: float


@dataclass(frozen=True, slots=True)
class Session:
    """A session just opened: its account, the token for the browser (stored only as a digest),
    when it ends, and the seats it brought: those now the account's (game, seat) and the games
    whose token opened no seat, or a seat another account holds."""

    account: AccountRow
    token: str
    expires: float
    claimed: tuple[tuple[str, int], ...] = ()
    not_claimed: tuple[str, ...] = ()


class AccountRecords(Protocol):
    """What accounts need of storage; every method is one transaction."""

    def add_account(self, row: AccountRow, key: str) -> bool:
        """Store a new account under its name's ``key``; False (nothing stored) when it is taken."""
        ...

    def account_named(self, key: str) -> AccountRow | None:
        """The account (not deleted) whose name has this ``key``."""
        ...

    def set_password(self, account_id: str, password_hash: str) -> None:
        """Replace an account's password hash."""
        ...

    def erase_account(self, account_id: str, anonymous: str, now: float) -> None:
        """Forget an account's name and password hash (it is named ``anonymous`` from now) and
        end its sessions; the seats it held stay linked to it."""
        ...

    def add_session(self, digest: str, account_id: str, now: float, expires: float) -> None:
        """Store a session's token digest for an account, until ``expires`` (and forget expired ones)."""
        ...

    def session_account(self, digest: str, now: float) -> AccountRow | None:
        """The account of an unexpired session, by its token's digest."""
        ...

    def end_session(self, digest: str) -> None:
        """Forget one session."""
        ...

    def end_sessions(self, account_id: str, keep: str | None) -> None:
        """Forget every session of an account but the one whose digest is ``keep``."""
        ...

    def count_failure(self, key: str, now: float, window: float) -> tuple[int, float]:
        """Count one more attempt against ``key`` (counts older than ``window`` seconds start
        again) and return the count and when its window began; atomic, so that attempts made at
        once through several processes are all counted."""
        ...

    def forgive_failure(self, key: str) -> None:
        """Take back one count of ``key`` (the attempt was right, or was never checked)."""
        ...

    def seat_opened_by(self, game_id: str, token: str) -> int | None:
        """The person's seat of a game that a seat token opens, if any."""
        ...

    def hold_seat(self, account_id: str, game_id: str, seat: int, now: float) -> bool:
        """Record the account as the seat's holder; False when another account holds it."""
        ...


class Passwords:
    """Argon2id hashes, made and checked in ``workers`` threads of their own and never on the
    event loop: argon2-cffi releases the interpreter lock while it hashes, so no table waits."""

    def __init__(self, hasher: PasswordHasher | None = None, workers: int = HASH_WORKERS) -> None:
        """``hasher``: argon2-cffi's ``PasswordHasher`` (its defaults, RFC 9106's second profile:
        64 MiB, 3 passes, 4 lanes, unless another is given)."""
        self.hasher = hasher or PasswordHasher()
        self.workers = workers
        self.pool: ThreadPoolExecutor | None = None
        """The threads, started at the first hash (and again after ``close``)."""
        self._dummy: str | None = None

    async def _run(self, work: Callable[..., T], *args: Any) -> T:
        if self.pool is None:
            self.pool = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="cassino-passwords")
        return await asyncio.get_running_loop().run_in_executor(self.pool, work, *args)

    async def hash(self, password: str) -> str:
        """A new hash of a password (``$argon2id$...``, salted)."""
        return await self._run(self.hasher.hash, password)

    async def check(self, stored: str | None, password: str) -> tuple[bool, str | None]:
        """Whether a password matches a stored hash, and a new hash when the stored one was made
        under other parameters. Without a stored hash (no such account, or a deleted one) a
        dummy hash is checked, so the answer takes as long and is False."""
        return await self._run(self._check, stored, password)

    def _check(self, stored: str | None, password: str) -> tuple[bool, str | None]:
        dummy = self._dummy_hash()  # made at the first check of any kind: no first unknown name is slower
        try:
            self.hasher.verify(stored or dummy, password)
        except (VerificationError, InvalidHashError):
            return False, None
        if not stored:
            return False, None
        return True, self.hasher.hash(password) if self.hasher.check_needs_rehash(stored) else None

    def _dummy_hash(self) -> str:
        """A hash of a random password under the current parameters, made once (making it twice
        at once does no harm)."""
        if self._dummy is None:
            self._dummy = self.hasher.hash(secrets.token_hex(16))
        return self._dummy

    def close(self) -> None:
        """Stop the threads (hashes still waiting are dropped); a later hash starts them again."""
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None


WRONG_SIGN_IN: Final = "wrong name or password"
"""The one answer to a sign-in with a name no account has or a wrong password."""


class Accounts:
    """Signing up, in and out, changing a password, deleting an account, and reading a profile,
    over ``AccountRecords``. Each refusal is an ``AccountError`` with a code."""

    def __init__(
        self,
        records: AccountRecords,
        passwords: Passwords | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.records = records
        self.passwords = passwords or Passwords()
        self.clock = clock

    # ------------------------------------------------------------------ signing up and in
    async def sign_up(self, name: Any, password: Any, seats: Any = None) -> Session:
        """A new account, signed in, with the seats it brings; ``NameTakenError`` when another
        account has the name in any case."""
        name = check_name(name)
        password = check_password(password)
        claims = seat_claims(seats)
        key = name_key(name)
        taken = NameTakenError(f"the name {name!r} is taken: choose another", "name_taken")
        if self.records.account_named(key) is not None:  # before hashing: a taken name costs no hash
            raise taken
        row = AccountRow(secrets.token_hex(8), name, await self.passwords.hash(password), self.clock())
        if not self.records.add_account(row, key):  # taken meanwhile, or by a deleted account's key
            raise taken
        return self._open(row, claims)

    async def sign_in(self, name: Any, password: Any, seats: Any = None, address: str = "") -> Session:
        """A new session for the account with this name and password, with the seats it brings.
        A name no account has and a wrong password get the same ``SignInError`` after the same
        work; ``TooManyAttemptsError`` once the address or the name has had too many."""
        if not isinstance(name, str) or not name or len(name) > MAX_TYPED_NAME:
            raise AccountInputError(f"name must be the account's name (at most {MAX_NAME} characters)", "bad_name")
        password = given_password(password)
        claims = seat_claims(seats)
        keys = self._guard_keys(name, address)
        self._attempt(keys)
        account = self.records.account_named(name_key(name))
        right, rehashed = await self.passwords.check(account.password_hash if account else None, password)
        if not right or account is None:
            raise SignInError(WRONG_SIGN_IN, "wrong_password")
        self._forgive(keys)
        if rehashed is not None:
            self.records.set_password(account.id, rehashed)
        return self._open(account, claims)

    def _open(self, account: AccountRow, claims: list[tuple[str, str]]) -> Session:
        now = self.clock()
        token = secrets.token_urlsafe(32)
        expires = now + SESSION_SECONDS
        self.records.add_session(secret_digest(token), account.id, now, expires)
        claimed: list[tuple[str, int]] = []
        not_claimed: list[str] = []
        for game, seat_token in claims:
            seat = self.records.seat_opened_by(game, seat_token)
            if seat is not None and self.records.hold_seat(account.id, game, seat, now):
                claimed.append((game, seat))
            else:
                not_claimed.append(game)
        return Session(account, token, expires, tuple(claimed), tuple(not_claimed))

    # ------------------------------------------------------------------ the guard against guessing
    @staticmethod
    def _guard_keys(name: str, address: str) -> list[str]:
        """What a password attempt counts against: the name it gives and the address it came from."""
        return [f"name:{name_key(name)}", *([f"address:{address}"] if address else [])]

    def _attempt(self, keys: list[str]) -> None:
        """Count an attempt against each key before its password is checked (so attempts made at
        once are all counted); refused, with nothing counted, when a key is past the limit."""
        now = self.clock()
        counted = [self.records.count_failure(key, now, FAILURE_WINDOW) for key in keys]
        waits = [since + FAILURE_WINDOW - now for count, since in counted if count > FAILURE_LIMIT]
        if waits:
            self._forgive(keys)
            wait = max(1, math.ceil(max(waits)))
            raise TooManyAttemptsError(
                f"too many wrong passwords for this name or from this address "
                f"(at most {FAILURE_LIMIT} in {FAILURE_WINDOW // 60} minutes): try again in {wait} s",
                "too_many",
                wait,
            )

    def _forgive(self, keys: list[str]) -> None:
        for key in keys:
            self.records.forgive_failure(key)

    async def _check_own(self, account: AccountRow, password: Any, address: str) -> None:
        """The account's own password, asked again before a change that cannot be undone; wrong
        ones count against the name and the address, as at sign-in."""
        password = given_password(password)
        keys = self._guard_keys(account.name, address)
        self._attempt(keys)
        right, _ = await self.passwords.check(account.password_hash, password)
        if not right:
            raise SignInError("the password is wrong", "wrong_password")
        self._forgive(keys)

    # ------------------------------------------------------------------ sessions
    def session(self, token: str | None) -> AccountRow | None:
        """The account a session token opens now, if any."""
        if not token or len(token) > MAX_TOKEN_CHARS:
            return None
        return self.records.session_account(secret_digest(token), self.clock())

    def require(self, token: str | None) -> AccountRow:
        """The signed-in account, or ``NotSignedInError``."""
        account = self.session(token)
        if account is None:
            raise NotSignedInError("you are not signed in (or your session has ended): sign in first", "not_signed_in")
        return account

    def sign_out(self, token: str | None) -> None:
        """End a session (nothing to do without one)."""
        if token and len(token) <= MAX_TOKEN_CHARS:
            self.records.end_session(secret_digest(token))

    # ------------------------------------------------------------------ the account itself
    async def change_password(self, token: str | None, password: Any, new_password: Any, address: str = "") -> None:
        """A new password for the signed-in account, after its current one; every other session of
        the account ends (whoever knew the old password is signed out)."""
        account = self.require(token)
        new = check_password(new_password, "new_password")
        await self._check_own(account, password, address)
        self.records.set_password(account.id, await self.passwords.hash(new))
        self.records.end_sessions(account.id, keep=secret_digest(token or ""))

    async def delete(self, token: str | None, password: Any, address: str = "") -> str:
        """Delete the signed-in account after its password: its name and hash are forgotten and its
        sessions end; its games keep it under the anonymous name returned."""
        account = self.require(token)
        await self._check_own(account, password, address)
        anonymous = ANONYMOUS + secrets.token_hex(4)
        self.records.erase_account(account.id, anonymous, self.clock())
        return anonymous

    def profile(self, name: str) -> AccountRow:
        """The account with this name (in any case), or ``NoSuchPlayerError``."""
        account = None
        if MIN_NAME <= len(name) <= MAX_NAME and NAME_RULE.fullmatch(name):
            account = self.records.account_named(name_key(name))
        if account is None:
            raise NoSuchPlayerError(f"no player is named {name[:MAX_TYPED_NAME]!r} here", "no_player")
        return account
