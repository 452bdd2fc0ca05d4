"""``ProgramPlayer``: a player that is a program of its own, in any language, speaking the bot
protocol (docs/bots.md) on its standard input and output.

The program runs in its own process and session (its process group is killed as one, children
included), without a shell, under a wall-clock limit per move and CPU-seconds and memory limits
(``resource.setrlimit`` in the child). It is started at its first decision and stopped by
``close()``, by the end of a ``with`` block, when the player is collected, or at the latest when
the interpreter exits; every process it started is reaped. Whatever goes wrong (it hangs, exits,
prints garbage, answers an illegal move) ``choose`` raises ``PlayerFaultError`` with one line saying
what, and the program is stopped.
"""

from __future__ import annotations

import contextlib
import os
import re
import selectors
import signal
import subprocess
import time as clock
import weakref
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, NoReturn

from ..cards import excerpt
from ..errors import IllegalMoveError, MoveError
from ..moves import MoveCode
from ..players.errors import PlayerFaultError, PlayerSpecError
from ..view import View
from .protocol import HELLO, MOVE, QUIT, READY, answer_code, decision_lines, read_bot_line

try:  # POSIX only: the limits are not set where it is missing
    import resource
except ImportError:  # pragma: no cover - Windows
    resource = None  # type: ignore[assignment]

PROGRAM_SETTINGS: Final[dict[str, type[bool] | type[int] | type[float] | type[str]]] = {
    "time": float,
    "start": float,
    "memory": int,
    "cpu": float,
    "restart": bool,
    "stderr": str,
}
"""The settings of a ``bot:PATH`` spec, those of ``ProgramPlayer``, in the order messages list them."""

STDERR_MODES: Final = ("tail", "discard", "show")
"""What becomes of a program's standard error: its last lines kept for a fault's reason, thrown
away, or shown on the engine's own."""

MAX_LINE: Final = 1 << 20
"""The longest line a program may write (1 MiB): a longer one is garbage, not a move."""

TAIL_BYTES: Final = 8192
"""How much of a program's standard error is kept for a fault's reason."""

QUIT_GRACE: Final = 0.5
"""Seconds a program has to leave after ``quit`` before its process group is killed."""

EXIT_GRACE: Final = 1.0
"""Seconds a program that closed its output has to exit, so that its status can be told."""

PATH_CHARS: Final = 500
"""How much of a program's path a message quotes (``excerpt`` cuts other input shorter)."""

_MEMORY_WORDS = re.compile(r"MemoryError|out of memory|cannot allocate|bad_alloc|memory exhausted", re.IGNORECASE)


def seconds_text(seconds: float) -> str:
    """A time as a fault's reason says it: ``2.0``, ``0.5``, ``0.25``."""
    return f"{seconds:.1f}" if round(seconds, 1) == seconds else f"{seconds:g}"


class _Timeout(Exception):  # noqa: N818 (a signal between two methods, never seen outside)
    """The time of a step ran out."""


class _Ended(Exception):  # noqa: N818 (a signal between two methods, never seen outside)
    """The program closed its output or its input: it has exited, or is about to."""


class _Process:
    """One run of the program: its pipes, read and written without blocking, and what it wrote."""

    def __init__(
        self,
        command: Sequence[str],
        cwd: str | None,
        env: Mapping[str, str] | None,
        limits: Callable[[], None] | None,
        stderr: str,
    ) -> None:
        errors: int | None = {"tail": subprocess.PIPE, "discard": subprocess.DEVNULL}.get(stderr)
        self.popen = subprocess.Popen(
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=errors,
            cwd=cwd,
            env=None if env is None else dict(env),
            start_new_session=True,  # its own process group: the kill takes its children too
            preexec_fn=limits,  # only setrlimit, every number worked out before the fork
            close_fds=True,
        )
        self.killer = weakref.finalize(self, _kill_group, self.popen)
        _LIVE.add(self)
        self.out = bytearray()
        self.err = bytearray()
        self.eof = False
        self.stopped = False
        self.selector = selectors.DefaultSelector()
        assert self.popen.stdin is not None and self.popen.stdout is not None
        for pipe, what in ((self.popen.stdout, "out"), (self.popen.stderr, "err")):
            if pipe is not None:
                os.set_blocking(pipe.fileno(), False)
                self.selector.register(pipe.fileno(), selectors.EVENT_READ, what)
        os.set_blocking(self.popen.stdin.fileno(), False)

    def send(self, data: bytes, deadline: float) -> None:
        """Write ``data`` to the program, reading what it writes meanwhile (a program that writes
        before it reads must not stall the two of them); _Timeout, or _Ended when it is gone."""
        stdin = self.popen.stdin
        assert stdin is not None
        fd = stdin.fileno()
        rest = memoryview(data)
        self.selector.register(fd, selectors.EVENT_WRITE, "in")
        try:
            while rest:
                for key, _events in self._wait(deadline):
                    if key.data != "in":
                        self._read(key)
                        continue
                    try:
                        rest = rest[os.write(fd, rest[:65536]) :]
                    except BlockingIOError:
                        continue
                    except (BrokenPipeError, ConnectionResetError):
                        raise _Ended() from None
        finally:
            self.selector.unregister(fd)

    def line(self, deadline: float) -> str:
        """The program's next line (without its end); _Timeout, or _Ended after its last line."""
        while True:
            end = self.out.find(b"\n")
            if end >= 0:
                text = bytes(self.out[:end])
                del self.out[: end + 1]
                return text.decode("utf-8", "replace").rstrip("\r")
            if len(self.out) > MAX_LINE:
                text = bytes(self.out)
                self.out.clear()
                return text.decode("utf-8", "replace")
            if self.eof:
                if self.out:
                    text = bytes(self.out)
                    self.out.clear()
                    return text.decode("utf-8", "replace")
                raise _Ended()
            for key, _events in self._wait(deadline):
                self._read(key)

    def drain(self) -> None:
        """Read and drop whatever the program wrote before it was asked: an answer counts only
        when it follows the question."""
        while not self.eof:
            ready = self.selector.select(0)
            if not ready:
                break
            for key, _events in ready:
                self._read(key)
        self.out.clear()

    def _wait(self, deadline: float) -> list[tuple[selectors.SelectorKey, int]]:
        """The pipes ready before ``deadline``; _Timeout when none is by then."""
        left = deadline - clock.monotonic()
        if left <= 0:
            raise _Timeout()
        if not self.selector.get_map():
            clock.sleep(left)  # nothing left to wait on: the time runs out
            raise _Timeout()
        ready = self.selector.select(left)
        if not ready and clock.monotonic() >= deadline:
            raise _Timeout()
        return ready

    def _read(self, key: selectors.SelectorKey) -> None:
        """Take what a pipe holds: a line to come, or the end of the pipe."""
        try:
            data = os.read(key.fd, 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self.selector.unregister(key.fd)
            if key.data == "out":
                self.eof = True
            return
        if key.data == "out":
            self.out += data
        else:
            self.err += data
            del self.err[:-TAIL_BYTES]

    def tail(self, seconds: float = 0.2) -> str:
        """The last line the program wrote on its standard error ("" when none was kept), read to
        its end for at most ``seconds``."""
        deadline = clock.monotonic() + seconds
        while any(key.data == "err" for key in self.selector.get_map().values()):
            try:
                for key, _events in self._wait(deadline):
                    self._read(key)
            except _Timeout:
                break
        lines = [line.strip() for line in self.err.decode("utf-8", "replace").splitlines() if line.strip()]
        return excerpt(lines[-1], quote=False, limit=200) if lines else ""

    def exited(self, seconds: float) -> bool:
        """Whether the program's process has exited within ``seconds``, left unreaped so that its
        process group can still be killed by its number."""
        deadline = clock.monotonic() + seconds
        while True:
            if _has_exited(self.popen):
                return True
            left = deadline - clock.monotonic()
            if left <= 0:
                return False
            clock.sleep(min(left, 0.005))

    def stop(self, grace: float) -> int:
        """End the program: ``quit`` and up to ``grace`` seconds to leave, then its whole process
        group killed and reaped, pipes closed; its exit status (negative: the signal)."""
        if self.stopped:
            return _kill_group(self.popen)
        self.stopped = True
        if grace > 0 and not _has_exited(self.popen):
            try:
                self.send(f"{QUIT}\n".encode(), clock.monotonic() + grace)
                assert self.popen.stdin is not None
                self.popen.stdin.close()  # a program that reads to the end of its input ends too
            except (_Timeout, _Ended, OSError):
                pass
            self.exited(grace)
        status = _kill_group(self.popen)
        self.killer.detach()
        _LIVE.discard(self)
        self.selector.close()
        for pipe in (self.popen.stdin, self.popen.stdout, self.popen.stderr):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        return status


_LIVE: weakref.WeakSet[_Process] = weakref.WeakSet()
"""The programs this process started and has not stopped, for ``stop_all``."""


def stop_all() -> None:
    """Kill every program this process started and has not stopped, with its process group, at
    once: for a process about to end without running its finalizers (a worker told to terminate).
    Safe in a signal handler: it waits for nothing and takes no lock (``Popen.wait`` does, and the
    handler may have interrupted it)."""
    for process in list(_LIVE):
        if process.popen.returncode is None:
            with contextlib.suppress(OSError):
                os.killpg(process.popen.pid, signal.SIGKILL)


def _has_exited(popen: subprocess.Popen[bytes]) -> bool:
    """Whether the process has exited, without reaping it where the system allows (``waitid``
    with ``WNOWAIT``): reaped, its number could be given to another process before its group is
    killed."""
    if popen.returncode is not None:
        return True
    if hasattr(os, "waitid"):
        try:
            found = os.waitid(os.P_PID, popen.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return True
        return found is not None
    return popen.poll() is not None  # pragma: no cover - systems without waitid


def _kill_group(popen: subprocess.Popen[bytes]) -> int:
    """Kill the process group of ``popen`` (the program and whatever it started) and reap the
    program; its exit status. Also the finalizer of a process left running."""
    if popen.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(popen.pid, signal.SIGKILL)
    return popen.wait()


def _limits(cpu: float, memory: int) -> Callable[[], None] | None:
    """What the child runs before the program: RLIMIT_CPU (seconds, then SIGXCPU; SIGKILL a second
    later) and RLIMIT_AS (MiB of address space), each within the hard limit this process has. Every
    number is worked out here, so that the child only makes the calls."""
    if resource is None:  # pragma: no cover - Windows
        return None
    calls: list[tuple[int, tuple[int, int]]] = []
    if cpu > 0:
        _soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
        soft = -(-int(cpu * 1000) // 1000)
        if hard != resource.RLIM_INFINITY:
            soft = min(soft, hard)
        calls.append((resource.RLIMIT_CPU, (soft, soft + 1 if hard == resource.RLIM_INFINITY else hard)))
    if memory > 0:
        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        size = memory << 20
        if hard != resource.RLIM_INFINITY:
            size = min(size, hard)
        calls.append((resource.RLIMIT_AS, (size, size)))
    if not calls:
        return None
    setrlimit = resource.setrlimit

    def apply() -> None:
        """In the child, between fork and exec."""
        for which, values in calls:
            setrlimit(which, values)

    return apply


class ProgramPlayer:
    """A player that is a program speaking the bot protocol (docs/bots.md).

    ``command`` is the program and its arguments (run without a shell). ``time``: seconds of wall
    clock for each move, from the question to the answer; ``start``: seconds for it to start and
    answer the greeting; ``memory``: MiB of address space (0: no limit); ``cpu``: CPU seconds for
    the whole run of the process (0: no limit); ``restart``: start it again at the next decision
    after it died or was stopped for a fault (by default it stays at fault: each later decision
    raises the same ``PlayerFaultError``); ``stderr``: ``tail`` (its last line is kept for a fault's
    reason), ``discard`` or ``show``. ``seed`` is sent to the program with every decision.
    """

    def __init__(
        self,
        command: Sequence[str],
        *,
        name: str | None = None,
        seed: int | None = None,
        time: float = 2.0,
        start: float = 10.0,
        memory: int = 1024,
        cpu: float = 300.0,
        restart: bool = False,
        stderr: str = "tail",
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        if not command:
            raise PlayerSpecError("a program player needs a command to run")
        for setting, value in (("time", time), ("start", start)):
            if not value > 0:
                raise PlayerSpecError(f"{setting} must be more than 0 seconds, got {value}")
        if memory < 0 or not cpu >= 0:
            raise PlayerSpecError(f"memory and cpu must be 0 (no limit) or more, got {memory} and {cpu}")
        if stderr not in STDERR_MODES:
            raise PlayerSpecError(f"stderr must be one of {', '.join(STDERR_MODES)}, got {excerpt(stderr)}")
        self.command = list(command)
        self.name = name or " ".join(self.command)
        self.seed = seed
        self.time = time
        self.start = start
        self.memory = memory
        self.cpu = cpu
        self.restart = restart
        self.stderr = stderr
        self.cwd = cwd
        self.env = env
        self.game = 1
        """The number sent on each decision's ``game`` line; ``new_game`` moves it on."""
        self.bot_name: str | None = None
        """What the program called itself (``id name``), once started."""
        self.fault: str | None = None
        """The reason of the last fault, while the player stays at fault."""
        self._process: _Process | None = None

    # ------------------------------------------------------------------ the Player interface
    def choose(self, view: View) -> MoveCode:
        """Ask the program for its move; PlayerFaultError when it fails to give a legal one in time."""
        process = self._running()
        deadline = clock.monotonic() + self.time
        millis = max(1, int(self.time * 1000))
        lines = decision_lines(view, millis, game=self.game, seed=self.seed or 0)
        try:
            process.drain()
            process.send(("\n".join(lines) + "\n").encode(), deadline)
            while True:
                said = read_bot_line(process.line(deadline))
                if said.kind == MOVE:
                    break
                if said.kind != "skip":
                    self._fail(f"answered {excerpt(said.text)}, which is no move: a bot answers go with 'move' and "
                               "one of the legal moves, e.g. 'move trail 7h'")  # fmt: skip
        except _Timeout:
            self._fail(f"timed out after {seconds_text(self.time)} s")
        except _Ended:
            self._fail(self._ended(process))
        try:
            return answer_code(said.text, view)
        except IllegalMoveError as exc:
            self._fail(f"answered {excerpt(said.text)}, which is not legal here: {exc.reason}")
        except MoveError as exc:
            self._fail(f"answered {excerpt(said.text)}, which is no move: {exc}")

    def new_game(self) -> None:
        """Tell the program that the next decision belongs to another game (its ``game`` line)."""
        self.game += 1

    # ------------------------------------------------------------------ the process
    @property
    def running(self) -> bool:
        """Whether the program's process is started and has not exited."""
        return self._process is not None and not _has_exited(self._process.popen)

    @property
    def pid(self) -> int | None:
        """The process number of the program while it is started."""
        return None if self._process is None else self._process.popen.pid

    def close(self) -> None:
        """Stop the program (``quit``, then its process group killed), if it runs; it starts again
        at the next decision."""
        process, self._process = self._process, None
        if process is not None:
            process.stop(QUIT_GRACE)

    def __enter__(self) -> ProgramPlayer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _running(self) -> _Process:
        """The program's process, started and greeted (once, or again after a fault with
        ``restart``); PlayerFaultError when it is at fault, died, or fails to start."""
        if self.fault is not None and not self.restart:
            raise PlayerFaultError(self.name, self.fault)
        process = self._process
        if process is not None and _has_exited(process.popen):
            if not self.restart:
                self._fail(self._ended(process))
            self.close()
            process = None
        if process is None:
            self.fault = None
            process = self._start()
        return process

    def _start(self) -> _Process:
        """Start the program and greet it: it answers ``ready`` (after any ``id`` lines) in time."""
        try:
            process = _Process(self.command, self.cwd, self.env, _limits(self.cpu, self.memory), self.stderr)
        except (OSError, subprocess.SubprocessError, ValueError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self.fault = f"could not be started: {reason}"
            raise PlayerFaultError(self.name, self.fault) from None
        self._process = process
        deadline = clock.monotonic() + self.start
        try:
            process.send(f"{HELLO}\n".encode(), deadline)
            while True:
                said = read_bot_line(process.line(deadline))
                if said.kind == READY:
                    return process
                if said.kind == "id":
                    key, _, value = said.text.partition(" ")
                    if key == "name" and value.strip():
                        self.bot_name = value.strip()
                elif said.kind != "skip":
                    self._fail(f"answered {excerpt(said.text)} to {HELLO!r}, where 'ready' was due (docs/bots.md)")
        except _Timeout:
            self._fail(f"did not answer {HELLO!r} with 'ready' within {seconds_text(self.start)} s")
        except _Ended:
            self._fail(self._ended(process))

    def _ended(self, process: _Process) -> str:
        """Why a program's output ended: its exit status and the last line of its standard error,
        or that it closed its output and was stopped."""
        if not process.exited(EXIT_GRACE):
            return "closed its output without exiting"
        tail = process.tail()
        status = process.popen.returncode
        if status is None:
            status = process.stop(0)
        if status < 0:
            return self._signalled(-status, tail)
        said = f"exited with status {status}"
        if tail:
            said += f": {tail}"
            if self.memory and _MEMORY_WORDS.search(tail):
                said += f" (memory limit {self.memory} MiB)"
        return said

    def _signalled(self, number: int, tail: str) -> str:
        """A death by a signal, in words: the CPU limit's own, or the signal's name."""
        if number == getattr(signal, "SIGXCPU", None) and self.cpu:
            return f"ran out of its {seconds_text(self.cpu)} s of CPU time"
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        return f"was killed by {name}" + (f": {tail}" if tail else "")

    def _fail(self, reason: str) -> NoReturn:
        """Kill the program at once (a program at fault is owed no ``quit``) and raise PlayerFaultError
        with ``reason``, which the player keeps."""
        self.fault = reason
        process, self._process = self._process, None
        if process is not None:
            process.stop(0)
        raise PlayerFaultError(self.name, reason)


def program_factory(target: str) -> Callable[..., ProgramPlayer]:
    """The factory of a ``bot:PATH`` spec, the path checked now (PlayerSpecError: no such file,
    a folder, not executable); the path is taken from the current folder."""
    path = target.partition(":")[2].strip()
    if not path.strip():
        raise PlayerSpecError(
            "bot: needs the path of a program that speaks docs/bots.md's protocol, e.g. bot:./mybot.sh"
        )
    file = Path(path)
    if not file.exists():
        raise PlayerSpecError(
            f"no such file {excerpt(path, limit=PATH_CHARS)} (bot:PATH is taken from the current folder)"
        )
    if file.is_dir():
        raise PlayerSpecError(f"{excerpt(path, limit=PATH_CHARS)} is a folder, not a program")
    if not os.access(file, os.X_OK):
        raise PlayerSpecError(
            f"{excerpt(path, limit=PATH_CHARS)} is not executable: make it so (chmod +x), with a first line such as #!/bin/sh"
        )
    command = [os.path.abspath(file)]

    def build(seed: int | None = None, **settings: Any) -> ProgramPlayer:
        """The player of the program, started at its first decision."""
        return ProgramPlayer(command, name=target, seed=seed, **settings)

    return build


__all__ = ["PROGRAM_SETTINGS", "STDERR_MODES", "ProgramPlayer", "program_factory", "seconds_text", "stop_all"]
