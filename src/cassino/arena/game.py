"""One game between players in their seats: the unit of work of every match and tournament.

A player that fails to move (``PlayerFaultError``: it hung, crashed, answered garbage or an illegal
move) forfeits: the game ends there, its side loses, and the result says who and why, so that the
other games of a match go on."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import ArgumentError
from ..game import Game
from ..players.base import Player, decide
from ..players.errors import PlayerFaultError
from ..rules import Rules


@dataclass(frozen=True, slots=True)
class GameResult:
    """What one game produced, by side and by seat: plain data, so it crosses to and from workers
    cheaply; ``think_seconds`` is the only timing in it."""

    index: int
    """The game's task number in its plan (0 for a game played on its own)."""
    winner: int
    """The winning side (-1 if the game hit ``max_hands`` undecided)."""
    scores: tuple[int, ...]
    hand_points: tuple[tuple[int, ...], ...]
    """Each hand's points per side."""
    moves: int
    seat_moves: tuple[int, ...]
    """Moves each seat made."""
    think_seconds: tuple[float, ...]
    """Time each seat spent choosing moves."""
    forfeit: int = -1
    """The seat whose player failed to move (``PlayerFaultError``), ending the game; -1 when none did."""
    forfeit_reason: str = ""
    """What that player did wrong, in one line (the fault's ``reason``)."""


def play_game(rules: Rules, players: Sequence[Player], seed: int, max_hands: int = 100, index: int = 0) -> GameResult:
    """Play a whole game from the decks of ``seed``; ``players[s]`` sits in seat ``s``. A player's
    ``PlayerFaultError`` ends the game as that seat's forfeit (``Game.forfeit`` names the winner)."""
    if len(players) != rules.players:
        raise ArgumentError(f"{rules.players} players needed, got {len(players)}")
    game = Game(rules, seed=seed)
    think = [0.0] * rules.players
    made = [0] * rules.players
    moves = 0
    forfeit, reason = -1, ""
    while not game.over and len(game.hands) <= max_hands:
        state = game.state
        if state.hand_over:
            break
        seat = state.to_move
        start = time.perf_counter()
        try:
            code = decide(players[seat], state)
        except PlayerFaultError as fault:
            forfeit, reason = seat, fault.reason
            game.forfeit(seat, reason)
            break
        finally:
            think[seat] += time.perf_counter() - start
        made[seat] += 1
        game.play(code)
        moves += 1
    return GameResult(
        index=index,
        winner=game.winner,
        scores=game.scores,
        hand_points=tuple(r.points for r in game.hand_results),
        moves=moves,
        seat_moves=tuple(made),
        think_seconds=tuple(think),
        forfeit=forfeit,
        forfeit_reason=reason,
    )
