"""The arena's output: a table for the terminal, and results.json, results.csv and ratings.png."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from .tournament import ArenaResult


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _grid(header: list[str], rows: list[list[str]]) -> list[str]:
    """Columns padded to their widest cell: the first left-aligned, the rest right-aligned."""
    widths = [max(len(r[c]) for r in [header, *rows]) for c in range(len(header))]
    lines = []
    for r in [header, *rows]:
        cells = [r[0].ljust(widths[0])] + [cell.rjust(w) for cell, w in zip(r[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells).rstrip())
    return lines


def format_report(result: ArenaResult) -> str:
    """The summary as text: what was played, one line per player (best rating first), the games
    forfeited (by player and reason), the pairwise scores of a round robin, and how each interval
    was computed."""
    settings = result.settings()
    summary = result.summary
    timing = result.timing()
    rules = result.config.rules
    names = " vs ".join(result.labels) if len(result.tables) == 1 else f"round robin of {', '.join(result.labels)}"
    seat_word = "team" if rules.partnerships else "player"
    tables = f"{len(result.tables)} tables x " if len(result.tables) > 1 else ""
    workers = f"{timing['workers']} worker{'s' if timing['workers'] != 1 else ''}"
    lines = [
        f"{names}: {settings['rules_text']}",
        f"{tables}{settings['deals']} deals x {settings['seatings_per_deal']} seatings = {settings['games']} games;"
        f" seed {settings['seed']}",
        f"executor {timing['executor']} ({workers}): {timing['wall_seconds']:.1f} s,"
        f" {settings['games'] / max(timing['wall_seconds'], 1e-9):.0f} games/s",
        "",
    ]
    ms = {p["player"]: p["ms_per_move"] for p in timing["players"]}
    order = sorted(summary["players"], key=lambda p: -p["rating"])
    header = [seat_word, "games", "wins", "undecided", "win rate", "95% CI", "pts/hand", "95% CI", "rating", "95% CI"]
    header.append("ms/move")
    rows = []
    for p in order:
        pph_ci = (
            "-"
            if p["points_per_hand_low"] is None
            else f"[{p['points_per_hand_low']:.2f}, {p['points_per_hand_high']:.2f}]"
        )
        think = ms[p["player"]]
        rows.append(
            [
                p["player"],
                str(p["games"]),
                str(p["wins"]),
                str(p["undecided"]),
                _pct(p["win_rate"]),
                f"[{_pct(p['win_rate_low'])}, {_pct(p['win_rate_high'])}]",
                f"{p['points_per_hand']:.2f}",
                pph_ci,
                f"{p['rating']:.0f}",
                f"[{p['rating_low']:.0f}, {p['rating_high']:.0f}]",
                "-" if think is None else f"{think:.3f}",
            ]
        )
    lines += _grid(header, rows)
    forfeits = summary["forfeits"]
    if forfeits:
        total = sum(f["games"] for f in forfeits)
        each = "; ".join(f"{f['player']}: {f['reason']} ×{f['games']}" for f in forfeits)
        lines += ["", f"forfeits: {total} ({each})"]
    if len(result.labels) > 2:
        labels = [p["player"] for p in order]
        rate: dict[tuple[str, str], float] = {}
        for pair in summary["pairwise"]:
            rate[pair["a"], pair["b"]] = pair["a_rate"]
            rate[pair["b"], pair["a"]] = 1 - pair["a_rate"]
        lines += ["", "score of each row against each column (win 1, draw 1/2; in 3-4 player games, by final points):"]
        lines += _grid(
            ["", *labels],
            [[a, *(_pct(rate[a, b]) if (a, b) in rate else "-" for b in labels)] for a in labels],
        )
    lines += [
        "",
        f"win rate: 95% Wilson interval (an even share is {_pct(summary['even_share'])});"
        " pts/hand: mean points per hand, normal 95% interval over hands",
        f"rating: {summary['ratings']['method']};",
        f"  interval {summary['ratings']['interval']}",
    ]
    if summary["ratings"]["virtual_draws"]:
        lines.append("  (someone won or lost every game: one virtual draw per pairing was added so the fit exists)")
    return "\n".join(lines)


def write_json(result: ArenaResult, path: Path) -> None:
    """results.json: settings, summary, one entry per game, and timing."""
    path.write_text(json.dumps(result.to_json(), indent=1) + "\n")


CSV_COLUMNS = (
    "game", "table", "deal", "seating", "deal_seed", "seats", "sides", "winner", "scores", "hands", "moves",
    "seat_moves", "think_seconds", "forfeit_seat", "forfeit_reason",
)  # fmt: skip
"""One row per game; lists (per seat or per side) are joined with ``;``; the forfeit's seat and
reason are empty when nobody forfeited."""


def write_csv(result: ArenaResult, path: Path) -> None:
    """results.csv: one row per game, for spreadsheets and data frames."""
    with path.open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow(CSV_COLUMNS)
        for row in result.rows():
            forfeit = row["forfeit"] or {}
            row = {**row, "forfeit_seat": forfeit.get("seat"), "forfeit_reason": forfeit.get("reason")}
            cells: list[Any] = []
            for col in CSV_COLUMNS:
                value = row[col]
                if isinstance(value, list):
                    value = ";".join(f"{v:.6f}" if isinstance(v, float) else str(v) for v in value)
                cells.append("" if value is None else value)
            out.writerow(cells)


def write_plot(result: ArenaResult, path: Path) -> None:
    """ratings.png: each rating with its 95% interval, best on top. Drawn on a bare Agg canvas, so
    it needs no display and leaves matplotlib's global backend alone."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    players = sorted(result.summary["players"], key=lambda p: p["rating"])
    fig = Figure(figsize=(7, 1.2 + 0.45 * len(players)), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    y = list(range(len(players)))
    x = [p["rating"] for p in players]
    err = [[p["rating"] - p["rating_low"] for p in players], [p["rating_high"] - p["rating"] for p in players]]
    ax.errorbar(x, y, xerr=err, fmt="o", capsize=4)
    ax.axvline(1500, color="grey", linewidth=0.8, linestyle=":")
    ax.set_yticks(y, [p["player"] for p in players])
    ax.set_ylim(-0.7, len(players) - 0.3)
    ax.set_xlabel("rating (Bradley-Terry, Elo scale, mean 1500) with 95% interval")
    settings = result.settings()
    ax.set_title(f"{settings['rules_text']}: {settings['games']} games, seed {settings['seed']}", fontsize=9)
    fig.savefig(path, dpi=120)


def write_outputs(result: ArenaResult, out_dir: Path) -> tuple[list[Path], str | None]:
    """Write every output file into ``out_dir``; the plot is skipped (with the reason returned)
    when matplotlib is not installed."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = [out_dir / "results.json", out_dir / "results.csv"]
    write_json(result, written[0])
    write_csv(result, written[1])
    try:
        write_plot(result, out_dir / "ratings.png")
    except ImportError:
        return written, "ratings.png needs matplotlib: pip install 'cassino[arena]'"
    written.append(out_dir / "ratings.png")
    return written, None
