"""Research environments for Casino: the action and observation encodings, a PettingZoo AEC
environment, a Gymnasium single-agent environment and an OpenSpiel game (``python_cassino``).

These need the ``rl`` extra (numpy, pettingzoo, gymnasium, open_spiel); the engine itself does not.
Import the environments from their modules (``cassino.rl.aec``, ``cassino.rl.gym_env``,
``cassino.rl.openspiel_game``) so that each pulls in only the library it wraps.
"""

from __future__ import annotations

from .encoding import (
    HEADS,
    NUM_ACTIONS,
    OBS_FIELDS,
    OBS_SIZE,
    SLOTS,
    ActionError,
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
