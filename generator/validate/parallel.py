"""--jobs N: the tasks run in N worker processes on this machine, results come back in input order.

The module travels as a ModuleSource (its text, compiled once in the parent, or its file's path);
each worker loads it once, on its first task. Workers are started with `spawn`, so they share
nothing with the parent but what is handed to them, and import only this package (not the
compiler). At most 2N tasks are in flight, so memory stays bounded however large the input.
"""

from __future__ import annotations

import multiprocessing
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Iterable, Iterator

from .modules import ModuleSource
from .runner import TaskResult, checker_for, run_task
from .tasks import Task


def _load_in_worker(source: ModuleSource, output_format: str) -> None:
    """Worker start-up: load the module before the first task arrives."""
    checker_for(source, output_format)


def run_parallel(
    tasks: Iterable[Task], source: ModuleSource, output_format: str, jobs: int
) -> Iterator[tuple[Task, TaskResult]]:
    """Each task and its result, in input order, computed by `jobs` worker processes."""
    context = multiprocessing.get_context("spawn")
    executor = ProcessPoolExecutor(
        max_workers=jobs, mp_context=context, initializer=_load_in_worker, initargs=(source, output_format)
    )
    pending: deque[tuple[Task, Future[TaskResult]]] = deque()
    try:
        for task in tasks:
            pending.append((task, executor.submit(run_task, task, source, output_format)))
            if len(pending) >= 2 * jobs:
                done_task, future = pending.popleft()
                yield done_task, future.result()
        while pending:
            done_task, future = pending.popleft()
            yield done_task, future.result()
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
