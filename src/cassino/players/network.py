"""A small value network over ``features``: the value of playing a move in a position, for the
seat to move, read with no numeric library.

The first layer is an NNUE accumulator: the position's part (the sum of the weight rows of its
active inputs, plus its dense inputs times theirs) is made once a decision, and each move adds its
own few rows; two small dense layers follow. So a decision over ten moves costs some thousands of
multiplications in plain Python, and the same numbers come out of the training library, which
stores its weights in this module's file format (``save``): a short JSON header line, then the
float32 values of each array in order, little-endian, readable by ``array`` alone.
"""

from __future__ import annotations

import json
import random
import sys
from array import array
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from .errors import WeightsError as WeightsError
from .features import MOVE_INPUTS, POSITION_INPUTS, Features

FORMAT: Final = "cassino-value-network-1"
"""The first word of a weights file; another value is refused."""

ARRAY_NAMES: Final[tuple[str, ...]] = ("position", "move", "bias1", "layer2", "bias2", "out", "bias_out")
"""The arrays of a network, in the order a weights file holds them."""


def _add_rows(acc: list[float], rows: list[float], features: Features, h: int) -> None:
    """Add to ``acc`` the first layer's rows (of ``h`` numbers each) of the inputs of ``features``:
    each active input's row, and each dense input's row times its value."""
    for i in features.active:
        base = i * h
        for j in range(h):
            acc[j] += rows[base + j]
    for k, v in enumerate(features.dense):
        if v:
            base = (features.dense_at + k) * h
            for j in range(h):
                acc[j] += v * rows[base + j]


@dataclass(frozen=True)
class Network:
    """Weights as flat float lists, row-major: ``position`` is ``POSITION_INPUTS`` rows of
    ``hidden`` numbers, ``move`` ``MOVE_INPUTS`` rows, ``layer2`` ``hidden`` rows of ``hidden2``,
    ``out`` ``hidden2`` numbers."""

    hidden: int
    hidden2: int
    position: list[float]
    move: list[float]
    bias1: list[float]
    layer2: list[float]
    bias2: list[float]
    out: list[float]
    bias_out: list[float]
    about: str = ""
    """What the weights are (rules, training): shown by players that use them."""

    def __post_init__(self) -> None:
        h, h2 = self.hidden, self.hidden2
        want = {
            "position": POSITION_INPUTS * h,
            "move": MOVE_INPUTS * h,
            "bias1": h,
            "layer2": h * h2,
            "bias2": h2,
            "out": h2,
            "bias_out": 1,
        }
        for name, size in want.items():
            got = len(getattr(self, name))
            if got != size:
                raise WeightsError(f"network array {name!r} has {got} numbers where {size} are needed")

    @classmethod
    def random(cls, hidden: int, hidden2: int, seed: int, scale: float = 0.1) -> Network:
        """Small random weights (for tests and a training run's start)."""
        rng = random.Random(seed)

        def draw(n: int) -> list[float]:
            return [rng.uniform(-scale, scale) for _ in range(n)]

        return cls(
            hidden,
            hidden2,
            draw(POSITION_INPUTS * hidden),
            draw(MOVE_INPUTS * hidden),
            draw(hidden),
            draw(hidden * hidden2),
            draw(hidden2),
            draw(hidden2),
            draw(1),
        )

    # ------------------------------------------------------------------------- reading
    def accumulate(self, position: Features) -> list[float]:
        """The first layer's position part: its bias plus the rows of the position's inputs."""
        acc = list(self.bias1)
        _add_rows(acc, self.position, position, self.hidden)
        return acc

    def move_value(self, acc: list[float], move: Features) -> float:
        """The value of one move, from the position's accumulator (``accumulate``)."""
        h, h2 = self.hidden, self.hidden2
        first = list(acc)
        _add_rows(first, self.move, move, h)
        second = list(self.bias2)
        layer2 = self.layer2
        for j in range(h):
            x = first[j]
            if x > 0.0:
                base = j * h2
                for k in range(h2):
                    second[k] += x * layer2[base + k]
        total = self.bias_out[0]
        out = self.out
        for k in range(h2):
            if second[k] > 0.0:
                total += second[k] * out[k]
        return total

    def values(self, position: Features, moves: list[Features]) -> list[float]:
        """The value of each move in the position, in order."""
        acc = self.accumulate(position)
        return [self.move_value(acc, m) for m in moves]

    # ------------------------------------------------------------------------- files
    def save(self, path: Path) -> None:
        """Write the weights file (``to_bytes``)."""
        path.write_bytes(self.to_bytes())

    def to_bytes(self) -> bytes:
        """The weights file's bytes: a JSON header line, then the arrays as little-endian float32."""
        header = {"format": FORMAT, "hidden": self.hidden, "hidden2": self.hidden2, "about": self.about}
        header["inputs"] = [POSITION_INPUTS, MOVE_INPUTS]
        parts = [json.dumps(header).encode() + b"\n"]
        for name in ARRAY_NAMES:
            values = array("f", getattr(self, name))
            if sys.byteorder != "little":
                values.byteswap()
            parts.append(values.tobytes())
        return b"".join(parts)

    @classmethod
    def load(cls, path: Path) -> Network:
        """Read a weights file written by ``save`` (or by the training library in its format)."""
        return cls.from_bytes(path.read_bytes(), str(path))

    @classmethod
    def from_bytes(cls, data: bytes, path: str = "weights") -> Network:
        """A network from a weights file's bytes; ``path`` names them in errors."""
        line, _, body = data.partition(b"\n")
        try:
            header = json.loads(line)
        except ValueError as err:
            raise WeightsError(f"{path}: the first line is not a JSON header ({err})") from None
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise WeightsError(f"{path}: not a {FORMAT} file")
        if header.get("inputs") != [POSITION_INPUTS, MOVE_INPUTS]:
            raise WeightsError(
                f"{path}: made for inputs {header.get('inputs')}, these are {[POSITION_INPUTS, MOVE_INPUTS]}"
            )
        h, h2 = header.get("hidden"), header.get("hidden2")
        if not isinstance(h, int) or not isinstance(h2, int) or h < 1 or h2 < 1:
            raise WeightsError(f"{path}: layer sizes {h!r} and {h2!r} are not positive ints")
        sizes = [POSITION_INPUTS * h, MOVE_INPUTS * h, h, h * h2, h2, h2, 1]
        if len(body) != 4 * sum(sizes):
            raise WeightsError(f"{path}: {len(body)} bytes of weights where {4 * sum(sizes)} are needed")
        values = array("f")
        values.frombytes(body)
        if sys.byteorder != "little":
            values.byteswap()
        arrays: list[list[float]] = []
        at = 0
        for size in sizes:
            arrays.append(values[at : at + size].tolist())
            at += size
        position, move, bias1, layer2, bias2, out, bias_out = arrays
        return cls(h, h2, position, move, bias1, layer2, bias2, out, bias_out, about=str(header.get("about", "")))
