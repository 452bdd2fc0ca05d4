"""The fixed action encoding and the observation encoding of the research environments.

A move is ``(card, kind, value, table cards)``, and the table cards are any union of table items,
so no single fixed-size index can name every move of every reachable position. The encoding
therefore names a move as a short sequence of actions from one fixed space of ``NUM_ACTIONS``:

* a **head** action ``card * 16 + mode`` (0..831) says which card is played and how: mode 0 trails,
  mode 1 captures counting the card's own value (0 for a classic court card pairing), mode 2 captures
  counting 14 (a royal ace played high), modes 3..15 build the value ``mode - 1`` (2..14);
* then, only while more than one legal move shares the choices made so far, a **chunk** action
  ``HEADS + subset`` picks which of the ``SLOTS`` table slots of the current chunk the move takes or
  joins. Table items (each loose card, each whole build) sit in canonical order (by lowest card),
  slot ``i`` being the ``i``-th item, and chunk ``k`` covers slots ``k * SLOTS .. k * SLOTS + 11``;
  chunks on which every remaining candidate agrees are skipped.

So every legal move has exactly one action sequence, every sequence of masked actions ends in a
legal move, and an action's meaning never depends on how many moves there are. ``Selection`` walks
the sequence for one decision; ``encode_move`` and ``decode_actions`` are its two directions.

The observation is one float32 vector built from a seat's ``View`` only (``observe``), laid out by
``OBS_FIELDS``; docs/rl.md lists every field.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from ..cards import DECK_SIZE, CardMask, cards_of
from ..moves import BUILD, CAPTURE, HIGHEST_VALUE, TRAIL, MoveCode, code_card, code_kind, code_table, code_value, encode
from ..rules import COURT_CAPTURES, OPTIONS, TRAIL_RESTRICTIONS, Rules
from ..view import View
from .errors import ActionError as ActionError

MODES = 16
"""Ways to play a card: trail, capture at its value, capture as 14, build 2..14."""
HEADS = DECK_SIZE * MODES
"""Head actions: one per (card, mode)."""
SLOTS = 12
"""Table slots one chunk action covers."""
CHUNK_ACTIONS = 1 << SLOTS
"""Chunk actions: one per subset of a chunk's slots."""
NUM_ACTIONS = HEADS + CHUNK_ACTIONS
"""The size of the action space (4928)."""
MAX_CHUNKS = (DECK_SIZE + SLOTS - 1) // SLOTS
"""Chunks a table of 52 items would need (5)."""

OBS_HIGH = 4.0
"""The largest value in an observation (scores above four times the target read as four)."""

MODE_TRAIL, MODE_CAPTURE, MODE_CAPTURE_HIGH = 0, 1, 2

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]


def head_of(code: MoveCode, values: tuple[int, ...]) -> int:
    """The head action of a move code."""
    kind = code_kind(code)
    card = code_card(code)
    if kind == TRAIL:
        mode = MODE_TRAIL
    elif kind == CAPTURE:
        value = code_value(code)
        if value == values[card]:
            mode = MODE_CAPTURE
        elif value == HIGHEST_VALUE:
            mode = MODE_CAPTURE_HIGH
        else:
            raise ValueError(f"a capture with card {card} counting {value} is not a capture this encoding can name")
    else:
        mode = code_value(code) + 1
    return card * MODES + mode


def move_of_head(head: int, values: tuple[int, ...], table: CardMask) -> MoveCode:
    """The move code of a head action and the table cards it takes or joins."""
    card, mode = divmod(head, MODES)
    if mode == MODE_TRAIL:
        return encode(TRAIL, card, 0, 0)
    if mode == MODE_CAPTURE:
        return encode(CAPTURE, card, values[card], table)
    if mode == MODE_CAPTURE_HIGH:
        return encode(CAPTURE, card, HIGHEST_VALUE, table)
    return encode(BUILD, card, mode - 1, table)


def table_items(view: View) -> list[CardMask]:
    """The table items in slot order: every loose card and every whole build, by lowest card."""
    items = [1 << c for c in cards_of(view.loose)]
    items += [build.cards for build in view.builds]
    items.sort(key=lambda m: m & -m)
    return items


def slots_of(table: CardMask, items: list[CardMask]) -> int:
    """The slot set (bit ``i``: item ``i``) a move's table cards make up; they are always whole items."""
    bits = 0
    for i, item in enumerate(items):
        if item & table:
            if item & table != item:
                raise ValueError("a move takes part of a build, which no rule allows")
            bits |= 1 << i
    return bits


class Selection:
    """The action steps of one decision: the head, then chunks until one legal move remains."""

    __slots__ = ("_by_head", "candidates", "chosen", "chunk", "head", "items", "move", "values", "view")

    def __init__(self, view: View) -> None:
        if not view.legal:
            raise ValueError(f"seat {view.seat} has no move to make here")
        self.view = view
        """The view of the seat deciding."""
        self.values = view.rules.values
        self.items = table_items(view)
        self._by_head: dict[int, list[tuple[MoveCode, int]]] = {}
        for code in view.legal:
            entry = (code, slots_of(code_table(code), self.items))
            self._by_head.setdefault(head_of(code, self.values), []).append(entry)
        self.head = -1
        self.chunk = -1
        """The chunk being chosen, or -1 while the head is."""
        self.chosen = 0
        """The slots chosen so far."""
        self.candidates: list[tuple[MoveCode, int]] = []
        self.move: MoveCode | None = None
        """The move, once the actions so far determine it."""

    def legal_actions(self) -> list[int]:
        """The actions allowed at this step, ascending."""
        if self.move is not None:
            return []
        if self.head < 0:
            return sorted(self._by_head)
        shift = self.chunk * SLOTS
        return sorted({HEADS + ((s >> shift) & (CHUNK_ACTIONS - 1)) for _, s in self.candidates})

    def mask(self) -> MaskArray:
        """The legal actions of this step as a 0/1 int8 vector of NUM_ACTIONS."""
        out = np.zeros(NUM_ACTIONS, dtype=np.int8)
        out[self.legal_actions()] = 1
        return out

    def choose(self, action: int) -> MoveCode | None:
        """Take one action; the move once it is determined, else None (more steps to come)."""
        if self.move is not None:
            raise ActionError("this decision is already made")
        a = int(action)
        if self.head < 0:
            cands = self._by_head.get(a)
            if cands is None:
                raise ActionError(f"action {a} is not a legal head action here (a card and how it is played)")
            self.head = a
            self.candidates = cands
        else:
            if not HEADS <= a < NUM_ACTIONS:
                raise ActionError(f"action {a} is not a chunk action: table slots are chosen now (chunk {self.chunk})")
            shift = self.chunk * SLOTS
            part = a - HEADS
            kept = [c for c in self.candidates if (c[1] >> shift) & (CHUNK_ACTIONS - 1) == part]
            if not kept:
                raise ActionError(f"action {a} names table slots that no legal move takes in chunk {self.chunk}")
            self.candidates = kept
            self.chosen |= part << shift
        return self._advance()

    def _advance(self) -> MoveCode | None:
        if len(self.candidates) == 1:
            self.move = self.candidates[0][0]
            return self.move
        start = self.chunk + 1
        for k in range(start, MAX_CHUNKS):
            shift = k * SLOTS
            first = (self.candidates[0][1] >> shift) & (CHUNK_ACTIONS - 1)
            if any((s >> shift) & (CHUNK_ACTIONS - 1) != first for _, s in self.candidates):
                self.chunk = k
                return None
            self.chosen |= first << shift
        raise AssertionError("distinct legal moves always differ in some chunk")

    def chosen_cards(self) -> CardMask:
        """The table cards chosen so far."""
        out = 0
        for i, item in enumerate(self.items):
            if self.chosen >> i & 1:
                out |= item
        return out


def encode_move(view: View, code: MoveCode) -> list[int]:
    """The action sequence of a legal move in this view."""
    if code not in view.legal:
        raise ValueError("only a legal move has an action sequence")
    sel = Selection(view)
    values = sel.values
    slots = slots_of(code_table(code), sel.items)
    actions = [head_of(code, values)]
    while sel.choose(actions[-1]) is None:
        actions.append(HEADS + ((slots >> (sel.chunk * SLOTS)) & (CHUNK_ACTIONS - 1)))
    return actions


def decode_actions(view: View, actions: list[int]) -> MoveCode:
    """The move an action sequence names in this view (ActionError if it names none)."""
    sel = Selection(view)
    for i, a in enumerate(actions):
        move = sel.choose(a)
        if move is not None:
            if i != len(actions) - 1:
                raise ActionError(f"the move is complete after {i + 1} actions, but {len(actions)} were given")
            return move
    raise ActionError("the actions leave the move incomplete")


# ----------------------------------------------------------------------------- observation


@dataclass(frozen=True, slots=True)
class Field:
    """One named stretch of the observation vector."""

    name: str
    size: int
    meaning: str


RULE_FIELDS: dict[str, str] = {
    "draw": "draw_rule",
    "court_capture": "court_capture",
    "trail_restriction": "trail_restriction",
    "scoring": "spade_scoring",
}
"""The rule options observed in a field of their own, with that field; every other on/off option of
``rules.OPTIONS`` is an entry of ``rules_flags``."""

RULE_FLAGS: tuple[str, ...] = (
    "partnerships",
    *(o.name for o in OPTIONS if o.type == "bool" and o.name not in RULE_FIELDS),
)
"""The entries of the ``rules_flags`` field: partnerships, then the on/off options in the order of
``rules.OPTIONS``. An option added there joins this field, which docs/rl.md's table (checked by a
test) must then show: the layout never changes unseen."""

NOT_OBSERVED: dict[str, str] = {
    "target": "the scores are observed as fractions of it (``scores``)",
    "tiebreak": "it only settles a game tied at the target, once the last hand is counted",
}
"""The rule options the observation leaves out, each with why (a test checks that every option of
``rules.OPTIONS`` is observed or listed here)."""

OBS_FIELDS: tuple[Field, ...] = (
    # Card planes (52 each, 0 or 1), first so that they fill in as one block.
    Field("hand", DECK_SIZE, "1 for each card in the seat's hand"),
    Field("loose", DECK_SIZE, "1 for each loose card on the table"),
    Field("build_cards", DECK_SIZE, "1 for each card that is part of a build"),
    Field(
        "build_owner",
        4 * DECK_SIZE,
        "per relative seat r (0 = this seat, 1 = the next to play, ...), the cards of the builds r owns",
    ),
    Field(
        "slots",
        SLOTS * DECK_SIZE,
        "per slot i of the chunk being chosen (chunk 0 while choosing the head), the cards of the table item in slot i",
    ),
    Field("captured", 4 * DECK_SIZE, "per relative seat, the cards of its captured pile (public)"),
    Field("played", 4 * DECK_SIZE, "per relative seat, the cards it played this hand (public history)"),
    Field("last_card", DECK_SIZE, "the card of the last move of this hand"),
    Field("pending_card", DECK_SIZE, "the card of the head chosen in this decision (all 0 before it)"),
    Field("pending_table", DECK_SIZE, "the table cards already chosen in this decision"),
    # Numbers.
    Field("build_value", DECK_SIZE, "for each card in a build, the build's declared value / 14"),
    Field("last_kind", 3, "one-hot kind of the last move: trail, capture, build"),
    Field("last_seat", 4, "one-hot relative seat of the last move"),
    Field("hand_sizes", 4, "cards in each relative seat's hand / 4"),
    Field("stock", 1, "cards left in the stock / 52"),
    Field("to_move", 4, "one-hot relative seat to move"),
    Field("dealer", 4, "one-hot relative seat of the dealer"),
    Field("last_capturer", 4, "one-hot relative seat of the last capturer (all 0 before any capture)"),
    Field("sweeps", 4, "sweeps made by each relative seat this hand / 4, at most 4"),
    Field("scores", 4, "game points of each relative side (own side first) / target, at most 4"),
    Field("deal", 2, "deal number / deals per hand; 1 on the last deal"),
    Field("pending_mode", MODES, "one-hot mode of the head chosen in this decision"),
    Field("chunk", MAX_CHUNKS + 1, "one-hot step: 0 = choose the head, k + 1 = choose chunk k"),
    # The rules (the same all episode).
    Field("players", 3, "one-hot number of players: 2, 3, 4"),
    Field("rules_flags", len(RULE_FLAGS), f"{', '.join(RULE_FLAGS)} (1 when on)"),
    Field("draw_rule", 1, "1 under the draw option"),
    Field("court_capture", len(COURT_CAPTURES), f"one-hot court_capture: {', '.join(COURT_CAPTURES)}"),
    Field("trail_restriction", len(TRAIL_RESTRICTIONS), f"one-hot trail_restriction: {', '.join(TRAIL_RESTRICTIONS)}"),
    Field("spade_scoring", 1, "1 under spade scoring"),
)
"""The observation layout, in order."""

OBS_OFFSETS: dict[str, int] = {}
_pos = 0
for _f in OBS_FIELDS:
    OBS_OFFSETS[_f.name] = _pos
    _pos += _f.size
OBS_SIZE = _pos
"""The length of the observation vector."""

CARD_BITS = OBS_OFFSETS["build_value"]
"""The card planes at the start of the observation, filled from one big int."""
_CARD_BYTES = (CARD_BITS + 7) // 8


@lru_cache(maxsize=64)
def _rules_block(rules: Rules) -> FloatArray:
    """The rule fields of the observation (from ``players`` to the end)."""
    o = OBS_OFFSETS
    base = o["players"]
    out = np.zeros(OBS_SIZE - base, dtype=np.float32)
    out[o["players"] - base + rules.players - 2] = 1.0
    for i, name in enumerate(RULE_FLAGS):
        out[o["rules_flags"] - base + i] = 1.0 if getattr(rules, name) else 0.0
    out[o["draw_rule"] - base] = 1.0 if rules.draw else 0.0
    out[o["court_capture"] - base + COURT_CAPTURES.index(rules.court_capture)] = 1.0
    out[o["trail_restriction"] - base + TRAIL_RESTRICTIONS.index(rules.trail_restriction)] = 1.0
    out[o["spade_scoring"] - base] = 1.0 if rules.scoring == "spade" else 0.0
    return out


def observe(view: View, selection: Selection | None = None) -> FloatArray:
    """The observation vector of a seat's view (and of the decision it is making, if any)."""
    out = np.zeros(OBS_SIZE, dtype=np.float32)
    o = OBS_OFFSETS
    rules = view.rules
    n = rules.players
    seat = view.seat

    def rel(s: int) -> int:
        return (s - seat) % n

    planes = view.hand << o["hand"] | view.loose << o["loose"]
    build_value = o["build_value"]
    for cards, value, owner in view.builds:
        planes |= cards << o["build_cards"] | cards << (o["build_owner"] + DECK_SIZE * rel(owner))
        m = cards
        while m:
            low = m & -m
            out[build_value + low.bit_length() - 1] = value / HIGHEST_VALUE
            m ^= low
    items = selection.items if selection is not None else table_items(view)
    chunk = selection.chunk if selection is not None and selection.chunk >= 0 else 0
    at = o["slots"]
    for i, item in enumerate(items[chunk * SLOTS : (chunk + 1) * SLOTS]):
        planes |= item << (at + DECK_SIZE * i)
    at = o["captured"]
    for s, pile in enumerate(view.captured):
        planes |= pile << (at + DECK_SIZE * rel(s))
    at = o["played"]
    for s, code in view.history:
        planes |= 1 << (at + DECK_SIZE * rel(s) + code_card(code))
    if view.history:
        s, code = view.history[-1]
        planes |= 1 << (o["last_card"] + code_card(code))
        out[o["last_kind"] + code_kind(code)] = 1.0
        out[o["last_seat"] + rel(s)] = 1.0
    step = 0
    if selection is not None and selection.head >= 0:
        card, mode = divmod(selection.head, MODES)
        planes |= 1 << (o["pending_card"] + card) | selection.chosen_cards() << o["pending_table"]
        out[o["pending_mode"] + mode] = 1.0
        step = selection.chunk + 1
    out[:CARD_BITS] = np.unpackbits(
        np.frombuffer(planes.to_bytes(_CARD_BYTES, "little"), dtype=np.uint8), bitorder="little"
    )[:CARD_BITS]
    out[o["chunk"] + step] = 1.0
    for s, size in enumerate(view.hand_sizes):
        out[o["hand_sizes"] + rel(s)] = size / 4.0
    out[o["stock"]] = view.stock_size / DECK_SIZE
    out[o["to_move"] + rel(view.to_move)] = 1.0
    out[o["dealer"] + rel(view.dealer)] = 1.0
    if view.last_capturer >= 0:
        out[o["last_capturer"] + rel(view.last_capturer)] = 1.0
    for s in view.sweeps:
        out[o["sweeps"] + rel(s)] = min(out[o["sweeps"] + rel(s)] + 0.25, OBS_HIGH)
    sides = rules.sides
    own = rules.side_of(seat)
    for side, points in enumerate(view.scores):
        out[o["scores"] + (side - own) % sides] = min(points / rules.target, OBS_HIGH)
    deals = rules.deals_per_hand
    deal = 1 if rules.draw else deals - view.stock_size // (4 * n)
    out[o["deal"]] = deal / deals
    out[o["deal"] + 1] = 1.0 if view.stock_size == 0 else 0.0
    out[o["players"] :] = _rules_block(rules)
    return out
