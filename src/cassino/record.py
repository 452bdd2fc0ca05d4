"""Game records: a readable text format in the spirit of PGN that replays a game exactly.

A record holds tag pairs (event, date, seats, rules, seed, a forfeit if a seat could not go on,
result), then for each hand its dealer,
the full order of its deck and its moves in canonical notation, each with the seat that made it::

    [Event "Casual game"]
    [Date "2026.11.29"]
    [Seat0 "you"]
    [Seat1 "greedy"]
    [Preset "classic"]
    [Players "2"]
    [Partnerships "false"]
    [Options "sweeps_cancel=true target=31"]
    [Seed "7"]
    [Result "1"]
    [Scores "13 31"]

    hand 1 dealer 0
    deck 7h Td 2s ...
    seat 1: trail 7h
    seat 0: capture 8c 8: 8d
    ...
    points 3 8

The decks make a record replay without the seed, so anyone can check every deal and every move:
that is the proof that nobody cheated. The writer is canonical; the reader is lenient about spacing,
case, comments (``;`` to the end of a line, or ``{...}``) and optional lines, and reports every
problem with its line number. ``check_record`` replays the moves with the rules engine.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import (
    FULL_DECK,
    Card,
    CardError,
    ascii_number,
    card_name,
    cards_of,
    excerpt,
    is_full_deck,
    mask_of,
    parse_card,
)
from .errors import IllegalMoveError
from .errors import RecordError as RecordError
from .game import Game
from .moves import MoveCode, MoveError, format_code
from .notation import read_move
from .rules import OPTION_NAMES, PRESETS, Rules, RulesError, make_rules, parse_option

TAG_ORDER = (
    "Event", "Site", "Date", "Seat0", "Seat1", "Seat2", "Seat3", "Preset", "Players", "Partnerships", "Options",
    "Seed", "Forfeit", "Result", "Scores",
)  # fmt: skip


@dataclass
class HandRecord:
    """One hand: who dealt, the deck (top card first) and the moves as (seat, code)."""

    dealer: int
    deck: list[Card]
    moves: list[tuple[int, MoveCode]] = field(default_factory=list)
    points: list[int] | None = None
    line: int = 0
    move_lines: list[int] = field(default_factory=list)
    points_line: int = 0


@dataclass
class GameRecord:
    """A whole game: tags and hands. ``rules`` is read from the tags."""

    tags: dict[str, str]
    rules: Rules
    hands: list[HandRecord]
    tag_lines: dict[str, int] = field(default_factory=dict)
    """The line each tag was read from (empty for records made in memory)."""

    @property
    def result(self) -> int | None:
        """The winning side, or None for an unfinished game."""
        return ascii_number(self.tags.get("Result", "*"))


# ----------------------------------------------------------------------------------- writing


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def rules_tags(rules: Rules) -> dict[str, str]:
    """The tags that describe a rule set."""
    extra = {k: v for k, v in rules.to_json().items() if k in OPTION_NAMES}
    return {
        "Preset": rules.preset,
        "Players": str(rules.players),
        "Partnerships": _option_text(rules.partnerships),
        "Options": " ".join(f"{k}={_option_text(v)}" for k, v in extra.items()) or "-",
    }


def record_of_game(game: Game, tags: dict[str, str] | None = None, seats: Sequence[str] = ()) -> GameRecord:
    """The record of a game played so far (unfinished games have Result ``*``)."""
    all_tags: dict[str, str] = {"Event": "Casual game", "Date": "????.??.??"}
    all_tags.update(tags or {})
    for seat, name in enumerate(seats):
        all_tags[f"Seat{seat}"] = name
    all_tags.update(rules_tags(game.rules))
    if game.seed is not None:
        all_tags.setdefault("Seed", str(game.seed))
    if game.forfeited is not None:
        all_tags["Forfeit"] = f"{game.forfeited.seat} {game.forfeited.reason}"
    all_tags["Result"] = str(game.winner) if game.over else "*"
    all_tags["Scores"] = " ".join(map(str, game.scores))
    hands = []
    for state, deck in zip(game.hands, game.decks, strict=True):
        moves = list(state.history)
        points = list(state.result.points) if state.result is not None else None
        hands.append(HandRecord(state.dealer, list(deck), moves, points))
    return GameRecord(all_tags, game.rules, hands)


def write_record(record: GameRecord) -> str:
    """The canonical text of a record."""
    lines = []
    order = [t for t in TAG_ORDER if t in record.tags] + sorted(t for t in record.tags if t not in TAG_ORDER)
    for tag in order:
        value = record.tags[tag].replace("\\", "\\\\").replace('"', '\\"')
        lines.append(f'[{tag} "{value}"]')
    for number, hand in enumerate(record.hands, 1):
        lines.append("")
        lines.append(f"hand {number} dealer {hand.dealer}")
        lines.append("deck " + " ".join(card_name(c) for c in hand.deck))
        for seat, code in hand.moves:
            lines.append(f"seat {seat}: {format_code(code)}")
        if hand.points is not None:
            lines.append("points " + " ".join(map(str, hand.points)))
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------------- reading

REQUIRED_TAGS = ("Preset", "Players", "Partnerships", "Options", "Result", "Scores")
"""The tags every record gives (the writer always does): the rules to replay under, and the
outcome the replay is checked against. A missing one is refused rather than guessed (a missing
Preset read as classic made the game fail later at an unrelated line)."""

MAX_PROBLEMS = 20
"""The most problems a record reports one by one (a file of junk would give one per line)."""

_TAG = re.compile(r'^\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\](?:\s*(?:;.*|\{[^}]*\}))*\s*$')
_HAND = re.compile(r"^hand\s+(\d+)(?:\s+dealer\s+(\d+))?$", re.IGNORECASE | re.ASCII)
_MOVE = re.compile(r"^(?:(?:seat\s*)?(\d+)\s*:\s*)?((?:trail|capture|build)\b.*)$", re.IGNORECASE | re.ASCII)


def _strip_comment(line: str) -> str:
    line = re.sub(r"\{[^}]*\}", " ", line)
    return line.split(";", 1)[0].strip()


def _numbers(text: str) -> list[int] | None:
    """Whole numbers separated by spaces (``Scores``, ``points``), or None if a word is not one."""
    out = []
    for word in text.split():
        number = ascii_number(word)
        if number is None:
            return None
        out.append(number)
    return out


def _unknown_tag(name: str) -> str:
    """Why a tag name is refused, with the known tag it was probably meant to be."""
    by_case = [t for t in TAG_ORDER if t.lower() == name.lower()]
    if by_case:
        return f"unknown tag {excerpt(name)}: tag names are case-sensitive, write {by_case[0]!r}"
    close = difflib.get_close_matches(name, TAG_ORDER, n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    return f"unknown tag {excerpt(name)}: {hint}the tags are {', '.join(TAG_ORDER)}"


def _parse_options(text: str, line: int, problems: list[tuple[int, str]]) -> dict[str, Any]:
    """The Options tag: ``NAME=VALUE`` words, or ``-`` for none."""
    out: dict[str, Any] = {}
    if text.strip() in ("", "-"):
        return out
    for word in text.split():
        try:
            name, value = parse_option(word)
        except RulesError as exc:
            problems.append((line, str(exc)))
            continue
        out[name] = value
    return out


def _read_rules(tags: dict[str, str], tag_lines: dict[str, int], problems: list[tuple[int, str]]) -> Rules:
    """The rules the tags name, each problem on the line of the tag to fix (classic for two where
    they cannot be read)."""
    options = _parse_options(tags.get("Options", ""), tag_lines.get("Options", 0), problems)
    preset = tags.get("Preset", "classic")
    players = tags.get("Players", "2")
    partnerships = tags.get("Partnerships", "false").lower()
    count = ascii_number(players)
    refused = [
        (tag, message)
        for tag, bad, message in (
            ("Preset", preset not in PRESETS, f"unknown preset {excerpt(preset)}: choose one of {', '.join(PRESETS)}"),
            ("Players", count is None, f"Players must be 2, 3 or 4, got {excerpt(players)}"),
            (
                "Partnerships",
                partnerships not in ("true", "false"),
                f"Partnerships must be true or false, got {excerpt(partnerships)}",
            ),
        )
        if bad
    ]
    problems += [(tag_lines.get(tag, 0), f"rules: {message}") for tag, message in refused]
    if refused or count is None:
        return Rules()
    try:
        return make_rules(preset, players=count, partnerships=partnerships == "true", **options)
    except RulesError as exc:
        line = tag_lines.get("Options", tag_lines.get("Preset", 0))
        problems.append((line, f"rules: {exc}"))
        return Rules()


def read_record(text: str) -> GameRecord:
    """Read a record; every problem found is reported at once, each with its line number (the
    first ``MAX_PROBLEMS`` of them, in line order)."""
    problems: list[tuple[int, str]] = []
    tags: dict[str, str] = {}
    tag_lines: dict[str, int] = {}
    hands: list[HandRecord] = []
    comment_line = 0
    """The line where a ``{`` comment still open began (0: none open)."""
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), 1):
        line = raw.strip()
        if comment_line:
            # Inside a {...} comment that began on an earlier line.
            if "}" not in line:
                continue
            line = line.split("}", 1)[1].strip()
            comment_line = 0
        if line.startswith("["):
            m = _TAG.match(line)
            if not m:
                problems.append((number, f'malformed tag {excerpt(line)}: write [Name "value"]'))
                continue
            name = m.group(1)
            if name not in TAG_ORDER:
                problems.append((number, _unknown_tag(name)))
                continue
            if name in tags:
                problems.append((number, f"tag {name} repeated: it is given on line {tag_lines[name]} already"))
                continue
            if hands:
                problems.append((number, f"tag {name} after the first hand: tags belong at the top"))
            tags[name] = m.group(2).replace('\\"', '"').replace("\\\\", "\\")
            tag_lines[name] = number
            continue
        line = _strip_comment(line)
        if "{" in line:
            line, comment_line = line.split("{", 1)[0].strip(), number
        if not line:
            continue
        word = line.split()[0].lower()
        if word == "hand":
            m = _HAND.match(line)
            hand_number = ascii_number(m.group(1)) if m else None
            dealer = ascii_number(m.group(2)) if m and m.group(2) is not None else -1
            if hand_number is None or dealer is None:
                problems.append((number, f"malformed hand line {excerpt(line)}: write 'hand N dealer SEAT'"))
                continue
            if hand_number != len(hands) + 1:
                problems.append((number, f"hand {hand_number} out of order: expected hand {len(hands) + 1}"))
            hands.append(HandRecord(dealer, [], line=number))
        elif not hands:
            problems.append((number, f"{excerpt(line)} before the first 'hand' line"))
        elif word == "deck":
            cards = []
            for w in line.split()[1:]:
                try:
                    cards.append(parse_card(w))
                except CardError as exc:
                    problems.append((number, str(exc)))
            if not is_full_deck(cards) and len(cards) == len(line.split()) - 1:
                missing = cards_of(FULL_DECK & ~mask_of(cards))
                dup = sorted({c for c in cards if cards.count(c) > 1})
                detail = []
                if missing:
                    detail.append("missing " + " ".join(card_name(c) for c in missing))
                if dup:
                    detail.append("twice " + " ".join(card_name(c) for c in dup))
                problems.append((number, f"a deck must hold the 52 cards once each ({'; '.join(detail)})"))
            hands[-1].deck = cards
        elif word == "points":
            points = _numbers(line.split(None, 1)[1] if " " in line else "")
            if points is None:
                problems.append((number, f"malformed points line {excerpt(line)}: write 'points N N ...'"))
            else:
                hands[-1].points = points
                hands[-1].points_line = number
        else:
            m = _MOVE.match(line)
            seat = ascii_number(m.group(1)) if m and m.group(1) is not None else -1
            if not m or seat is None:
                problems.append((number, f"cannot read {excerpt(line)}: expected a move such as 'seat 1: trail 7h'"))
                continue
            try:
                code = read_move(m.group(2))
            except MoveError as exc:
                problems.append((number, str(exc)))
                continue
            hands[-1].moves.append((seat, code))
            hands[-1].move_lines.append(number)
    if comment_line:
        problems.append((comment_line, "a '{' comment is never closed: end it with '}'"))

    missing_tags = [t for t in REQUIRED_TAGS if t not in tags]
    if missing_tags:
        problems.append(
            (0, f"missing tag {', '.join(missing_tags)}: a record gives each of {', '.join(REQUIRED_TAGS)}")
        )
    rules = _read_rules(tags, tag_lines, problems)
    scores = tags.get("Scores")
    if scores is not None and len(_numbers(scores) or ()) != rules.sides:
        problems.append(
            (tag_lines["Scores"], f"Scores must be {rules.sides} whole numbers, one per side, got {excerpt(scores)}")
        )
    if not hands and not problems:
        problems.append((0, "the record has no hand"))
    for hand in hands:
        if not hand.deck:
            problems.append((hand.line, "hand has no 'deck' line"))
        if not 0 <= hand.dealer < rules.players and hand.dealer != -1:
            problems.append((hand.line, f"dealer {hand.dealer} is not a seat of {rules.players} players"))
    if problems:
        problems.sort(key=lambda p: (p[0] == 0, p[0]))  # in line order, those of no line last
        if len(problems) > MAX_PROBLEMS:
            problems[MAX_PROBLEMS:] = [(0, f"and {len(problems) - MAX_PROBLEMS} more problems")]
        raise RecordError(problems)
    return GameRecord(tags, rules, hands, tag_lines)


def _forfeit(game: Game, record: GameRecord, problems: list[tuple[int, str]]) -> None:
    """End the replayed game as its Forfeit tag says (``seat reason``: the seat that could not go
    on, and why), or add the problem with the tag."""
    text, line = record.tags["Forfeit"], record.tag_lines.get("Forfeit", 0)
    seat_text, _, reason = text.partition(" ")
    seat = ascii_number(seat_text)
    if seat is None or not 0 <= seat < game.rules.players or not reason.strip():
        problems.append((line, f"Forfeit must be a seat and the reason, like '1 timed out', got {excerpt(text)}"))
    elif game.over:
        problems.append((line, f"seat {seat} forfeits a game that is already over"))
    else:
        game.forfeit(seat, reason.strip())


def replay(record: GameRecord) -> Game:
    """Replay a record with the engine, checking every move, every seat and every hand's points.

    Raises RecordError naming the line of the first move that does not replay."""
    first = record.hands[0]
    dealer = first.dealer if first.dealer >= 0 else 0
    game = Game(record.rules, seed=None, dealer=dealer, decks=[h.deck for h in record.hands])
    problems: list[tuple[int, str]] = []
    for number, hand in enumerate(record.hands, 1):
        if len(game.hands) != number:
            problems.append(
                (
                    hand.line,
                    f"hand {number} starts, but the game {'is over' if game.over else 'is still in hand ' + str(len(game.hands))}",
                )
            )
            break
        state = game.state
        if hand.dealer >= 0 and hand.dealer != state.dealer:
            problems.append(
                (hand.line, f"dealer should be seat {state.dealer} (the deal passes on each hand), not {hand.dealer}")
            )
            break
        for (seat, code), line in zip(hand.moves, hand.move_lines, strict=True):
            state = game.state
            if state.hand_over or len(game.hands) != number:
                problems.append((line, f"move {format_code(code)!r} after the end of hand {number}"))
                break
            if seat >= 0 and seat != state.to_move:
                problems.append((line, f"seat {seat} moves, but it is seat {state.to_move}'s turn"))
                break
            try:
                game.play(code)
            except IllegalMoveError as exc:
                problems.append((line, str(exc)))
                break
        if problems:
            break
        finished = game.hands[number - 1]
        if hand.points is not None and finished.result is not None and list(finished.result.points) != hand.points:
            problems.append(
                (
                    hand.points_line or hand.line,
                    f"hand {number} scores {list(finished.result.points)}, but the record says {hand.points}",
                )
            )
            break
    if not problems and "Forfeit" in record.tags:
        _forfeit(game, record, problems)
    if not problems:
        result = record.result
        result_line = record.tag_lines.get("Result", 0)
        if result is not None and (not game.over or game.winner != result):
            actual = f"side {game.winner} wins" if game.over else "the game is not over"
            problems.append((result_line, f"Result says side {result} won, but replayed {actual}"))
        if result is None and record.tags.get("Result", "*") != "*":
            problems.append((result_line, f"Result must be a side number or '*', got {excerpt(record.tags['Result'])}"))
        scores = record.tags.get("Scores")
        if not problems and scores is not None and _numbers(scores) != list(game.scores):
            problems.append(
                (
                    record.tag_lines.get("Scores", 0),
                    f"Scores says {excerpt(scores)}, but the replayed game ends {' '.join(map(str, game.scores))}",
                )
            )
    if problems:
        raise RecordError(problems)
    return game


def check_record(text: str) -> Game:
    """Read and replay a record; raises RecordError listing the problems with their lines."""
    return replay(read_record(text))
