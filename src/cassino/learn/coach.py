"""The coach: what each legal move is worth from one seat's view, and a word when a move costs.

The coach weighs moves with the search player's machinery (``SearchPlayer.world_values``): it
samples worlds consistent with the seat's ``View`` (``worlds.WorldSampler``, which reads the
deal's public play, dealing balanced worlds), and values every legal move on the SAME worlds, so
that the noise of the sampling mostly cancels in the differences between moves (a world drawn
twice is searched once). The moves race: one whose loss to the leader is settled (clear of
nothing and of ``MARGIN``) is valued no more, and once no flag can change no more worlds are
drawn. When the hidden cards are known (the last deal for two) it solves the one true world
exactly. A value is in points of the count for the seat's side against the others (search
gains, or the solver's hand margin less its game-won bonus); only differences between moves of one
position mean anything.

``assess`` gives each move's value, the best move, the chosen move's loss (best - chosen) and the
one category of play the move belongs to (the review adds the losses up by category);
``note`` speaks only when the loss exceeds ``MARGIN``, set from the measured noise of the
evaluation (benchmarks/coach_noise.py, docs/learn.md), so a coach never scolds a move for noise.
A guided coach (a learner in the tutorial) also flags what the lessons teach never to do, however
the search rates it: trailing an ace or a casino while a capture is there (``careless_trail``, the
rule the lessons consult too, so that no lesson shows a move its coach would flag).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from ..cards import RANK_MASKS, SPADES_MASK, CardMask, rank
from ..moves import BUILD, CAPTURE, TRAIL, Move, MoveCode, code_card, code_cards, code_kind, code_table
from ..players.search import MoveMemo, SearchPlayer
from ..players.solver import GAME_WON, cards_known, world_of
from ..players.worlds import WorldSampler
from ..reasons import Cards
from ..state import State
from ..view import View
from .messages import PREFIX, Message, Word, english, words
from .reading import MoveFacts, card_points, careless_trail, keeper, points_in, read_move, sweepable, table_cards

MARGIN: Final = 0.35
"""The loss, in points, above which the coach speaks: 2.5 times the standard deviation over seeds
of a move's estimated loss in the noisier positions (its 90th percentile, 0.135 points; pooled
0.080), measured by benchmarks/coach_noise.py with the 64 independent worlds the coach used then;
today's 40 balanced worlds give 0.125 (pooled 0.083), so the margin stands (docs/learn.md)."""
WORLDS: Final = 40
"""Worlds sampled per position, balanced (``worlds.BalancedDeals``): every move is valued on each
of them. Forty balanced worlds are as steady as 64 independent ones were (benchmarks/coach_noise.py,
docs/learn.md), in five-eighths of the time."""
SEARCH: Final = {"depth": 4, "breadth": 8}
"""The search player's settings the coach values moves with: a shallower look than the player's
own (every legal move is valued, not a dozen), which keeps an assessment well under a second."""

RACE_AFTER: Final = 8
"""Worlds on which every move is valued before the coach stops valuing any (``Coach._race``)."""
SETTLED: Final = 2.0
"""Standard errors by which a move's loss to the leader must clear both nothing and the margin
before the coach stops valuing it: beyond them its flag and its not being the best stand. Over
160 positions the raced coach flags every move the full valuation flags, and 5 more of 311 (a
change of seed alone changes 40), in a third of the time (docs/learn.md)."""

CATEGORIES: Final = ("pairs", "sums", "building", "answering", "trailing", "sweeps", "aces_casinos")
"""The categories of play, one per assessed move (see ``category``)."""

words(
    "category",
    pairs="pairing",
    sums="capturing sums",
    building="building",
    answering="answering builds",
    trailing="what to trail",
    sweeps="leaving sweeps",
    aces_casinos="keeping aces and casinos",
)
words(
    "tip",
    pairs="Before you trail, look for a loose card of your card's rank: a pair is the simplest capture.",
    sums="Add up the loose cards: two or three of them together may make the value of a card you hold.",
    building="Build when you hold a second card of the value, and count who else may hold one.",
    answering="When your opponent builds, ask first whether you can take the build, raise it, or must let it be.",
    trailing="Trail the card your opponent can use least: a low card nothing on the table adds up with.",
    sweeps="Before each move, look at what the table will be: if one card can take all of it, keep a card back.",
    aces_casinos="Aces and the two casinos score by themselves: take them when you can, and do not trail them.",
)
words(
    "why",
    sweep_left="You left {cards} for your opponent to sweep.",
    sweep="{card} would have swept the table ({cards}), a point of its own.",
    trailed="You trailed {card}, which scores, where your opponent can take it.",
    trailed_spade="You trailed {card}, a spade toward most spades, where your opponent can take it.",
    points="{card} could have taken {cards}, and {valuable} scores {points} points.",
    point="{card} could have taken {cards}, and {valuable} scores a point.",
    build="Building {value} with {card} would have set up {cards} for you to take next turn.",
    capture_missed="You missed a capture: {card} could have taken {cards}.",
    more_cards="{card} could have taken more: {cards}.",
    trail="Trailing {card} would have given your opponent less.",
    better="The search of the coming turns rates it {loss} points better.",
    careless_trail=(
        "You trailed {card}, which scores by itself, while {taker} could take {cards}: capture first, and "
        "never trail an ace or a casino when a capture is there."
    ),
)
words(
    "hint",
    sweep="{card} sweeps the table ({cards}): a point of its own.",
    points="{card} takes {cards}, and {valuable} scores {points} points.",
    point="{card} takes {cards}, and {valuable} scores a point.",
    capture="{card} takes {cards}.",
    build="Build {value} with {card}: you keep {keeper} to take it next turn.",
    trail_safe="Trail {card}: every other move leaves your opponent a sweep.",
    trail="Trail {card}: it gives your opponent the least.",
)
words("coach", note="Better: {move}, about {loss} points more. {why}", flag="Better: {move}. {why}")


def _judged(move: MoveCode, best: MoveCode, loss: float, category: str) -> dict[str, Any]:
    """What an assessment and a note both tell the page: the move, the best one (move lines), the
    loss in points and the category."""
    return {"move": str(Move(move)), "best": str(Move(best)), "loss": round(loss, 2), "category": category}


@dataclass(frozen=True, slots=True)
class Assessment:
    """One move weighed against the others of its position: ``values`` of every legal move best
    first, in points; ``loss`` = best - chosen (0 for a best move); ``category`` the kind of play
    it was (``CATEGORIES``). ``view`` is the position, the seat's own."""

    view: View
    move: MoveCode
    values: tuple[tuple[MoveCode, float], ...]
    best: MoveCode
    loss: float
    category: str

    def to_json(self) -> dict[str, Any]:
        """The assessment for the page: moves as move lines."""
        values = [[str(Move(c)), round(v, 2)] for c, v in self.values]
        return {**_judged(self.move, self.best, self.loss, self.category), "values": values}


@dataclass(frozen=True, slots=True)
class CoachNote:
    """What the coach says about a costly move: the ``better`` move, how much it was worth more,
    and ``why`` in words."""

    move: MoveCode
    better: MoveCode
    loss: float
    category: str
    why: Message
    flagged: bool = False
    """A note a guided coach gives whatever the search's loss (``careless_trail``): the search may
    rate the move close to the best, so it is worded without points (``template``)."""

    @property
    def template(self) -> str:
        """The learn code the note is worded by: ``coach.note``, or ``coach.flag`` without points."""
        return "coach.flag" if self.flagged else "coach.note"

    def text(self) -> str:
        """The note in English: its ``template`` filled with the better move's line, the loss and
        ``why`` (the page fills it with its own move words)."""
        values = {"move": str(Move(self.better)), "loss": f"{self.loss:.1f}", "why": self.why.text()}
        return english(self.template, values)

    def to_json(self) -> dict[str, Any]:
        """The note for the page (``best``: the better move): the page words its ``template`` (the
        catalogue key ``learn.coach.note`` or ``learn.coach.flag``) with that move in its own move words."""
        return {
            **_judged(self.move, self.better, self.loss, self.category),
            "category_name": category_name(self.category).to_json(),
            "why": self.why.to_json(),
            "template": PREFIX + self.template,
            "text": self.text(),
        }


def _points(value: float) -> float:
    """A world's value in points of the count: the solver's game-won bonus taken off (a hand's
    margin is far below it), so that no loss is counted in thousands."""
    return value - GAME_WON * round(value / GAME_WON)


def _won(f: MoveFacts) -> CardMask:
    """The cards a capture brings home (the played card too); nothing for a build or a trail."""
    return code_cards(f.code) if f.kind == CAPTURE else 0


def _is_theirs(view: View, owner: int) -> bool:
    """Whether a build's owner plays against the seat."""
    return view.rules.side_of(owner) != view.rules.side_of(view.seat)


def category(view: View, chosen: MoveFacts, reference: MoveFacts) -> str:
    """The one category of a move, from the move made and the ``reference`` move (the best one,
    or the move itself when it was best), the first that holds of:

    ``sweeps`` the move leaves a table an opponent may sweep and the reference does not;
    ``aces_casinos`` either takes a card that scores by itself, or the move trails one;
    ``answering`` an opponent's build is on the table; ``building`` the reference builds, raises
    or takes the seat's own build; ``pairs`` / ``sums`` the reference captures by pairing only /
    with a sum; ``trailing`` the reference trails."""
    rules = view.rules
    if sweepable(view, chosen.code) and not sweepable(view, reference.code):
        return "sweeps"
    scoring = card_points(rules)
    trailed = scoring[chosen.card] if chosen.kind == TRAIL else 0
    if trailed or points_in(rules, _won(chosen) | _won(reference))[0]:
        return "aces_casinos"
    if any(_is_theirs(view, b.owner) for b in view.builds):
        return "answering"
    if reference.kind == BUILD or reference.builds:
        return "building"
    if reference.kind == CAPTURE:
        return "sums" if reference.sums else "pairs"
    return "trailing"


def _capture_points(view: View, f: MoveFacts, code: str) -> Message | None:
    """``code``'s message (``why.points``, ``hint.points``) when the capture ``f`` takes cards
    that score by themselves, the one-point wording for one point; else None."""
    points, valuable = points_in(view.rules, _won(f))
    if not points:
        return None
    card, cards = Cards.one(f.card), Cards.of(code_table(f.code))
    if points == 1:
        return Message.of(f"{code}.point", card=card, cards=cards, valuable=Cards.of(valuable))
    return Message.of(f"{code}.points", card=card, cards=cards, valuable=Cards.of(valuable), points=points)


def why(view: View, chosen: MoveFacts, best: MoveFacts, loss: float) -> Message:
    """Why ``best`` beats ``chosen``, the first reason that holds: a sweep left, a sweep missed, a
    scoring card trailed within reach, scoring cards missed, a build given up, a capture missed,
    a bigger capture, a safer trail; else the search's verdict."""
    rules = view.rules
    left = sweepable(view, chosen.code)
    if left and not sweepable(view, best.code):
        return Message.of("why.sweep_left", cards=Cards.of(left))
    if best.sweep and not chosen.sweep and rules.sweeps:
        return Message.of("why.sweep", card=Cards.one(best.card), cards=Cards.of(table_cards(view.loose, view.builds)))
    c = chosen.card
    if chosen.kind == TRAIL and best.code != chosen.code and view.unseen & RANK_MASKS[rank(c)]:
        if card_points(rules)[c]:
            return Message.of("why.trailed", card=Cards.one(c))
        if (1 << c) & SPADES_MASK and rules.scoring == "standard":
            return Message.of("why.trailed_spade", card=Cards.one(c))
    if points_in(rules, _won(best))[0] > points_in(rules, _won(chosen))[0]:
        message = _capture_points(view, best, "why")
        assert message is not None
        return message
    card, used = Cards.one(best.card), Cards.of(code_table(best.code))
    if best.kind == BUILD and chosen.kind != BUILD:
        return Message.of("why.build", value=best.value, card=card, cards=used)
    if best.kind == CAPTURE and chosen.kind != CAPTURE:
        return Message.of("why.capture_missed", card=card, cards=used)
    if best.kind == CAPTURE and code_table(best.code).bit_count() > code_table(chosen.code).bit_count():
        return Message.of("why.more_cards", card=card, cards=used)
    if best.kind == TRAIL:
        return Message.of("why.trail", card=card)
    return Message.of("why.better", loss=round(loss, 1))


def reason(view: View, best: MoveFacts) -> Message:
    """What makes ``best`` good, for a hint: a sweep, scoring cards, a capture, a build kept for
    next turn, or a trail that leaves least (no sweep, when every other move leaves one)."""
    card = Cards.one(best.card)
    if best.sweep and view.rules.sweeps:
        return Message.of("hint.sweep", card=card, cards=Cards.of(table_cards(view.loose, view.builds)))
    if best.kind == CAPTURE:
        message = _capture_points(view, best, "hint")
        return message or Message.of("hint.capture", card=card, cards=Cards.of(code_table(best.code)))
    if best.kind == BUILD:
        kept = keeper(view.hand & ~(1 << best.card), best.value)
        assert kept is not None, "rule 6.2: a build keeps a card to take it"
        return Message.of("hint.build", value=best.value, card=card, keeper=kept)
    others = [c for c in view.legal if c != best.code]
    if others and all(sweepable(view, c) for c in others) and not sweepable(view, best.code):
        return Message.of("hint.trail_safe", card=card)
    return Message.of("hint.trail", card=card)


def coach_note(assessment: Assessment, margin: float = MARGIN, guided: bool = False) -> CoachNote | None:
    """A word on a costly move: None unless its loss exceeds ``margin`` (beyond the noise). A
    ``guided`` coach (a learner in the tutorial) also flags a careless trail of an ace or a casino
    (``careless_trail``) however the search rates it, naming the capture it rates best."""
    view = assessment.view
    if assessment.loss <= margin:
        return _flag(assessment) if guided and careless_trail(view, assessment.move) else None
    chosen, best = read_move(view, assessment.move), read_move(view, assessment.best)
    message = why(view, chosen, best, assessment.loss)
    return CoachNote(assessment.move, assessment.best, assessment.loss, assessment.category, message)


def _flag(assessment: Assessment) -> CoachNote:
    """The note on a careless trail: the capture the search rates best, and what the tutorial teaches."""
    values = dict(assessment.values)
    better = next(code for code, _ in assessment.values if code_kind(code) == CAPTURE)
    loss = max(0.0, values[better] - values[assessment.move])
    message = Message.of(
        "why.careless_trail",
        card=Cards.one(code_card(assessment.move)),
        taker=Cards.one(code_card(better)),
        cards=Cards.of(code_table(better)),
    )
    return CoachNote(assessment.move, better, loss, assessment.category, message, flagged=True)


class Coach:
    """Weighs every legal move of a seat's view, deterministically for a ``seed``: the same view
    always gets the same values (the worlds are drawn afresh from the seed for each position)."""

    def __init__(
        self, seed: int = 0, worlds: int = WORLDS, margin: float = MARGIN, balanced: bool = True, race: bool = True
    ) -> None:
        self.seed = seed
        self.worlds = worlds
        self.margin = margin
        self.balanced = balanced
        self.race = race
        """Whether the moves race (``_race``); without it every move is valued on every world."""
        self._search = SearchPlayer(seed=seed, **SEARCH)
        self._last: tuple[View, tuple[tuple[MoveCode, float], ...]] | None = None

    def values(self, view: View) -> tuple[tuple[MoveCode, float], ...]:
        """Every legal move of ``view`` (the seat to move) with its value in points, best first
        (ties in code order), valued on the same sampled worlds; the last position is remembered,
        so a hint and then an assessment of one turn search once."""
        if self._last is not None and self._last[0] == view:
            return self._last[1]
        legal = sorted(view.legal)
        if not legal:
            raise ValueError("the coach weighs the moves of the seat to move: this view has none")
        totals = dict.fromkeys(legal, 0.0)
        if len(legal) > 1:
            side = view.rules.side_of(view.seat)
            if cards_known(view):
                totals = self._race(iter([world_of(view)]), legal, side)
            else:
                sample = WorldSampler(view, random.Random(self.seed), balanced=self.balanced)
                totals = self._race((sample() for _ in range(self.worlds)), legal, side)
        ranked = tuple(sorted(totals.items(), key=lambda cv: (-cv[1], cv[0])))
        self._last = (view, ranked)
        return ranked

    def _race(self, worlds: Iterator[State], legal: list[MoveCode], side: int) -> dict[MoveCode, float]:
        """Each move's mean value over ``worlds``, a move being valued on them until its place
        is settled: after ``RACE_AFTER`` worlds, a move whose loss to the leader (world by world)
        clears both nothing and the margin by ``SETTLED`` standard errors is neither the best nor
        a move whose flag could change, so it is valued no more. Its value is then the leader's
        final value less the loss measured so far (a paired difference: the worlds' luck, shared
        by both moves, cancels). Once no move's flag can change (each loss clears the margin, one
        way or the other, by as much), no more worlds are drawn: what is left to learn is only
        which of moves within the margin of each other is best."""
        seen: dict[MoveCode, list[float]] = {code: [] for code in legal}
        behind: dict[MoveCode, tuple[MoveCode, float]] = {}
        live = list(legal)
        searched: dict[tuple[object, ...], dict[MoveCode, float]] = {}
        memo = MoveMemo()
        for done, world in enumerate(worlds, 1):
            values = self._search.values_once(world, live, side, searched, memo)[0]
            for code in live:
                seen[code].append(_points(values[code]))
            if not self.race or done < RACE_AFTER or len(live) < 2:
                continue
            leader = max(live, key=lambda code: (sum(seen[code]), -code))
            flags_stand = True
            for code in live:
                if code == leader:
                    continue
                losses = [a - b for a, b in zip(seen[leader], seen[code], strict=True)]
                mean = sum(losses) / done
                error = SETTLED * (sum((x - mean) ** 2 for x in losses) / (done - 1) / done) ** 0.5
                flag_stands = mean - error > self.margin or mean + error < self.margin
                if flag_stands and mean - error > 0:
                    behind[code] = (leader, mean)
                flags_stand = flags_stand and flag_stands
            live = [code for code in live if code not in behind]
            if flags_stand:
                break
        totals = {code: sum(seen[code]) / len(seen[code]) for code in live}

        def value(code: MoveCode) -> float:
            if code in totals:
                return totals[code]
            leader, loss = behind[code]
            return value(leader) - loss

        return {code: value(code) for code in legal}

    def assess(self, view: View, move: MoveCode | Move) -> Assessment:
        """The chosen ``move`` (one of ``view.legal``) against the best, with its category."""
        code = move.code if isinstance(move, Move) else move
        if code not in view.legal:
            raise ValueError(f"{Move(code)} is not a legal move of this view")
        ranked = self.values(view)
        value = dict(ranked)[code]
        best, top = ranked[0]
        loss = top - value
        if loss <= 0:
            best, loss = code, 0.0
        reference = read_move(view, best)
        return Assessment(view, code, ranked, best, loss, category(view, read_move(view, code), reference))

    def note(self, assessment: Assessment, guided: bool = False) -> CoachNote | None:
        """A word on a costly move: None unless its loss exceeds the coach's margin, or, for a
        ``guided`` learner, the move is a careless trail (``coach_note``)."""
        return coach_note(assessment, self.margin, guided)

    def hint(self, view: View, guided: bool = False) -> tuple[MoveCode, Message]:
        """The best move of ``view`` and what makes it good; for a ``guided`` learner, the best that
        the coach would not flag (never a careless trail)."""
        best = next(code for code, _ in self.values(view) if not (guided and careless_trail(view, code)))
        return best, reason(view, read_move(view, best))


def category_name(name: str) -> Message:
    """A category's name as a message (for the page and the terminal)."""
    if name not in CATEGORIES:
        raise ValueError(f"unknown category {name!r}: the categories are {', '.join(CATEGORIES)}")
    return Message.of(f"category.{name}")


def category_word(name: str) -> Word:
    """A category's name as a message parameter."""
    return Word(category_name(name).code)
