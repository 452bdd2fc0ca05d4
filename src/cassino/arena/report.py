"""The arena's output: results.json, results.csv and ratings.png, and the table for the terminal
(``format_report``, which lives beside ``ArenaResult`` so that ``ArenaResult.report()`` can give it)."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from .tournament import ArenaResult
from .tournament import format_report as format_report  # the text report, beside ArenaResult


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
