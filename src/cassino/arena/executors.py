"""Executors: where the games of an arena are played, behind one interface.

``map`` yields results in task order whatever order workers finish in, so everything computed from
them is identical under every executor; ``on_done(n)`` is called as games finish, for progress.
"""

from __future__ import annotations

import importlib
import logging
import math
import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from types import TracebackType
from typing import Any, Protocol

from ..errors import ArgumentError
from .game import GameResult
from .schedule import GameTask
from .worker import PlayerMaker, play_chunk, play_task, prepare_worker, spec_player

EXECUTORS: tuple[str, ...] = ("inprocess", "process", "ray")

OnDone = Callable[[int], None]


class Executor(Protocol):
    """Plays tasks and yields their results in task order."""

    name: str
    workers: int

    def map(self, tasks: Sequence[GameTask], on_done: OnDone | None = None) -> Iterator[GameResult]:
        """The result of every task, in the order of ``tasks``."""
        ...

    def close(self) -> None:
        """Release what the executor started (processes, a local Ray)."""
        ...


class _Closing:
    """Context-manager support shared by the executors."""

    def close(self) -> None:
        """Nothing to release by default."""

    def __enter__(self) -> _Closing:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


def chunked(tasks: Sequence[GameTask], workers: int) -> list[list[GameTask]]:
    """Consecutive slices, about four per worker (at most 32 games each): few round trips for short
    games, yet enough pieces to keep every worker busy to the end."""
    size = max(1, min(32, math.ceil(len(tasks) / (4 * max(1, workers)))))
    return [list(tasks[i : i + size]) for i in range(0, len(tasks), size)]


def in_order(done: Iterable[tuple[int, list[GameResult]]], on_done: OnDone | None) -> Iterator[GameResult]:
    """Chunks arriving in any order, flattened back into chunk order as soon as each prefix is complete."""
    pending: dict[int, list[GameResult]] = {}
    following = 0
    for i, results in done:
        if on_done is not None:
            on_done(len(results))
        pending[i] = results
        while following in pending:
            yield from pending.pop(following)
            following += 1


class InProcessExecutor(_Closing):
    """Plays every game in this process, one after another: the reference, and the easiest to debug.
    ``make`` makes each seat's player (from its spec by default); being in this process, it may
    hand out objects that could never travel to a worker (``match``'s players of its caller's)."""

    name = "inprocess"

    def __init__(self, make: PlayerMaker = spec_player) -> None:
        self.workers = 1
        self._make = make

    def map(self, tasks: Sequence[GameTask], on_done: OnDone | None = None) -> Iterator[GameResult]:
        """Each task in turn."""
        for task in tasks:
            result = play_task(task, self._make)
            if on_done is not None:
                on_done(1)
            yield result


class ProcessExecutor(_Closing):
    """Local worker processes (all cores by default). They are spawned, not forked, so they behave
    the same on every platform and never inherit threads (a running Ray, say) from the parent; as
    with any spawned pool, a script that uses it needs an ``if __name__ == "__main__":`` guard."""

    name = "process"

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or os.cpu_count() or 1

    def map(self, tasks: Sequence[GameTask], on_done: OnDone | None = None) -> Iterator[GameResult]:
        """Chunks of tasks spread over a process pool."""
        chunks = chunked(tasks, self.workers)
        if not chunks:
            return
        pool = ProcessPoolExecutor(
            max_workers=min(self.workers, len(chunks)),
            mp_context=multiprocessing.get_context("spawn"),
            initializer=prepare_worker,  # a worker ended by stop_workers kills its bots first
        )
        try:
            futures: dict[Future[list[GameResult]], int] = {pool.submit(play_chunk, c): i for i, c in enumerate(chunks)}
            yield from in_order(_completed(futures), on_done)
        except KeyboardInterrupt:
            stop_workers(pool)  # Ctrl-C: the games under way are not waited for
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


def stop_workers(pool: ProcessPoolExecutor) -> None:
    """End a pool's worker processes now, their games unfinished: after Ctrl-C the pool's shutdown
    would otherwise wait for every game under way (minutes, for a search), when the signal reached
    this process alone (``kill -INT``). ``terminate_workers`` from Python 3.14; the pool's own
    processes before it."""
    terminate = getattr(pool, "terminate_workers", None)
    if terminate is not None:
        terminate()
        return
    processes: dict[int, Any] = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        process.terminate()


def _completed(futures: dict[Future[list[GameResult]], int]) -> Iterator[tuple[int, list[GameResult]]]:
    """(chunk number, results) as futures finish; a failed game raises its error here."""
    waiting = set(futures)
    while waiting:
        done, waiting = wait(waiting, return_when=FIRST_COMPLETED)
        for future in done:
            yield futures[future], future.result()


def import_ray() -> Any:
    """The ``ray`` module, imported only when asked for, with a clear error when it is missing."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise RuntimeError("--executor ray needs Ray: pip install 'cassino[arena]'") from None


def start_ray(ray: Any, workers: int | None, address: str | None) -> bool:
    """Join the cluster at ``address``, or start a local Ray of ``workers`` CPUs (all by default),
    unless Ray already runs in this process; whether it was started here (to be shut down)."""
    if ray.is_initialized():
        return False
    quiet: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": False}
    if address:
        # Ship this very package to the cluster, so its workers play with the driver's code.
        import cassino

        ray.init(address=address, runtime_env={"py_modules": [cassino]}, **quiet)
    else:
        ray.init(num_cpus=workers or os.cpu_count() or 1, include_dashboard=False, **quiet)
    return True


class RayExecutor(_Closing):
    """Ray tasks: on a cluster joined with ``address``, or on a local Ray started here (and stopped by
    ``close``). A Ray already initialised in this process is used as it is and left running."""

    name = "ray"

    def __init__(self, workers: int | None = None, address: str | None = None) -> None:
        ray = import_ray()
        self._ray = ray
        self._started = start_ray(ray, workers, address)
        self.workers = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._remote = ray.remote(play_chunk)

    def map(self, tasks: Sequence[GameTask], on_done: OnDone | None = None) -> Iterator[GameResult]:
        """Chunks of tasks as Ray tasks, gathered as they finish."""
        refs = {self._remote.remote(c): i for i, c in enumerate(chunked(tasks, self.workers))}
        yield from in_order(self._finished(refs), on_done)

    def _finished(self, refs: dict[Any, int]) -> Iterator[tuple[int, list[GameResult]]]:
        waiting = list(refs)
        while waiting:
            ready, waiting = self._ray.wait(waiting, num_returns=1)
            for ref in ready:
                yield refs[ref], self._ray.get(ref)

    def close(self) -> None:
        """Stop the local Ray this executor started."""
        if self._started:
            self._ray.shutdown()
            self._started = False


def make_executor(name: str = "process", workers: int | None = None, address: str | None = None) -> Executor:
    """An executor by name: ``inprocess``, ``process`` (default, all cores) or ``ray``."""
    if workers is not None and workers < 1:
        raise ArgumentError(f"workers must be 1 or more, got {workers}")
    if address and name != "ray":
        raise ArgumentError(f"--address joins a Ray cluster: use it with --executor ray, not {name}")
    if name == "inprocess":
        return InProcessExecutor()
    if name == "process":
        return ProcessExecutor(workers)
    if name == "ray":
        return RayExecutor(workers, address)
    raise ArgumentError(f"unknown executor {name!r}: choose one of {', '.join(EXECUTORS)}")
