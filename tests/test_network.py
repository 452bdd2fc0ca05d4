"""The value network: its accumulated forward pass equals the plain dense one, its weights file
round-trips to the byte, and a file that is not one is refused with its reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from cassino.players import features as f
from cassino.players.errors import WeightsError
from cassino.players.network import Network
from cassino.view import view_of
from positions import build, scripted_position


def dense_value(net: Network, position: list[float], move: list[float]) -> float:
    """The forward pass as matrices would do it, input by input."""
    h, h2 = net.hidden, net.hidden2
    first = list(net.bias1)
    for i, x in enumerate(position):
        for j in range(h):
            first[j] += x * net.position[i * h + j]
    for i, x in enumerate(move):
        for j in range(h):
            first[j] += x * net.move[i * h + j]
    second = list(net.bias2)
    for j in range(h):
        for k in range(h2):
            second[k] += max(first[j], 0.0) * net.layer2[j * h2 + k]
    return net.bias_out[0] + sum(max(second[k], 0.0) * net.out[k] for k in range(h2))


def example() -> tuple[f.Features, list[f.Features]]:
    state = scripted_position(["5h", "3c", build(["2d", "4s"], 6, 1)], [["8s", "6c"], ["9h", "Kd"]], captured=("Ad",))
    view = view_of(state, 0)
    return f.view_features(view), [f.move_features(c, view.loose, view.builds) for c in view.legal]


def test_the_accumulated_pass_is_the_dense_one(tmp_path: Path) -> None:
    net = Network.random(16, 8, seed=3, scale=0.3)
    position, moves = example()
    assert len(moves) >= 2
    got = net.values(position, moves)
    want = [dense_value(net, position.as_list(f.POSITION_INPUTS), m.as_list(f.MOVE_INPUTS)) for m in moves]
    assert got == pytest.approx(want, abs=1e-9)
    assert len(set(got)) == len(got)  # the moves are told apart

    path = tmp_path / "net.bin"
    net.save(path)
    again = Network.load(path)
    assert again.values(position, moves) == pytest.approx(got, abs=1e-4)  # float32 in the file
    again.save(tmp_path / "again.bin")
    assert (tmp_path / "again.bin").read_bytes() == path.read_bytes()


def test_bad_weights_files_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "net.bin"
    Network.random(4, 2, seed=1).save(path)
    data = path.read_bytes()
    cases = {
        b"not json\n" + data: "not a JSON header",
        data.replace(b"cassino-value-network-1", b"something-else-entirely", 1): "not a cassino-value-network-1 file",
        data[:-4]: "bytes of weights where",
    }
    for i, (content, reason) in enumerate(cases.items()):
        bad = tmp_path / f"bad{i}.bin"
        bad.write_bytes(content)
        with pytest.raises(WeightsError, match=reason):
            Network.load(bad)
    with pytest.raises(WeightsError, match="'bias1' has 3 numbers where 4"):
        net = Network.random(4, 2, seed=1)
        Network(4, 2, net.position, net.move, [0.0] * 3, net.layer2, net.bias2, net.out, net.bias_out)
