"""Self-play training (the ``train`` extra): a seconds-long run on a fixed seed turns a tiny
random network into one that beats a player it lost to, the trained weights export to the
players' network with the same values, and a run checkpoints and resumes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("numpy")

import torch

from cassino.arena.dmc import ModelPlayer, Trainer, decision, points_against, train
from cassino.players.base import make_player
from cassino.players.features import decision_features
from cassino.players.network import Network
from cassino.rules import Rules
from cassino.state import State
from cassino.view import view_of

pytestmark = pytest.mark.usefixtures("one_torch_thread")


def test_a_short_run_learns() -> None:
    """Sixty hands of self-play turn a tiny random network into one that beats the greedy player
    it lost to (the measure: points a hand over mirrored deals, the same deals before and after)."""
    rules = Rules()
    trainer = Trainer(rules, seed=1, hidden=16, hidden2=8, batch=128)
    before = points_against(rules, ModelPlayer(trainer.model, name="before"), make_player("greedy", 5), 30, seed=7)
    trainer.run(60)
    after = points_against(rules, ModelPlayer(trainer.model, name="after"), make_player("greedy", 5), 30, seed=7)
    assert trainer.hands_played == 60 and len(trainer.replay.rows) > 1000
    assert before < 0 and after > before + 1.5 and after > 0.5, (before, after)


def test_exported_weights_give_the_models_values() -> None:
    rules = Rules()
    trainer = Trainer(rules, seed=2, hidden=8, hidden2=4, batch=64)
    trainer.run(5)
    net = trainer.export("test")
    state = State.new_hand(rules, list(range(52)), 0)
    view = view_of(state, state.to_move)
    with torch.no_grad():
        want = trainer.model(torch.from_numpy(decision(view))).tolist()
    got = net.values(*decision_features(view))
    assert got == pytest.approx(want, abs=1e-4)


def test_a_run_checkpoints_and_resumes(tmp_path: Path) -> None:
    rules = Rules()
    lines: list[str] = []
    curve = train(rules, tmp_path, hours=0.0, seed=3, every=4, deals=3, log=lines.append)
    assert [c["hands"] for c in curve] == [4] and (tmp_path / "checkpoint.pt").is_file()
    assert "4 self-play hands" in Network.load(tmp_path / "network.bin").about
    curve = train(rules, tmp_path, hours=0.0, seed=3, every=4, deals=3, log=lines.append)
    assert [c["hands"] for c in curve] == [4, 8] and lines[1] == "resumed at 4 hands"
    assert json.loads((tmp_path / "curve.json").read_text()) == curve
