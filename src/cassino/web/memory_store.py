"""Games kept in memory, as the SQL store keeps them (``game_store.GameStore``): the store of the
page that plays offline, where the service runs in the browser and the browser keeps each game
(``saved`` and ``restore``, as JSON in IndexedDB) so that it survives a reload.

One process uses it, so there is nobody to notify, and a write checks only what a stale page of
the same process could get wrong (the game's move count, its status, a deal's contributions).
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from ..club.chat import ChatLimit, ChatMessage, TableChat
from ..club.errors import ChatRateError
from .errors import StaleDealError, StaleGameError, StoreError
from .rows import MAX_REASON, TICKET_SECONDS, HandRow, InviteRow, MoveRow, Progress, SeatRow, StoredGame


class MemoryChat:
    """The chat at each table, in memory (``chat_store.ChatStore``'s answers); ``on_change(game_id)``
    hears of every write, as the store's own do."""

    def __init__(self, on_change: Callable[[str], None]) -> None:
        self.on_change = on_change
        self.modes: dict[str, str] = {}
        self.quiet: dict[str, set[int]] = {}
        self.messages: dict[str, list[ChatMessage]] = {}
        self.last_id = 0

    def set_mode(self, game_id: str, mode: str) -> None:
        self.modes[game_id] = mode
        self.on_change(game_id)

    def table(self, game_id: str) -> TableChat:
        return TableChat(self.modes.get(game_id, "phrases"), set(self.quiet.get(game_id, ())))

    def set_quiet(self, game_id: str, seat: int, quiet: bool) -> None:
        seats = self.quiet.setdefault(game_id, set())
        if quiet:
            seats.add(seat)
        else:
            seats.discard(seat)
        self.on_change(game_id)

    def add(
        self, game_id: str, seat: int, name: str, at: float, limit: ChatLimit, phrase: str | None, text: str | None
    ) -> ChatMessage:
        kept = self.messages.setdefault(game_id, [])
        recent = [m.at for m in kept if m.seat == seat and m.at > at - limit.window]
        if len(recent) >= limit.burst:
            raise ChatRateError(min(recent) + limit.window - at, limit.burst, limit.window)
        self.last_id += 1
        message = ChatMessage(self.last_id, seat, name, at, phrase, text)
        kept.append(message)
        del kept[: -limit.keep]
        self.on_change(game_id)
        return message

    def history(self, game_id: str, limit: int) -> list[ChatMessage]:
        return list(self.messages.get(game_id, [])[-limit:]) if limit > 0 else []


class MemoryStore:
    """The games of one page (``game_store.GameStore``), each a ``StoredGame`` with the presses of
    next by hand; ``on_change(game_id)`` hears of every write, so the page can keep the game."""

    def __init__(self, on_change: Callable[[str], None] | None = None) -> None:
        self.games: dict[str, StoredGame] = {}
        self.presses: dict[str, dict[int, set[int]]] = {}
        self.tickets: dict[str, tuple[str, float]] = {}
        self._chat = MemoryChat(self._changed)
        self.on_change = on_change

    @property
    def chat(self) -> MemoryChat:
        return self._chat

    def _game(self, game_id: str) -> StoredGame:
        game = self.games.get(game_id)
        if game is None:
            raise StoreError(f"game {game_id} is not stored here")
        return game

    def _changed(self, game_id: str) -> None:
        if self.on_change is not None:
            self.on_change(game_id)

    # ------------------------------------------------------------------ writing
    def announce(self, game_id: str, what: str) -> None:
        """Nothing to tell: no other process shares these games."""

    def create_game(
        self,
        game_id: str,
        rules: dict[str, Any],
        seats: list[SeatRow],
        first: HandRow,
        invites: list[InviteRow] | None = None,
        listed: bool = True,
        next_hand_after: int = 0,
        created: float | None = None,
        seeds: dict[int, str] | None = None,
        contributions: dict[int, str] | None = None,
        help_allowed: bool = True,
    ) -> None:
        if game_id in self.games:
            raise StoreError(f"game {game_id} exists already")
        at = time.time() if created is None else created
        self.games[game_id] = StoredGame(
            id=game_id,
            created=at,
            rules=copy.deepcopy(rules),
            status="playing",
            winner=-1,
            seats=list(seats),
            hands=[first],
            invites=list(invites or []),
            listed=listed,
            next_hand_after=next_hand_after,
            last_move=at,
            seeds=dict(seeds or {}),
            contributions={1: dict(contributions)} if contributions else {},
            help_allowed=help_allowed,
        )
        self.presses[game_id] = {}
        self._changed(game_id)

    def new_ticket(self, ticket: str, seed: str, now: float) -> None:
        self.tickets = {k: v for k, v in self.tickets.items() if v[1] >= now - TICKET_SECONDS}
        self.tickets[ticket] = (seed, now)

    def take_ticket(self, ticket: str, now: float) -> str | None:
        found = self.tickets.pop(ticket, None)
        return None if found is None or found[1] < now - TICKET_SECONDS else found[0]

    def contribute(self, game_id: str, hand: int, seat: int, value: str) -> bool:
        game = self._game(game_id)
        if len(game.hands) >= hand:
            return False
        game.contributions.setdefault(hand, {})[seat] = value
        self._changed(game_id)
        return True

    def claim_seat(self, game_id: str, seat: int, token_hash: str, name: str) -> bool:
        game = self._game(game_id)
        invite = next((i for i in game.invites if i.seat == seat and i.claimed is None), None)
        if invite is None:
            return False
        game.invites = [InviteRow(i.seat, i.code_hash, time.time()) if i is invite else i for i in game.invites]
        game.seats = [
            SeatRow(s.seat, s.kind, name, s.bot, s.bot_seed, token_hash) if s.seat == seat else s for s in game.seats
        ]
        self._changed(game_id)
        return True

    def press_next(self, game_id: str, hand: int, seat: int, count_ended: float | None = None) -> None:
        game = self._game(game_id)
        self.presses.setdefault(game_id, {}).setdefault(hand, set()).add(seat)
        if count_ended is not None:
            game.count_ended = count_ended
        self._changed(game_id)

    def forfeit(self, game_id: str, ply: int, seat: int, reason: str, winner: int) -> None:
        game = self._game(game_id)
        if len(game.moves) != ply or game.status != "playing":
            raise StaleGameError(f"game {game_id}: it is no longer at move {ply}, so the forfeit was not stored")
        game.status, game.winner, game.forfeit = "over", winner, (seat, reason[:MAX_REASON])
        self._changed(game_id)

    def undo_moves(self, game_id: str, keep: int, ply_now: int) -> None:
        game = self._game(game_id)
        if len(game.moves) != ply_now:
            raise StaleGameError(f"game {game_id}: it is not at move {ply_now}, so nothing was taken back")
        del game.moves[keep:]
        self._changed(game_id)

    def add_move(
        self,
        game_id: str,
        move: MoveRow,
        new_hand: HandRow | None,
        status: str,
        winner: int,
        count_deadline: float | None = None,
        moved_at: float | None = None,
        next_seed: str | None = None,
        contributed: frozenset[int] | None = None,
    ) -> None:
        game = self._game(game_id)
        if len(game.moves) != move.ply:
            raise StaleGameError(f"game {game_id}: it is no longer at move {move.ply}, so the move was not stored")
        if (
            new_hand is not None
            and contributed is not None
            and set(game.contributions.get(new_hand.number, {})) != contributed
        ):
            raise StaleDealError(f"game {game_id}: a contribution to hand {new_hand.number} came in")
        game.moves.append(move)
        game.status, game.winner = status, winner
        if new_hand is not None:
            if next_seed is not None:
                game.seeds[new_hand.number + 1] = next_seed
            game.hands.append(new_hand)
            if count_deadline is not None:
                game.count_deadline = count_deadline
        game.last_move = time.time() if moved_at is None else moved_at
        self._changed(game_id)

    # ------------------------------------------------------------------ reading
    def load_game(self, game_id: str) -> StoredGame | None:
        game = self.games.get(game_id)
        if game is None:
            return None
        out = copy.deepcopy(game)
        out.ready = set(self.presses.get(game_id, {}).get(len(game.hands), set()))
        return out

    def progress(self, game_id: str, ply: int) -> Progress:
        game = self._game(game_id)
        return Progress([m for m in game.moves if m.ply >= ply], len(game.hands), game.last_move)

    def listen(self, on_change: Callable[[str | None, str], None]) -> None:
        """None: one process uses these games."""
        return None

    def unfinished(self) -> list[str]:
        return [g.id for g in sorted(self.games.values(), key=lambda g: g.created) if g.status == "playing"]

    def recent(self, limit: int = 50) -> list[dict[str, Any]]:
        listed = sorted((g for g in self.games.values() if g.listed), key=lambda g: -g.created)[:limit]
        return [
            {
                "game": g.id,
                "created": g.created,
                "rules": g.rules,
                "status": g.status,
                "winner": g.winner,
                "moves": len(g.moves),
            }
            for g in listed
        ]

    # ------------------------------------------------------------------ kept by the page
    def saved(self, game_id: str) -> dict[str, Any]:
        """A game as JSON, everything ``restore`` needs to bring it back (the page keeps it)."""
        game = self._game(game_id)
        data = asdict(game)
        data["ready"] = []
        data["presses"] = {str(h): sorted(s) for h, s in self.presses.get(game_id, {}).items()}
        data["chat"] = {
            "mode": self.chat.modes.get(game_id, "phrases"),
            "quiet": sorted(self.chat.quiet.get(game_id, ())),
            "messages": [m.to_json() for m in self.chat.messages.get(game_id, [])],
        }
        return data

    def restore(self, data: dict[str, Any]) -> str:
        """Bring back a game ``saved`` wrote; returns its id. ``StoreError`` naming what is wrong
        when the JSON is not such a game (nothing is changed then)."""
        try:
            game = StoredGame(
                id=str(data["id"]),
                created=float(data["created"]),
                rules=dict(data["rules"]),
                status=str(data["status"]),
                winner=int(data["winner"]),
                seats=[SeatRow(**s) for s in data["seats"]],
                hands=[HandRow(**h) for h in data["hands"]],
                moves=[MoveRow(**m) for m in data["moves"]],
                invites=[InviteRow(**i) for i in data["invites"]],
                listed=bool(data["listed"]),
                next_hand_after=int(data["next_hand_after"]),
                count_deadline=data.get("count_deadline"),
                last_move=data.get("last_move"),
                seeds={int(h): str(s) for h, s in data["seeds"].items()},
                contributions={
                    int(h): {int(s): str(v) for s, v in c.items()} for h, c in data["contributions"].items()
                },
                forfeit=None if data.get("forfeit") is None else (int(data["forfeit"][0]), str(data["forfeit"][1])),
                help_allowed=bool(data["help_allowed"]),
                count_ended=data.get("count_ended"),
            )
            presses = {int(h): {int(s) for s in seats} for h, seats in data.get("presses", {}).items()}
            chat = data.get("chat", {})
            messages = [ChatMessage.from_json(m) for m in chat.get("messages", [])]
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise StoreError(f"a kept game could not be read back ({type(exc).__name__}: {exc})") from None
        self.games[game.id] = game
        self.presses[game.id] = presses
        self.chat.modes[game.id] = str(chat.get("mode", "phrases"))
        self.chat.quiet[game.id] = {int(s) for s in chat.get("quiet", [])}
        self.chat.messages[game.id] = messages
        self.chat.last_id = max([self.chat.last_id, *(m.id for m in messages)])
        return game.id
