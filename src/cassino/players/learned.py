"""The learned player: the move its value network (``network``) rates highest, from the seat's
view alone (``features``). Trained by self-play (``arena.dmc``); the weights ship with the package,
one file per preset and seating. For a rule set without trained weights it plays as the search
player, and says so (``playing_as``)."""

from __future__ import annotations

from pathlib import Path

from ..moves import MoveCode
from ..rules import Rules, make_rules
from ..view import View
from .base import register
from .features import decision_features
from .network import Network
from .search import SearchPlayer
from .solver import Solver, endgame_moves

WEIGHTS = Path(__file__).parent / "weights"
"""Where the shipped weights are: ``weights_name(rules)`` in this folder."""


def weights_name(rules: Rules) -> str:
    """The file of a rule set's weights: its preset and seating (``classic-2.bin``, ``classic-4p.bin``)."""
    return f"{rules.preset}-{rules.players}{'p' if rules.partnerships else ''}.bin"


def trained_for(rules: Rules) -> bool:
    """Whether weights are trained for these rules: a preset's own options at its seating (any
    target); other options change the game the weights learned."""
    return rules == make_rules(
        rules.preset, players=rules.players, partnerships=rules.partnerships, target=rules.target
    )


def settled_move(endgame: Solver, view: View) -> MoveCode | None:
    """The move that needs no network: the only legal one, or the exact endgame's first best once
    every card is known (``solver.endgame_moves``); None when the network must choose."""
    if len(view.legal) == 1:
        return view.legal[0]
    known = endgame_moves(endgame, view)
    return known[0] if known is not None else None


class LearnedPlayer:
    """Plays the move its network values most (ties go to the first in ``view.legal``), and plays
    the rest of the hand exactly once counting cards tells every hidden card, as the heuristic does."""

    name = "learned"

    def __init__(self, seed: int | None = None, weights: str = "", network: Network | None = None) -> None:
        """``weights``: a weights file to use for every rule set (default: the shipped ones);
        ``network``: a network to use for every rule set, already read (training's actors)."""
        self.weights = Path(weights) if weights else None
        self.network = network
        self.fallback = SearchPlayer(seed=seed)
        self.endgame = Solver(20_000)
        self._networks: dict[Rules, Network | None] = {}
        self.playing_as = ""
        """What the last move was chosen by: the network (and what it is), or the search, and why."""

    def network_for(self, rules: Rules) -> Network | None:
        """The network for ``rules``, read once; None when there is none for them."""
        if self.network is not None:
            return self.network
        if rules not in self._networks:
            path = self.weights or WEIGHTS / weights_name(rules)
            usable = path.is_file() and (self.weights is not None or trained_for(rules))
            self._networks[rules] = Network.load(path) if usable else None
        return self._networks[rules]

    def choose(self, view: View) -> MoveCode:
        """The legal move of highest value, or the search player's move without weights."""
        net = self.network_for(view.rules)
        if net is None:
            self.playing_as = f"search: no trained weights for {view.rules.describe()}"
            return self.fallback.choose(view)
        self.playing_as = f"network: {net.about}" if net.about else "network"
        legal = view.legal
        settled = settled_move(self.endgame, view)
        if settled is not None:
            return settled
        position, moves = decision_features(view)
        values = net.values(position, moves)
        best = 0
        for i in range(1, len(values)):
            if values[i] > values[best]:
                best = i
        return legal[best]


register("learned", LearnedPlayer, {"weights": str})
