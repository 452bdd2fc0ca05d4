"""Choosing the rules on a command line: one set of options for every command that plays games."""

from __future__ import annotations

import argparse

from ..rules import OPTION_NAMES, PRESETS, Rules, RulesError, make_rules, parse_option


def add_rules_arguments(p: argparse.ArgumentParser, seats_help: str = "number of players (default 2)") -> None:
    """``--preset``, ``--players``, ``--partnerships`` and ``-o NAME=VALUE`` for every option."""
    p.add_argument("--preset", default="classic", choices=sorted(PRESETS), help="rule preset (default classic)")
    p.add_argument("--players", type=int, default=2, choices=(2, 3, 4), help=seats_help)
    p.add_argument("--partnerships", action="store_true", help="4 players in two teams (seats 0+2 and 1+3)")
    p.add_argument(
        "--option", "-o", action="append", default=[], metavar="NAME=VALUE",
        help=f"set a rule option on top of the preset; options: {', '.join(OPTION_NAMES)}",
    )  # fmt: skip


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rule set of ``add_rules_arguments``; RulesError says what is wrong."""
    options = dict(parse_option(o) for o in args.option)
    for name, flag in (("preset", "--preset"), ("players", "--players"), ("partnerships", "--partnerships")):
        if name in options:
            raise RulesError(f"{name} is not a rule option: choose it with {flag}")
    return make_rules(args.preset, players=args.players, partnerships=args.partnerships, **options)
