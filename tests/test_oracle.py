"""Training from the all-seeing search's values (``arena.oracle``, the ``train`` extra): labels are
the same for the same job, centred on each decision and clipped; a seconds-long run on a fixed
seed turns a tiny random network into one that beats a player it lost to; and a run checkpoints
after a round and resumes from it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("numpy")

import numpy as np
import torch

from cassino.arena.dmc import INPUTS, points_against
from cassino.arena.oracle import LABEL_CLIP, LabelJob, Learner, Run, label_all, label_hands
from cassino.players.base import make_player
from cassino.players.learned import LearnedPlayer
from cassino.players.network import Network
from cassino.rules import Rules

pytestmark = pytest.mark.usefixtures("one_torch_thread")


def test_labels_are_reproducible_and_bounded() -> None:
    job = LabelJob("classic", 2, False, seed=3, hands=2)
    rows, labels = label_hands(job)
    again_rows, again_labels = label_hands(job)
    assert rows.shape == (len(labels), INPUTS) and len(labels) > 40
    assert np.array_equal(rows, again_rows) and np.array_equal(labels, again_labels)
    assert float(np.abs(labels).max()) <= LABEL_CLIP
    # Centred on each decision: labels sum to zero over each decision's moves, so over all of them.
    assert abs(float(labels.sum())) < 1e-2 * len(labels)
    assert set(np.unique(rows[:, :52])) <= {0.0, 1.0}  # the position's card locations are one-hot


def test_a_job_can_play_the_network() -> None:
    """An actor plays a network given as a file's bytes; a different behaviour labels other positions."""
    net = Network.random(8, 4, seed=2)
    rows, labels = label_hands(LabelJob("classic", 2, False, seed=3, hands=1, behaviour=net.to_bytes()))
    heuristic_rows, _ = label_hands(LabelJob("classic", 2, False, seed=3, hands=1))
    assert len(labels) > 10 and not np.array_equal(rows[:10], heuristic_rows[:10])


def test_processes_give_the_same_labels() -> None:
    jobs = [LabelJob("classic", 2, False, seed=s, hands=1) for s in (4, 5)]
    here = label_all(jobs, "inprocess")
    there = label_all(jobs, "process", workers=2)
    assert all(np.array_equal(a[1], b[1]) for a, b in zip(here, there, strict=True))
    with pytest.raises(ValueError, match="unknown executor"):
        label_all(jobs, "threads")


def test_a_short_run_learns() -> None:
    """Forty labelled hands turn a tiny random network into one that beats the greedy player it
    lost to (points a hand over the same mirrored deals before and after)."""
    rules = Rules()
    learner = Learner(seed=1, hidden=16, hidden2=8, batch=128)
    before = points_against(rules, LearnedPlayer(network=learner.network()), make_player("greedy", 5), 30, seed=7)
    samples = label_all([LabelJob("classic", 2, False, seed=s, hands=20) for s in (1, 2)], "inprocess")
    rows = np.concatenate([r for r, _ in samples])
    labels = np.concatenate([y for _, y in samples])
    loss, held = learner.fit((rows, labels), epochs=6)
    after = points_against(rules, LearnedPlayer(network=learner.network()), make_player("greedy", 5), 30, seed=7)
    assert held < float(np.mean(labels**2))  # better than saying zero for every move
    assert before < 0 and after > before + 1.5 and after > 0.5, (before, after, loss, held)


def test_a_run_checkpoints_and_resumes(tmp_path: Path) -> None:
    run = Run(Rules(), tmp_path, seed=2, hands=4, epochs=1, deals=3, executor="inprocess")
    point = run.round(log=lambda line: None)
    assert point["round"] == 1 and point["hands"] == 4 and point["vs_heuristic_se"] > 0
    assert (tmp_path / "labels-0.npz").is_file() and (tmp_path / "checkpoint.pt").is_file()
    assert json.loads((tmp_path / "curve.json").read_text()) == [point]
    assert "4 hands labelled" in Network.load(tmp_path / "network.bin").about
    resumed = Run(Rules(), tmp_path, seed=2, hands=4, epochs=1, deals=3, executor="inprocess", window=1)
    assert resumed.rounds == 1 and resumed.hands_played == 4
    weights = [p.detach().clone() for p in run.learner.model.parameters()]
    assert all(torch.equal(a, b) for a, b in zip(weights, resumed.learner.model.parameters(), strict=True))
    jobs = resumed.jobs()
    assert sum(j.hands for j in jobs) == 4 and any(j.behaviour for j in jobs) and not all(j.behaviour for j in jobs)
    resumed.round(log=lambda line: None)
    # The window holds one sample: the older round's labels are deleted once a newer one fills it.
    assert not (tmp_path / "labels-0.npz").exists() and (tmp_path / "labels-1.npz").is_file()
    assert [p["round"] for p in json.loads((tmp_path / "curve.json").read_text())] == [1, 2]


def test_the_curve_is_drawn(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from cassino.arena.oracle import plot_curve

    curve = [{"hands": 8000.0, "vs_heuristic": 0.2, "vs_heuristic_se": 0.1}, {"hands": 16000.0, "vs_heuristic": 0.4}]
    plot_curve(curve, tmp_path / "curve.png", "classic")
    assert (tmp_path / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
