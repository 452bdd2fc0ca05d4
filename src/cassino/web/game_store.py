"""What the game service needs of the store that keeps its games, whatever keeps them: the SQL
``Store`` at the server (SQLite or PostgreSQL), or ``MemoryStore`` in the page that plays offline,
where the browser keeps the games (IndexedDB) and no database exists.

Both answer the same calls with the same rows (``rows``), so the service, its deals, replicas and
chat run unchanged on either.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from ..club.chat import ChatRecords
from .rows import HandRow, InviteRow, MoveRow, Progress, SeatRow, StoredGame

if TYPE_CHECKING:
    from .notify import Listener


class GameStore(Protocol):
    """The games' records: each write checks the game is where the writer saw it (``StaleGameError``
    otherwise) and raises ``StoreError`` when refused; see ``store.Store`` for each call."""

    @property
    def chat(self) -> ChatRecords: ...

    def announce(self, game_id: str, what: str) -> None: ...

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
    ) -> None: ...

    def new_ticket(self, ticket: str, seed: str, now: float) -> None: ...

    def take_ticket(self, ticket: str, now: float) -> str | None: ...

    def contribute(self, game_id: str, hand: int, seat: int, value: str) -> bool: ...

    def claim_seat(self, game_id: str, seat: int, token_hash: str, name: str) -> bool: ...

    def press_next(self, game_id: str, hand: int, seat: int, count_ended: float | None = None) -> None: ...

    def forfeit(self, game_id: str, ply: int, seat: int, reason: str, winner: int) -> None: ...

    def undo_moves(self, game_id: str, keep: int, ply_now: int) -> None: ...

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
    ) -> None: ...

    def load_game(self, game_id: str) -> StoredGame | None: ...

    def progress(self, game_id: str, ply: int) -> Progress: ...

    def listen(self, on_change: Callable[[str | None, str], None]) -> Listener | None: ...

    def unfinished(self) -> list[str]: ...

    def recent(self, limit: int = 50) -> list[dict[str, Any]]: ...
