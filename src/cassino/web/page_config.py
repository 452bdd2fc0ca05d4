"""What the page offers, as ``GET /api/config`` serves it (and the offline site's ``config.json``):
the variants and their options keyed for translation, the seats, the computer players, the guided
first game and the page's languages. From the rules' one option schema, so nothing is listed twice."""

from __future__ import annotations

from typing import Any

from ..players import LEVELS
from ..rules import OPTIONS, PARTNERSHIP_PLAYERS, PLAYER_COUNTS, PRESETS, OptionValue, Rules
from ..table import DEFAULT_OPPONENT
from .i18n import LANGUAGE_NAMES, LANGUAGES
from .requests import bot_player
from .teaching import tutorial


def table_players() -> list[dict[str, str]]:
    """The computer players the lobby offers people: the ladder of levels, gentlest first, each
    with the ``lobby`` catalogue keys of its plain name and of how it plays. The engines under
    them (``random``, ``greedy``, ``heuristic``, ``search``) still sit at any table the API makes,
    for bot writers, but are not offered: two of them are levels already (``expert`` and
    ``master``) and the other two play worse than any level, so listing them would only make
    people wonder which to choose."""
    out = []
    for level in LEVELS:
        bot_player(level.name, 0)  # every level may sit at a table: one that could not is a bug
        out.append({"name": level.name, "label": f"player.{level.name}.name", "about": f"player.{level.name}.about"})
    return out


def config() -> dict[str, Any]:
    """What the lobby offers, from the option schema of ``rules.OPTIONS``, keyed for translation
    (every text is in the ``lobby`` catalogue): the presets in order with their option values;
    each option with its kind, choices, default in each preset, when it matters (``needs``,
    ``needs_not``, ``needs_sides``) and which values are refused unless a condition holds; the
    seats; the computer players; the guided first game of "Learn to play"; and the page's languages
    (code and name, English first: the page builds its language menu from them)."""

    def word(value: OptionValue) -> str:
        """A value as catalogue keys write it (``true``, ``count_out``), like JSON."""
        return str(value).lower() if isinstance(value, bool) else str(value)

    presets = [
        {
            "name": p,
            "label": f"preset.{p}.name",
            "about": f"preset.{p}.about",
            "options": {o.name: getattr(r, o.name) for o in OPTIONS},
        }
        for p, r in PRESETS.items()
    ]
    options = []
    for o in OPTIONS:
        key = f"option.{o.name}"
        entry: dict[str, Any] = {
            "name": o.name,
            "type": o.type,
            "label": f"{key}.label",
            "about": f"{key}.about",
            "choices": list(o.choices),
            "choice_labels": {c: f"{key}.choice.{c}" for c in o.choices},
            "default": o.default,
            "defaults": {p: getattr(r, o.name) for p, r in PRESETS.items()},
            **o.matters.to_json(),
            "refused": [
                {"value": ref.value, "unless": ref.unless.to_json(), "reason": f"{key}.refused.{word(ref.value)}"}
                for ref in o.refused
            ],
        }
        if o.minimum is not None:
            entry["min"] = o.minimum
        options.append(entry)
    seats = {"players": list(PLAYER_COUNTS), "default": Rules().players, "partnerships_players": PARTNERSHIP_PLAYERS}
    return {
        "presets": presets,
        "options": options,
        "seats": seats,
        "players": table_players(),
        "default_player": DEFAULT_OPPONENT,
        "tutorial": tutorial(),
        "languages": [{"code": code, "name": LANGUAGE_NAMES[code]} for code in LANGUAGES],
    }
