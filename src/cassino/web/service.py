"""Games at the server: seats and tokens, moves checked by the engine, committed, then broadcast.

Every change runs on the event loop thread and is committed to the store before anyone hears of
it, so what a client saw is always on disk. Computer players move server-side in one background
task per game, through ``decide`` (they see their seat's view only); after a restart the service
replays every unfinished game from the store and lets the computer players on move carry on.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card
from ..errors import IllegalMoveError
from ..game import Game
from ..moves import MoveCode, MoveError, format_code, parse_code
from ..players import Player, make_player
from ..players.base import decide
from ..record import record_of_game, write_record
from ..rules import Rules, RulesError, make_rules
from ..view import view_of
from .fair import commitment, deck_text, new_salt, parse_deck, secure_deck
from .store import HandRow, MoveRow, SeatRow, Store, StoredGame, StoreError

log = logging.getLogger("cassino.web")

FAST_BOTS = ("random", "greedy")
"""Computer players quick enough to move on the event loop; others think in a worker thread."""

MAX_NAME = 40


class ServiceError(Exception):
    """A request the service refuses: an HTTP status and a message naming what was wrong."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class ServerGame(Game):
    """A game whose new decks come from the system's random source, never from a seed."""

    def _next_deck(self) -> list[Card]:
        return self._upcoming.pop() if self._upcoming else secure_deck()


def token_hash(token: str) -> str:
    """What is stored for a seat token: its SHA-256, so the database cannot open a seat."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class Seat:
    """A seat at a live game: a person's or a computer player's."""

    seat: int
    kind: str
    name: str
    bot: str = ""
    token_hash: str = ""
    player: Player | None = None


@dataclass
class Subscriber:
    """A connected client: its seat (None for a spectator) and the queue its socket writer drains."""

    seat: int | None
    queue: asyncio.Queue[str] = field(default_factory=asyncio.Queue)
    """JSON texts to send, in order."""


@dataclass
class LiveGame:
    """A game in memory: the engine's game rebuilt from the store, its seats and its watchers."""

    id: str
    rules: Rules
    game: ServerGame
    seats: list[Seat]
    hands: list[HandRow]
    ply: int
    created: float = 0.0
    subscribers: list[Subscriber] = field(default_factory=list)
    bot_task: asyncio.Task[None] | None = None
    hint_player: Player | None = None
    cache: dict[str, Any] = field(default_factory=dict)
    """Parts of the public payload that change only between hands, by ``payloads``."""

    @property
    def over(self) -> bool:
        """True when a side has won."""
        return self.game.over

    @property
    def hand_number(self) -> int:
        """The number of the hand in play (or the last one), from 1."""
        return len(self.game.hands)

    def revealed(self, number: int) -> bool:
        """True when hand ``number`` is over, so its deck and salt may be shown to anyone."""
        return 1 <= number <= len(self.hands) and (number < self.hand_number or self.over)


def _check_name(value: Any, seat: int, default: str) -> str:
    if value is None or value == "":
        return default
    if not isinstance(value, str) or len(value) > MAX_NAME or not value.isprintable():
        raise ServiceError(400, f"seats[{seat}].name must be printable text of at most {MAX_NAME} characters")
    return value.strip() or default


_CREATE_FIELDS = ("preset", "players", "partnerships", "options", "seats")
_SEAT_FIELDS = ("kind", "name", "bot")


def _known_fields(body: dict[str, Any], allowed: tuple[str, ...], what: str) -> None:
    """Refuse a field the request does not define: a misspelt one would otherwise be ignored."""
    unknown = sorted(k for k in body if k not in allowed)
    if unknown:
        raise ServiceError(400, f"unknown field {unknown[0]!r} for {what}; the fields are: {', '.join(allowed)}")


def rules_of_request(body: dict[str, Any]) -> Rules:
    """The rule set a create request asks for (preset, players, partnerships, options)."""
    _known_fields(body, _CREATE_FIELDS, "a new game")
    options = body.get("options") or {}
    if not isinstance(options, dict):
        raise ServiceError(400, 'options must be an object of rule options, e.g. {"target": 11}')
    for key in ("preset", "players", "partnerships"):
        if key in options:
            raise ServiceError(400, f"{key} is not a rule option: give it at the top level of the request")
    preset = body.get("preset", "classic")
    if not isinstance(preset, str):
        raise ServiceError(400, "preset must be a name such as 'classic'")
    try:
        return make_rules(
            preset, players=body.get("players", 2), partnerships=body.get("partnerships", False), **options
        )
    except RulesError as exc:
        raise ServiceError(400, str(exc)) from None


def bot_player(spec: str, seed: int) -> Player:
    """A computer player for a seat; refuses unknown players and any that would see hidden cards."""
    try:
        player = make_player(spec, seed)
    except ValueError as exc:
        raise ServiceError(400, str(exc)) from None
    if getattr(player, "sees_all", False):
        raise ServiceError(400, f"computer player {spec!r} sees every card, so it may not sit at a table")
    return player


class GameService:
    """Creates, loads, plays and broadcasts games over a ``Store``."""

    def __init__(self, store: Store, bot_delay: float = 0.5, hint_player: str = "heuristic") -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.hint_spec = hint_player
        self.games: dict[str, LiveGame] = {}
        self.on_change: Callable[[LiveGame], None] | None = None
        """Called after each committed move (tests use it to watch the game move)."""

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> int:
        """Load every unfinished game and let its computer players resume; returns how many."""
        ids = self.store.unfinished()
        for game_id in ids:
            try:
                live = self._load(game_id)
            except Exception:
                log.exception("game %s could not be resumed", game_id)
                continue
            self._schedule_bots(live)
        return len(ids)

    async def stop(self) -> None:
        """Stop the computer players' tasks (their next move is simply made after a restart)."""
        tasks = [g.bot_task for g in self.games.values() if g.bot_task is not None and not g.bot_task.done()]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)

    # ------------------------------------------------------------------ creating and loading
    def create(self, body: dict[str, Any]) -> tuple[LiveGame, dict[int, str]]:
        """A new game from a create request; returns it with the token of each person's seat."""
        rules = rules_of_request(body)
        seats_in = body.get("seats")
        if seats_in is None:
            seats_in = [{"kind": "human"}] + [{"kind": "bot", "bot": "heuristic"}] * (rules.players - 1)
        if not isinstance(seats_in, list) or len(seats_in) != rules.players:
            raise ServiceError(400, f"seats must list one seat per player: {rules.players} for these rules")
        seats: list[Seat] = []
        rows: list[SeatRow] = []
        tokens: dict[int, str] = {}
        for i, spec in enumerate(seats_in):
            if not isinstance(spec, dict):
                raise ServiceError(400, f'seats[{i}] must be an object like {{"kind": "human"}}')
            _known_fields(spec, _SEAT_FIELDS, f"seats[{i}]")
            kind = spec.get("kind", "human")
            if kind == "human":
                token = secrets.token_hex(16)
                tokens[i] = token
                name = _check_name(spec.get("name"), i, f"Seat {i}")
                seats.append(Seat(i, "human", name, token_hash=token_hash(token)))
                rows.append(SeatRow(i, "human", name, token_hash=token_hash(token)))
            elif kind == "bot":
                bot = spec.get("bot", "heuristic")
                if not isinstance(bot, str) or not bot or len(bot) > 128:
                    raise ServiceError(400, f"seats[{i}].bot must name a computer player, e.g. 'greedy'")
                seed = secrets.randbelow(2**31)
                player = bot_player(bot, seed)
                name = _check_name(spec.get("name"), i, f"{bot} ({i})")
                seats.append(Seat(i, "bot", name, bot=bot, player=player))
                rows.append(SeatRow(i, "bot", name, bot=bot, bot_seed=seed))
            else:
                raise ServiceError(400, f"seats[{i}].kind must be 'human' or 'bot', not {kind!r}")
        game_id = secrets.token_hex(8)
        deck = secure_deck()
        salt = new_salt()
        first = HandRow(1, deck_text(deck), salt, commitment(salt, deck))
        self.store.create_game(game_id, rules.to_json(), rows, first)
        live = LiveGame(game_id, rules, ServerGame(rules, decks=[deck]), seats, [first], 0, time.time())
        self.games[game_id] = live
        self._schedule_bots(live)
        return live, tokens

    def get(self, game_id: str) -> LiveGame:
        """The live game, loaded from the store if need be; 404 when there is none."""
        live = self.games.get(game_id)
        if live is None:
            live = self._load(game_id)
            self._schedule_bots(live)
        return live

    def _load(self, game_id: str) -> LiveGame:
        stored = self.store.load_game(game_id) if len(game_id) <= 32 else None
        if stored is None:
            raise ServiceError(404, f"no game {game_id!r} here")
        live = self._rebuild(stored)
        self.games[game_id] = live
        return live

    def _rebuild(self, stored: StoredGame) -> LiveGame:
        """Replay the stored moves through the engine on the stored decks."""
        rules = Rules.from_json(stored.rules)
        game = ServerGame(rules, decks=[parse_deck(h.deck) for h in stored.hands])
        for row in stored.moves:
            if game.state.to_move != row.seat:
                raise RuntimeError(f"game {stored.id}: stored move {row.ply} is by seat {row.seat}, out of turn")
            game.play(parse_code(row.move))
        seats = []
        for s in stored.seats:
            player = bot_player(s.bot, s.bot_seed) if s.kind == "bot" else None
            seats.append(Seat(s.seat, s.kind, s.name, s.bot, s.token_hash, player))
        return LiveGame(stored.id, rules, game, seats, list(stored.hands), len(stored.moves), stored.created)

    # ------------------------------------------------------------------ who is asking
    def seat_of(self, live: LiveGame, token: str | None) -> int | None:
        """The seat a token opens (None without a token: a spectator); 403 for a wrong token."""
        if not token:
            return None
        digest = token_hash(token)
        for seat in live.seats:
            if seat.kind == "human" and hmac.compare_digest(seat.token_hash, digest):
                return seat.seat
        raise ServiceError(403, f"this token opens no seat of game {live.id}")

    # ------------------------------------------------------------------ playing
    def play(self, game_id: str, token: str | None, text: Any, version: Any = None) -> LiveGame:
        """A person's move: checked by the engine, committed, broadcast. Errors change nothing."""
        live = self.get(game_id)
        seat = self.seat_of(live, token)
        if seat is None:
            raise ServiceError(403, "moves need a seat token: spectators only watch")
        if not isinstance(text, str):
            raise ServiceError(400, "move must be a move line such as 'capture 8c 8: 8d'")
        if version is not None and version != live.ply:
            raise ServiceError(409, f"the game has moved on: it is at version {live.ply}, your move was for {version}")
        if live.over:
            raise ServiceError(409, "the game is over: no move is left to play")
        to_move = live.game.state.to_move
        if to_move != seat:
            raise ServiceError(409, f"it is seat {to_move}'s turn, not seat {seat}'s")
        try:
            code = parse_code(text)
        except MoveError as exc:
            raise ServiceError(400, str(exc)) from None
        self._apply(live, seat, code)
        return live

    def _apply(self, live: LiveGame, seat: int, code: MoveCode) -> None:
        """Play, commit (rolling back the game if the store refuses), then broadcast."""
        game = live.game
        hand = len(game.hands)
        try:
            game.play(code)
        except IllegalMoveError as exc:
            raise ServiceError(400, str(exc)) from None
        new_hand = None
        if len(game.hands) > hand:
            deck = game.decks[-1]
            salt = new_salt()
            new_hand = HandRow(len(game.hands), deck_text(deck), salt, commitment(salt, deck))
        row = MoveRow(live.ply, hand, seat, format_code(code))
        try:
            self.store.add_move(live.id, row, new_hand, "over" if game.over else "playing", game.winner)
        except StoreError as exc:
            game.undo()
            log.error("%s", exc)
            self.games.pop(live.id, None)  # reload from the store on the next request
            raise ServiceError(503, "the move could not be saved, so it was not made: try again") from None
        live.ply += 1
        if new_hand is not None:
            live.hands.append(new_hand)
        self.broadcast(live)
        if self.on_change is not None:
            self.on_change(live)
        self._schedule_bots(live)

    def hint(self, game_id: str, token: str | None) -> str:
        """A suggested move for the seat of ``token``, from its own view only."""
        live = self.get(game_id)
        seat = self.seat_of(live, token)
        if seat is None:
            raise ServiceError(403, "hints need a seat token")
        state = live.game.state
        if live.over or state.to_move != seat:
            raise ServiceError(409, "a hint is given only to the seat to move")
        if live.hint_player is None:
            live.hint_player = make_player(self.hint_spec, secrets.randbelow(2**31))
        return format_code(live.hint_player.choose(view_of(state, seat)))

    # ------------------------------------------------------------------ computer players
    def _bot_to_move(self, live: LiveGame) -> bool:
        return not live.over and live.seats[live.game.state.to_move].kind == "bot"

    def _schedule_bots(self, live: LiveGame) -> None:
        if not self._bot_to_move(live) or (live.bot_task is not None and not live.bot_task.done()):
            return
        try:
            live.bot_task = asyncio.get_running_loop().create_task(self._run_bots(live))
        except RuntimeError:
            live.bot_task = None  # no loop (a synchronous caller): started on the next request

    async def _run_bots(self, live: LiveGame) -> None:
        while self._bot_to_move(live) and self.games.get(live.id) is live:
            await asyncio.sleep(self.bot_delay)
            if not self._bot_to_move(live):
                return
            ply = live.ply
            seat = live.seats[live.game.state.to_move]
            assert seat.player is not None
            try:
                if seat.bot.split(":", 1)[0] in FAST_BOTS:
                    code = decide(seat.player, live.game.state)
                else:
                    code = await asyncio.to_thread(decide, seat.player, live.game.state.copy())
            except Exception:
                log.exception("game %s: computer player in seat %d failed", live.id, seat.seat)
                return
            if live.ply != ply or self.games.get(live.id) is not live:
                continue
            try:
                self._apply(live, seat.seat, code)
            except ServiceError as exc:
                log.error("game %s: computer player in seat %d: %s", live.id, seat.seat, exc.message)
                return

    # ------------------------------------------------------------------ watchers
    def subscribe(self, live: LiveGame, seat: int | None) -> Subscriber:
        """A new watcher, sent the current state at once."""
        from .payloads import encode, state_payload

        sub = Subscriber(seat)
        live.subscribers.append(sub)
        sub.queue.put_nowait(encode(state_payload(live, seat)))
        return sub

    def unsubscribe(self, live: LiveGame, sub: Subscriber) -> None:
        """Forget a watcher."""
        if sub in live.subscribers:
            live.subscribers.remove(sub)
        if live.over and not live.subscribers and self.games.get(live.id) is live:
            del self.games[live.id]  # a finished game is reloaded from the store if asked for again

    def broadcast(self, live: LiveGame) -> None:
        """Queue each watcher its own seat's state (the public part built once, each seat's text once)."""
        from .payloads import encode, public_payload, state_payload

        if not live.subscribers:
            return
        public = public_payload(live)
        built: dict[int | None, str] = {}
        for sub in live.subscribers:
            if sub.seat not in built:
                built[sub.seat] = encode(state_payload(live, sub.seat, public))
            sub.queue.put_nowait(built[sub.seat])

    # ------------------------------------------------------------------ after the fact
    def reveal(self, game_id: str, number: int) -> dict[str, Any]:
        """The salt and deck of a finished hand, with its commitment; 403 while it is in play."""
        live = self.get(game_id)
        if not 1 <= number <= len(live.hands):
            raise ServiceError(404, f"game {game_id} has no hand {number} (it has {len(live.hands)})")
        if not live.revealed(number):
            raise ServiceError(403, f"hand {number} is in play: its deck and salt are revealed when it ends")
        row = live.hands[number - 1]
        hand = live.game.hands[number - 1]
        moves = [{"seat": s, "move": format_code(c)} for c, s in zip(hand.history(), hand.movers(), strict=True)]
        return {
            "game": live.id,
            "hand": number,
            "dealer": hand.dealer,
            "commitment": row.commitment,
            "salt": row.salt,
            "deck": row.deck,
            "moves": moves,
        }

    def record(self, game_id: str) -> dict[str, Any]:
        """The whole game with every hand revealed: only once it is over."""
        live = self.get(game_id)
        if not live.over:
            raise ServiceError(403, "the record (every hand revealed) is published when the game is over")
        from .payloads import replay_frames

        names = [s.name for s in live.seats]
        date = time.strftime("%Y.%m.%d", time.gmtime(live.created))
        tags = {"Event": "Web game", "Site": "cassino serve", "Date": date}
        text = write_record(record_of_game(live.game, tags, names))
        return {
            "game": live.id,
            "record": text,
            "hands": [self.reveal(game_id, n) for n in range(1, len(live.hands) + 1)],
            "winner": live.game.winner,
            "scores": list(live.game.scores),
            "frames": replay_frames(live.game),
        }
