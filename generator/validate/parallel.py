"""--jobs N: the tasks run in N worker processes on this machine, results come back in input order.

The module travels as a ModuleSource (its text, compiled once in the parent, or its file's path);
each worker loads it once, as it starts, and the parent need not load it at all (start_workers).
Workers are started with `spawn`, so they share
nothing with the parent but what is handed to them, and import only this package (not the
compiler). At most 2N tasks are in flight, so memory stays bounded however large the input.

A worker that dies (the out-of-memory killer, a crash, a custom format function that calls
os._exit) breaks the whole pool, and every task in flight fails with it. Each of those tasks is run
again alone, in a process of its own, so the task that kills its worker is told from the ones that
were only in the same pool: it is reported as not checked, by its file and byte range (counted as
one unreadable), and the others get their results; a new pool takes the tasks that follow.

Ctrl-C and SIGTERM are the parent's: workers start with SIGINT blocked (they print no traceback
when Ctrl-C reaches the whole process group), and a run that stops kills them rather than wait
for their tasks, which a stuck custom format function would never end. A worker whose parent
dies (SIGKILL, the out-of-memory killer) ends too, rather than wait for tasks forever.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from typing import Any, Iterable, Iterator

from .modules import ModuleSource, check_module
from .runner import Failure, TaskResult, checker_for, run_task
from .tasks import Task


def _load_in_worker(source: ModuleSource, output_format: str) -> None:
    """Worker start-up: load the module before the first task arrives. A module that cannot be
    loaded is the parent's to report (start_workers): nothing is raised here, where the pool
    would log a traceback and break; each task that finds it so reports that."""
    _end_with_parent()
    try:
        checker_for(source, output_format)
    except Exception:
        pass


def _end_with_parent() -> None:
    """In a worker: exit when the parent process dies (its end of the start-up pipe closes); the
    pool's queues would otherwise keep the worker waiting for tasks forever."""
    parent = multiprocessing.parent_process()
    assert parent is not None  # (called only in the processes this module starts)

    def watch() -> None:
        parent.join()
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


@contextlib.contextmanager
def _sigint_blocked() -> Iterator[None]:
    """SIGINT blocked in this thread while it may start processes, which inherit the mask: Ctrl-C
    then reaches only the parent, which stops the workers (a worker interrupted while it started
    or waited for a task printed a traceback). A Ctrl-C meanwhile is delivered at the end."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _module_checks(source: ModuleSource, output_format: str, where: str) -> bool:
    """In a worker: whether the module loads and can do what was asked (check_module)."""
    try:
        check_module(source.load(), output_format, where)
    except Exception:
        return False
    return True


def start_workers(source: ModuleSource, output_format: str, jobs: int, where: str) -> "Workers":
    """The worker processes, started before the parent has loaded the module: each loads it
    (compiling its text: a large module takes a second, and no bytecode cache is written under
    PYTHONDONTWRITEBYTECODE) while one of them checks it. Only where that check fails does the
    parent load and check the module itself, so a module's problem is reported (OptionError) as
    without workers; the parent never pays for compiling it otherwise."""
    workers = Workers(source, output_format, jobs)
    try:
        try:
            # (one check a worker: all of them started, they load the module side by side now)
            pool = workers.pool()
            checks = [
                pool.submit(_module_checks, source, output_format, where) for _ in range(jobs)
            ]
            usable = all([check.result() for check in checks])
        except BrokenProcessPool:  # a worker died at start-up: the tasks will say so
            usable = False
        if not usable:
            check_module(source.load(), output_format, where)
    except BaseException:
        workers.stop()
        raise
    return workers


def run_parallel(tasks: Iterable[Task], workers: "Workers") -> Iterator[tuple[Task, TaskResult]]:
    """Each task and its result, in input order, computed by the worker processes (start_workers);
    they are shut down at the end, or killed where the run stops before it (Workers.stop)."""
    jobs = workers.jobs
    pending: deque[tuple[Task, Future[TaskResult]]] = deque()
    try:
        for task in tasks:
            pending.append((task, workers.submit(task)))
            if len(pending) >= 2 * jobs:
                done_task, future = pending.popleft()
                yield done_task, workers.result(done_task, future)
        while pending:
            done_task, future = pending.popleft()
            yield done_task, workers.result(done_task, future)
    except BaseException:  # Ctrl-C, SIGTERM, the consumer gone (GeneratorExit)
        workers.stop()
        raise
    finally:
        workers.shutdown()


class Workers:
    """The pool, replaced when a worker's death breaks it."""

    def __init__(self, source: ModuleSource, output_format: str, jobs: int) -> None:
        self.source, self.output_format, self.jobs = source, output_format, jobs
        self.context = multiprocessing.get_context("spawn")
        self.pools: list[ProcessPoolExecutor] = []  # every pool made (the last one in use)
        self.owner: dict[int, ProcessPoolExecutor] = {}  # id(future) -> its pool
        self.launched: list[ProcessPoolExecutor] = []  # the pools whose workers are started
        self._new_pool()

    def _new_pool(self) -> None:
        pool = ProcessPoolExecutor(
            max_workers=self.jobs,
            mp_context=self.context,
            initializer=_load_in_worker,
            initargs=(self.source, self.output_format),
        )
        self.pools.append(pool)

    def pool(self) -> ProcessPoolExecutor:
        """The pool in use, all its workers started before its first task is submitted (and
        its manager thread with it): a worker started by a later submit raced that thread's
        clean-up of a pool a worker's death broke, in a traceback ("dictionary changed size
        during iteration", "handle is closed"). (Private, hence getattr: otherwise the pool
        starts them as tasks come. Not at the pool's making: one never used would not stop
        them.)"""
        pool = self.pools[-1]
        if pool not in self.launched:
            self.launched.append(pool)
            launch = getattr(pool, "_launch_processes", None)
            if launch is not None:
                with _sigint_blocked():
                    launch()
        return pool

    def submit(self, task: Task) -> Future[TaskResult]:
        try:
            future = self.pool().submit(run_task, task, self.source, self.output_format)
        except BrokenProcessPool:  # it broke since the last result was taken
            self._new_pool()
            future = self.pool().submit(run_task, task, self.source, self.output_format)
        self.owner[id(future)] = self.pools[-1]
        return future

    def result(self, task: Task, future: Future[TaskResult]) -> TaskResult:
        """The task's result; where its pool broke, the result of the task run again alone."""
        pool = self.owner.pop(id(future))
        try:
            return future.result()
        except BrokenProcessPool:
            if pool is self.pools[-1]:
                self._new_pool()  # for the tasks still to be submitted
            pool.shutdown(wait=False, cancel_futures=True)
            return _alone(self.context, task, self.source, self.output_format)
        except (
            Exception
        ) as exc:  # the task raised out of the worker (run_task reports bad data itself)
            return _not_checked(task, f"validating {_them(task)} raised {_detail(exc)}")

    def shutdown(self) -> None:
        """Wait for every pool's workers to end (called again, it does nothing more)."""
        for pool in self.pools:
            pool.shutdown(wait=True, cancel_futures=True)

    def stop(self) -> None:
        """Kill the workers, then shut down: the run is stopping and nobody waits for the tasks
        they run. (After shutdown() there are none left to kill.)"""
        for pool in self.pools:
            # (the pool's own processes: ProcessPoolExecutor has no kill before Python 3.14)
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.kill()
        self.shutdown()


def _run_alone(
    connection: Connection, task: Task, source: ModuleSource, output_format: str
) -> None:
    """The body of a process that runs one task: its result, or what it raised, goes back on
    `connection`; nothing when the process dies first."""
    _end_with_parent()
    try:
        try:
            outcome: Any = run_task(task, source, output_format)
        except Exception as exc:
            outcome = _detail(exc)
        connection.send(outcome)
    finally:
        connection.close()


def _alone(context: Any, task: Task, source: ModuleSource, output_format: str) -> TaskResult:
    """The task run in a process of its own; a result that says so where that process dies."""
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(
        target=_run_alone, args=(sender, task, source, output_format), daemon=True
    )
    with _sigint_blocked():
        process.start()
    sender.close()
    try:
        outcome = receiver.recv()
    except EOFError:  # it died before it could answer
        outcome = None
    except BaseException:  # the run is stopping: its task may never end
        process.kill()
        raise
    finally:
        receiver.close()
        process.join()
    if isinstance(outcome, TaskResult):
        return outcome
    if isinstance(outcome, str):
        return _not_checked(task, f"validating {_them(task)} raised {outcome}")
    return _not_checked(
        task, f"the worker process validating {_them(task)} died ({_ended(process.exitcode)})"
    )


def _ended(exitcode: int | None) -> str:
    """How a process ended, from its exit code (negative: the signal that killed it)."""
    if exitcode is None or exitcode >= 0:
        return f"exit status {exitcode}"
    try:
        name = signal.Signals(-exitcode).name
    except ValueError:
        name = f"signal {-exitcode}"
    return f"killed by {name}"


def _them(task: Task) -> str:
    return "them" if task.format == "jsonl" else "it"


def _detail(exc: BaseException) -> str:
    try:
        text = str(exc)
    except Exception:  # an exception whose str() fails too
        text = ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _not_checked(task: Task, why: str) -> TaskResult:
    """The result of a task none of whose records could be checked: one unreadable, named by the
    task's byte range (JSON Lines: the lines that begin there, from the first of them, whose
    count keeps the next tasks' line numbers right)."""
    if task.format != "jsonl":
        return TaskResult(
            unreadable=1, failures=[Failure(None, problem=f"could not be checked: {why}")]
        )
    try:
        data = task.read()
    except (OSError, MemoryError):
        data = b""
    lines = data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
    end = "its end" if task.end is None else f"byte {task.end}"
    where = (
        f"the {lines} line{'' if lines == 1 else 's'} from here (those that begin between byte "
        f"{task.start} and {end})"
    )
    return TaskResult(
        unreadable=1,
        lines=lines,
        failures=[Failure(1 if lines else None, problem=f"{where} could not be checked: {why}")],
    )
