"""The learned player: the move its network values most, from the seat's view alone; a fixed
network and a fixed position give a fixed choice; without weights for the rules it plays as the
search player and says so."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cassino.players import make_player
from cassino.players.features import decision_features
from cassino.players.learned import LearnedPlayer, trained_for, weights_name
from cassino.players.network import Network
from cassino.players.search import SearchPlayer
from cassino.rules import make_rules
from cassino.view import view_of
from test_players import _positions, _reshuffle_hidden


@pytest.fixture(scope="module")
def weights(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("weights") / "net.bin"
    Network.random(16, 8, seed=4, scale=0.3).save(path)
    return path


@pytest.mark.parametrize("preset", ["classic", "royal"])
def test_the_choice_is_the_networks_best_and_depends_only_on_the_view(weights: Path, preset: str) -> None:
    net = Network.load(weights)
    rng = random.Random(2)
    chosen = []
    for state in _positions(make_rules(preset), seed=5, count=10):
        seat = state.to_move
        view = view_of(state, seat)
        twin_view = view_of(_reshuffle_hidden(state, seat, rng), seat, view.history)
        assert twin_view == view
        player = make_player(f"learned:weights={weights}", 1)
        code = player.choose(view)
        assert code == make_player(f"learned:weights={weights}", 9).choose(twin_view)
        values = net.values(*decision_features(view))
        assert code in view.legal and values[view.legal.index(code)] == max(values)
        assert player.playing_as == "network"  # type: ignore[attr-defined]
        chosen.append(code)
    assert len(set(chosen)) > 1


def test_without_weights_it_plays_as_search_and_says_so(tmp_path: Path) -> None:
    rules = make_rules("classic", sweeps=False)
    assert not trained_for(rules) and trained_for(make_rules("classic", target=11))
    assert weights_name(make_rules("spade", players=4, partnerships=True)) == "spade-4p.bin"
    state = _positions(rules, seed=1, count=1)[0]
    view = view_of(state, state.to_move)
    player = LearnedPlayer(seed=3)
    assert player.choose(view) == SearchPlayer(seed=3).choose(view)
    assert player.playing_as.startswith("search: no trained weights for classic")
    missing = LearnedPlayer(seed=3, weights=str(tmp_path / "none.bin"))
    assert missing.choose(view) == SearchPlayer(seed=3).choose(view)
