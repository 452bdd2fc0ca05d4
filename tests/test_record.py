"""Game records (cassino.record): write, read, replay and the errors of a corrupted record.

A record is the proof of a game: it must read back to exactly what was written and replay to the
very same game (moves, scores, winner) under every rule set, without the seed. The reader is
lenient on form but exact on substance: every problem is reported with the line it is on, so
that ``cassino record check`` can point a person at the line to fix.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cassino.cards import card_name, cards_of
from cassino.game import Game
from cassino.record import (
    GameRecord,
    RecordError,
    check_record,
    read_record,
    record_of_game,
    replay,
    write_record,
)
from cassino.rules import COURT_CAPTURES, PRESETS, SCORINGS, TIEBREAKS, TRAIL_RESTRICTIONS, Rules, make_rules
from strategies import BOOLEAN_OPTIONS, rules_st

SEATINGS: list[tuple[int, bool]] = [(2, False), (3, False), (4, False), (4, True)]
"""Player counts and partnerships: every table the rules allow."""

CONFIGS = [(preset, n, partners) for preset in PRESETS for n, partners in SEATINGS]
CONFIG_IDS = [f"{p}-{n}{'-partners' if t else ''}" for p, n, t in CONFIGS]

GAMES_FAST = 150
"""Random games per preset and seating in the default run (16 tables: 2,400 games, about 40 s of one core)."""
GAMES_SLOW = 700
"""Random games per preset and seating in the slow run (11,200 more games)."""


def random_rules(rng: random.Random, preset: str, players: int, partnerships: bool) -> Rules:
    """A rule set on top of ``preset`` with each option drawn half the time (like tests/strategies'
    ``rules_st``, but from a plain seeded Random so thousands of games cost nothing to draw)."""
    sides = 2 if partnerships else players
    options: dict[str, Any] = {}
    for name in BOOLEAN_OPTIONS:
        if rng.random() < 0.5:
            options[name] = rng.random() < 0.5
    for name, choices in (
        ("court_capture", COURT_CAPTURES),
        ("trail_restriction", TRAIL_RESTRICTIONS),
        ("scoring", SCORINGS),
    ):
        if rng.random() < 0.5:
            options[name] = rng.choice(choices)
    if rng.random() < 0.5:
        options["target"] = rng.randint(1, 61)
    if options.get("scoring", PRESETS[preset].scoring) == "spade":
        options["tiebreak"] = "higher_total"  # count_out needs standard scoring
    elif rng.random() < 0.5:
        options["tiebreak"] = rng.choice(TIEBREAKS)
    options["sweeps_cancel"] = sides == 2 and rng.random() < 0.5
    return make_rules(preset, players=players, partnerships=partnerships, **options)


def random_game(rules: Rules, seed: int, dealer: int = 0, moves: int | None = None) -> Game:
    """A game of uniformly random legal moves (the fast path: codes and ``push``), to the end or
    for ``moves`` moves."""
    game = Game(rules, seed=seed, dealer=dealer)
    rng = random.Random(seed ^ 0x5EED)
    played = 0
    while not game.over and (moves is None or played < moves):
        codes = game.state.legal_codes()
        game.push(codes[rng.randrange(len(codes))])
        played += 1
    return game


def assert_round_trip(game: Game, seats: list[str] | None = None) -> GameRecord:
    """write -> read -> write is the identity, and the replay is the same game, move for move."""
    names = seats if seats is not None else [f"p{s}" for s in range(game.rules.players)]
    text = write_record(record_of_game(game, {"Event": "round trip"}, names))
    record = read_record(text)
    assert write_record(record) == text
    assert record.rules == game.rules
    again = replay(record)
    assert again.decks == game.decks
    assert again.moves() == game.moves()
    assert [h.movers() for h in again.hands] == [h.movers() for h in game.hands]
    assert [r.points for r in again.hand_results] == [r.points for r in game.hand_results]
    assert again.scores == game.scores and again.winner == game.winner and again.over == game.over
    return record


def round_trip_random_games(label: str, count: int, preset: str, players: int, partnerships: bool) -> None:
    """``count`` random games with random options and first dealer; a failure names the game."""
    for i in range(count):
        rng = random.Random(f"{label}/{preset}/{players}/{partnerships}/{i}")
        rules = random_rules(rng, preset, players, partnerships)
        seed, dealer = rng.getrandbits(32), rng.randrange(players)
        game = random_game(rules, seed, dealer)
        try:
            assert game.over
            assert_round_trip(game)
        except (AssertionError, RecordError) as exc:
            raise AssertionError(f"game {i}: {rules.describe()}, seed {seed}, dealer {dealer}: {exc}") from exc


@pytest.mark.parametrize(("preset", "players", "partnerships"), CONFIGS, ids=CONFIG_IDS)
def test_random_games_round_trip(preset: str, players: int, partnerships: bool) -> None:
    """Every preset and seating, options drawn at random, the first dealer too: records are exact."""
    round_trip_random_games("fast", GAMES_FAST, preset, players, partnerships)


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "players", "partnerships"), CONFIGS, ids=CONFIG_IDS)
def test_many_more_random_games_round_trip(preset: str, players: int, partnerships: bool) -> None:
    """The same on many more games (other seeds than the default run)."""
    round_trip_random_games("slow", GAMES_SLOW, preset, players, partnerships)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_st(), seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 400))
def test_games_of_the_shared_rule_strategy_round_trip(rules: Rules, seed: int, moves: int) -> None:
    """Rule sets from the shared strategy, and games cut anywhere (unfinished games too)."""
    game = random_game(rules, seed, moves=moves)
    record = assert_round_trip(game)
    assert record.tags["Result"] == (str(game.winner) if game.over else "*")


# ----------------------------------------------------------------------------- a fixed game


def sample_game() -> Game:
    """A finished 2-player classic game of several hands (seeded)."""
    game = random_game(make_rules("classic", target=31), seed=7)
    assert game.over and len(game.hands) >= 3
    return game


SAMPLE = write_record(record_of_game(sample_game(), {"Event": "sample"}, ["ann", "bob"]))


def lines() -> list[str]:
    """The sample record's lines (index 0 is line 1)."""
    return SAMPLE.splitlines()


def line_of(pattern: str, nth: int = 0) -> int:
    """The 1-based number of the ``nth`` line matching ``pattern``."""
    found = [i for i, line in enumerate(lines(), 1) if re.search(pattern, line)]
    return found[nth]


def with_line(number: int, new: str | None) -> str:
    """The sample with line ``number`` replaced (or removed when ``new`` is None)."""
    out = lines()
    if new is None:
        del out[number - 1]
    else:
        out[number - 1] = new
    return "\n".join(out) + "\n"


def inserted(before: int, new: str) -> str:
    """The sample with ``new`` inserted as line ``before`` (the old line moves down)."""
    out = lines()
    out.insert(before - 1, new)
    return "\n".join(out) + "\n"


class Fragment(str):
    """A message expected to contain this text (so a test pins the line, not the wording)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and str(self) in other

    __hash__ = str.__hash__


def problems(text: str) -> list[tuple[int, str]]:
    """What check_record says is wrong (it must say something)."""
    with pytest.raises(RecordError) as info:
        check_record(text)
    exc = info.value
    for number, message in exc.problems:
        assert message and (f"line {number}: " in str(exc) if number else message in str(exc))
    return exc.problems


def test_sample_is_canonical_and_replays() -> None:
    """The fixed game the corruption tests start from is valid (else they would prove nothing)."""
    game = check_record(SAMPLE)
    assert game.moves() == sample_game().moves()
    assert SAMPLE.startswith('[Event "sample"]\n')
    assert lines()[line_of(r"^hand 1 ") - 1] == "hand 1 dealer 0"


def test_replay_without_the_seed_tag() -> None:
    """The decks alone replay the game: the seed is not needed (nor trusted)."""
    no_seed = with_line(line_of(r"^\[Seed "), None)
    assert "Seed" not in no_seed
    record = read_record(no_seed)
    assert "Seed" not in record.tags
    assert replay(record).moves() == sample_game().moves()
    wrong_seed = with_line(line_of(r"^\[Seed "), '[Seed "999"]')
    assert check_record(wrong_seed).moves() == sample_game().moves()


def test_an_unfinished_game_round_trips_with_result_star() -> None:
    """A game cut in the middle of a hand: Result *, no points line for the hand in play."""
    game = random_game(make_rules("royal", players=3), seed=3, moves=70)
    assert not game.over
    record = assert_round_trip(game)
    assert record.tags["Result"] == "*" and record.hands[-1].points is None
    assert replay(record).state.moves_played == game.state.moves_played


def lenient(text: str) -> str:
    """The same record as a person might type it: odd spacing and case, comments, ``10`` for T,
    seat prefixes left out, no points lines."""
    out = ["{ typed by hand }", "; a comment line", ""]
    move = 0
    for line in text.splitlines():
        if line.startswith("["):
            tag = re.fullmatch(r'\[(\w+) "(.*)"\]', line)
            assert tag is not None
            name, value = tag.groups()
            if name == "Partnerships":
                value = value.upper()
            out.append(f'[  {name}    "{value}" ]   ')
        elif line.startswith("hand"):
            out.append("   " + line.upper().replace(" ", "   ") + "  ; dealer shown")
        elif line.startswith("deck"):
            cards = [c.replace("T", "10") for c in line.split()[1:]]
            out.append("DECK  " + "  ".join(c.upper() if i % 2 else c.lower() for i, c in enumerate(cards)))
        elif line.startswith("points"):
            continue
        elif line.startswith("seat"):
            seat, notation = line.split(": ", 1)
            notation = notation.replace("T", "10")
            move += 1
            if move % 4 == 0:
                out.append(f"{notation.upper()} {{seat left out}}")
            elif move % 4 == 1:
                out.append(f"  {seat.upper()}  :   {notation.replace(': ', ' :  ')}  ; why not")
            elif move % 4 == 2:
                out.append(f"{seat.split()[1]}: {{short form}} {notation}")
            else:
                out.append(f"{seat}:{notation}")
        else:
            out.append(line)
    return "\r\n".join(out) + "\n\n"


def test_lenient_reading_reads_the_same_game() -> None:
    """Spacing, case, comments, ``10``, missing seats and points change nothing in the game."""
    exact = read_record(SAMPLE)
    loose_text = lenient(SAMPLE)
    assert "10" in loose_text and "{seat left out}" in loose_text and "points" not in loose_text
    loose = read_record(loose_text)
    assert loose.rules == exact.rules and loose.tags["Partnerships"] == "FALSE"
    assert {k: v for k, v in loose.tags.items() if k != "Partnerships"} == {
        k: v for k, v in exact.tags.items() if k != "Partnerships"
    }
    assert [h.deck for h in loose.hands] == [h.deck for h in exact.hands]
    assert [h.dealer for h in loose.hands] == [h.dealer for h in exact.hands]
    for a, b in zip(loose.hands, exact.hands, strict=True):
        assert [code for _, code in a.moves] == [code for _, code in b.moves]
        assert all(s in (-1, t) for (s, _), (t, _) in zip(a.moves, b.moves, strict=True))
        assert -1 in [s for s, _ in a.moves] and a.points is None
    game = replay(loose)
    original = sample_game()
    assert game.moves() == original.moves() and game.scores == original.scores
    assert game.winner == original.winner


def test_a_hand_line_may_leave_out_its_dealer() -> None:
    """``hand 2`` without ``dealer``: the dealer follows from the deal passing on."""
    number = line_of(r"^hand 2 dealer ")
    assert check_record(with_line(number, "hand 2")).moves() == sample_game().moves()


def test_a_comment_may_follow_a_tag() -> None:
    """``;`` comments run to the end of any line, a tag line too; inside a tag value it is text."""
    text = with_line(1, '[Event "sample; {not a comment}"]   ; the event')
    record = read_record(text)
    assert record.tags["Event"] == "sample; {not a comment}"


# ----------------------------------------------------------------------------- corrupted records


def deck_cards(hand: int) -> tuple[int, list[str]]:
    """The line number of hand ``hand``'s deck and its cards."""
    number = line_of(r"^deck ", hand - 1)
    return number, lines()[number - 1].split()[1:]


def test_a_bad_card_in_a_deck() -> None:
    number, cards = deck_cards(2)
    cards[10] = "7x"
    assert problems(with_line(number, "deck " + " ".join(cards))) == [(number, Fragment("'7x' is not a card"))]


def test_a_deck_with_a_card_twice() -> None:
    number, cards = deck_cards(2)
    lost, cards[5] = cards[5], cards[6]
    [(line, message)] = problems(with_line(number, "deck " + " ".join(cards)))
    assert line == number
    assert "52 cards" in message and f"missing {lost}" in message and f"twice {cards[6]}" in message


def test_a_deck_with_a_card_missing() -> None:
    number, cards = deck_cards(1)
    lost = cards.pop(17)
    [(line, message)] = problems(with_line(number, "deck " + " ".join(cards)))
    assert line == number and f"missing {lost}" in message and "twice" not in message


def test_a_hand_without_its_deck() -> None:
    assert problems(with_line(line_of(r"^deck ", 1), None)) == [(line_of(r"^hand 2 "), Fragment("no 'deck' line"))]


def test_an_illegal_move_names_the_move_and_the_rule() -> None:
    """Hand 1's first move replaced by a build of 11 (classic builds stop at 10, rule 6.1)."""
    state = Game(make_rules("classic", target=31), seed=7).state
    numeral = next(c for c in cards_of(state.hands[state.to_move]) if state.values[c])
    bad = f"build {card_name(numeral)} 11: {card_name(cards_of(state.loose)[0])}"
    number = line_of(r"^seat ", 0)
    assert lines()[number - 1].startswith(f"seat {state.to_move}: ")
    [(line, message)] = problems(with_line(number, f"seat {state.to_move}: {bad}"))
    assert line == number
    assert f"illegal move {bad!r}" in message and "(rule 6.1)" in message


def test_a_move_by_the_wrong_seat() -> None:
    number = line_of(r"^seat ", 60)
    seat, notation = lines()[number - 1].split(": ", 1)
    other = 1 - int(seat.split()[1])
    assert problems(with_line(number, f"seat {other}: {notation}")) == [
        (number, f"seat {other} moves, but it is seat {1 - other}'s turn")
    ]


def test_a_move_after_the_hand_ended() -> None:
    """An extra move where hand 1's points line stands."""
    number = line_of(r"^points ", 0)
    [(line, message)] = problems(inserted(number, "seat 0: trail 7h"))
    assert line == number and message == "move 'trail 7h' after the end of hand 1"


def test_a_move_after_the_game_ended() -> None:
    number = len(lines())  # the last hand's points line
    assert lines()[-1].startswith("points ")
    hands = sum(1 for line in lines() if line.startswith("hand "))
    [(line, message)] = problems(inserted(number, "seat 1: trail 2c"))
    assert line == number and message == f"move 'trail 2c' after the end of hand {hands}"


def test_a_move_missing_at_the_end_of_a_hand() -> None:
    """Hand 1 stops one move short: hand 2 cannot start."""
    number = line_of(r"^points ", 0) - 1
    assert problems(with_line(number, None)) == [
        (line_of(r"^hand 2 ") - 1, "hand 2 starts, but the game is still in hand 1")
    ]


def test_wrong_points_name_the_points_line() -> None:
    """The line to fix is the ``points`` line itself."""
    number = line_of(r"^points ", 1)
    real = [int(w) for w in lines()[number - 1].split()[1:]]
    fake = [real[0] + 1, real[1]]
    [(line, message)] = problems(with_line(number, "points " + " ".join(map(str, fake))))
    assert f"hand 2 scores {real}, but the record says {fake}" == message
    assert line == number, f"the problem is on line {number} ({lines()[number - 1]!r}), reported on line {line}"


@pytest.mark.parametrize("wrong", ["other side", "not a number"])
def test_a_wrong_result_names_the_result_tag(wrong: str) -> None:
    """The line to fix is the Result tag (not "no line at all")."""
    number = line_of(r"^\[Result ")
    real = int(lines()[number - 1].split('"')[1])
    result = str(1 - real) if wrong == "other side" else "x"
    [(line, message)] = problems(with_line(number, f'[Result "{result}"]'))
    assert ("Result" in message and repr(result) in message) or f"side {result} won" in message
    assert line == number, f"the problem is on line {number} (Result changed to {result!r}), reported on line {line}"


def test_a_malformed_tag() -> None:
    number = line_of(r"^\[Date ")
    [(line, message)] = problems(with_line(number, '[Date "2026.01.01"'))
    assert line == number and message.startswith("malformed tag") and '[Name "value"]' in message


def test_a_hand_out_of_order() -> None:
    number = line_of(r"^hand 2 ")
    assert problems(with_line(number, "hand 3 dealer 1")) == [(number, "hand 3 out of order: expected hand 2")]


def test_an_unknown_option() -> None:
    number = line_of(r"^\[Options ")
    [(line, message)] = problems(with_line(number, '[Options "target=31 bogus=1"]'))
    assert line == number and "unknown rule option 'bogus'" in message


def test_a_rejected_combination_of_options() -> None:
    number = line_of(r"^\[Options ")
    [(line, message)] = problems(with_line(number, '[Options "target=31 tiebreak=count_out scoring=spade"]'))
    assert line == number and "spade scoring" in message


def test_every_problem_of_a_record_is_listed_at_once() -> None:
    """A person fixes a record in one go: reading reports all problems, in line order."""
    text = lines()
    deck_line, cards = deck_cards(2)
    cards[0] = "1s"
    broken = {
        line_of(r"^\[Date "): "[Date 2026]",
        deck_line: "deck " + " ".join(cards),
        deck_line + 3: "seat 0: fly 7h",
        line_of(r"^hand 3 "): "hand 9 dealer 0",
    }
    for number, new in broken.items():
        text[number - 1] = new
    assert [line for line, _ in problems("\n".join(text) + "\n")] == sorted(broken)


def test_the_error_text_lists_line_numbers() -> None:
    """``str(RecordError)`` is what a person reads: every problem as ``line N: ...``."""
    exc = RecordError([(3, "bad"), (0, "no line"), (9, "worse")])
    assert str(exc) == "line 3: bad; no line; line 9: worse"
    assert exc.problems == [(3, "bad"), (0, "no line"), (9, "worse")]


# ----------------------------------------------------------------------------- tags, numbers and comments


@pytest.mark.parametrize(
    ("tag", "fragment"),
    [
        ("Prest", "unknown tag 'Prest': did you mean 'Preset'? the tags are Event, Site, Date,"),
        ("preset", "unknown tag 'preset': tag names are case-sensitive, write 'Preset'"),
        ("PRESET", "unknown tag 'PRESET': tag names are case-sensitive, write 'Preset'"),
        ("Colour", "unknown tag 'Colour': the tags are Event, Site, Date, Seat0"),
    ],
)
def test_an_unknown_or_misspelt_tag_is_refused(tag: str, fragment: str) -> None:
    """Read as nothing, a misspelt Preset made the game replay as classic and fail much later."""
    number = line_of(r"^\[Preset ")
    found = problems(with_line(number, f'[{tag} "classic"]'))
    assert found[0] == (number, Fragment(fragment))
    assert found[1:] == [(0, Fragment("missing tag Preset"))]
    assert problems(inserted(1, '[Annotator "me"]')) == [(1, Fragment("unknown tag 'Annotator'"))]


def test_a_repeated_tag_is_refused() -> None:
    first = line_of(r"^\[Players ")
    at = line_of(r"^\[Seed ")
    assert problems(inserted(at, '[Players "2"]')) == [
        (at, f"tag Players repeated: it is given on line {first} already")
    ]


@pytest.mark.parametrize("tag", ["Preset", "Players", "Partnerships", "Options", "Result", "Scores"])
def test_a_missing_required_tag_is_refused(tag: str) -> None:
    assert problems(with_line(line_of(rf"^\[{tag} "), None)) == [
        (0, f"missing tag {tag}: a record gives each of Preset, Players, Partnerships, Options, Result, Scores")
    ]


@pytest.mark.parametrize("tag", ["Event", "Site", "Date", "Seat0", "Seed"])
def test_the_other_tags_may_be_left_out(tag: str) -> None:
    text = SAMPLE if tag == "Site" else with_line(line_of(rf"^\[{tag} "), None)
    assert check_record(text).moves() == sample_game().moves()


def test_wrong_scores_name_the_scores_tag() -> None:
    number = line_of(r"^\[Scores ")
    real = lines()[number - 1].split('"')[1]
    first, second = real.split()
    fake = f"{first} {int(second) + 1}"
    assert problems(with_line(number, f'[Scores "{fake}"]')) == [
        (number, f"Scores says {fake!r}, but the replayed game ends {real}")
    ]
    assert problems(with_line(number, f'[Scores "{first}"]')) == [
        (number, f"Scores must be 2 whole numbers, one per side, got {first!r}")
    ]


def test_an_unclosed_comment_is_reported_on_its_own_line() -> None:
    number = line_of(r"^seat ", 10)
    text = with_line(number, lines()[number - 1] + " {forgot to close")
    assert problems(text)[0] == (number, "a '{' comment is never closed: end it with '}'")
    # Closed later, the comment is as before: the lines inside it are left out.
    closed = with_line(number + 1, "}" + lines()[number])
    assert check_record(closed.replace(lines()[number - 1], lines()[number - 1] + " {a long")).moves()


def test_a_utf8_bom_is_accepted() -> None:
    assert check_record("\ufeff" + SAMPLE).moves() == sample_game().moves()


@pytest.mark.parametrize(
    ("pattern", "old", "new", "fragment"),
    [
        (r"^hand 2 ", "hand 2", "hand ٢", "malformed hand line 'hand ٢ dealer"),
        (r"^hand 2 ", "dealer 1", "dealer ١", "malformed hand line"),
        (r"^seat ", "seat ", "seat ٠", "cannot read 'seat ٠"),
        (r"^points ", "points ", "points ٣ ", "malformed points line"),
        (r"^\[Players ", '"2"', '"٢"', "rules: Players must be 2, 3 or 4, got '٢'"),
        (r"^\[Options ", "target=31", "target=٣١", "option 'target=٣١': '٣' is not one of the digits 0-9"),
        (r"^\[Result ", '"', '"١', "Result must be a side number"),
        (r"^\[Scores ", '"', '"١', "Scores must be 2 whole numbers"),
    ],
)
def test_only_ascii_digits_are_numbers(pattern: str, old: str, new: str, fragment: str) -> None:
    """Python's int() reads Arabic-Indic digits (and isdigit accepts them): a record must not."""
    number = line_of(pattern)
    text = with_line(number, lines()[number - 1].replace(old, new, 1))
    assert (number, Fragment(fragment)) in problems(text)


def test_only_ascii_digits_in_a_move_value() -> None:
    number = line_of(r"^seat \d: (capture|build) \S+ \d+:")
    line = lines()[number - 1]
    value = line.split()[4].rstrip(":")
    arabic = "".join(chr(0x0660 + int(d)) for d in value)
    [(at, message)] = problems(with_line(number, line.replace(f" {value}:", f" {arabic}:", 1)))
    assert at == number and f"{chr(0x0660 + int(value[0]))!r} is not one of the digits 0-9" in message


def test_a_long_line_is_quoted_by_an_excerpt() -> None:
    number = line_of(r"^hand 2 ")
    [(at, message)] = problems(with_line(number, "x" * 5_000_000))[:1]
    assert (
        at == number
        and message == f"cannot read '{'x' * 60}'… (5000000 characters): expected a move such as 'seat 1: trail 7h'"
    )
    deck_line, cards = deck_cards(1)
    cards[0] = "7" * 1000
    assert problems(with_line(deck_line, "deck " + " ".join(cards)))[0] == (
        deck_line,
        Fragment(f"'{'7' * 60}'… (1000 characters) is not a card"),
    )


def test_a_junk_record_reports_its_first_problems() -> None:
    found = problems("\n".join(f"junk {i}" for i in range(1000)))
    assert len(found) == 21 and found[-1] == (0, Fragment("more problems"))
