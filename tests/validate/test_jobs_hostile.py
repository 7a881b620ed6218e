"""`validate --jobs N` under signals, a killed parent, an absurd N, and data that changes or does
not fit in memory: each ends in a report or a one-line message, never a traceback, a hang or a
worker process left behind. HANG_LIMIT only catches a hang; nothing here is timed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import HANG_LIMIT, STRAIGHTLINE, run, write

needs_proc = pytest.mark.skipif(
    not os.path.isdir("/proc/self"), reason="worker processes are found in /proc"
)

# A custom format whose function says it started, then sleeps far past HANG_LIMIT on "SLOW"
SLOW_FORMAT = """
import sys, time

def is_sku(s):
    if s == "SLOW":
        print("started", file=sys.stderr, flush=True)
        time.sleep(100_000)
    return s.startswith("SKU-")
"""


def _slow_run(tmp_path: Path, *, session: bool = False) -> subprocess.Popen[bytes]:
    """The command with --jobs 2 on records one of which never ends validating, started once a
    worker is in it; SIGINT at its default in the command (a shell's background job would
    inherit it ignored), in a process group of its own when `session`."""
    write(tmp_path / "slowfmt.py", SLOW_FORMAT)
    write(tmp_path / "s.json", {"properties": {"sku": {"type": "string", "format": "sku"}}})
    skus = [f"SKU-{i}" for i in range(50)] + ["SLOW"] + [f"SKU-{i}" for i in range(50)]
    write(tmp_path / "d.jsonl", "".join(json.dumps({"sku": sku}) + "\n" for sku in skus))
    path = os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))
    proc = subprocess.Popen(
        [
            str(STRAIGHTLINE),
            "validate",
            "--schema",
            "s.json",
            "--format",
            "sku=slowfmt:is_sku",
            "--jobs",
            "2",
            "--chunk-size",
            "100",
            "d.jsonl",
        ],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": path, "PYTHONDONTWRITEBYTECODE": "1"},
        start_new_session=session,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stderr is not None
    assert proc.stderr.readline() == b"started\n"
    return proc


def _workers(pid: int) -> list[int]:
    """The worker processes (multiprocessing's spawned children) of process `pid`."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                parent = int(handle.read().rsplit(b")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                command = handle.read()
        except (OSError, IndexError, ValueError):
            continue  # it ended meanwhile
        if parent == pid and b"spawn_main" in command:
            found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    """Whether process `pid` still runs (a zombie has ended: only its exit status is left)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


def _kill(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _wait_gone(pids: list[int]) -> list[int]:
    """`pids` still running after HANG_LIMIT (polled: they may take a moment to end)."""
    deadline = time.monotonic() + HANG_LIMIT
    while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return [pid for pid in pids if _alive(pid)]


@needs_proc
@pytest.mark.parametrize("name, status", [("SIGTERM", 143), ("SIGINT", 130)])
def test_a_signal_to_the_command_ends_it_while_a_worker_is_stuck(
    tmp_path: Path, name: str, status: int
) -> None:
    """SIGTERM (`timeout`, a cancelled CI job) or SIGINT sent to the command alone waited for
    the workers' tasks to end, and a custom format function that never returns held it for
    ever; the workers are now killed, and the command ends at once with 128 + the signal."""
    proc = _slow_run(tmp_path)
    workers = _workers(proc.pid)
    assert len(workers) == 2
    proc.send_signal(getattr(signal, name))
    try:
        out, err = proc.communicate(timeout=HANG_LIMIT)
    except subprocess.TimeoutExpired:
        _kill(workers)  # first: they hold the command's output pipes open
        proc.kill()
        proc.communicate()
        pytest.fail(f"{name} did not end the command")
    assert proc.returncode == status
    assert out == b"" and b"Traceback" not in err, err
    left = _wait_gone(workers)
    _kill(left)
    assert left == []


@needs_proc
def test_ctrl_c_on_the_terminal_prints_no_worker_traceback(tmp_path: Path) -> None:
    """Ctrl-C reaches the whole process group: a worker waiting for a task (or starting) raised
    KeyboardInterrupt and printed its traceback. Workers now leave SIGINT to the command,
    which kills them and exits 130."""
    proc = _slow_run(tmp_path, session=True)
    workers = _workers(proc.pid)
    time.sleep(0.5)  # (the other worker is done with its tasks and waits for more)
    os.killpg(proc.pid, signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=HANG_LIMIT)
    except subprocess.TimeoutExpired:
        _kill(workers)
        proc.kill()
        proc.communicate()
        pytest.fail("Ctrl-C did not end the command")
    assert proc.returncode == 130
    assert out == b""
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err, err
    left = _wait_gone(workers)
    _kill(left)
    assert left == []


@needs_proc
def test_workers_end_when_the_command_is_killed(tmp_path: Path) -> None:
    """A command killed outright (SIGKILL, the out-of-memory killer) left its workers waiting
    for tasks for ever, one of them inside a format function; they now end with it."""
    proc = _slow_run(tmp_path)
    workers = _workers(proc.pid)
    assert len(workers) == 2
    proc.kill()
    proc.wait(timeout=HANG_LIMIT)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # (workers would hold them open)
    proc.stderr.close()
    left = _wait_gone(workers)
    _kill(left)
    assert left == []


@pytest.mark.parametrize("jobs", ["10000", str(2**31), str(10**20)])
def test_more_jobs_than_the_machine_can_use_is_a_usage_error(
    tmp_path: Path, module_file: Path, jobs: str
) -> None:
    """--jobs 2**31 ended in an OverflowError traceback, and --jobs 10000 started ten thousand
    worker processes; more than 8 per usable CPU is now refused at once."""
    write(tmp_path / "d.json", {"left": 1, "right": 2})
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert cpus is not None and 8 * cpus < 10000
    result = run("--module", module_file, "--jobs", jobs, "d.json", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.endswith(
        f"argument --jobs: at most {8 * cpus} (8 per usable CPU: {cpus} here), not {jobs}\n"
    )
    assert result.stdout == ""


@pytest.mark.parametrize("fast", [True, False], ids=["msgspec", "json"])
def test_a_record_too_large_for_memory_is_its_own_problem(
    monkeypatch: pytest.MonkeyPatch, fast: bool
) -> None:
    """A JSON Lines record whose parse ran out of memory (MemoryError) ended the run in a
    traceback without --jobs, and with it lost its whole block; it is now that line's
    problem, and the lines around it are validated."""
    import generator
    from generator.validate import readers, runner
    from generator.validate.modules import ModuleSource
    from generator.validate.tasks import Task

    def out_of_memory(decode: Any) -> Any:
        def decoding(line: Any) -> Any:
            if (b"HUGE" if isinstance(line, bytes) else "HUGE") in line:
                raise MemoryError
            return decode(line)

        return decoding

    if fast:
        real = readers.fast_json_decoder()
        if real is None:
            pytest.skip("msgspec (the extra `fast`) is not installed")
        monkeypatch.setattr(runner, "fast_json_decoder", lambda: out_of_memory(real))
    else:
        monkeypatch.setattr(runner, "fast_json_decoder", lambda: None)
        monkeypatch.setattr(runner, "JSON_DECODE", out_of_memory(readers.JSON_DECODE))
    source = ModuleSource.from_text(generator.compile_source({"required": ["right"]}, format=False))
    data = b'{"right": 1}\n["HUGE"]\n{"left": 1}\n'
    task = Task(0, "<data>", "jsonl", first=True, last=True, size=len(data), data=data)
    result = runner.run_task(task, source, "text")
    assert (result.records, result.invalid, result.unreadable, result.lines) == (2, 1, 1, 3)
    assert [(f.line, f.problem) for f in result.failures] == [
        (2, "cannot read: too large to hold in memory"),
        (3, None),
    ]


def test_a_pools_workers_all_start_before_its_first_task(tmp_path: Path, module_file: Path) -> None:
    """A worker started by a submit raced the clean-up of a pool that a worker's death had
    broken: a module that exits in workers, over a few hundred files, printed "dictionary
    changed size during iteration" from the pool's thread or ended in an "OSError: handle is
    closed" traceback about one run in four. A pool's workers now all start with its first
    task, so no later submit starts one."""
    import multiprocessing

    from generator.validate.discover import discover
    from generator.validate.modules import ModuleSource
    from generator.validate.parallel import Workers
    from generator.validate.tasks import plan

    write(tmp_path / "d.json", {"left": 1, "right": 2})
    (task,) = plan(discover([str(tmp_path / "d.json")], [], None))
    before = set(multiprocessing.active_children())
    workers = Workers(ModuleSource.from_path(module_file), "text", 2)
    try:
        future = workers.submit(task)
        started = [child for child in multiprocessing.active_children() if child not in before]
        assert len(started) == 2
        result = workers.result(task, future)
        assert (result.records, result.invalid, result.unreadable) == (1, 0, 0)
    finally:
        workers.shutdown()
    assert [child for child in multiprocessing.active_children() if child not in before] == []


# A module that dies (os._exit) or raises as it loads in any process multiprocessing started, and
# loads in the command's own process: its workers break, its tasks cannot run in them.
_IN_WORKERS = "\nimport multiprocessing as _mp, os as _os\nif _mp.parent_process() is not None:\n"


def _module_in_workers(tail: str) -> Any:
    import generator
    from generator.validate.modules import ModuleSource

    text = generator.compile_source({"required": ["right"]}, format=False)
    return ModuleSource.from_text(text + _IN_WORKERS + tail)


def _one_task(tmp_path: Path) -> Any:
    from generator.validate.discover import discover
    from generator.validate.tasks import plan

    write(tmp_path / "d.json", {"right": 1})
    (task,) = plan(discover([str(tmp_path / "d.json")], [], None))
    return task


def test_workers_that_die_as_they_load_the_module_leave_each_task_not_checked(
    tmp_path: Path,
) -> None:
    """Every worker of every pool dies at start-up (the module kills it as it loads): the start-up
    check is taken from the parent, and each task, run again alone, is reported as not checked
    by a worker that died, with its exit status; nothing hangs."""
    from generator.validate.parallel import run_parallel, start_workers

    source = _module_in_workers("    _os._exit(3)\n")
    task = _one_task(tmp_path)
    workers = start_workers(source, "text", 2, "--module m.py")
    [(done, result)] = list(run_parallel([task], workers))
    assert done is task
    assert (result.records, result.unreadable) == (0, 1)
    assert [failure.problem for failure in result.failures] == [
        "could not be checked: the worker process validating it died (exit status 3)"
    ]


def test_a_module_that_raises_in_its_workers_leaves_each_task_not_checked(
    tmp_path: Path,
) -> None:
    """A module that loads in the command but raises in a worker: each task's exception comes
    back out of the pool, and the task is reported as not checked, naming it."""
    from generator.validate.parallel import run_parallel, start_workers

    source = _module_in_workers("    raise RuntimeError('not in a worker')\n")
    task = _one_task(tmp_path)
    workers = start_workers(source, "text", 1, "--module m.py")
    [(_, result)] = list(run_parallel([task], workers))
    assert result.unreadable == 1
    assert [failure.problem for failure in result.failures] == [
        "could not be checked: validating it raised OptionError: (root): the compiled schema "
        "cannot be loaded (RuntimeError: not in a worker); a custom format's module must be "
        "importable (on PYTHONPATH) [bad-option]"
    ]


def test_a_task_run_alone_that_raises_is_not_checked_and_says_why(tmp_path: Path) -> None:
    """A task run again alone after its pool broke, whose own process raises rather than dies:
    reported as not checked, with what it raised."""
    import multiprocessing

    from generator.validate.parallel import _alone

    source = _module_in_workers("    raise RuntimeError('not in a worker')\n")
    task = _one_task(tmp_path)
    result = _alone(multiprocessing.get_context("spawn"), task, source, "text")
    assert result.unreadable == 1
    assert [failure.problem for failure in result.failures] == [
        "could not be checked: validating it raised OptionError: (root): the compiled schema "
        "cannot be loaded (RuntimeError: not in a worker); a custom format's module must be "
        "importable (on PYTHONPATH) [bad-option]"
    ]


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="no interval timer")
def test_ctrl_c_while_a_task_runs_alone_kills_its_process(tmp_path: Path) -> None:
    """Ctrl-C while a task runs again alone (its format function or module stuck for ever): the
    run stops at once and the task's process is killed, not waited for."""
    import multiprocessing

    from generator.validate.parallel import _alone

    source = _module_in_workers("    import time\n    time.sleep(100_000)\n")
    task = _one_task(tmp_path)
    before = set(multiprocessing.active_children())

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 1.0)  # (once the process is started and waited for)
    try:
        with pytest.raises(KeyboardInterrupt):
            _alone(multiprocessing.get_context("spawn"), task, source, "text")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert [child for child in multiprocessing.active_children() if child not in before] == []
