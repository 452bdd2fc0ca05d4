"""Deals no server can choose, checked from outside: the derivation of ``cassino.web.fair`` written
again here from its docstring alone (hashlib only), and ``cassino verify`` run as a command on
whole record files built here from the engine, good ones and tampered ones.
"""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cassino.cards import card_name, shuffled_deck
from cassino.cli import main
from cassino.game import Game
from cassino.moves import format_code
from cassino.record import record_of_game, write_record
from cassino.rules import make_rules
from cassino.web import fair

SCRIPT = Path(sys.executable).parent / "cassino"
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "cassino.cli"]

# ----------------------------------------------------------------------------- the derivation, again


def independent_deck(game: str, hand: int, seed: str, contributions: Mapping[int, str]) -> list[str]:
    """The deck by the docstring of cassino.web.fair, read as a specification: card names, top first."""
    given = ",".join(f"{seat}={contributions[seat]}" for seat in sorted(contributions))
    root = hashlib.sha256(f"cassino-deal-v1|{game}|{hand}|{seed}|{given}".encode("ascii")).hexdigest()

    def stream() -> Iterator[int]:
        block = 0
        while True:
            yield from hashlib.sha256(f"{root}|{block}".encode("ascii")).digest()
            block += 1

    cards = [rank + suit for rank in "A23456789TJQK" for suit in "cdhs"]
    assert cards[:5] == ["Ac", "Ad", "Ah", "As", "2c"] and cards[-1] == "Ks"
    bytes_ = stream()

    def uniform(n: int) -> int:
        while True:
            b = next(bytes_)
            if b < 256 - 256 % n:
                return b % n

    for i in range(51, 0, -1):
        j = uniform(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def derived(game: str, hand: int, seed: str, contributions: Mapping[int, str]) -> list[str]:
    return [card_name(c) for c in fair.derive_deck(game, hand, seed, contributions)]


hex64 = st.binary(min_size=32, max_size=32).map(bytes.hex)
contribution_sets = st.dictionaries(st.integers(0, 3), hex64, max_size=4)
game_ids = st.text("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_", min_size=1, max_size=24)


@settings(max_examples=200, deadline=None)
@given(game_ids, st.integers(1, 500), hex64, contribution_sets)
def test_the_derivation_is_the_documented_one(game: str, hand: int, seed: str, contributions: dict[int, str]) -> None:
    deck = derived(game, hand, seed, contributions)
    assert deck == independent_deck(game, hand, seed, contributions)
    assert sorted(deck) == sorted(independent_deck(game, hand, seed, {}))  # 52 cards, each once
    commit = hashlib.sha256(seed.encode("ascii")).hexdigest()
    assert fair.seed_commitment(seed) == commit
    assert fair.verify_deal(commit, game, hand, seed, contributions, " ".join(deck)) is None


KNOWN_TOP = ["Jh", "Tc", "4d", "7s", "3s", "Js", "7c", "Jd"]
"""The first 8 cards of game "g", hand 1, seed 00..00, seat 0 contributing 11..11 (computed once)."""


def test_a_known_answer() -> None:
    seed, contributions = "00" * 32, {0: "11" * 32}
    assert derived("g", 1, seed, contributions)[:8] == KNOWN_TOP
    assert independent_deck("g", 1, seed, contributions)[:8] == KNOWN_TOP
    assert fair.seed_commitment(seed) == hashlib.sha256(b"0" * 64).hexdigest()


@settings(max_examples=100, deadline=None)
@given(game_ids, st.integers(1, 50), hex64, contribution_sets.filter(bool), st.data())
def test_one_hex_digit_of_a_contribution_changes_the_deck(
    game: str, hand: int, seed: str, contributions: dict[int, str], data: st.DataObject
) -> None:
    seat = data.draw(st.sampled_from(sorted(contributions)))
    at = data.draw(st.integers(0, 63))
    value = contributions[seat]
    digit = data.draw(st.sampled_from([d for d in "0123456789abcdef" if d != value[at]]))
    changed = {**contributions, seat: value[:at] + digit + value[at + 1 :]}
    assert derived(game, hand, seed, changed) != derived(game, hand, seed, contributions)


@settings(max_examples=100, deadline=None)
@given(game_ids, st.integers(1, 50), hex64, contribution_sets.filter(lambda c: len(c) < 4), hex64, st.data())
def test_one_more_contribution_changes_the_deck(
    game: str, hand: int, seed: str, contributions: dict[int, str], value: str, data: st.DataObject
) -> None:
    seat = data.draw(st.sampled_from([s for s in range(4) if s not in contributions]))
    assert derived(game, hand, seed, {**contributions, seat: value}) != derived(game, hand, seed, contributions)


@settings(max_examples=100, deadline=None)
@given(game_ids, st.integers(1, 50), hex64, contribution_sets, st.randoms(use_true_random=False))
def test_the_order_contributions_come_in_does_not_matter(
    game: str, hand: int, seed: str, contributions: dict[int, str], rng: random.Random
) -> None:
    items = list(contributions.items())
    rng.shuffle(items)
    assert derived(game, hand, seed, dict(items)) == derived(game, hand, seed, contributions)
    assert derived(game, hand, seed, dict(reversed(items))) == derived(game, hand, seed, contributions)


def test_the_seed_game_and_hand_each_change_the_deck() -> None:
    base = derived("g", 1, "00" * 32, {0: "11" * 32})
    assert derived("g", 1, "00" * 31 + "01", {0: "11" * 32}) != base
    assert derived("h", 1, "00" * 32, {0: "11" * 32}) != base
    assert derived("g", 2, "00" * 32, {0: "11" * 32}) != base
    assert derived("g", 1, "00" * 32, {1: "11" * 32}) != base  # the same value from another seat


WRONG_DECK = "the deck is not the one the seed and the contributions give"


def test_verify_deal_refuses_what_is_wrong() -> None:
    seed, contributions = "ab" * 32, {0: "11" * 32, 2: "22" * 32}
    commit = fair.seed_commitment(seed)
    deck = " ".join(independent_deck("g", 3, seed, contributions))
    assert fair.verify_deal(commit, "g", 3, seed, contributions, deck) is None
    assert fair.verify_deal(commit.upper(), "g", 3, seed, contributions, deck) is None
    # A wrong contribution: another value, a seat more or less, a value that is not one.
    assert fair.verify_deal(commit, "g", 3, seed, {**contributions, 2: "23" * 32}, deck) == WRONG_DECK
    assert fair.verify_deal(commit, "g", 3, seed, {**contributions, 1: "33" * 32}, deck) == WRONG_DECK
    assert fair.verify_deal(commit, "g", 3, seed, {0: "11" * 32}, deck) == WRONG_DECK
    assert (
        fair.verify_deal(commit, "g", 3, seed, {**contributions, 2: "22" * 31 + "2G"}, deck)
        == "seat 2's contribution is not 64 lower-case hex digits"
    )
    # A wrong seed: another one (it does not match the commitment), or one that is not a seed.
    assert (
        fair.verify_deal(commit, "g", 3, "ab" * 31 + "ac", contributions, deck)
        == "the seed does not match the commitment published before the hand"
    )
    assert (
        fair.verify_deal(commit, "g", 3, "AB" * 32, contributions, deck) == "the seed is not 64 lower-case hex digits"
    )
    assert (
        fair.verify_deal(commit, "g", 3, "ab" * 16, contributions, deck) == "the seed is not 64 lower-case hex digits"
    )
    # A wrong deck: two cards swapped, another hand's deck, the right one in another spelling.
    words = deck.split(" ")
    words[0], words[1] = words[1], words[0]
    assert fair.verify_deal(commit, "g", 3, seed, contributions, " ".join(words)) == WRONG_DECK
    other = " ".join(independent_deck("g", 4, seed, contributions))
    assert fair.verify_deal(commit, "g", 3, seed, contributions, other) == WRONG_DECK
    assert fair.verify_deal(commit, "g", 3, seed, contributions, deck.replace(" ", "  ")) == WRONG_DECK


# ----------------------------------------------------------------------------- record files


def seats_contributing(hand: int, players: int) -> list[int]:
    """Who contributes to a hand of the files made here: all, then one, then none, and again."""
    return [list(range(players)), [players - 1], []][(hand - 1) % 3]


def hex_of(rng: random.Random) -> str:
    return f"{rng.getrandbits(256):064x}"


def made_game(
    seed: int = 5, players: int = 2, target: int = 11, legacy: frozenset[int] = frozenset()
) -> dict[str, Any]:
    """A finished game as ``GET /api/games/{id}/record`` gives it: decks derived from made-up
    seeds and contributions (or, for the hands in ``legacy``, commit-v0 decks), random legal moves
    from a seeded Random to the end of the game, and the record text written as the server does."""
    rng = random.Random(seed)
    game_id = f"game{seed}"
    deals: list[dict[str, Any]] = []

    def next_deck() -> list[int]:
        number = len(deals) + 1
        if number in legacy:
            salt = hex_of(rng)
            deck = shuffled_deck(rng)
            deals.append(
                {"scheme": fair.LEGACY, "commitment": fair.commitment(salt, deck), "salt": salt, "contributions": []}
            )
        else:
            server_seed = hex_of(rng)
            contributions = {s: hex_of(rng) for s in seats_contributing(number, players)}
            deck = fair.derive_deck(game_id, number, server_seed, contributions)
            deals.append(
                {
                    "scheme": fair.SCHEME,
                    "commitment": fair.seed_commitment(server_seed),
                    "salt": server_seed,
                    "contributions": [{"seat": s, "value": v} for s, v in sorted(contributions.items())],
                }
            )
        return deck

    game = Game(make_rules("classic", players=players, target=target), deck_source=next_deck)
    while not game.over:
        game.play(rng.choice(game.state.legal_codes()))
    names = [f"player{s}" for s in range(players)]
    tags = {"Event": "Web game", "Site": "cassino serve", "Date": "2026.01.02"}
    hands = []
    for number, (state, deck, deal) in enumerate(zip(game.hands, game.decks, deals, strict=True), 1):
        moves = [{"seat": s, "move": format_code(c)} for s, c in state.history]
        hands.append(
            {
                "game": game_id,
                "hand": number,
                "dealer": state.dealer,
                **deal,
                "deck": fair.deck_text(deck),
                "moves": moves,
            }
        )
    return {
        "game": game_id,
        "record": write_record(record_of_game(game, tags, names)),
        "hands": hands,
        "winner": game.winner,
        "scores": list(game.scores),
        "frames": [],
    }


def verified_lines(data: dict[str, Any], yours: Mapping[int, int] | None = None) -> list[str]:
    """The report of a good file, as the documentation describes it."""
    lines = []
    for hand in data["hands"]:
        if hand["scheme"] == fair.LEGACY:
            said = "commit-v0: the deck was committed before the hand, but the server chose it"
        else:
            seats = [c["seat"] for c in hand["contributions"]]
            listed = ", ".join(map(str, seats))
            said = "seed committed before the hand; " + (
                f"contribution of seat {listed}"
                if len(seats) == 1
                else f"contributions of seats {listed}"
                if seats
                else "no contributions: the server's seed alone made the deck"
            )
        if yours and hand["hand"] in yours:
            said += f"; yours (seat {yours[hand['hand']]}) was used"
        lines.append(f"hand {hand['hand']}: verified ({said})")
    scores = "-".join(map(str, data["scores"]))
    count = len(data["hands"])
    lines.append(f"game {data['game']}: verified, {count} hand{'s' if count != 1 else ''}, scores {scores}")
    return lines


GAME = made_game(seed=5, target=21)


def test_the_made_game_is_a_real_one() -> None:
    assert len(GAME["hands"]) >= 3  # contributions by all, one and no seat
    assert [len(h["contributions"]) for h in GAME["hands"][:3]] == [2, 1, 0]
    assert GAME["scores"][GAME["winner"]] >= 21


def cassino(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([*COMMAND, *args], input=stdin, capture_output=True, timeout=60, check=False)
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode())


def verify(tmp_path: Path, data: Any, *args: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    proc = cassino("verify", str(path), *args)
    assert "Traceback" not in proc.stderr
    return proc


def failed(proc: subprocess.CompletedProcess[str], data: dict[str, Any], hands_verified: int) -> str:
    """The failure line of a run that failed after ``hands_verified`` verified hands."""
    assert proc.returncode == 1 and proc.stderr == "", (proc.returncode, proc.stderr)
    lines = proc.stdout.splitlines()
    assert lines[:-1] == verified_lines(data)[:hands_verified]
    return lines[-1]


def copy(data: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(data))
    return out


def test_a_good_file_verifies(tmp_path: Path) -> None:
    proc = verify(tmp_path, GAME)
    assert (proc.returncode, proc.stderr) == (0, "")
    assert proc.stdout.splitlines() == verified_lines(GAME)
    assert (
        proc.stdout.splitlines()[0] == "hand 1: verified (seed committed before the hand; contributions of seats 0, 1)"
    )


def test_standard_input_and_three_players() -> None:
    data = made_game(seed=2, players=3, target=11)
    proc = cassino("verify", "-", stdin=json.dumps(data).encode())
    assert (proc.returncode, proc.stderr) == (0, "")
    assert proc.stdout.splitlines() == verified_lines(data)


def test_commit_v0_hands_verify_and_say_the_server_chose_them(tmp_path: Path) -> None:
    data = made_game(legacy=frozenset({1}))
    assert data["hands"][0]["scheme"] == fair.LEGACY
    del data["hands"][0]["contributions"]  # absent, as older servers wrote them
    proc = verify(tmp_path, data)
    assert (proc.returncode, proc.stderr) == (0, "")
    assert proc.stdout.splitlines() == verified_lines(data)
    assert "but the server chose it" in proc.stdout.splitlines()[0]
    data["hands"][0]["deck"] = data["hands"][1]["deck"]
    line = failed(verify(tmp_path, data), data, 0)
    assert line == "hand 1: not verified: the salt and the deck do not match the commitment"


def test_a_changed_contribution_fails(tmp_path: Path) -> None:
    data = copy(GAME)
    value = data["hands"][0]["contributions"][1]["value"]
    data["hands"][0]["contributions"][1]["value"] = value[:10] + ("1" if value[10] != "1" else "2") + value[11:]
    line = failed(verify(tmp_path, data), data, 0)
    assert line == "hand 1: not verified: the deck is not the one the seed and the contributions give"


def test_a_dropped_or_added_contribution_fails(tmp_path: Path) -> None:
    data = copy(GAME)
    del data["hands"][0]["contributions"][0]
    line = failed(verify(tmp_path, data), data, 0)
    assert line == "hand 1: not verified: the deck is not the one the seed and the contributions give"
    data = copy(GAME)
    data["hands"][2]["contributions"] = [{"seat": 0, "value": "11" * 32}]
    line = failed(verify(tmp_path, data), data, 2)
    assert line == "hand 3: not verified: the deck is not the one the seed and the contributions give"


def test_a_changed_seed_fails(tmp_path: Path) -> None:
    data = copy(GAME)
    data["hands"][1]["salt"] = "0" * 64
    line = failed(verify(tmp_path, data), data, 1)
    assert line == "hand 2: not verified: the seed does not match the commitment published before the hand"


def test_a_changed_deck_fails(tmp_path: Path) -> None:
    data = copy(GAME)
    words = data["hands"][1]["deck"].split(" ")
    words[0], words[51] = words[51], words[0]
    data["hands"][1]["deck"] = " ".join(words)
    line = failed(verify(tmp_path, data), data, 1)
    assert line == "hand 2: not verified: the deck is not the one the seed and the contributions give"


def test_a_changed_move_fails(tmp_path: Path) -> None:
    data = copy(GAME)
    record_move = data["hands"][0]["moves"][2]
    data["hands"][0]["moves"][2] = {"seat": record_move["seat"], "move": "trail Kc"}
    line = failed(verify(tmp_path, data), data, 0)
    assert line == (
        f"hand 1: not verified: move 3 is 'seat {record_move['seat']}: {record_move['move']}' in the record text, "
        f"'seat {record_move['seat']}: trail Kc' in the file"
    )
    # The same move changed in the record text too: then the engine refuses it (or a later one).
    data["record"] = data["record"].replace(
        f"seat {record_move['seat']}: {record_move['move']}\n", f"seat {record_move['seat']}: trail Kc\n", 1
    )
    line = failed(verify(tmp_path, data), data, 0)
    assert line.startswith("hand 1: not verified: move ") and "illegal move" in line, line


def test_a_move_by_the_wrong_seat_fails(tmp_path: Path) -> None:
    data = copy(GAME)
    move = data["hands"][0]["moves"][0]
    move["seat"] = 1 - move["seat"]
    line = failed(verify(tmp_path, data), data, 0)
    assert line.startswith("hand 1: not verified: move 1 is 'seat ") and line.endswith("in the file")


def test_a_changed_score_or_winner_fails(tmp_path: Path) -> None:
    data = copy(GAME)
    data["scores"][0] += 1
    line = failed(verify(tmp_path, data), data, len(data["hands"]))
    real = "-".join(map(str, GAME["scores"]))
    told = "-".join(map(str, data["scores"]))
    assert line == f"game {GAME['game']}: not verified: the file says scores {told}, but the moves end {real}"
    data = copy(GAME)
    data["winner"] = 1 - data["winner"]
    line = failed(verify(tmp_path, data), data, len(data["hands"]))
    assert line == (
        f"game {GAME['game']}: not verified: the file says side {data['winner']} won, "
        f"but the moves make side {GAME['winner']} the winner"
    )


def test_a_changed_record_text_fails(tmp_path: Path) -> None:
    game = GAME["game"]
    data = copy(GAME)
    data["record"] = data["record"].replace('[Options "-"]', '[Options "target=31"]')  # not 21
    line = failed(verify(tmp_path, data), data, len(data["hands"]))
    assert line == f"game {game}: not verified: the game is not over after the last hand"
    data = copy(GAME)
    scores = " ".join(map(str, GAME["scores"]))
    data["record"] = data["record"].replace(f'[Scores "{scores}"]', '[Scores "1 2"]')
    line = failed(verify(tmp_path, data), data, len(data["hands"]))
    assert (
        line
        == f"game {game}: not verified: the record text: line 11: Scores says '1 2', but the replayed game ends {scores}"
    )
    data = copy(GAME)
    data["record"] = data["record"].replace("[Seat1", "[seat1")
    line = failed(verify(tmp_path, data), data, 0)
    assert line == (
        f"game {game}: not verified: the record text does not read: "
        "line 5: unknown tag 'seat1': tag names are case-sensitive, write 'Seat1'"
    )
    data = copy(GAME)
    data["hands"].pop()
    line = failed(verify(tmp_path, data), data, len(data["hands"]))
    assert (
        line
        == f"game {game}: not verified: the record text has {len(GAME['hands'])} hands, the file {len(data['hands'])}"
    )
    data = copy(GAME)
    last = data["record"].rindex("\nhand ")
    data["record"] = data["record"][:last] + "\n"
    line = failed(verify(tmp_path, data), data, len(data["hands"]) - 1)
    assert line == f"hand {len(data['hands'])}: not verified: the record text has no hand {len(data['hands'])}"


def test_mine_checks_a_persons_own_contribution(tmp_path: Path) -> None:
    value = GAME["hands"][0]["contributions"][0]["value"]
    proc = verify(tmp_path, GAME, "--mine", f"1:0:{value}")
    assert (proc.returncode, proc.stderr) == (0, "")
    assert proc.stdout.splitlines() == verified_lines(GAME, {1: 0})
    assert proc.stdout.splitlines()[0].endswith("contributions of seats 0, 1; yours (seat 0) was used)")
    assert verify(tmp_path, GAME, "--mine", f"1:0:{value.upper()}").returncode == 0
    other = "22" * 32 if value != "22" * 32 else "33" * 32
    line = failed(verify(tmp_path, GAME, "--mine", f"1:0:{other}"), GAME, 0)
    assert line == "hand 1: not verified: seat 0's contribution is not the one you sent"
    line = failed(verify(tmp_path, GAME, "--mine", f"3:0:{value}"), GAME, 2)
    assert line == "hand 3: not verified: seat 0 did not contribute, but you sent a contribution"


@pytest.mark.parametrize(
    ("mine", "message"),
    [
        ("1:0", "--mine must be HAND:SEAT:VALUE (VALUE: the 64 hex digits your page sent), got '1:0'"),
        ("1:x:" + "0" * 64, "--mine must be HAND:SEAT:VALUE (VALUE: the 64 hex digits your page sent), got "),
        ("9:0:" + "0" * 64, "--mine names hand 9, but the game has hands 1 to "),
    ],
)
def test_bad_mine_arguments_are_user_errors(tmp_path: Path, mine: str, message: str) -> None:
    proc = verify(tmp_path, GAME, "--mine", mine)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith(f"cassino verify: {message}"), proc.stderr


def _hand_field(name: str, value: Any) -> Any:
    data = copy(GAME)
    data["hands"][0][name] = value
    return data


JUNK: list[tuple[bytes, str]] = [
    (b"", "not valid JSON: Expecting value at line 1 column 1"),
    (b"{", "not valid JSON: Expecting property name enclosed in double quotes at line 1 column 2"),
    (json.dumps(GAME).encode("utf-16"), "cannot read {path}: it is UTF-16 text: save it as UTF-8"),
    (
        json.dumps(GAME, ensure_ascii=False).replace("player0", "pl\u00e9yer0").encode("latin-1"),
        "cannot read {path}: not UTF-8 text: byte 0xe9 at offset 111 (invalid continuation byte)",
    ),
    (b"[" * 100_000, "the JSON is nested too deeply to read: a game's record is five levels deep"),
    (b"[]", "bad record file: expected an object (GET /api/games/ID/record), got []"),
    (b'[true, "x"]', 'bad record file: expected an object (GET /api/games/ID/record), got [true, "x"]'),
    (
        GAME["record"].encode(),
        "this is a game record in text (a terminal game's, or the record field of a web game's file): check it "
        "with: cassino record check FILE; cassino verify takes the JSON a web game's record link gives "
        "(GET /api/games/ID/record)",
    ),
    (
        json.dumps({**GAME, "hands": []}).encode(),
        "bad record file: hands is empty: a finished game has at least one hand",
    ),
    (
        json.dumps({k: v for k, v in GAME.items() if k != "record"}).encode(),
        "bad record file: the file has no 'record' field",
    ),
    (json.dumps({**GAME, "winner": True}).encode(), "bad record file: winner must be a whole number, got true"),
    (json.dumps({**GAME, "scores": [11, "7"]}).encode(), 'bad record file: scores[1] must be a whole number, got "7"'),
    (json.dumps(_hand_field("hand", "1")).encode(), 'bad record file: hands[0].hand must be a whole number, got "1"'),
    (json.dumps(_hand_field("moves", {})).encode(), "bad record file: hands[0].moves must be a list, got {}"),
    (
        json.dumps(_hand_field("contributions", [5])).encode(),
        "bad record file: hands[0].contributions[0] must be an object, got 5",
    ),
    (json.dumps(_hand_field("deck", None)).encode(), "bad record file: hands[0].deck must be a string, got null"),
    (
        json.dumps(_hand_field("moves", [{"seat": 0}])).encode(),
        "bad record file: hands[0].moves[0] has no 'move' field",
    ),
]


@pytest.mark.parametrize(("data", "message"), JUNK, ids=range(len(JUNK)))
def test_a_file_that_is_not_a_record_is_a_user_error(tmp_path: Path, data: bytes, message: str) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(data)
    proc = cassino("verify", str(path))
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == "cassino verify: " + message.replace("{path}", f"'{path}'") + "\n"


def test_a_missing_file_is_a_user_error(tmp_path: Path) -> None:
    proc = cassino("verify", str(tmp_path / "nothing.json"))
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == f"cassino verify: cannot read '{tmp_path / 'nothing.json'}': No such file or directory\n"


# ----------------------------------------------------------------------------- fuzz

FUZZ = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@pytest.fixture
def workdir() -> Iterator[Path]:
    """A folder for the files of a fuzzed run (one for all of Hypothesis's examples)."""
    with tempfile.TemporaryDirectory() as name:
        yield Path(name)


def run_verify(capsys: pytest.CaptureFixture[str], path: Path, *args: str) -> tuple[int, str, str]:
    """``cassino verify`` in this process: the status (argparse's SystemExit too), stdout and stderr."""
    try:
        status = main(["verify", str(path), *args])
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


def assert_one_line_error(status: int, out: str, err: str) -> None:
    assert status == 2 and out == "", (status, out, err)
    assert err.count("\n") == 1 and err.startswith("cassino verify: ") and len(err) > 25, err


@FUZZ
@given(json_values)
def test_any_json_is_refused_in_one_line(capsys: pytest.CaptureFixture[str], workdir: Path, value: Any) -> None:
    path = workdir / "record.json"
    path.write_text(json.dumps(value), encoding="utf-8")
    assert_one_line_error(*run_verify(capsys, path))


@FUZZ
@given(st.sampled_from(["game", "record", "hands", "winner", "scores"]), json_values)
def test_any_json_in_a_field_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], workdir: Path, key: str, value: Any
) -> None:
    right_type = {
        "game": isinstance(value, str),
        "record": isinstance(value, str),
        "winner": isinstance(value, int) and not isinstance(value, bool),
        "scores": isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value),
        "hands": False,
    }
    if right_type[key]:
        value = {"not": value}  # of the right type: the other tests
    path = workdir / "record.json"
    path.write_text(json.dumps({**GAME, key: value}), encoding="utf-8")
    assert_one_line_error(*run_verify(capsys, path))


SMALL = made_game(seed=5, target=11)
"""A game of few hands: cheap to verify many times over."""

HAND_FIELDS = ["game", "hand", "dealer", "scheme", "commitment", "salt", "deck", "contributions", "moves"]


@FUZZ
@given(
    st.integers(0, 10),
    st.sampled_from(HAND_FIELDS),
    st.integers(0, 60),
    json_values | hex64 | st.integers(-2, 4) | st.sampled_from(["trail Ac", fair.LEGACY, fair.SCHEME, "0" * 64]),
    st.booleans(),
)
def test_a_real_file_with_one_part_changed(
    capsys: pytest.CaptureFixture[str], workdir: Path, hand: int, field: str, item: int, new: Any, deep: bool
) -> None:
    data = copy(SMALL)
    target = data["hands"][hand % len(data["hands"])]
    inner = target[field]
    if deep and isinstance(inner, list) and inner:
        entry = inner[item % len(inner)]
        entry[sorted(entry)[item % len(entry)]] = new
    else:
        target[field] = new
    path = workdir / "record.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    status, out, err = run_verify(capsys, path)
    if status == 2:
        assert_one_line_error(status, out, err)
    elif status == 1:
        assert err == "" and out.splitlines()[-1].split(": ", 1)[1].startswith("not verified: ")
        assert all(": verified" in line for line in out.splitlines()[:-1])
    else:
        assert status == 0 and err == "" and out.splitlines() == verified_lines(SMALL) and data == SMALL


@FUZZ
@given(st.binary(max_size=300))
def test_any_bytes_are_refused_in_one_line(capsys: pytest.CaptureFixture[str], workdir: Path, data: bytes) -> None:
    path = workdir / "record.json"
    path.write_bytes(data)
    assert_one_line_error(*run_verify(capsys, path))
