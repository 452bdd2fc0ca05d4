"""Load on the lobby: many people with accounts, each with the lobby's socket open, seeking and
matching through real ``cassino serve`` processes, then playing the games they were seated at.

    python benchmarks/lobby_load.py                                   # 1,000 people, SQLite
    python benchmarks/lobby_load.py --people 200 --play-now 50
    python benchmarks/lobby_load.py --servers 2 --database postgresql://...   # two servers, one database

Every person signs up (an Argon2id hash each: the sign-ups are timed on their own) and opens the
lobby's socket, as the page does. Half of the people post a rated classic 2-player seek; the other
half each join one of them; ``--play-now`` more people, in pairs,
press Play now at once. Then every game made is played to its end by machine-gun clients (a random
legal move at once), as ``web_load.py`` plays: the lobby is measured on its own, then the games,
whose 1,100 sockets open in the same second. With ``--play-as-made`` each game is played from the
moment its seats are known instead, as people seated at a real lobby start at once: the games'
sockets then arrive at the pace of the matches, and the games and the lobby share the server.

Seeker-joiner pairs arrive ``--arrivals`` a second: the seeker posts, and the joiner joins once
the seek is listed. The figures: sign-ups a second; a seek's post (request to answer); how long after a seek's post an
observer's lobby socket lists it (``seen``); a join (request to the answer with the game); a Play
now pair's match (the second press to both seated); then the games' moves a second and the move
latency. With ``--servers N`` each person is on server ``i % N`` and a seek's joiner on another
than its creator, so every join and every ``seen`` crosses the database. The clients and the
servers share this machine's cores: the figures are a lower bound of what the servers alone do.

It needs only the ``web`` extra and the helpers of ``_web_client.py`` beside it. The servers it
starts get ``--no-rate-limits`` (every client comes from one address).
"""

from __future__ import annotations

import argparse
import asyncio
import http.cookiejar
import json
import os
import random
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any

import websockets
from _web_client import (
    BenchError,
    Servers,
    Tally,
    add_server_arguments,
    is_sqlite,
    latency_figures,
    run_loop,
    seat_client,
    start_servers,
)

AT_ONCE = 32
"""HTTP requests in flight at a time (threads), as many browsers would send them."""
PASSWORD = "lobby-load-password"


@dataclass
class Person:
    """One account: its cookies (its session), its page's CSRF token and the server it talks to."""

    name: str
    url: str
    jar: http.cookiejar.CookieJar = field(default_factory=http.cookiejar.CookieJar)
    csrf: str = ""

    def __post_init__(self) -> None:
        self.opener = urllib.request.build_opener(
            urllib.request.ProxyHandler({}), urllib.request.HTTPCookieProcessor(self.jar)
        )

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """One request as the page sends it (its origin, its CSRF token): the status and the JSON."""
        data = None if body is None else json.dumps(body).encode()
        headers = {"Origin": self.url, "X-CSRF-Token": self.csrf}
        if data is not None:
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(self.url + path, data=data, headers=headers, method=method)
        try:
            with self.opener.open(request, timeout=120) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as exc:
            text = exc.read().decode(errors="replace")
            raise BenchError(f"{self.name}: {method} {path}: {exc.code} {text.strip()[:300]}") from None
        except OSError as exc:
            raise BenchError(f"{self.name}: {method} {path}: {getattr(exc, 'reason', exc)}") from None

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)


@dataclass
class Seated:
    """A seat a person was given: its game, its seat and its token, on its server."""

    url: str
    game: str
    seat: int
    token: str


@dataclass
class Lobby:
    """What the lobby phase measured."""

    signups: float = 0.0
    posts: list[float] = field(default_factory=list)
    seen: list[float] = field(default_factory=list)
    joins: list[float] = field(default_factory=list)
    matches: list[float] = field(default_factory=list)
    seated: list[Seated] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    playing: list[asyncio.Task[None]] = field(default_factory=list)
    """The seat clients started as their games were made."""
    play_started: float = 0.0
    """When the first of them started (``time.perf_counter``)."""


async def in_thread(
    gate: asyncio.Semaphore, person: Person, method: str, path: str, body: Any = None
) -> tuple[int, Any]:
    async with gate:
        return await asyncio.to_thread(person.call, method, path, body)


def ws_of(url: str) -> str:
    return "ws" + url.removeprefix("http") + "/api/lobby/socket"


async def lobby_socket(person: Person, until: asyncio.Event, on_message: Any = None, watch_all: bool = False) -> None:
    """The lobby's socket of one person's page, open until ``until``; its ``ready`` messages (or,
    with ``watch_all``, every message) to ``on_message``. The others are received and dropped
    unread, so that a thousand clients in this one process do not parse every list."""
    headers = {"Cookie": person.cookie_header(), "Origin": person.url}
    async with websockets.connect(ws_of(person.url), additional_headers=headers, max_size=None) as ws:
        while not until.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 0.5)
            except TimeoutError:
                continue
            if on_message is not None and (watch_all or '"ready"' in raw[:20]):
                on_message(json.loads(raw))


async def lobby(
    urls: list[str], people: int, play_now: int, arrivals: float, seed: int, play: Tally | None, stall: float
) -> Lobby:
    """Sign everyone up, open their sockets, post and join the seeks and press Play now; with a
    ``play`` tally, each game made is played at once (its seat clients in ``Lobby.playing``)."""
    out = Lobby()
    rng = random.Random(seed)
    players = random.Random(seed + 1)

    def seated_at(place: Seated) -> None:
        out.seated.append(place)
        if play is not None:
            out.play_started = out.play_started or time.perf_counter()
            client = seat_client(
                place.url, place.game, place.token, place.seat, 0.0, random.Random(players.random()), play, stall
            )
            out.playing.append(asyncio.create_task(client))

    gate = asyncio.Semaphore(AT_ONCE)
    tag = f"{os.getpid() % 10000:04d}{rng.randrange(10000):04d}"
    crowd = [Person(f"p{tag}_{i}", urls[i % len(urls)]) for i in range(people + play_now)]

    async def sign_up(person: Person) -> None:
        _, me = await in_thread(gate, person, "POST", "/api/accounts", {"name": person.name, "password": PASSWORD})
        person.csrf = me["csrf"]

    start = time.perf_counter()
    await asyncio.gather(*(sign_up(p) for p in crowd))
    out.signups = len(crowd) / (time.perf_counter() - start)

    posted: dict[str, float] = {}  # seek id -> when its post was answered
    observer_seen: dict[str, float] = {}

    def observe(msg: dict[str, Any]) -> None:
        now = time.perf_counter()
        if msg.get("type") == "seeks":
            for seek in msg["seeks"]:
                observer_seen.setdefault(seek["id"], now)

    closing = asyncio.Event()
    observer = Person(f"o{tag}", urls[-1])
    _, me = await asyncio.to_thread(
        observer.call, "POST", "/api/accounts", {"name": observer.name, "password": PASSWORD}
    )
    observer.csrf = me["csrf"]
    ready: dict[str, dict[str, Any]] = {}  # by person: the "ready" its page was told (its game, seat, token)

    def told(person: Person) -> Any:
        return lambda msg: ready.setdefault(person.name, msg) if msg.get("type") == "ready" else None

    sockets = [asyncio.create_task(lobby_socket(p, closing, told(p))) for p in crowd]
    sockets.append(asyncio.create_task(lobby_socket(observer, closing, observe, watch_all=True)))
    await asyncio.sleep(1.0)  # every page open before the first seek

    seekers, joiners = crowd[: people // 2], crowd[people // 2 : people]

    async def pair(k: int) -> None:
        """Seeker k posts a rated seek; once the observer's page lists it (or after 2 s), joiner k
        joins it, and both learn their seats."""
        await asyncio.sleep(k / arrivals)  # people arrive at a steady rate, as at a real lobby
        seeker, joiner = seekers[k], joiners[k]
        before = time.perf_counter()
        _, seek = await in_thread(
            gate, seeker, "POST", "/api/seeks", {"preset": "classic", "players": 2, "rated": True}
        )
        now = time.perf_counter()
        out.posts.append(now - before)
        posted[seek["id"]] = now
        while seek["id"] not in observer_seen and time.perf_counter() < now + 2:
            await asyncio.sleep(0.01)
        before = time.perf_counter()
        status, joined = await in_thread(gate, joiner, "POST", f"/api/seeks/{seek['id']}/join")
        out.joins.append(time.perf_counter() - before)
        if status != 200 or not joined.get("game"):
            out.errors.append(f"{joiner.name} joined {seek['id']}: {status} {joined}")
            return
        seated_at(Seated(joiner.url, joined["game"], joined["seat"], joined["token"]))
        _, mine = await in_thread(gate, seeker, "GET", f"/api/seeks/{seek['id']}")
        seated_at(Seated(seeker.url, mine["game"], mine["seat"], mine["token"]))

    await asyncio.gather(*(pair(k) for k in range(len(seekers))))
    out.seen = [max(0.0, observer_seen[s] - posted[s]) for s in posted if s in observer_seen]
    out.errors += [f"seek {s} never reached the observer's socket" for s in posted if s not in observer_seen]

    pressers = crowd[people:]

    async def press(person: Person) -> tuple[Person, float, dict[str, Any]]:
        body = {"preset": "classic", "players": 2, "partnerships": False, "wait": 60}
        _, answer = await in_thread(gate, person, "POST", "/api/play-now", body)
        return person, time.perf_counter(), answer

    for a, b in zip(pressers[::2], pressers[1::2], strict=False):  # pair by pair, so each pair meets itself
        first, second = await asyncio.gather(press(a), press(b))
        pressed = min(first[1], second[1])
        deadline = time.perf_counter() + 10
        seats: list[tuple[Person, dict[str, Any]]] = []
        for person, _, answer in (first, second):  # seated at once, or told by the page's socket
            while not answer.get("game") and person.name not in ready and time.perf_counter() < deadline:
                await asyncio.sleep(0.01)
            seats.append((person, answer if answer.get("game") else ready.get(person.name, {})))
        out.matches.append(time.perf_counter() - pressed)
        for person, seat in seats:
            if seat.get("game") and seat.get("token"):
                seated_at(Seated(person.url, seat["game"], seat["seat"], seat["token"]))
            else:
                out.errors.append(f"{person.name}: Play now did not seat it within 10 s")
    closing.set()
    await asyncio.gather(*sockets, return_exceptions=True)
    return out


async def lobby_and_play(urls: list[str], args: argparse.Namespace) -> tuple[Lobby, Tally, float]:
    """The lobby with each game played from the moment it is made; the play's seconds run from
    the first game's start to the last game's end."""
    tally = Tally()
    done = await lobby(urls, args.people, args.play_now, args.arrivals, args.seed, tally, args.stall)
    await asyncio.gather(*done.playing)
    return done, tally, time.perf_counter() - done.play_started if done.playing else 0.0


async def play(seated: list[Seated], seed: int, stall: float) -> tuple[Tally, float]:
    """Every seat of every game made, played to its end by a machine-gun client."""
    tally = Tally()
    rng = random.Random(seed)
    start = time.perf_counter()
    await asyncio.gather(
        *(seat_client(s.url, s.game, s.token, s.seat, 0.0, random.Random(rng.random()), tally, stall) for s in seated)
    )
    return tally, time.perf_counter() - start


def figures_of(
    servers: Servers, args: argparse.Namespace, done: Lobby, tally: Tally | None, seconds: float
) -> dict[str, Any]:
    def ms(values: list[float]) -> dict[str, float]:
        if not values:
            return {}
        figures = latency_figures(values)
        return {
            "p50_ms": figures["latency_p50_ms"],
            "p99_ms": figures["latency_p99_ms"],
            "max_ms": figures["latency_max_ms"],
            "count": len(values),
        }

    out: dict[str, Any] = {
        "servers": len(servers.urls),
        "database": servers.database,
        "people": args.people,
        "play_now": args.play_now,
        "signups_per_s": round(done.signups, 1),
        "post": ms(done.posts),
        "seen": ms(done.seen),
        "join": ms(done.joins),
        "match": ms(done.matches),
        "games": len({s.game for s in done.seated}),
        "games_played": "from when each is made" if args.play_as_made else "after the lobby, all at once",
        "errors": len(done.errors),
        "cores": os.cpu_count(),
    }
    if tally is not None:
        out.update(
            moves=tally.moves,
            games_finished=tally.finished,
            play_seconds=round(seconds, 2),
            moves_per_s=round(tally.moves / seconds, 1) if seconds else 0.0,
            move=ms(tally.latencies),
            errors=len(done.errors) + len(tally.errors),
        )
    return out


def report(figures: dict[str, Any]) -> str:
    def line(name: str, key: str) -> str:
        f = figures.get(key) or {}
        if not f:
            return f"{name:<28} -"
        return f"{name:<28} p50 {f['p50_ms']:>7.1f} ms   p99 {f['p99_ms']:>7.1f} ms   max {f['max_ms']:>7.1f} ms   ({f['count']})"

    rows = [
        f"{figures['people']} people (+{figures['play_now']} pressing Play now) on {figures['servers']} server(s), "
        f"{figures['database']}, {figures['cores']} cores",
        f"{'sign-ups':<28} {figures['signups_per_s']} a second (Argon2id each)",
        line("a seek posted", "post"),
        line("seen on another's socket", "seen"),
        line("a join (to its game)", "join"),
        line("a Play now pair matched", "match"),
        f"{'games made':<28} {figures['games']}, played {figures['games_played']}",
    ]
    if "moves_per_s" in figures:
        rows.append(
            f"{'play':<28} {figures['moves']} moves in {figures['play_seconds']} s: {figures['moves_per_s']} moves/s, "
            f"{figures['games_finished']} games finished"
        )
        rows.append(line("a move (to its state)", "move"))
    rows.append(f"{'errors':<28} {figures['errors']}")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", type=int, default=1000, help="people seeking and joining (default 1000)")
    parser.add_argument(
        "--play-now", type=int, default=100, help="more people pressing Play now, in pairs (default 100)"
    )
    parser.add_argument(
        "--arrivals", type=float, default=50.0, help="seeker-joiner pairs arriving a second (default 50)"
    )
    parser.add_argument("--no-play", action="store_true", help="stop after the lobby: do not play the games made")
    parser.add_argument(
        "--play-as-made",
        action="store_true",
        help="play each game from the moment it is made, while the lobby goes on (default: after the lobby)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--servers", type=int, default=1, help="servers to start on one database (more need PostgreSQL)"
    )
    parser.add_argument("--database", help="database URL for the servers (default: a temporary SQLite file)")
    parser.add_argument("--port", type=int, default=8865, help="port of the first server (the next: +1, ...)")
    add_server_arguments(parser)
    args = parser.parse_args()
    if args.people < 2 or args.people % 2 or args.play_now < 0 or args.play_now % 2:
        parser.error("--people must be an even number of 2 or more, and --play-now an even number")
    if args.servers > 1 and is_sqlite(args.database):
        parser.error(f"--servers {args.servers} needs PostgreSQL (--database postgresql://...)")
    try:
        servers = start_servers(args.servers, args.database, args.port, 0.0, args.bot_workers)
    except BenchError as exc:
        sys.exit(f"lobby_load: {exc}")
    with servers:
        try:
            tally: Tally | None
            if args.play_as_made and not args.no_play:
                done, tally, seconds = run_loop(lobby_and_play(servers.urls, args))
            else:
                done = run_loop(
                    lobby(servers.urls, args.people, args.play_now, args.arrivals, args.seed, None, args.stall)
                )
                tally, seconds = (None, 0.0) if args.no_play else run_loop(play(done.seated, args.seed, args.stall))
        except BenchError as exc:
            sys.exit(f"lobby_load: {exc}\n{servers.log_tail(0)}")
        figures = figures_of(servers, args, done, tally, seconds)
        problems = done.errors + (tally.errors if tally else [])
    for problem in problems[:10]:
        print(f"lobby_load: {problem}", file=sys.stderr)
    if args.json == "-":
        print(json.dumps(figures))
        return
    print(report(figures))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(figures, out, indent=2)


if __name__ == "__main__":
    main()
