"""The page that plays offline, in figures: what a first visit downloads, how long until the first
playable table, and how long the computer players think per move in the page's Web Worker
(Pyodide) against CPython here. The page runs the whole engine in the browser, so these are what
a person meets before and during a game with no server at all.

    PYTHONPATH=src python benchmarks/offline.py                      # all three, the results file written
    PYTHONPATH=src python benchmarks/offline.py --only moves --games 4 --master-games 2

1. ``bytes``: every file of the site as ``cassino.web.site.site_files()`` gives it (the service
   worker keeps all of them on the first visit), in bytes and gzip-compressed at level 6 (what a
   server compressing its answers sends; ``python -m http.server`` compresses nothing), split into
   Pyodide (each of its files), the engine's wheel, the card images, the page's own scripts and
   styles, and the rest.
2. ``load``: Chromium (Debian's ``/usr/bin/chromium`` through Playwright) against
   ``python -m http.server`` serving a fresh ``cassino site`` folder. Cold: a new browser context
   (empty cache, no service worker), from ``goto`` until the first playable card of the person's
   hand after a click on "Learn to play" as soon as the button can be clicked (the page queues the
   game's request until the engine has started, so the engine's start is part of the figure).
   Warm: in the same context, once the service worker controls the page, the same measure again
   (the site then comes from the service worker's cache). Each of ``--runs`` runs is one cold and
   one warm visit; the median and the range. Beside it, the engine's start as the page shows it
   (``[data-testid=offline-engine]``, its worker's own count), the moment the engine said it was
   ready counted from the navigation's start, and the requests and bytes ``http.server`` answered
   during each visit (read from its log; a cold visit lasts until the service worker controls the
   page).
3. ``moves``: each of the six levels (``cassino.players.level_names()``) plays ``--games`` games
   of two-player classic against itself (``--master-games`` for ``master``), seeded, and every
   decision is timed, the call the server makes (``web.thinking.think``:
   ``players.base.seeded_move``, the player made afresh from the seat's seed and the ply, on the
   seat's view). The same function, its source sent as it is, plays the same games (a digest of
   the moves shows they were the same) in three places: Pyodide in a module Web Worker in
   Chromium (a page and a worker written into a copy of the site; served here with the headers of
   cross-origin isolation, so that the worker's clock is precise to microseconds rather than to a
   tenth of a millisecond), CPython with ``CASSINO_PURE=1``, and CPython with the compiled engine
   (when it is built). p50, p99 and the slowest move in milliseconds. ``master`` must think at
   most 2 s a move at p99 in the page: the run says whether it does.

The results are printed and, when all three parts ran (or ``--out`` is given), written as
markdown to ``benchmarks/results/offline.md`` with the machine and the command. Needs the
``dev`` extra's Playwright (no browser is downloaded: Debian's Chromium is used) and takes about
five minutes on two cores; run nothing else heavy beside it.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import functools
import gzip
import http.server
import inspect
import json
import os
import re
import shlex
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cassino
from cassino.players import level_names
from cassino.web.site import WHEEL, read, site_files, write_site

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Playwright

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "offline.md"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu"]
PYODIDE = "static/vendor/pyodide/"
MASTER_P99_LIMIT_MS = 2000.0
PARTS = ("bytes", "load", "moves")


# ---------------------------------------------------------------------------------------- 1. bytes


def part_of(name: str) -> str:
    """The share of the site a file belongs to."""
    if name.startswith(PYODIDE):
        rest = name.removeprefix(PYODIDE)
        return f"Pyodide: {rest}" if rest.startswith(("pyodide", "python_stdlib")) else "Pyodide: licence, readme"
    if name == WHEEL:
        return "engine wheel"
    if name.startswith("cards/"):
        return "card images"
    if name.startswith("static/") and name.endswith((".js", ".css")) and "/vendor/" not in name:
        return "page scripts and styles"
    return "the rest (index.html, sw.js, icons, i18n, config, manifest)"


def measure_bytes() -> dict[str, Any]:
    """Files, bytes and gzip -6 bytes of each share of the site and of all of it."""
    parts: dict[str, dict[str, int]] = {}
    for name, file in site_files().items():
        data = read(file)
        part = parts.setdefault(part_of(name), {"files": 0, "bytes": 0, "gzip": 0})
        part["files"] += 1
        part["bytes"] += len(data)
        part["gzip"] += len(gzip.compress(data, compresslevel=6, mtime=0))
    order = sorted(parts, key=lambda p: (not p.startswith("Pyodide"), p != "engine wheel", -parts[p]["bytes"]))
    total = {key: sum(p[key] for p in parts.values()) for key in ("files", "bytes", "gzip")}
    return {"parts": {p: parts[p] for p in order}, "total": total}


def mib(n: float) -> str:
    if not n:
        return "0"
    return f"{n / 2**20:.2f} MiB" if n >= 2**20 else f"{n / 1024:.1f} KiB"


def bytes_table(figures: dict[str, Any]) -> list[str]:
    total = figures["total"]
    lines = ["| part | files | bytes | gzip -6 | share (gzip) |", "|---|---:|---:|---:|---:|"]
    for part, f in figures["parts"].items():
        share = 100 * f["gzip"] / total["gzip"]
        lines.append(f"| {part} | {f['files']} | {mib(f['bytes'])} | {mib(f['gzip'])} | {share:.1f}% |")
    lines.append(f"| **all** | {total['files']} | **{mib(total['bytes'])}** | **{mib(total['gzip'])}** | 100% |")
    return lines


# ----------------------------------------------------------------------------------------- servers


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_for_port(port: int, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return
        time.sleep(0.05)
    raise RuntimeError(f"nothing answers on port {port}")


@contextlib.contextmanager
def http_server(folder: Path, log: Path) -> Iterator[int]:
    """``python -m http.server`` serving ``folder`` on a free port, its log (one line a request)
    into ``log``; stopped (terminated, then killed if it lingers) however the block ends."""
    port = free_port()
    command = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(folder)]
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=out)
    try:
        wait_for_port(port)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class _IsolatedHandler(http.server.SimpleHTTPRequestHandler):
    """Files with the headers of cross-origin isolation, which give a worker a precise clock."""

    def end_headers(self) -> None:
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextlib.contextmanager
def isolated_server(folder: Path) -> Iterator[int]:
    """A server of ``folder`` in a thread of this process, cross-origin isolated."""
    handler = functools.partial(_IsolatedHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, name="isolated-server", daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


_REQUEST = re.compile(r'"GET (\S+) HTTP/[0-9.]+" (\d{3})')


def served(log: Path, start: int, folder: Path) -> tuple[int, int, int]:
    """Requests, answers with a body (200) and their bytes in the server's log after ``start``."""
    requests = bodies = sent = 0
    text = log.read_bytes()[start:].decode(errors="replace")
    for match in _REQUEST.finditer(text):
        requests += 1
        if match[2] == "200":
            path = match[1].split("?")[0]
            file = folder / path.lstrip("/")
            if file.is_dir():
                file = file / "index.html"
            bodies += 1
            sent += file.stat().st_size if file.is_file() else 0
    return requests, bodies, sent


def launch(playwright: Playwright) -> Browser:
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)


# ------------------------------------------------------------------------------------------ 2. load

WATCH = """
(() => {
  const marks = (window.__bench = {});
  const look = () => {
    const now = performance.now();
    if (marks.button === undefined && document.querySelector("[data-testid=learn-to-play]")?.offsetParent) marks.button = now;
    if (marks.ready === undefined && document.querySelector("[data-testid=offline-engine][data-state=ready]")) marks.ready = now;
    if (marks.playable === undefined && document.querySelector("[data-testid=hand] .card-btn.playable")) marks.playable = now;
  };
  new MutationObserver(look).observe(document, { subtree: true, childList: true, attributes: true });
})();
"""
"""Run in each page before its own scripts: when (ms after the navigation's start) the button could
be clicked, the engine said it was ready, and the first playable card appeared."""

HAND = "[data-testid=hand] .card-btn.playable"
LEARN = "[data-testid=learn-to-play]"
ENGINE = "[data-testid=offline-engine]"
TIMEOUT_MS = 180_000


def visit(page: Page, url: str) -> dict[str, Any]:
    """One visit: seconds from ``goto`` to the first playable card (the click as soon as it can),
    and the page's own marks."""
    start = time.perf_counter()
    page.goto(url, wait_until="commit", timeout=TIMEOUT_MS)
    page.click(LEARN, timeout=TIMEOUT_MS)
    page.wait_for_selector(HAND, timeout=TIMEOUT_MS)
    seconds = time.perf_counter() - start
    page.wait_for_selector(f"{ENGINE}[data-state=ready]", state="attached", timeout=TIMEOUT_MS)
    marks = page.evaluate("window.__bench")
    text = page.text_content(ENGINE) or ""
    shown = re.search(r"(\d+(?:\.\d+)?)\s*s", text)
    return {
        "playable_s": seconds,
        "engine_shown_s": float(shown[1]) if shown else None,
        "engine_text": text.strip(),
        "ready_after_navigation_s": marks["ready"] / 1000 if marks.get("ready") is not None else None,
        "button_after_navigation_s": marks["button"] / 1000 if marks.get("button") is not None else None,
    }


def measure_load(runs: int) -> dict[str, Any]:
    """Cold and warm visits, ``runs`` of each, against ``python -m http.server``."""
    from playwright.sync_api import sync_playwright

    cold: list[dict[str, Any]] = []
    warm: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="cassino-site-") as tmp:
        folder = Path(tmp, "site")
        write_site(folder)
        log = Path(tmp, "http.log")
        with http_server(folder, log) as port, sync_playwright() as playwright:
            url = f"http://127.0.0.1:{port}/"
            browser = launch(playwright)
            version = browser.version
            browser.close()
            errors: list[str] = []  # what the pages threw, all runs together
            for run in range(1, runs + 1):
                # a fresh profile on disk, as a person's browser has: its HTTP cache keeps what
                # the page loads (a private context's cache, in memory, drops the 8 MiB wasm)
                with tempfile.TemporaryDirectory(prefix="cassino-profile-") as profile:
                    context = playwright.chromium.launch_persistent_context(
                        profile, executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
                    )
                    try:
                        context.add_init_script(WATCH)
                        page = context.new_page()
                        seen = len(errors)
                        page.on("pageerror", lambda error: errors.append(str(error)))
                        mark = log.stat().st_size
                        first = visit(page, url)
                        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=TIMEOUT_MS)
                        first["requests"], first["bodies"], first["sent"] = served(log, mark, folder)
                        mark = log.stat().st_size
                        again = visit(page, url)
                        again["requests"], again["bodies"], again["sent"] = served(log, mark, folder)
                        again["controlled"] = page.evaluate("navigator.serviceWorker.controller !== null")
                        first["errors"] = again["errors"] = errors[seen:]
                    finally:
                        context.close()
                cold.append(first)
                warm.append(again)
                print(
                    f"  load run {run}/{runs}: cold {first['playable_s']:.2f} s "
                    f"({first['requests']} requests, {mib(first['sent'])}), warm {again['playable_s']:.2f} s "
                    f"({again['requests']} requests), engine {first['engine_shown_s']} s / {again['engine_shown_s']} s",
                    file=sys.stderr,
                )
    return {"chromium": version, "runs": runs, "cold": cold, "warm": warm}


def spread(values: list[float], digits: int = 2) -> str:
    """Median [min, max]."""
    if not values:
        return "-"
    f = f"{{:.{digits}f}}"
    return f"{f.format(statistics.median(values))} [{f.format(min(values))}, {f.format(max(values))}]"


def load_table(figures: dict[str, Any]) -> list[str]:
    lines = [
        "| visit | to the first playable card, s | engine start as the page shows it, s "
        "| engine ready after the navigation's start, s | requests answered | bytes sent |",
        "|---|---|---|---|---:|---:|",
    ]
    for key, name in (("cold", "cold (a new profile, empty cache)"), ("warm", "warm (service worker's cache)")):
        visits = figures[key]
        playable = [v["playable_s"] for v in visits]
        shown = [v["engine_shown_s"] for v in visits if v["engine_shown_s"] is not None]
        ready = [v["ready_after_navigation_s"] for v in visits if v["ready_after_navigation_s"] is not None]
        requests = [v["requests"] for v in visits]
        sent = [v["sent"] for v in visits]
        lines.append(
            f"| {name} | {spread(playable)} | {spread(shown, 1)} | {spread(ready)} "
            f"| {statistics.median(requests):g} | {mib(statistics.median(sent))} |"
        )
    return lines


# ----------------------------------------------------------------------------------------- 3. moves


def play_level(spec: str, games: int, seed: int) -> dict[str, Any]:
    """Every decision of ``spec`` in ``games`` two-player classic games against itself, timed:
    the call the server makes (``seeded_move``: the player made afresh from the seat's seed and the
    ply, on the seat's view). Runs as it is in CPython and in Pyodide (its source is sent there),
    so it imports what it needs itself."""
    import hashlib
    import sys
    import time

    from cassino import COMPILED
    from cassino.game import Game
    from cassino.players.base import seeded_move
    from cassino.view import view_of

    times: list[float] = []
    digest = hashlib.sha256()
    hands = 0
    for number in range(games):
        game = Game(seed=seed + number)
        seat_seeds = [seed * 1000 + number * 10 + seat for seat in range(game.rules.players)]
        ply = 0
        while not game.over:
            state = game.state
            seat = state.to_move
            view = view_of(state, seat)
            start = time.perf_counter()
            code = seeded_move(spec, seat_seeds[seat], ply, view)
            times.append((time.perf_counter() - start) * 1000)
            digest.update(f"{code},".encode())
            game.push(code)
            ply += 1
        hands += len(game.hands)
    return {
        "level": spec,
        "games": games,
        "hands": hands,
        "moves": len(times),
        "ms": times,
        "digest": digest.hexdigest()[:16],
        "compiled": COMPILED,
        "python": sys.version.split()[0],
    }


MOVES_SOURCE = "from __future__ import annotations\n\nfrom typing import Any\n\n\n" + inspect.getsource(play_level)
"""What Pyodide and the CPython processes run: this very function (its annotations left unread)."""

CPYTHON_MAIN = """
import json, sys
for level, games in json.loads(sys.argv[1]):
    print(json.dumps(play_level(level, games, int(sys.argv[2]))), flush=True)
"""

BENCH_HTML = """<!doctype html>
<html><head><meta charset="utf-8"><title>computer players in the worker</title></head><body>
<script type="module">
window.__moves = { info: null, levels: [], error: null };
const worker = new Worker("bench-worker.js", { type: "module" });
worker.onmessage = ({ data }) => {
  if (data.kind === "info") window.__moves.info = data;
  else if (data.kind === "level") window.__moves.levels.push(data.text);
  else if (data.kind === "error") window.__moves.error = data.error;
};
worker.onerror = (event) => { window.__moves.error = String(event.message || event); };
</script></body></html>
"""

BENCH_WORKER = """// Computer players' moves timed in Pyodide in a module worker, as the page's worker.js runs them.
import { loadPyodide } from "./static/vendor/pyodide/pyodide.mjs";

try {
  const plan = await (await fetch("bench-plan.json")).json();
  const began = performance.now();
  const [pyodide, wheel, source] = await Promise.all([
    loadPyodide({ indexURL: new URL("static/vendor/pyodide/", location.href).href, packages: [] }),
    fetch(plan.wheel).then((r) => r.arrayBuffer()),
    fetch("bench_moves.py").then((r) => r.text()),
  ]);
  pyodide.unpackArchive(wheel, "wheel");
  pyodide.runPython(source);
  pyodide.runPython("import cassino.players, cassino.web.thinking");
  const started = (performance.now() - began) / 1000;
  let tick = Infinity;
  for (let steps = 0, last = performance.now(); steps < 200;) {
    const now = performance.now();
    if (now > last) { tick = Math.min(tick, now - last); last = now; steps++; }
  }
  postMessage({
    kind: "info", pyodide: pyodide.version, python: pyodide.runPython("import sys; sys.version.split()[0]"),
    isolated: self.crossOriginIsolated, tick_ms: tick, started_s: started,
  });
  for (const [level, games] of plan.levels) {
    const text = pyodide.runPython(`import json; json.dumps(play_level(${JSON.stringify(level)}, ${games}, ${plan.seed}))`);
    postMessage({ kind: "level", text });
  }
} catch (error) {
  postMessage({ kind: "error", error: String(error && error.stack ? error.stack : error) });
}
"""


def in_the_page(plan: list[tuple[str, int]], seed: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The levels' games in Pyodide in a module worker in Chromium: the worker's facts and each
    level's figures."""
    from playwright.sync_api import sync_playwright

    levels: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="cassino-moves-") as tmp:
        folder = Path(tmp)
        write_site(folder)
        (folder / "bench.html").write_text(BENCH_HTML)
        (folder / "bench-worker.js").write_text(BENCH_WORKER)
        (folder / "bench_moves.py").write_text(MOVES_SOURCE)
        (folder / "bench-plan.json").write_text(json.dumps({"wheel": WHEEL, "seed": seed, "levels": plan}))
        with isolated_server(folder) as port, sync_playwright() as playwright:
            browser = launch(playwright)
            try:
                page = browser.new_page()
                page.goto(f"http://127.0.0.1:{port}/bench.html")
                page.wait_for_function("window.__moves.info || window.__moves.error", timeout=TIMEOUT_MS)
                info: dict[str, Any] = page.evaluate("window.__moves.info") or {}
                for index in range(len(plan)):
                    page.wait_for_function(
                        f"window.__moves.levels.length > {index} || window.__moves.error", timeout=1_800_000
                    )
                    error = page.evaluate("window.__moves.error")
                    if error:
                        raise RuntimeError(f"the worker failed: {error}")
                    levels.append(json.loads(page.evaluate(f"window.__moves.levels[{index}]")))
                    progress("page (Pyodide)", levels[-1])
                info["chromium"] = browser.version
            finally:
                browser.close()
    return info, levels


def in_cpython(plan: list[tuple[str, int]], seed: int, pure: bool) -> list[dict[str, Any]]:
    """The levels' games in a CPython process of their own, with the engine pure or compiled."""
    env = {k: v for k, v in os.environ.items() if k != "CASSINO_PURE"} | ({"CASSINO_PURE": "1"} if pure else {})
    package_root = str(Path(cassino.__file__).resolve().parent.parent)  # the package the site's wheel was made of
    env["PYTHONPATH"] = os.pathsep.join([package_root, *filter(None, [os.environ.get("PYTHONPATH")])])
    command = [sys.executable, "-c", MOVES_SOURCE + CPYTHON_MAIN, json.dumps(plan), str(seed)]
    levels = []
    with subprocess.Popen(command, stdout=subprocess.PIPE, env=env, text=True) as process:
        assert process.stdout is not None
        for line in process.stdout:
            levels.append(json.loads(line))
            progress("CPython " + ("pure" if pure else "compiled"), levels[-1])
    if process.returncode:
        raise RuntimeError(f"the CPython run ({'pure' if pure else 'compiled'}) failed: {process.returncode}")
    return levels


def percentiles(ms: list[float]) -> dict[str, float]:
    """p50, p99 and the slowest of move times in ms (``statistics.quantiles``, inclusive)."""
    q = statistics.quantiles(ms, n=100, method="inclusive") if len(ms) > 1 else [ms[0]] * 99
    return {"p50": q[49], "p99": q[98], "max": max(ms), "mean": statistics.fmean(ms)}


def progress(where: str, level: dict[str, Any]) -> None:
    p = percentiles(level["ms"])
    print(
        f"  {where:<18} {level['level']:<9} {level['moves']:>5} moves: p50 {p['p50']:.2f} ms, "
        f"p99 {p['p99']:.2f} ms, max {p['max']:.1f} ms, total {sum(level['ms']) / 1000:.1f} s",
        file=sys.stderr,
    )


def measure_moves(games: int, master_games: int, seed: int) -> dict[str, Any]:
    plan = [(level, master_games if level == "master" else games) for level in level_names()]
    print("  the page's worker (Pyodide in Chromium)...", file=sys.stderr)
    info, page = in_the_page(plan, seed)
    pure = in_cpython(plan, seed, pure=True)
    compiled = in_cpython(plan, seed, pure=False)
    if not all(level["compiled"] for level in compiled):
        compiled = []  # the compiled modules are not built (or not current): nothing to compare
    for runs in (page, pure, compiled):
        for level in runs:
            level.update(percentiles(level.pop("ms")))
    return {"seed": seed, "worker": info, "page": page, "pure": pure, "compiled": compiled}


def moves_table(figures: dict[str, Any]) -> list[str]:
    lines = [
        "| level | games | moves | page (Pyodide worker): p50 / p99 / max ms | CPython pure: p50 / p99 / max ms "
        "| CPython compiled: p50 / p99 / max ms | page / pure (mean) | same moves |",
        "|---|---:|---:|---|---|---|---:|---|",
    ]

    def cell(level: dict[str, Any] | None) -> str:
        if level is None:
            return "not built"
        return f"{level['p50']:.2f} / {level['p99']:.2f} / {level['max']:.1f}"

    compiled = {c["level"]: c for c in figures["compiled"]}
    for page, pure in zip(figures["page"], figures["pure"], strict=True):
        other = compiled.get(page["level"])
        same = page["digest"] == pure["digest"] and (other is None or other["digest"] == page["digest"])
        ratio = page["mean"] / pure["mean"] if pure["mean"] else float("nan")
        lines.append(
            f"| {page['level']} | {page['games']} | {page['moves']} | {cell(page)} | {cell(pure)} | {cell(other)} "
            f"| {ratio:.1f}x | {'yes' if same else 'NO'} |"
        )
    return lines


def master_verdict(figures: dict[str, Any]) -> str:
    master = next(level for level in figures["page"] if level["level"] == "master")
    held = master["p99"] <= MASTER_P99_LIMIT_MS
    within = [level["level"] for level in figures["page"] if level["p99"] <= MASTER_P99_LIMIT_MS]
    return (
        f"`master` in the page: p99 {master['p99']:.0f} ms a move, slowest {master['max']:.0f} ms: "
        + ("**within** the 2 s target." if held else "**over** the 2 s target.")
        + f" Levels within 2 s at p99 in the page: {', '.join(within) or 'none'}."
    )


# ----------------------------------------------------------------------------------------- report


def machine(figures: dict[str, Any]) -> list[str]:
    cpu = "unknown"
    with contextlib.suppress(OSError):
        found = re.search(r"^model name\s*:\s*(.+)$", Path("/proc/cpuinfo").read_text(), re.MULTILINE)
        cpu = found[1].strip() if found else cpu
    vendored = read(site_files()[PYODIDE + "pyodide.mjs"]).decode()
    version = re.search(r'"(\d+\.\d+\.\d+)"', vendored)
    worker = figures.get("moves", {}).get("worker", {})
    chromium = figures.get("load", {}).get("chromium") or worker.get("chromium") or "not run"
    lines = [
        f"- CPU: {cpu}, {os.cpu_count()} cores, shared with other work (load average over a minute: "
        f"{' at the start, '.join(map(str, figures['load_average']))} at the end)",
        f"- Chromium: {chromium} (Debian's `{CHROMIUM}`, headless, through Playwright)",
        f"- Pyodide: {worker.get('pyodide') or (version[1] if version else 'unknown')}"
        + (f" (Python {worker['python']} in the worker)" if worker.get("python") else ""),
        f"- CPython here: {sys.version.split()[0]}; engine compiled with mypyc: "
        + (
            "yes"
            if figures.get("moves", {}).get("compiled")
            else "not measured"
            if "moves" not in figures
            else "not built"
        ),
    ]
    if worker:
        lines.append(
            f"- The worker: cross-origin isolated {str(worker.get('isolated')).lower()}, its clock's step "
            f"{worker.get('tick_ms', 0) * 1000:.0f} µs; Pyodide and the wheel started in {worker.get('started_s', 0):.1f} s"
        )
    return lines


def report(figures: dict[str, Any], command: str) -> str:
    revision = subprocess.run(
        ["git", "-C", str(ROOT), "describe", "--always", "--dirty"], capture_output=True, text=True, check=False
    ).stdout.strip()
    out = [
        "# The page that plays offline: first visit, first table, computer players' moves",
        "",
        f"Measured by `benchmarks/offline.py` on {datetime.date.today().isoformat()}, the package at commit `{revision}`:",
        "",
        "```sh",
        command,
        "```",
        "",
        *machine(figures),
    ]
    if "bytes" in figures:
        out += [
            "",
            "## First visit: bytes",
            "",
            "Every file of the site (`site_files()`): the service worker keeps all of them on the first visit. "
            "gzip -6 is what a server compressing its answers would send; `python -m http.server` sends every "
            "file uncompressed.",
            "",
            *bytes_table(figures["bytes"]),
        ]
    if "load" in figures:
        load = figures["load"]
        out += [
            "",
            "## Time to the first playable table",
            "",
            f"Chromium against `python -m http.server`, {load['runs']} runs; median [min, max]. From `goto` to the "
            "first playable card after clicking Learn to play as soon as it can be clicked (the engine's start "
            "included). Cold: a new browser profile on disk; warm: the same profile once the service worker controls the "
            "page. Requests and bytes: what `http.server` answered during the visit (its log; the cold visit until "
            "the service worker controls the page).",
            "",
            *load_table(load),
            "",
            "The service worker is registered once the engine has started, and asks for each file with "
            '`cache: "no-cache"` (`sw.js`): what the page has just loaded itself (Pyodide, the wheel, its '
            "scripts) is only checked with the server (304 Not Modified), and the rest of the site is sent once.",
        ]
        errors = sorted({e for v in load["cold"] + load["warm"] for e in v["errors"]})
        if errors:
            out += ["", "Errors in the page: " + "; ".join(errors)]
    if "moves" in figures:
        moves = figures["moves"]
        out += [
            "",
            "## Computer players: time per move",
            "",
            "Each level against itself in two-player classic games to 21 (seeded: game `n` is `Game(seed="
            f"{moves['seed']} + n)`), every decision timed (`players.base.seeded_move`, the server's `think`), "
            "the same games in the three places (same moves: the digests of the moves agree). Page: Pyodide "
            "in a module Web Worker in Chromium; CPython: here, one process each.",
            "",
            *moves_table(moves),
            "",
            master_verdict(moves),
        ]
    return "\n".join(out) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=PARTS, action="append", help="measure only this part (may be repeated)")
    parser.add_argument("--runs", type=int, default=5, help="cold and warm visits each (default 5)")
    parser.add_argument("--games", type=int, default=10, help="games per level (default 10)")
    parser.add_argument("--master-games", type=int, help="games for master (default: --games)")
    parser.add_argument("--seed", type=int, default=2024, help="game n is dealt from seed + n (default 2024)")
    parser.add_argument("--out", type=Path, help=f"the markdown results (default when all parts run: {RESULTS})")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args()
    if args.runs < 1 or args.games < 1 or (args.master_games is not None and args.master_games < 1):
        parser.error("--runs, --games and --master-games must be 1 or more")
    parts = args.only or list(PARTS)
    out = args.out or (RESULTS if not args.only else None)
    figures: dict[str, Any] = {"load_average": [round(os.getloadavg()[0], 2)]}
    if "bytes" in parts:
        print("bytes of the site...", file=sys.stderr)
        figures["bytes"] = measure_bytes()
    if "load" in parts:
        print(f"first playable table, {args.runs} cold and warm visits...", file=sys.stderr)
        figures["load"] = measure_load(args.runs)
    if "moves" in parts:
        print("computer players' moves...", file=sys.stderr)
        master_games = args.master_games if args.master_games is not None else args.games
        figures["moves"] = measure_moves(args.games, master_games, args.seed)
    figures["load_average"].append(round(os.getloadavg()[0], 2))
    script = Path(sys.argv[0])
    shown = script.resolve().relative_to(ROOT) if script.resolve().is_relative_to(ROOT) else script
    command = shlex.join(["python", str(shown), *sys.argv[1:]])
    if os.environ.get("PYTHONPATH"):
        command = "PYTHONPATH=src " + command
    text = report(figures, command)
    print(text)
    if out:
        out.write_text(text)
        print(f"written: {out}", file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
