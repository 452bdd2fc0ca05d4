"""Research environments for Casino: the action and observation encodings, a PettingZoo AEC
environment, a Gymnasium single-agent environment and an OpenSpiel game (``python_cassino``).

These need the ``rl`` extra (numpy, pettingzoo, gymnasium, open_spiel); the engine itself does not.
Import the environments from their modules (``cassino.rl.aec``, ``cassino.rl.gym_env``,
``cassino.rl.openspiel_game``) so that each pulls in only the library it wraps. The encodings are
imported (with numpy) on first use, so that ``cassino.rl.errors`` imports without the extra.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import ActionError

if TYPE_CHECKING:
    from .encoding import (
        HEADS,
        NUM_ACTIONS,
        OBS_FIELDS,
        OBS_SIZE,
        SLOTS,
        Selection,
        decode_actions,
        encode_move,
        observe,
    )

__all__ = [
    "HEADS",
    "NUM_ACTIONS",
    "OBS_FIELDS",
    "OBS_SIZE",
    "SLOTS",
    "ActionError",
    "Selection",
    "decode_actions",
    "encode_move",
    "observe",
]


def __getattr__(name: str) -> Any:
    """The encodings' names from ``.encoding``, imported (with numpy) only when asked for."""
    if name in __all__:
        from . import encoding

        return getattr(encoding, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
