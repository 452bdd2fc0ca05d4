"""Ctrl-C stops a long count at once, compiled engine or pure: status 130 within a second, nothing
half written, and a line of progress on standard error only when it is a terminal.

The compiled engine answers no signal by itself (only the interpreter runs a signal's handler):
its long loops call ``native.checkpoint`` now and then. Each test runs ``cassino perft`` at depth
20 on a start position, a count that would take years, and interrupts it once it is counting.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import cassino
from cassino.game import Game
from cassino.notation import position_to_json

START = json.dumps(position_to_json(Game(seed=1).state))
"""The start of a hand: perft 20 from here never ends."""

SCRIPT = Path(sys.executable).parent / "cassino"
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "cassino.cli"]
PERFT = [*COMMAND, "perft", START, "20"]

ANSWER = 1.0
"""The most seconds from Ctrl-C to the end of the process."""


def _compiled_available() -> bool:
    """Whether a process without ``CASSINO_PURE`` runs the compiled engine here."""
    env = {k: v for k, v in os.environ.items() if k != "CASSINO_PURE"}
    done = subprocess.run(
        [sys.executable, "-c", "import cassino; print(cassino.COMPILED)"], env=env, capture_output=True, text=True
    )
    return done.stdout.strip() == "True"


def engine_env(engine: str) -> dict[str, str]:
    """The environment of a ``cassino`` process running ``engine``; the compiled one is skipped
    where it was not built, except in CI's main run (CASSINO_CI=1 without CASSINO_PURE), which
    must have it."""
    env = {k: v for k, v in os.environ.items() if k != "CASSINO_PURE"}
    if engine == "pure":
        return {**env, "CASSINO_PURE": "1"}
    if not (cassino.COMPILED or _compiled_available()):
        if os.environ.get("CASSINO_CI") == "1" and os.environ.get("CASSINO_PURE") != "1":
            pytest.fail("CASSINO_CI=1 runs the compiled engine, but it is not built here")
        pytest.skip("the engine is not compiled here")
    return env


def _cpu_seconds(pid: int) -> float | None:
    """The processor time a process has used, from /proc (None where there is none)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_until_counting(proc: subprocess.Popen[bytes], cpu: float = 1.0, limit: float = 30.0) -> None:
    """Return once ``proc`` has computed for ``cpu`` seconds of processor time (its start takes a
    fraction of that), or after two seconds where /proc cannot tell."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        used = _cpu_seconds(proc.pid)
        if used is None:
            time.sleep(2.0)
            return
        if used >= cpu:
            return
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    pytest.fail(f"perft did not start counting within {limit} s")


def interrupt(proc: subprocess.Popen[bytes]) -> float:
    """Send Ctrl-C's signal and return how many seconds the process took to end."""
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        pytest.fail("Ctrl-C did not stop the count within 30 s")
    return time.monotonic() - sent


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX signal")
@pytest.mark.parametrize("divide", [False, True], ids=["total", "divide"])
@pytest.mark.parametrize("engine", ["compiled", "pure"])
def test_ctrl_c_stops_a_deep_perft_at_once(engine: str, divide: bool) -> None:
    """Piped, as a script runs it: status 130 within a second, no output, no progress line."""
    proc = subprocess.Popen(
        [*PERFT, *(["--divide"] if divide else [])],
        env=engine_env(engine),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    wait_until_counting(proc)
    took = interrupt(proc)
    out, err = proc.communicate()
    assert (proc.returncode, out, err) == (130, b"", b"")
    assert took < ANSWER, f"{took:.2f} s from Ctrl-C to the end"


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="a terminal")
@pytest.mark.parametrize("engine", ["compiled", "pure"])
def test_a_terminal_sees_the_count_going_and_ctrl_c_stop_it(engine: str) -> None:
    """Standard error a terminal: a progress line of the first moves counted, taken away when
    Ctrl-C stops the count (status 130 within a second); standard output still empty."""
    leader, follower = os.openpty()
    proc = subprocess.Popen(
        PERFT, env=engine_env(engine), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=follower
    )
    os.close(follower)
    seen = bytearray()

    def read_terminal() -> None:
        """Read the terminal as it is written, to its end: what the process writes just before it
        ends is read then, not after (a terminal whose other side has closed may drop it)."""
        with contextlib.suppress(OSError):  # the terminal closes with the process
            while chunk := os.read(leader, 4096):
                seen.extend(chunk)

    reader = threading.Thread(target=read_terminal, daemon=True)
    reader.start()
    deadline = time.monotonic() + 30
    while b"first moves" not in seen and time.monotonic() < deadline:
        time.sleep(0.05)
    assert seen.startswith(b"\rperft 20: 0 of ") and b" first moves" in seen, bytes(seen)
    took = interrupt(proc)
    reader.join(timeout=10)
    os.close(leader)
    out, _ = proc.communicate()
    assert (proc.returncode, out) == (130, b"")
    assert seen.endswith(b"\r\x1b[K"), bytes(seen)  # the line taken away
    assert took < ANSWER, f"{took:.2f} s from Ctrl-C to the end"


def _children(pid: int) -> list[int]:
    """The child processes of ``pid`` (Linux's /proc; empty where it cannot tell)."""
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="Linux's /proc, to see the worker processes")
@pytest.mark.parametrize("group", [False, True], ids=["kill-INT", "terminal"])
@pytest.mark.parametrize("engine", ["compiled", "pure"])
def test_ctrl_c_stops_an_arena_and_its_workers(engine: str, group: bool) -> None:
    """Search players in two worker processes: Ctrl-C at a terminal (the whole process group) or
    ``kill -INT`` (this process alone) ends the arena with status 130 and one line within a second,
    and no worker is left playing (the pool used to wait for every game under way)."""
    proc = subprocess.Popen(
        [*COMMAND, "arena", "search", "master", "-n", "200", "-q", "--workers", "2", "--executor", "process"],
        env=engine_env(engine),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while len(_children(proc.pid)) < 3 and time.monotonic() < deadline:  # two workers and their tracker
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.1)
    workers = _children(proc.pid)
    time.sleep(1.0)  # the games under way
    sent = time.monotonic()
    if group:
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail("Ctrl-C did not stop the arena within 30 s")
    took = time.monotonic() - sent
    assert (proc.returncode, out, err) == (130, b"", b"cassino arena: interrupted\n")
    assert took < ANSWER, f"{took:.2f} s from Ctrl-C to the end"
    time.sleep(0.5)
    assert [w for w in workers if Path(f"/proc/{w}").exists() and "Z" not in _state(w)] == []


def _state(pid: int) -> str:
    """A process's state letter from /proc (Z: ended, not yet reaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"


HUGE_LIST = """
import sys
from cassino.notation import position_from_json
table = [r + s for r in "A23456" for s in "cdhs"] + ["7c", "7d"]
hands = [["7h", "8c", "9c", "Tc"], ["Qs", "Kd", "Kh", "Ks"]]
rest = [r + s for r in "A23456789TJQK" for s in "cdhs" if r + s not in table + hands[0] + hands[1]]
state = position_from_json({"table": table, "hands": hands, "captured": [rest, []], "to_move": 0})
print("listing", flush=True)
state.legal_codes()
"""
"""Lists the moves of 26 small cards on the table: 51,588,853 moves, ten seconds compiled."""


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX signal")
@pytest.mark.parametrize("engine", ["compiled", "pure"])
def test_ctrl_c_stops_the_listing_of_a_huge_table(engine: str) -> None:
    """``legal_codes`` on a table of millions of moves lets Ctrl-C in as it goes."""
    proc = subprocess.Popen(
        [sys.executable, "-c", HUGE_LIST], env=engine_env(engine), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout is not None and proc.stdout.readline() == b"listing\n"
    time.sleep(1.0)
    took = interrupt(proc)
    _, err = proc.communicate()
    assert proc.returncode != 0 and err.rstrip().endswith(b"KeyboardInterrupt"), err[-300:]
    assert took < ANSWER, f"{took:.2f} s from Ctrl-C to the end"


COLD_INTERRUPTS = """
import json, random, signal, sys
from cassino import Game, checks, partition
from cassino.notation import position_to_json, read_position_text
from cassino.perft import perft

class Stop(Exception):
    pass

def stop(signum, frame):
    raise Stop

signal.signal(signal.SIGALRM, stop)
rng = random.Random(int(sys.argv[1]))
texts = [json.dumps(position_to_json(Game(seed=s).state)) for s in range(1, 30)]
for trial in range(int(sys.argv[2])):
    for cache in (partition._COUNTS, partition._GROUPS, partition._PLANS, partition.TABLES_CACHE, partition._SEEN, checks._TARGETS):
        cache.clear()
    try:
        signal.setitimer(signal.ITIMER_REAL, rng.uniform(0.000001, 0.003))
        perft(read_position_text(texts[trial % len(texts)]), 20)
    except Stop:
        pass
print("every interrupt came out as the handler's exception")
"""
"""Perft interrupted at random early moments, every cache of the engine emptied each time."""


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="a POSIX interval timer")
@pytest.mark.parametrize("engine", ["compiled", "pure"])
def test_an_interrupt_in_the_compiled_engine_never_aborts_the_process(engine: str) -> None:
    """A signal's handler may run inside any int multiplication of CPython's (it checks for signals
    between the digits of big ints), and a compiled multiplication read that exception as running
    out of memory: ``fatal: out of memory``, the process aborted, one Ctrl-C in fifteen. The engine
    multiplies big ints through a call now (``partition.multiply``), which passes it on."""
    done = subprocess.run(
        [sys.executable, "-c", COLD_INTERRUPTS, "7", "600"],
        env=engine_env(engine),
        capture_output=True,
        timeout=300,
    )
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        b"every interrupt came out as the handler's exception\n",
        b"",
    )
