"""The action encoding is exact: every legal move has exactly one masked action sequence and every
masked sequence ends in a legal move, over many random positions of every rule set; and the
observation shows a seat nothing it may not see."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Mapping, Sequence

import pytest

pytest.importorskip("numpy")

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cassino import PRESETS, State, make_rules
from cassino.cards import mask_of, parse_card
from cassino.moves import MoveCode, parse_code
from cassino.rl.encoding import (
    HEADS,
    MODES,
    NOT_OBSERVED,
    NUM_ACTIONS,
    OBS_FIELDS,
    OBS_OFFSETS,
    OBS_SIZE,
    RULE_FIELDS,
    RULE_FLAGS,
    ActionError,
    Selection,
    decode_actions,
    encode_move,
    observe,
)
from cassino.rules import OPTION_NAMES, OPTIONS, Option, Rules, RulesError
from cassino.view import View, view_of
from strategies import option_values, positions, random_play, rules_st, seeded_deck

PROPERTY = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def replay(view: View, prefix: tuple[int, ...]) -> Selection:
    """A selection after some actions (none of which completes the move)."""
    sel = Selection(view)
    for a in prefix:
        assert sel.choose(a) is None
    return sel


def masked_tree(view: View) -> dict[tuple[int, ...], MoveCode]:
    """Every action sequence the masks allow, and the move each one ends in."""
    out: dict[tuple[int, ...], MoveCode] = {}
    stack: list[tuple[int, ...]] = [()]
    while stack:
        prefix = stack.pop()
        sel = replay(view, prefix)
        actions = sel.legal_actions()
        assert actions, "a decision in progress always has a legal action"
        assert np.flatnonzero(sel.mask()).tolist() == actions
        for a in actions:
            move = replay(view, prefix).choose(a)
            if move is None:
                stack.append((*prefix, a))
            else:
                out[(*prefix, a)] = move
    return out


def check_exact(view: View) -> int:
    """The masked sequences and the legal moves are in one-to-one correspondence, both ways."""
    tree = masked_tree(view)
    assert sorted(tree.values()) == sorted(view.legal)
    assert len(set(tree.values())) == len(tree)
    for seq, move in tree.items():
        assert encode_move(view, move) == list(seq)
        assert decode_actions(view, list(seq)) == move
    return len(tree)


def mover_view(state: State) -> View:
    return view_of(state, state.to_move, state.history)


@pytest.mark.parametrize(
    ("preset", "players", "partnerships"),
    [(p, n, False) for p in ("classic", "royal", "spade", "draw") for n in (2, 3, 4)]
    + [(p, 4, True) for p in ("classic", "royal", "spade", "draw")],
)
def test_every_legal_move_maps_to_one_action_sequence_and_back(preset: str, players: int, partnerships: bool) -> None:
    """Whole random hands under each preset and seating, every position of them checked."""
    rules = make_rules(preset, players=players, partnerships=partnerships)
    checked = 0
    for seed in range(6):
        state = State.new_hand(rules, seeded_deck(seed), seed % players)
        rng = random.Random(seed)
        while not state.hand_over:
            checked += check_exact(mover_view(state))
            state.push(rng.choice(sorted(state.legal_codes())))
    assert checked > 6 * 48


@PROPERTY
@given(positions(rules_st()))
def test_exact_under_random_rule_sets(state: State) -> None:
    """The same correspondence at positions of random rule sets (every option drawn)."""
    if state.hand_over:
        return
    check_exact(mover_view(state))


def cards(text: str) -> int:
    """The mask of some card names."""
    return mask_of(parse_card(c) for c in text.split())


def big_table() -> State:
    """A classic position with 18 table items: two chunks of slots."""
    rules = make_rules("classic")
    table = cards("Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Jd Jh Qc Qd Qh Kc Kd")
    mine = cards("Js 9d 5d Ks")
    theirs = cards("2d 3d 4d 6d")
    rest = [c for c in range(52) if not (table | mine | theirs) >> c & 1]
    return State(rules, dealer=1, to_move=0, hands=[mine, theirs], loose=table, builds=(), stock=rest, captured=[0, 0])


def test_moves_beyond_the_first_chunk_take_more_steps() -> None:
    """Slots 12 and up are chosen in chunk 1; chunks where every candidate agrees are skipped."""
    state = big_table()
    view = mover_view(state)
    js, ks = parse_card("Js"), parse_card("Ks")
    assert encode_move(view, parse_code("trail Js")) == [js * MODES]
    assert encode_move(view, parse_code("capture Js J: Jc")) == [js * MODES + 1, HEADS + (1 << 10)]
    assert encode_move(view, parse_code("capture Js J: Jd")) == [js * MODES + 1, HEADS + (1 << 11)]
    assert encode_move(view, parse_code("capture Js J: Jh")) == [js * MODES + 1, HEADS]
    # Kc and Kd sit in slots 16 and 17: chunk 0 is the same for both, so it is skipped.
    assert encode_move(view, parse_code("capture Ks K: Kc")) == [ks * MODES + 1, HEADS + (1 << 4)]
    assert encode_move(view, parse_code("capture Ks K: Kd")) == [ks * MODES + 1, HEADS + (1 << 5)]
    assert check_exact(view) == len(view.legal)

    sel = Selection(view)
    assert sel.choose(ks * MODES + 1) is None
    assert sel.chunk == 1
    obs = observe(view, sel)
    assert obs[OBS_OFFSETS["chunk"] + 2] == 1.0
    slot = OBS_OFFSETS["slots"]
    assert obs[slot + 52 * 4 + parse_card("Kc")] == 1.0  # slot 16 is bit 4 of chunk 1
    assert obs[slot + parse_card("Jh")] == 1.0  # slot 12 is bit 0 of chunk 1
    assert obs[OBS_OFFSETS["pending_card"] + ks] == 1.0


def test_actions_outside_the_mask_are_refused_and_change_nothing() -> None:
    view = mover_view(big_table())
    sel = Selection(view)
    allowed = set(sel.legal_actions())
    for a in range(NUM_ACTIONS):
        if a not in allowed:
            with pytest.raises(ActionError):
                sel.choose(a)
    assert set(sel.legal_actions()) == allowed and sel.head == -1
    sel.choose(parse_card("Js") * MODES + 1)
    chunk_actions = set(sel.legal_actions())
    assert chunk_actions == {HEADS, HEADS + (1 << 10), HEADS + (1 << 11)}
    with pytest.raises(ActionError, match="not a chunk action"):
        sel.choose(5)
    with pytest.raises(ActionError, match="no legal move takes"):
        sel.choose(HEADS + 1)
    assert set(sel.legal_actions()) == chunk_actions
    with pytest.raises(ValueError, match="only a legal move"):
        encode_move(view, parse_code("capture 5d 5: 6c"))
    with pytest.raises(ActionError, match="incomplete"):
        decode_actions(view, [parse_card("Js") * MODES + 1])


def test_observation_layout_is_contiguous() -> None:
    assert sum(f.size for f in OBS_FIELDS) == OBS_SIZE
    assert len({f.name for f in OBS_FIELDS}) == len(OBS_FIELDS)
    assert NUM_ACTIONS == 52 * 16 + 4096


@PROPERTY
@given(positions(rules_st()), st.integers(0, 2**32))
def test_observation_shows_nothing_hidden(state: State, shuffle_seed: int) -> None:
    """Dealing the unseen cards differently (other hands, stock order) leaves every seat's
    observation unchanged: it is a function of what the seat may see."""
    history = state.history
    for seat in range(state.players):
        hidden = [c for c in range(52) if view_of(state, seat).unseen >> c & 1]
        rng = random.Random(shuffle_seed)
        rng.shuffle(hidden)
        hands = list(state.hands)
        pos = 0
        for other in range(state.players):
            if other != seat:
                k = hands[other].bit_count()
                hands[other] = mask_of(hidden[pos : pos + k])
                pos += k
        other_state = State(
            state.rules,
            dealer=state.dealer,
            to_move=state.to_move,
            hands=hands,
            loose=state.loose,
            builds=state.builds,
            stock=hidden[pos:],
            captured=state.captured,
            sweeps=state.sweeps,
            last_capturer=state.last_capturer,
            scores=state.scores,
        )
        a = view_of(state, seat, history)
        b = view_of(other_state, seat, history)
        sel_a = Selection(a) if a.legal else None
        sel_b = Selection(b) if b.legal else None
        assert np.array_equal(observe(a, sel_a), observe(b, sel_b))


def test_observation_fields_read_back() -> None:
    """Spot values of a fresh classic deal from seat 1's side."""
    rules = make_rules("classic", players=3)
    state = random_play(State.new_hand(rules, seeded_deck(7), 0), random.Random(7), 5)
    view = view_of(state, 1, state.history)
    obs = observe(view)
    o = OBS_OFFSETS
    assert [int(c) for c in np.flatnonzero(obs[o["hand"] : o["hand"] + 52])] == [
        c for c in range(52) if state.hands[1] >> c & 1
    ]
    assert obs[o["dealer"] + 2] == 1.0  # dealer 0 is two seats after seat 1 of 3
    assert obs[o["to_move"] + (state.to_move - 1) % 3] == 1.0
    assert obs[o["players"] + 1] == 1.0
    assert obs[o["stock"]] == pytest.approx(len(state.remaining_stock) / 52)
    assert obs[o["chunk"]] == 1.0


def test_engine_import_does_not_need_numpy() -> None:
    code = "import sys, cassino, cassino.players, cassino.game; assert 'numpy' not in sys.modules, 'numpy imported'"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_docs_list_every_observation_field() -> None:
    """docs/rl.md's table says exactly what OBS_FIELDS holds, field by field."""
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "rl.md").read_text()
    rows = [line for line in text.splitlines() if line.startswith("| `") and line.count("|") == 5]
    expected = [
        f"| `{f.name}` | {OBS_OFFSETS[f.name]}..{OBS_OFFSETS[f.name] + f.size - 1} | {f.size} | {f.meaning} |"
        for f in OBS_FIELDS
    ]
    assert [r for r in rows if r.split("`")[1] in OBS_OFFSETS] == expected


def unobserved(names: Sequence[str], fields: Mapping[str, str], not_observed: Mapping[str, str]) -> list[str]:
    """Each rule option that the observation neither shows (a ``rules_flags`` entry or a field of its
    own) nor lists in ``NOT_OBSERVED``, each shown and listed too, and each listed name that is no
    option, in words."""
    problems = []
    for name in names:
        shown = name in RULE_FLAGS or name in fields
        if not shown and name not in not_observed:
            problems.append(
                f"{name}: not observed and not in rl.encoding.NOT_OBSERVED "
                "(give it a field, or list it there with why a policy may go without it)"
            )
        elif shown and name in not_observed:
            problems.append(f"{name}: observed, but rl.encoding.NOT_OBSERVED lists it as left out")
    listed = [*fields, *not_observed]
    problems += [f"{name}: listed in rl.encoding but no option" for name in listed if name not in names]
    return problems


def test_every_rule_option_is_observed_or_listed_as_left_out() -> None:
    assert unobserved(OPTION_NAMES, RULE_FIELDS, NOT_OBSERVED) == []
    assert set(RULE_FIELDS.values()) <= set(OBS_OFFSETS)


def test_a_new_option_left_out_of_the_observation_is_named() -> None:
    """A choice or number option added to OPTIONS with no field and not listed fails by name (an
    on/off option joins ``rules_flags`` by itself); so do a listed option that is observed and a
    listed name that is no option."""
    assert unobserved((*OPTION_NAMES, "stakes"), RULE_FIELDS, NOT_OBSERVED) == [
        "stakes: not observed and not in rl.encoding.NOT_OBSERVED "
        "(give it a field, or list it there with why a policy may go without it)"
    ]
    assert unobserved(OPTION_NAMES, RULE_FIELDS, {**NOT_OBSERVED, "royal": "why", "bluff": "why"}) == [
        "royal: observed, but rl.encoding.NOT_OBSERVED lists it as left out",
        "bluff: listed in rl.encoding but no option",
    ]


def test_the_rule_flags_are_the_on_off_options_in_their_order() -> None:
    """The layout docs/rl.md documents: an option added to OPTIONS changes it only with the docs."""
    assert RULE_FLAGS == (
        "partnerships",
        "royal",
        "royal_ace_high",
        "sweeps",
        "sweeps_cancel",
        "capture_must_be_maximal",
        "owner_may_trail",
        "raise_own_build",
        "table_cards_may_raise",
        "duplicate_value_builds",
    )


RULE_PART = OBS_OFFSETS["players"]
"""Where the rule fields begin: they run to the end of the observation."""


def first_observation(rules: Rules, start: int = 0) -> bytes:
    """Seat 0's observation at the start of a fixed deal under ``rules``, from index ``start`` on."""
    return observe(view_of(State.new_hand(rules, seeded_deck(3), 0), 0))[start:].tobytes()


def observations_by_value(option: Option, start: int = 0) -> list[tuple[int, int]]:
    """On each preset and seating where the rules accept two or more values of the option: how many
    they accept, and how many different observations (from index ``start`` on) those values give."""
    out = []
    for preset in PRESETS.values():
        for players, partnerships in ((2, False), (3, False), (4, True)):
            accepted = []
            for value in option_values(option):
                try:
                    accepted.append(preset.replace(players=players, partnerships=partnerships, **{option.name: value}))
                except RulesError:
                    continue
            if len(accepted) > 1:
                out.append((len(accepted), len({first_observation(rules, start) for rules in accepted})))
    return out


@pytest.mark.parametrize("option", OPTIONS, ids=OPTION_NAMES)
def test_the_observation_shows_exactly_the_options_it_claims(option: Option) -> None:
    """An observed option's rule fields tell every one of its values apart (on some rule set); an
    option left out gives the same whole observation whatever its value, on every rule set."""
    if option.name in NOT_OBSERVED:
        outcomes = observations_by_value(option)
        assert outcomes and all(different == 1 for _, different in outcomes), option.name
    else:
        outcomes = observations_by_value(option, RULE_PART)
        assert any(different == accepted for accepted, different in outcomes), option.name
