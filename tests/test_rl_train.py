"""The training example: its masked policy's gradient is the true one, it never picks an illegal
action, and a seconds-long run trains and evaluates end to end."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

import numpy as np

from cassino.rl.encoding import NUM_ACTIONS, OBS_SIZE

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def train() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_policy", ROOT / "examples" / "train_policy.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_policy"] = module
    spec.loader.exec_module(module)
    return module


def test_policy_gradient_matches_finite_differences(train: ModuleType) -> None:
    rng = np.random.default_rng(0)
    policy = train.MaskedPolicy(8, rng)
    policy.params = {k: v.astype(np.float64) for k, v in policy.params.items()}
    policy.params["w2"] = rng.standard_normal(policy.params["w2"].shape)
    obs = rng.random((3, OBS_SIZE))
    mask = np.zeros((3, NUM_ACTIONS), dtype=bool)
    mask[0, [1, 5, 900]] = mask[1, [2, 3]] = mask[2, [7, 4000, 4927]] = True
    actions = np.array([5, 2, 4927])
    weights = np.array([1.5, -0.5, 2.0])

    def loss() -> float:
        probs, _ = policy.probs(obs, mask)
        return float(-np.mean(weights * np.log(probs[np.arange(3), actions])))

    grads = policy.gradients(obs, mask, actions, weights)
    for name, index in (("w2", (3, 900)), ("b2", (4927,)), ("w1", (10, 2)), ("b1", (5,))):
        eps = 1e-6
        policy.params[name][index] += eps
        up = loss()
        policy.params[name][index] -= 2 * eps
        down = loss()
        policy.params[name][index] += eps
        assert grads[name][index] == pytest.approx((up - down) / (2 * eps), rel=1e-4, abs=1e-8)


def test_masked_policy_gives_illegal_actions_no_probability(train: ModuleType) -> None:
    policy = train.MaskedPolicy(16, np.random.default_rng(1))
    mask = np.zeros((1, NUM_ACTIONS), dtype=bool)
    mask[0, [10, 20]] = True
    probs, _ = policy.probs(np.ones((1, OBS_SIZE), dtype=np.float32), mask)
    assert probs[0].sum() == pytest.approx(1.0)
    assert set(np.flatnonzero(probs[0])) == {10, 20}


def test_wilson_interval(train: ModuleType) -> None:
    lo, hi = train.wilson(80, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.7112, 0.8666)
    assert train.wilson(0, 0) == (0.0, 1.0)


def test_smoke_run(train: ModuleType, tmp_path: Path) -> None:
    """Two batches of training and tiny evaluations, figure included, in seconds."""
    figure = tmp_path / "curve.png"
    before, after = train.main(
        ["--minutes", "1", "--max-batches", "2", "--batch", "4", "--eval-hands", "6", "--figure", str(figure)]
    )
    assert before.hands == after.hands == 6
    assert after.won + after.lost <= 6 and len(after.points) == 6
    assert figure.stat().st_size > 1000
