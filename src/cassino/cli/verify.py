"""``cassino verify FILE``: check a finished web game end to end, from the JSON that
``GET /api/games/{id}/record`` returns (docs/web.md): every hand's deal, every move and the outcome.

For each hand, in order: the deal (``cassino-deal-v1``: the seed matches the commitment published
before the hand and the deck is the one the seed and the contributions give, by
``fair.verify_deal``; ``commit-v0``: the salt and the deck match the commitment, by
``fair.verify``, which proves only that the deck did not change during the hand, as the line
says); the contributions a person says they sent (``--mine HAND:SEAT:VALUE``); that the record
text (read by ``record.read_record``) has the same dealer, deck and moves; and that the moves
replay legally on that deck with the engine (``game.Game``). Then that the game is over with the
file's winner and scores, and that the record text's own tags and points replay
(``record.replay``).

One line per verified hand, then the verdict: ``game ID: verified, N hands, scores 11-7`` (status
0), or a line naming the hand (or the game) and what failed (status 1; nothing after it). A file
that is not such JSON (unreadable, not UTF-8, not JSON, a field missing or of the wrong type) is a
user error: ``CliError``, one line on standard error and status 2.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import DECK_SIZE, Card, excerpt
from ..errors import IllegalMoveError, MoveError, RecordError
from ..game import Game
from ..moves import MoveCode, format_code
from ..notation import PATH_CHARS, load_json, read_move, read_text
from ..record import GameRecord, read_record, replay
from ..web import fair
from .errors import CliError, NotVerifiedError

__all__ = [
    "FileHand",
    "GameFile",
    "game_file",
    "is_daily_reveal",
    "parse_mine",
    "read_game_file",
    "read_json_file",
    "run_verify",
    "verify_daily",
    "verify_game",
]

Mine = dict[tuple[int, int], str]
"""The contributions a person says they sent: (hand, seat) -> value."""


@dataclass(frozen=True)
class FileHand:
    """One revealed hand of the file, its fields checked for type only."""

    game: str
    hand: int
    dealer: int
    scheme: str
    commitment: str
    salt: str
    deck: str
    contributions: list[tuple[int, str]]
    moves: list[tuple[int, str]]


@dataclass(frozen=True)
class GameFile:
    """The whole file: the game id, the record text, the hands and the outcome."""

    game: str
    record: str
    hands: list[FileHand]
    winner: int
    scores: list[int]
    shared_deal: str | None = None
    """The id of the deal the game's one hand was dealt from, shared by every game that played it
    (a daily deal's, a tournament round's): its deck derives from that id, not from the game's."""


# ----------------------------------------------------------------------------------- reading


def _shown(value: Any) -> str:
    """A JSON value as a message shows it: its JSON text, cut to an excerpt when long."""
    return excerpt(json.dumps(value), quote=False)


_KINDS = {str: "a string", int: "a whole number", list: "a list", dict: "an object"}


def _field(data: dict[str, Any], key: str, kind: type, where: str) -> Any:
    """``data[key]``, refused unless present and of ``kind`` (a JSON true is no number); ``where``
    names ``data`` (empty: the file itself)."""
    if key not in data:
        raise CliError(f"bad record file: {where or 'the file'} has no {key!r} field")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        name = f"{where}.{key}" if where else key
        raise CliError(f"bad record file: {name} must be {_KINDS[kind]}, got {_shown(value)}")
    return value


def _pairs(items: list[Any], where: str, key: str) -> list[tuple[int, str]]:
    """A list of ``{"seat": N, key: "..."}`` objects as (seat, text) pairs."""
    out = []
    for i, item in enumerate(items):
        here = f"{where}[{i}]"
        if not isinstance(item, dict):
            raise CliError(f"bad record file: {here} must be an object, got {_shown(item)}")
        out.append((_field(item, "seat", int, here), _field(item, key, str, here)))
    return out


def _hand(data: Any, where: str) -> FileHand:
    if not isinstance(data, dict):
        raise CliError(f"bad record file: {where} must be an object, got {_shown(data)}")
    scheme = _field(data, "scheme", str, where) if "scheme" in data else fair.LEGACY
    if "contributions" in data or scheme != fair.LEGACY:
        contributions = _pairs(_field(data, "contributions", list, where), f"{where}.contributions", "value")
    else:
        contributions = []
    return FileHand(
        game=_field(data, "game", str, where),
        hand=_field(data, "hand", int, where),
        dealer=_field(data, "dealer", int, where),
        scheme=scheme,
        commitment=_field(data, "commitment", str, where),
        salt=_field(data, "salt", str, where),
        deck=_field(data, "deck", str, where),
        contributions=contributions,
        moves=_pairs(_field(data, "moves", list, where), f"{where}.moves", "move"),
    )


_RECORD_TAG = re.compile(r'\[\s*[A-Za-z][A-Za-z0-9_]*\s+"')
"""How a game record in text begins (``[Event "Casual game"]``), which no JSON does."""


def read_game_file(path: str) -> GameFile:
    """The file at ``path`` (``-``: standard input) as a ``GameFile``; CliError naming what is
    wrong when it cannot be read, is not JSON or is not of the shape of a game's record."""
    return game_file(read_json_file(path))


def read_json_file(path: str) -> dict[str, Any]:
    """The JSON object of the file at ``path`` (``-``: standard input); CliError naming what is
    wrong when it cannot be read or is no JSON object."""
    try:
        text = read_text(None if path == "-" else path)
    except OSError as exc:
        source = "standard input" if path == "-" else excerpt(path, limit=PATH_CHARS)
        raise CliError(f"cannot read {source}: {exc.strerror}") from None
    if _RECORD_TAG.match(text.lstrip("\ufeff \t\r\n")):  # a text record's first tag: [Event "..."]
        raise CliError(
            "this is a game record in text (a terminal game's, or the record field of a web game's file): "
            "check it with: cassino record check FILE; cassino verify takes the JSON a web game's "
            "record link gives (GET /api/games/ID/record)"
        )
    too_deep = "the JSON is nested too deeply to read: a game's record is five levels deep"
    data = load_json(text, CliError, "not valid JSON", too_deep)
    if not isinstance(data, dict):
        raise CliError(f"bad record file: expected an object (GET /api/games/ID/record), got {_shown(data)}")
    return data


def game_file(data: dict[str, Any]) -> GameFile:
    """A game's record file (``GET /api/games/ID/record``) as a ``GameFile``; CliError naming the
    first field missing or of the wrong type."""
    hands = _field(data, "hands", list, "")
    if not hands:
        raise CliError("bad record file: hands is empty: a finished game has at least one hand")
    scores = _field(data, "scores", list, "")
    for i, score in enumerate(scores):
        if not isinstance(score, int) or isinstance(score, bool):
            raise CliError(f"bad record file: scores[{i}] must be a whole number, got {_shown(score)}")
    return GameFile(
        game=_field(data, "game", str, ""),
        record=_field(data, "record", str, ""),
        hands=[_hand(h, f"hands[{i}]") for i, h in enumerate(hands)],
        winner=_field(data, "winner", int, ""),
        scores=scores,
        shared_deal=_field(data, "shared_deal", str, "") if "shared_deal" in data else None,
    )


def is_daily_reveal(data: dict[str, Any]) -> bool:
    """True for a daily deal's reveal (``GET /api/daily/ID/reveal``) rather than a game's record."""
    return "hands" not in data and "seed" in data


def verify_daily(data: dict[str, Any]) -> tuple[bool, str]:
    """A daily deal's reveal checked: its seed matches the commitment published at the start of
    the day, and the deck is the one the seed and the deal's id give (``fair.verify_deal``)."""
    deal, commitment = _field(data, "id", str, ""), _field(data, "commitment", str, "")
    seed, deck = _field(data, "seed", str, ""), _field(data, "deck", str, "")
    name = excerpt(deal, quote=False) if deal.isprintable() else excerpt(deal)
    problem = fair.verify_deal(commitment, deal, 1, seed, {}, deck)
    if problem is not None:
        return False, f"daily deal {name}: not verified: {problem}"
    return (
        True,
        f"daily deal {name}: verified, the seed matches the commitment published before the day and gives the deck",
    )


_MINE = re.compile(r"([0-9]+):([0-9]+):([0-9a-fA-F]{64})", re.ASCII)


def parse_mine(texts: Sequence[str]) -> Mine:
    """The ``--mine HAND:SEAT:VALUE`` arguments; CliError for one that is not so written, or a
    hand and seat given twice with different values."""
    mine: Mine = {}
    for text in texts:
        m = _MINE.fullmatch(text)
        if m is None:
            raise CliError(
                f"--mine must be HAND:SEAT:VALUE (VALUE: the 64 hex digits your page sent), got {excerpt(text)}"
            )
        key = (int(m.group(1)), int(m.group(2)))
        value = m.group(3).lower()
        if mine.get(key, value) != value:
            raise CliError(f"--mine gives two values for seat {key[1]} in hand {key[0]}")
        mine[key] = value
    return mine


# ----------------------------------------------------------------------------------- checking


def _seats(seats: Sequence[int]) -> str:
    words = ", ".join(map(str, seats))
    return f"contribution of seat {words}" if len(seats) == 1 else f"contributions of seats {words}"


def _check_deal(data: GameFile, number: int, hand: FileHand, players: int, mine: Mine) -> str:
    """Check the hand's deal and the person's own contributions; what the verified line says."""
    values: dict[int, str] = {}
    for seat, value in hand.contributions:
        if not 0 <= seat < players:
            raise NotVerifiedError(f"seat {seat} contributes, but the game has seats 0 to {players - 1}")
        if seat in values:
            raise NotVerifiedError(f"seat {seat} contributes twice")
        values[seat] = value
    hex_commitment = hand.commitment.isascii() and fair.is_value(hand.commitment.lower())
    if hand.scheme == fair.SCHEME:
        source = data.shared_deal if data.shared_deal is not None and number == 1 else data.game
        if not source.isascii():
            raise NotVerifiedError(f"the game id {excerpt(source)} is not ASCII text: no deck derives from it")
        if not hex_commitment:
            raise NotVerifiedError("the commitment is not 64 hex digits")
        problem = fair.verify_deal(hand.commitment, source, number, hand.salt, values, hand.deck)
        if problem is not None:
            raise NotVerifiedError(problem)
        said = "seed committed before the hand; " + (
            _seats(sorted(values)) if values else "no contributions: the server's seed alone made the deck"
        )
        if source != data.game:
            said = f"the deck of shared deal {excerpt(source, quote=False)}, the same for everyone; " + said
    elif hand.scheme == fair.LEGACY:
        if values:
            raise NotVerifiedError(f"a {fair.LEGACY} hand has no contributions, but the file gives {len(values)}")
        if not (hex_commitment and hand.salt.isascii() and hand.deck.isascii()):
            raise NotVerifiedError("the salt and the deck do not match the commitment")
        if not fair.verify(hand.commitment, hand.salt, hand.deck):
            raise NotVerifiedError("the salt and the deck do not match the commitment")
        said = f"{fair.LEGACY}: the deck was committed before the hand, but the server chose it"
    else:
        raise NotVerifiedError(
            f"unknown deal scheme {excerpt(hand.scheme)}: cassino verify knows {fair.SCHEME} and {fair.LEGACY}"
        )
    yours = sorted(seat for h, seat in mine if h == number)
    for seat in yours:
        if hand.scheme == fair.LEGACY:
            raise NotVerifiedError(
                f"you sent a contribution, but the hand was dealt by {fair.LEGACY}, which takes none"
            )
        if seat not in values:
            raise NotVerifiedError(f"seat {seat} did not contribute, but you sent a contribution")
        if values[seat] != mine[number, seat]:
            raise NotVerifiedError(f"seat {seat}'s contribution is not the one you sent")
    if yours:
        said += f"; {'yours' if len(yours) == 1 else 'each of yours'} (seat {', '.join(map(str, yours))}) was used"
    return said


def _move_text(seat: int, code: MoveCode) -> str:
    return f"seat {seat}: {format_code(code)}"


def _check_record(
    number: int, hand: FileHand, deck: list[Card], moves: list[tuple[int, MoveCode]], record: GameRecord
) -> None:
    """The record text's hand ``number`` has the file's dealer, deck and moves."""
    if number > len(record.hands):
        raise NotVerifiedError(f"the record text has no hand {number}")
    written = record.hands[number - 1]
    if written.dealer >= 0 and written.dealer != hand.dealer:
        raise NotVerifiedError(f"the record text says dealer {written.dealer}, the file dealer {hand.dealer}")
    if written.deck != deck:
        raise NotVerifiedError("the record text's deck is not the revealed deck")
    for i, (theirs, ours) in enumerate(zip(written.moves, moves, strict=False), 1):
        seat = ours[0] if theirs[0] < 0 else theirs[0]
        if (seat, theirs[1]) != ours:
            raise NotVerifiedError(
                f"move {i} is '{_move_text(seat, theirs[1])}' in the record text, '{_move_text(*ours)}' in the file"
            )
    if len(written.moves) != len(moves):
        raise NotVerifiedError(f"the record text has {len(written.moves)} moves, the file {len(moves)}")


def _replay(game: Game, number: int, hand: FileHand, moves: list[tuple[int, MoveCode]], last: bool) -> None:
    """Play the hand's moves on ``game`` (at the start of hand ``number``), each checked."""
    if game.over:
        raise NotVerifiedError("the game was over before this hand")
    if game.state.dealer != hand.dealer:
        raise NotVerifiedError(
            f"the dealer is seat {game.state.dealer} (the deal passes on each hand), not {hand.dealer}"
        )
    for i, (seat, code) in enumerate(moves, 1):
        state = game.state
        if len(game.hands) != number or state.hand_over:
            raise NotVerifiedError(f"move {i} ('{_move_text(seat, code)}') comes after the end of the hand")
        if seat != state.to_move:
            raise NotVerifiedError(
                f"move {i} ('{_move_text(seat, code)}') is seat {seat}'s, but it is seat {state.to_move}'s turn"
            )
        try:
            game.play(code)
        except IllegalMoveError as exc:
            raise NotVerifiedError(f"move {i}: {exc}") from None
    if len(game.hands) == number and not game.state.hand_over:
        raise NotVerifiedError(f"the hand is not over after its {len(moves)} moves")
    if game.over and not last:
        raise NotVerifiedError("the game is over after this hand, but the file has more hands")


def _deck_or_any(text: str) -> list[Card]:
    """The deck the text names, or the canonical order where it names none."""
    try:
        return fair.parse_deck(text)
    except ValueError:
        return list(range(DECK_SIZE))


def _scores(scores: Sequence[int]) -> str:
    return "-".join(map(str, scores))


def verify_game(data: GameFile, mine: Mine) -> Iterator[tuple[bool, str]]:
    """The report: (True, line) for each verified hand and the verified game, or, last, (False,
    the line naming what failed)."""
    game_name = excerpt(data.game, quote=False) if data.game.isprintable() else excerpt(data.game)
    for hand_number, _seat in sorted(mine):
        if not 1 <= hand_number <= len(data.hands):
            raise CliError(f"--mine names hand {hand_number}, but the game has hands 1 to {len(data.hands)}")
    try:
        record = read_record(data.record)
    except RecordError as exc:
        line, problem = exc.problems[0]
        yield (
            False,
            f"game {game_name}: not verified: the record text does not read: "
            + (f"line {line}: {problem}" if line else problem),
        )
        return
    rules = record.rules
    game: Game | None = None
    for number, hand in enumerate(data.hands, 1):
        try:
            if hand.game != data.game:
                raise NotVerifiedError(f"it is a hand of game {excerpt(hand.game)}, not of {excerpt(data.game)}")
            if hand.hand != number:
                raise NotVerifiedError(f"the file numbers it {hand.hand}")
            if not 0 <= hand.dealer < rules.players:
                raise NotVerifiedError(f"dealer {hand.dealer} is not a seat of {rules.players} players")
            said = _check_deal(data, number, hand, rules.players, mine)
            try:
                deck = fair.parse_deck(hand.deck)
            except ValueError as exc:
                raise NotVerifiedError(str(exc)) from None
            moves = []
            for i, (seat, text) in enumerate(hand.moves, 1):
                try:
                    moves.append((seat, read_move(text)))
                except MoveError as exc:
                    raise NotVerifiedError(f"move {i}: {exc}") from None
            _check_record(number, hand, deck, moves, record)
            if game is None:
                # Every deck is given at once: the engine deals the next hand as the last move of
                # one is played. A deck that does not read is never dealt from: its hand fails
                # on it first (or the game is over before it).
                game = Game(rules, dealer=hand.dealer, decks=[_deck_or_any(h.deck) for h in data.hands])
            _replay(game, number, hand, moves, number == len(data.hands))
        except NotVerifiedError as failure:
            yield False, f"hand {number}: not verified: {failure}"
            return
        yield True, f"hand {number}: verified ({said})"
    assert game is not None
    hands = len(data.hands)
    failed = None
    if len(record.hands) != hands:
        failed = f"the record text has {len(record.hands)} hands, the file {hands}"
    elif not (game.over or (data.shared_deal is not None and hands == 1 and game.hands[0].hand_over)):
        failed = "the game is not over after the last hand"  # a game of a shared deal is one hand
    elif list(game.scores) != data.scores:
        failed = f"the file says scores {_scores(data.scores)}, but the moves end {_scores(game.scores)}"
    elif game.winner != data.winner:
        failed = f"the file says side {data.winner} won, but the moves make side {game.winner} the winner"
    else:
        try:
            replay(record)
        except RecordError as exc:
            line, problem = exc.problems[0]
            failed = f"the record text: line {line}: {problem}" if line else f"the record text: {problem}"
    if failed is not None:
        yield False, f"game {game_name}: not verified: {failed}"
        return
    yield True, f"game {game_name}: verified, {hands} hand{'s' if hands != 1 else ''}, scores {_scores(game.scores)}"


def run_verify(path: str, mine_texts: Sequence[str]) -> bool:
    """Read the file at ``path`` (``-``: standard input), print the report, and say whether the
    game verified. CliError for a file that is not a game's record or for bad ``--mine``."""
    mine = parse_mine(mine_texts)
    raw = read_json_file(path)
    if is_daily_reveal(raw):
        verified, line = verify_daily(raw)
        print(line, flush=True)
        return verified
    data = game_file(raw)
    verified = False
    for ok, line in verify_game(data, mine):
        print(line, flush=True)
        verified = ok
    return verified
