"""The command line on a table of 26 small cards (about 50 million legal moves): how soon
``cassino moves`` and ``cassino perft --divide`` print their first line, how fast lines follow,
and the peak memory of the process, which must stay bounded while the lines stream.

    python benchmarks/cli_huge.py                 # each command for 10 s after its first line
    python benchmarks/cli_huge.py --seconds 60
    python benchmarks/cli_huge.py --full          # to the end (minutes; moves writes about 3 GB)

Each command runs as its own process, as a shell runs it, with its output read through a pipe.
The peak memory is the process's high-water mark (VmHWM in /proc, Linux), read just before it is
stopped, or at its end with ``--full``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine import huge_table

from cassino.notation import dumps_position

SCRIPT = Path(sys.executable).parent / "cassino"
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "cassino.cli"]


def peak_mib(pid: int) -> float:
    """The high-water mark of a running process's resident memory, in MiB (0 off Linux)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def measure(args: list[str], seconds: float, full: bool) -> dict[str, float]:
    """Run ``cassino ARGS``: seconds to the first line, lines read, lines per second after it, and
    the peak memory, within ``seconds`` after the first line (or to the end with ``full``)."""
    start = time.perf_counter()
    proc = subprocess.Popen([*COMMAND, *args], stdout=subprocess.PIPE, bufsize=1 << 20)
    assert proc.stdout is not None
    first_line = proc.stdout.readline()
    first = time.perf_counter() - start
    lines = 1 if first_line else 0
    end = time.perf_counter() + seconds
    peak = peak_mib(proc.pid)
    for _ in proc.stdout:
        lines += 1
        if lines % 65536 == 0:
            peak = max(peak, peak_mib(proc.pid))
            if not full and time.perf_counter() > end:
                break
    peak = max(peak, peak_mib(proc.pid))
    after = time.perf_counter() - start - first
    proc.kill()
    proc.wait()
    return {"first_s": first, "lines": lines, "rate": (lines - 1) / after if after > 0 else 0.0, "peak_mib": peak}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="how long to read after the first line")
    parser.add_argument("--full", action="store_true", help="read every line, to the end")
    options = parser.parse_args()
    state = huge_table()
    print(f"huge table: {state.count_legal():,} legal moves; {' '.join(COMMAND)}")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "huge.json"
        path.write_text(dumps_position(state))
        for args in (
            ["moves", str(path)],
            ["perft", str(path), "1", "--divide"],
            ["perft", str(path), "2", "--divide"],
        ):
            got = measure(args, options.seconds, options.full)
            shown = " ".join(a if a != str(path) else "huge.json" for a in args)
            print(
                f"cassino {shown:26} first line {got['first_s']:6.2f} s; {got['lines']:>11,.0f} lines, "
                f"{got['rate']:>9,.0f} lines/s; peak {got['peak_mib']:6.1f} MiB"
            )


if __name__ == "__main__":
    main()
