"""The table as text lines: one wording for the plain game, the full screen's summaries and the
replay, so a person reads the same table, hand breakdown and result wherever they look."""

from __future__ import annotations

from ..cards import format_cards
from ..state import State, build_is_single
from .session import FinishedHand, Session


def describe_table(state: State) -> list[str]:
    """The table as lines: loose cards, then each build with value, kind and owner."""
    lines = [f"  loose: {format_cards(state.loose) or '(none)'}"]
    for build in state.builds:
        kind = "single" if build_is_single(build) else "multiple"
        lines.append(f"  build {build.value} ({kind}, owner seat {build.owner}): {format_cards(build.cards)}")
    return lines


def hand_summary(session: Session, done: FinishedHand) -> list[str]:
    """The score breakdown of a finished hand, one line per side, then the checksum."""
    rules = session.rules
    lines = [f"Hand {done.number} over. Score per side:"]
    for side in range(rules.sides):
        parts = ", ".join(f"{k} {v}" for k, v in done.result.breakdown(side).items())
        lines.append(f"  {session.side_name(side)}: {parts}; hand {done.result.points[side]}, game {done.scores[side]}")
    sweeps = sum(1 for i in done.result.items if i.category == "sweeps")
    lines.append(f"  checksum: {done.result.checksum} points without sweeps, {sweeps} scored sweep(s)")
    return lines


def game_summary(session: Session) -> list[str]:
    """The end of the game: final scores, the winner, hands played, where the record went."""
    game = session.game
    lines = [f"Game over after {len(game.hands)} hand(s)."]
    for side in range(session.rules.sides):
        lines.append(f"  {session.side_name(side)}: {game.scores[side]}")
    lines.append(f"Winner: {session.side_name(game.winner)}.")
    if session.saved_path is not None:
        lines.append(f"Record saved to {session.saved_path} (replay it with: cassino replay {session.saved_path})")
    return lines
