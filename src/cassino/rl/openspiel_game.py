"""The OpenSpiel game ``python_cassino``, registered with ``pyspiel`` when this module is imported.

``pyspiel.load_game("python_cassino(preset=royal,players=3,options=court_capture:all;draw:true)")``
plays one hand (``episode="hand"``, returns: each seat's side points less the mean of the other
sides' points) or a whole game (``episode="game"``, returns: 1 for the seats of the winning side,
``-1 / (sides - 1)`` for the others). Chance deals the deck one card at a time (52 chance nodes
per hand, each a uniform draw of one of the cards left), so the deal is an exact uniform shuffle.
Player actions are the action encoding of ``cassino.rl.encoding``; the observation tensor is its
observation vector, and the information-state tensor adds the order of this hand's plays.

The information state of a seat is what it has seen in this hand: its hand, the public history of
moves and the scores. Every card a seat ever held is either still in its hand or was played in
public, so this is perfect recall within a hand. ``resample_from_infostate`` deals the cards the
seat has not seen (other hands and the stock) afresh, which is what OpenSpiel's IS-MCTS needs.
"""

from __future__ import annotations

import random
from typing import Any, Final

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from ..cards import CARD_NAMES, DECK_SIZE, FULL_DECK, cards_of, format_cards, mask_of
from ..movegen import capturing_cards
from ..moves import code_card, format_code
from ..rules import Rules, make_rules, parse_option
from ..state import State, build_text
from ..view import View, view_of
from .encoding import HEADS, MAX_CHUNKS, MODES, NUM_ACTIONS, OBS_SIZE, FloatArray, Selection, observe
from .table import EPISODES, hand_rewards

SHORT_NAME = "python_cassino"
DEFAULTS: dict[str, Any] = {"preset": "classic", "players": 2, "partnerships": False, "options": "", "episode": "hand"}
"""The game's parameters: ``options`` is ``NAME:VALUE`` pairs joined by ``;`` (``NAME=VALUE`` is read
too, but only ``:`` survives OpenSpiel's game strings)."""

PLAYS: Final = 48
"""The plays of a hand: every card but the four dealt to the table at its start."""

HISTORY_SIZE = DECK_SIZE
INFO_SIZE = OBS_SIZE + HISTORY_SIZE
"""The information-state tensor: the observation, then for each card played this hand its play
number / 48 (0 for cards not played)."""

MAX_HAND_POINTS = 24 + PLAYS
"""More than a side can score in one hand (spade scoring's 24, plus a sweep on every play)."""
MAX_HANDS = 100
"""The bound on hands in a whole game that ``max_game_length`` assumes."""
HAND_LENGTH = DECK_SIZE + PLAYS * (1 + MAX_CHUNKS)


def rules_from_params(params: dict[str, Any]) -> Rules:
    """The rule set of the game's parameters (RulesError naming the bad one)."""
    options = dict(parse_option(o.replace(":", "=", 1)) for o in str(params.get("options", "")).split(";") if o.strip())
    return make_rules(
        str(params.get("preset", "classic")),
        players=int(params.get("players", 2)),
        partnerships=bool(params.get("partnerships", False)),
        **options,
    )


_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Casino (Cassino), Python",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


class CasinoGame(pyspiel.Game):  # type: ignore[misc]
    """Casino under one rule set, as an OpenSpiel game."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**DEFAULTS, **(params or {})}
        self.rules = rules_from_params(merged)
        merged["options"] = ";".join(
            f"{k}:{str(v).lower() if isinstance(v, bool) else v}"
            for k, v in self.rules.to_json().items()
            if k not in ("preset", "players", "partnerships")
        )
        episode = str(merged["episode"])
        if episode not in EPISODES:
            raise ValueError(f"episode must be one of {', '.join(EPISODES)}, got {episode!r}")
        self.episode = episode
        hand = episode == "hand"
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=DECK_SIZE,
            num_players=self.rules.players,
            min_utility=-float(MAX_HAND_POINTS) if hand else -1.0,
            max_utility=float(MAX_HAND_POINTS) if hand else 1.0,
            utility_sum=0.0,
            max_game_length=HAND_LENGTH * (1 if hand else MAX_HANDS),
        )
        super().__init__(_GAME_TYPE, info, merged)

    def new_initial_state(self) -> CasinoState:
        return CasinoState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> CasinoObserver:
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return CasinoObserver(self.rules, perfect_recall)


class CasinoState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: dealing (chance), or a seat making one step of a move."""

    def __init__(self, game: CasinoGame) -> None:
        super().__init__(game)
        self.rules = game.rules
        self.episode = game.episode
        self.dealer = 0
        self.scores: tuple[int, ...] = (0,) * self.rules.sides
        self.deck: list[int] = []
        self.state: State | None = None
        self.finished: State | None = None
        """The hand just over while chance deals the next one, which follows from it (``next_hand``)."""
        self.moves: list[tuple[int, int]] = []
        self.pending: list[int] = []
        self.selection: Selection | None = None
        self.winner = -1
        self.hand_points: tuple[int, ...] | None = None

    # ------------------------------------------------------------------ copying
    def __deepcopy__(self, memo: dict[int, Any]) -> CasinoState:
        other = CasinoState(self.get_game())
        other.dealer = self.dealer
        other.scores = self.scores
        other.deck = list(self.deck)
        other.state = self.state.copy() if self.state is not None else None
        other.finished = self.finished  # a finished hand is never played on: shared, not copied
        other.moves = list(self.moves)
        other.pending = list(self.pending)
        other.winner = self.winner
        other.hand_points = self.hand_points
        return other

    # ------------------------------------------------------------------ game flow
    def current_player(self) -> int:
        if self._over():
            return int(pyspiel.PlayerId.TERMINAL)
        if self.state is None:
            return int(pyspiel.PlayerId.CHANCE)
        return self.state.to_move

    def _over(self) -> bool:
        return self.hand_points is not None and (self.episode == "hand" or self.winner >= 0)

    def is_terminal(self) -> bool:
        return self._over()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = cards_of(FULL_DECK & ~mask_of(self.deck))
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _selection(self) -> Selection:
        if self.selection is None:
            assert self.state is not None
            sel = Selection(self._view(self.state.to_move))
            for a in self.pending:
                sel.choose(a)
            self.selection = sel
        return self.selection

    def _legal_actions(self, player: int) -> list[int]:
        if self.state is None or self._over() or player != self.state.to_move:
            return []
        return self._selection().legal_actions()

    def _apply_action(self, action: int) -> None:
        if self.state is None:
            self.deck.append(int(action))
            if len(self.deck) == DECK_SIZE:
                if self.finished is None:
                    self.state = State.new_hand(self.rules, self.deck, self.dealer, self.scores)
                else:
                    self.state = self.finished.next_hand(self.deck)
                    self.finished = None
                self.moves = []
                self.hand_points = None
            return
        move = self._selection().choose(int(action))
        if move is None:
            self.pending.append(int(action))
            return
        seat = self.state.to_move
        self.pending = []
        self.selection = None
        self.state.push(move)
        self.moves.append((seat, move))
        if self.state.hand_over:
            self._end_hand()

    def _end_hand(self) -> None:
        state = self.state
        assert state is not None and state.result is not None
        self.hand_points = state.result.points
        self.scores = state.scores
        self.winner = state.winner
        if self.episode == "game" and self.winner < 0:
            self.dealer = state.next_dealer
            self.deck = []
            self.finished = state
            self.state = None

    def returns(self) -> list[float]:
        n = self.rules.players
        if not self._over():
            return [0.0] * n
        if self.episode == "hand":
            assert self.hand_points is not None
            return hand_rewards(self.rules, self.hand_points)
        sides = self.rules.sides
        return [1.0 if self.rules.side_of(s) == self.winner else -1.0 / (sides - 1) for s in range(n)]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {CARD_NAMES[action]}"
        if action >= HEADS:
            return f"slots {action - HEADS:012b}"
        card, mode = divmod(action, MODES)
        how = ("trail", "capture", "capture 14")[mode] if mode < 3 else f"build {mode - 1}"
        return f"{CARD_NAMES[card]} {how}"

    def __str__(self) -> str:
        if self.state is None:
            return f"dealing: {len(self.deck)} cards out; scores {list(self.scores)}"
        s = self.state
        hands = " | ".join(format_cards(h) for h in s.hands)
        builds = ", ".join(build_text(b) for b in s.builds)
        last = format_code(self.moves[-1][1]) if self.moves else "-"
        return (
            f"hands: {hands}\ntable: {format_cards(s.loose)} {builds}\nlast: {last}; to move {s.to_move}; "
            f"scores {list(s.scores)}; pending {self.pending}"
        )

    # ------------------------------------------------------------------ what a seat sees
    def _view(self, seat: int) -> View:
        assert self.state is not None
        return view_of(self.state, seat, tuple(self.moves))

    def information_state_string(self, player: int | None = None) -> str:
        seat = self.current_player() if player is None else player
        head = f"p{seat} dealer {self.dealer} scores {list(self.scores)}"
        if self.state is None:
            return f"{head} dealing {len(self.deck)}"
        moves = " ".join(f"{s}:{c:x}" for s, c in self.moves)
        return f"{head} hand {self.state.hands[seat]:x} moves {moves} pending {self.pending}"

    def observation_string(self, player: int | None = None) -> str:
        seat = self.current_player() if player is None else player
        head = f"p{seat} dealer {self.dealer} scores {list(self.scores)}"
        if self.state is None:
            return f"{head} dealing {len(self.deck)}"
        v = self._view(seat)
        builds = ", ".join(build_text(b) for b in v.builds)
        piles = " | ".join(format_cards(p) for p in v.captured)
        last = f"{v.history[-1][0]}:{format_code(v.history[-1][1])}" if v.history else "-"
        return (
            f"{head} hand {format_cards(v.hand)} table {format_cards(v.loose)} builds {builds} piles {piles} "
            f"stock {v.stock_size} to_move {v.to_move} last {last} pending {self.pending}"
        )

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        seat = self.current_player() if player is None else player
        return list(self.tensor(seat, True))

    def observation_tensor(self, player: int | None = None) -> list[float]:
        seat = self.current_player() if player is None else player
        return list(self.tensor(seat, False))

    def tensor(self, seat: int, perfect_recall: bool) -> FloatArray:
        """The observation vector of ``seat`` (with the play order appended for the information state)."""
        size = INFO_SIZE if perfect_recall else OBS_SIZE
        if self.state is None:
            return np.zeros(size, dtype=np.float32)
        view = self._view(seat)
        sel = self._selection() if not self._over() and seat == self.state.to_move else None
        obs = observe(view, sel)
        if not perfect_recall:
            return obs
        order = np.zeros(HISTORY_SIZE, dtype=np.float32)
        for i, (_, code) in enumerate(self.moves):
            order[code_card(code)] = (i + 1) / PLAYS
        return np.concatenate([obs, order])

    # ------------------------------------------------------------------ sampling worlds
    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> CasinoState:
        """A state ``player_id`` cannot tell from this one: the unseen cards dealt afresh."""
        other = self.__deepcopy__({})
        if self.state is None:
            return other
        seed = int(probability_sampler() * 2**53) if callable(probability_sampler) else random.getrandbits(53)
        rng = random.Random(seed)
        s = self.state
        hands = deal_unseen(s, player_id, self._view(player_id).unseen, rng)
        hidden = FULL_DECK & ~(sum_masks(hands) | s.table_mask | sum_masks(s.captured))
        stock = cards_of(hidden)
        rng.shuffle(stock)
        fresh = State(
            self.rules,
            dealer=s.dealer,
            to_move=s.to_move,
            hands=hands,
            loose=s.loose,
            builds=s.builds,
            stock=stock,
            captured=s.captured,
            sweeps=s.sweeps,
            last_capturer=s.last_capturer,
            scores=s.scores,
        )
        assert fresh.table_mask | mask_of(fresh.stock) | sum_masks(hands) | sum_masks(s.captured) == FULL_DECK
        other.state = fresh
        other.selection = None
        return other


RESAMPLE_TRIES = 5000
"""Joint draws of the unseen cards tried before settling for one seat at a time."""


def deal_unseen(state: State, seat: int, unseen: int, rng: random.Random) -> list[int]:
    """The hands after dealing the cards ``seat`` has not seen afresh to the other seats, keeping
    each hand's size and what the rules let everyone infer: a build's owner holds a card that
    captures it (docs/rules.md 7.2). Uniform over such deals (rejection sampling), or, when the joint
    draw keeps failing, one seat after another."""
    cards = cards_of(unseen)
    others = [s for s in range(state.players) if s != seat]
    sizes = {s: state.hands[s].bit_count() for s in others}
    needs = {s: [b.value for b in state.builds if b.owner == s] for s in others}

    def fits(s: int, hand: int) -> bool:
        return all(capturing_cards(state, value, hand) for value in needs[s])

    hands = list(state.hands)
    for _ in range(RESAMPLE_TRIES):
        rng.shuffle(cards)
        pos = 0
        for s in others:
            hands[s] = mask_of(cards[pos : pos + sizes[s]])
            pos += sizes[s]
        if all(fits(s, hands[s]) for s in others):
            return hands
    pool = set(cards)
    for s in sorted(others, key=lambda s: -len(needs[s])):
        for _ in range(RESAMPLE_TRIES):
            hand = mask_of(rng.sample(sorted(pool), sizes[s]))
            if fits(s, hand):
                break
        else:
            return list(state.hands)  # nothing else found: the true deal is always consistent
        hands[s] = hand
        pool -= set(cards_of(hand))
    return hands


def sum_masks(masks: Any) -> int:
    """The union of some card masks."""
    out = 0
    for m in masks:
        out |= m
    return out


class CasinoObserver:
    """OpenSpiel's observer interface over the same tensors and strings."""

    def __init__(self, rules: Rules, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(INFO_SIZE if perfect_recall else OBS_SIZE, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CasinoState, player: int) -> None:
        self.tensor[:] = state.tensor(player, self.perfect_recall)

    def string_from(self, state: CasinoState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_string(player)
        return state.observation_string(player)


pyspiel.register_game(_GAME_TYPE, CasinoGame)
