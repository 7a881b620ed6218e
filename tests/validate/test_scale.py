"""Data at scale: --jobs N in worker processes, --dask on a distributed.LocalCluster bound to
127.0.0.1, and generator.validate.dask.invalid_records over a dask.bag, each giving exactly what
one process gives; and the progress bar, absent when the output is piped, present on a terminal.

Nothing here is timed: HANG_LIMIT only catches a hang."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from .conftest import HANG_LIMIT, SCHEMA, STRAIGHTLINE, run, write

VALID = {"left": 1, "right": 2}


def _big_jsonl(path: Path, count: int) -> dict[int, str]:
    """A JSON Lines file of `count` lines mixing valid, invalid, blank, malformed and non-UTF-8
    lines, and the expected report line of each failing line number (computed here, apart from
    the tool)."""
    expected: dict[int, str] = {}
    with path.open("wb") as handle:
        for number in range(1, count + 1):
            if number % 97 == 0:
                handle.write(json.dumps({"left": number}).encode() + b"\n")
                expected[number] = f'{path.name}:{number}:(root): "right" is a required property'
            elif number % 501 == 0:
                handle.write(b"   \n")
            elif number % 1003 == 0:
                handle.write(b'{"left": 1\n')
                expected[number] = f"{path.name}:{number}:11: invalid JSON: Expecting ',' delimiter"
            elif number == 40_000:
                handle.write(b'"\xff"\n')
                expected[number] = f"{path.name}:{number}:2: not UTF-8 (byte 0xff at byte column 2)"
            else:
                handle.write(
                    json.dumps({"left": number, "right": -(number ** (number % 5))}).encode()
                    + b"\n"
                )
    return expected


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[int, str]]:
    """Over 2 MiB: several 1 MiB ranges, so line numbers must carry across them."""
    directory = tmp_path_factory.mktemp("big")
    for name in ("a.json", "b.json", "c.json"):  # and a directory of small files beside it
        write(directory / "small" / name, VALID if name != "b.json" else {"left": "x"})
    return directory, _big_jsonl(directory / "big.jsonl", 60_000)


def test_serial_report_of_a_multi_range_file_is_right_line_by_line(
    big: tuple[Path, dict[int, str]], module_file: Path
) -> None:
    directory, expected = big
    assert (directory / "big.jsonl").stat().st_size > 2 * (1 << 20)  # three ranges at least
    result = run("--module", module_file, "big.jsonl", cwd=directory)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[:-1] == [expected[n] for n in sorted(expected)]
    blank = sum(1 for n in range(1, 60_001) if n % 501 == 0 and n % 97 != 0)
    unreadable = sum(1 for text in expected.values() if "JSON" in text or "UTF-8" in text)
    invalid = len(expected) - unreadable
    records = 60_000 - blank - unreadable
    assert (
        lines[-1]
        == f"{records} records in 1 file: {records - invalid} valid, {invalid} invalid, {unreadable} unreadable"
    )


@pytest.mark.parametrize("output", ["text", "json"])
def test_jobs_give_exactly_what_one_process_gives(
    big: tuple[Path, dict[int, str]], module_file: Path, schema_file: Path, output: str
) -> None:
    directory, _ = big
    data = ["big.jsonl", "small"]
    serial = run("--module", module_file, "--output", output, *data, cwd=directory)
    by_module = run(
        "--module", module_file, "--output", output, "--jobs", "2", *data, cwd=directory
    )
    by_schema = run(
        "--schema",
        schema_file,
        "--output",
        output,
        "--jobs",
        "2",
        "--chunk-size",
        "300000",
        *data,
        cwd=directory,
    )
    assert serial.returncode == by_module.returncode == by_schema.returncode == 1
    assert by_module.stdout == serial.stdout
    assert by_schema.stdout == serial.stdout


def test_jobs_on_standard_input(big: tuple[Path, dict[int, str]], module_file: Path) -> None:
    directory, _ = big
    data = (directory / "big.jsonl").read_bytes()
    serial = run("--module", module_file, "--data-format", "jsonl", "-", cwd=directory, stdin=data)
    parallel = run(
        "--module",
        module_file,
        "--data-format",
        "jsonl",
        "--jobs",
        "2",
        "--chunk-size",
        "100000",
        "-",
        cwd=directory,
        stdin=data,
    )
    assert serial.returncode == parallel.returncode == 1
    assert parallel.stdout == serial.stdout
    assert serial.stdout == run("--module", module_file, "big.jsonl", cwd=directory).stdout.replace(
        "big.jsonl", "<stdin>"
    )


# --- the progress bar ---------------------------------------------------------------------------


def _slow_feed(fd: int) -> None:
    """Valid lines, a pause longer than the bar's delay, more lines and one invalid: work that
    lasts, so the bar is due wherever it may be drawn."""
    os.write(fd, (json.dumps(VALID) + "\n").encode() * 100)
    time.sleep(1.6)
    os.write(fd, (json.dumps(VALID) + "\n").encode() * 100 + b'{"left": 1}\n')
    os.close(fd)


def _command(module_file: Path) -> list[str]:
    return [
        str(STRAIGHTLINE),
        "validate",
        "--module",
        str(module_file),
        "--data-format",
        "jsonl",
        "--chunk-size",
        "64",
        "-",
    ]


def test_no_progress_bar_when_output_is_piped(module_file: Path, tmp_path: Path) -> None:
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(
        _command(module_file),
        stdin=read_end,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        env={**os.environ, "TERM": "xterm"},
    )
    os.close(read_end)
    _slow_feed(write_end)
    out, err = proc.communicate(timeout=HANG_LIMIT)
    assert proc.returncode == 1
    assert err == b""
    assert out.decode().splitlines() == [
        '<stdin>:201:(root): "right" is a required property',
        "201 records in 1 file: 200 valid, 1 invalid, 0 unreadable",
    ]


def test_progress_bar_on_a_terminal(module_file: Path, tmp_path: Path) -> None:
    master, slave = pty.openpty()
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(
        _command(module_file),
        stdin=read_end,
        stdout=slave,
        stderr=slave,
        cwd=tmp_path,
        env={**os.environ, "TERM": "xterm"},
    )
    os.close(slave)
    os.close(read_end)
    screen = bytearray()

    def drain() -> None:
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the terminal closed: the command has ended
                return
            if not chunk:
                return
            screen.extend(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    _slow_feed(write_end)
    assert proc.wait(timeout=HANG_LIMIT) == 1
    reader.join(timeout=HANG_LIMIT)
    os.close(master)
    text = screen.decode("utf-8", "replace")
    assert "validating: " in text and "B/s]" in text, text  # tqdm's bar: bytes done and rate
    assert '<stdin>:201:(root): "right" is a required property\r\n' in text
    assert text.rstrip().endswith("201 records in 1 file: 200 valid, 1 invalid, 0 unreadable")


# --- Dask ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """Two single-threaded worker processes and a scheduler, on 127.0.0.1 only; shut down after
    the module's tests whatever happens."""
    pytest.importorskip("dask.bag")
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        worker_dashboard_address=None,
        silence_logs=40,
    ) as local:
        with distributed.Client(local) as client:
            yield client


def test_dask_command_gives_exactly_what_one_process_gives(
    cluster: Any, big: tuple[Path, dict[int, str]], module_file: Path, schema_file: Path
) -> None:
    directory, _ = big
    address = cluster.scheduler.address
    assert address.startswith("tcp://127.0.0.1:")
    for output in ("text", "json"):
        serial = run(
            "--module", module_file, "--output", output, "big.jsonl", "small", cwd=directory
        )
        on_dask = run(
            "--schema",
            schema_file,
            "--output",
            output,
            "--dask",
            address,
            "--chunk-size",
            "500000",
            "big.jsonl",
            "small",
            cwd=directory,
        )
        assert on_dask.returncode == serial.returncode == 1, on_dask.stderr
        assert on_dask.stdout == serial.stdout


def test_invalid_records_over_a_bag_equal_one_process(cluster: Any, module: Any) -> None:
    import dask.bag as db

    import generator
    from generator.validate.dask import invalid_records

    records: list[Any] = [{"left": i, "right": i} if i % 7 else {"left": i} for i in range(200)]
    records += ["text", [1], {"left": 1, "right": 2, "extra": None}]
    bag = db.from_sequence(records, npartitions=5)
    sizes = bag.map_partitions(lambda part: [len(list(part))]).compute()
    starts = [sum(sizes[:i]) for i in range(len(sizes))]
    expected = [
        (
            i,
            record,
            [(e.instance_location, e.keyword_location, e.message) for e in module.errors(record)],
        )
        for i, record in enumerate(records)
        if not module.is_valid(record)
    ]
    assert len(expected) == 29 + 3
    compiled = generator.compile_module(SCHEMA, format=False)  # travels as its text (__source__)
    for given in (compiled, module):
        found = invalid_records(bag, given).compute()
        got = [
            (
                starts[entry["partition"]] + entry["index"],
                entry["record"],
                [
                    (e["instance_location"], e["keyword_location"], e["message"])
                    for e in entry["errors"]
                ],
            )
            for entry in found
        ]
        assert got == expected


def test_unreachable_scheduler_is_a_usage_error(tmp_path: Path, module_file: Path) -> None:
    pytest.importorskip("distributed")
    write(tmp_path / "d.json", VALID)
    result = run("--module", module_file, "--dask", "tcp://127.0.0.1:9", "d.json", cwd=tmp_path)
    assert result.returncode == 2
    assert "--dask tcp://127.0.0.1:9: cannot reach the scheduler" in result.stderr


@pytest.mark.parametrize(
    "address, said",
    [
        ("garbage", "missing port number"),
        ("tcp://127.0.0.1", "missing port"),
        ("x://y", "unknown address scheme"),
        ("inproc://x", "inproc:// is a scheduler inside this process"),
        ("ucx://127.0.0.1:8786", "ucx"),
    ],
)
def test_a_malformed_scheduler_address_is_a_usage_error_at_once(
    tmp_path: Path, module_file: Path, address: str, said: str
) -> None:
    """A Client whose constructor failed on such an address waited 20 s in its __del__ and printed
    a traceback after the message."""
    pytest.importorskip("distributed")
    write(tmp_path / "d.json", VALID)
    started = time.monotonic()
    result = run("--module", module_file, "--dask", address, "d.json", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith(
        f"straightline validate: --dask {address}: cannot reach the scheduler"
    )
    assert said in result.stderr and "Exception ignored" not in result.stderr
    assert len(result.stderr.splitlines()) == 1 and result.stdout == ""
    assert time.monotonic() - started < 15  # (it took over 20 s: a bound on a wait, not a timing)


def test_an_empty_scheduler_address_is_a_usage_error_not_a_local_run(
    tmp_path: Path, module_file: Path
) -> None:
    """`--dask ""` was taken for no --dask at all, and the data validated in this process."""
    pytest.importorskip("distributed")
    write(tmp_path / "d.json", {"left": 1})
    result = run("--module", module_file, "--dask", "", "d.json", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == (
        "straightline validate: --dask: the address is empty (give the scheduler's, "
        "like tcp://127.0.0.1:8786)\n"
    )
    assert result.stdout == ""
    both = run("--module", module_file, "--dask", "", "--jobs", "2", "d.json", cwd=tmp_path)
    assert both.returncode == 2 and "--jobs and --dask: choose one" in both.stderr


def test_a_line_longer_than_many_ranges_is_read_once(
    tmp_path: Path, module_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A JSON Lines file whose first line spans hundreds of ranges: the ranges inside it give no
    line and read no further than their own end, so the file is read about once in all (each
    range read the rest of the line, the whole rest of the file here, before), and the report is
    what one range gives."""
    from generator.validate import tasks as tasks_module
    from generator.validate.discover import discover

    long_line = json.dumps({"left": 1, "right": 2, "note": "x" * 200_000})
    path = write(tmp_path / "long.jsonl", long_line + "\n" + json.dumps({"left": 1}) + "\n")
    size = path.stat().st_size
    read = 0
    real_open = open

    class Counting:
        def __init__(self, handle: Any) -> None:
            self.handle = handle

        def __enter__(self) -> "Counting":
            return self

        def __exit__(self, *exc: object) -> None:
            self.handle.close()

        def read(self, n: int = -1) -> bytes:
            nonlocal read
            data = self.handle.read(n)
            read += len(data)
            return data

        def readline(self) -> bytes:
            nonlocal read
            data = self.handle.readline()
            read += len(data)
            return data

        def seek(self, offset: int) -> int:
            return self.handle.seek(offset)

        def tell(self) -> int:
            return self.handle.tell()

    monkeypatch.setattr(
        tasks_module, "open", lambda *a, **k: Counting(real_open(*a, **k)), raising=False
    )
    planned = list(tasks_module.plan(discover([str(path)], [], None), chunk_bytes=1000))
    assert len(planned) > 200
    blocks = [task.read() for task in planned]
    assert b"".join(blocks) == path.read_bytes()  # every line once, in the range it begins in
    assert read < 2 * size, (read, size)
    result = run("--module", module_file, "--chunk-size", "1000", "long.jsonl", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        'long.jsonl:1:/note: additional property "note" is not allowed',
        'long.jsonl:2:(root): "right" is a required property',
        "2 records in 1 file: 0 valid, 2 invalid, 0 unreadable",
    ]


class _Searched(bytes):
    """A block of standard input that counts the bytes every search or concatenation of it reads,
    in `work` (its results are counted blocks too, so a carry grown from them keeps counting)."""

    work = 0

    def _count(self, *others: bytes) -> None:
        _Searched.work += len(self) + sum(len(other) for other in others)

    def rfind(self, *args: Any) -> int:  # type: ignore[override]
        self._count()
        return bytes.rfind(self, *args)

    def find(self, *args: Any) -> int:  # type: ignore[override]
        self._count()
        return bytes.find(self, *args)

    def __add__(self, other: bytes) -> "_Searched":  # type: ignore[override]
        self._count(other)
        return _Searched(bytes.__add__(self, other))

    def __radd__(self, other: bytes) -> "_Searched":
        self._count(other)
        return _Searched(bytes(other) + bytes(self))


class _Pipe:
    """Standard input as a pipe gives it: `piece` bytes at a time, whatever read1 asks for."""

    def __init__(self, data: bytes, piece: int) -> None:
        self.data, self.piece, self.at, self.reads = data, piece, 0, 0

    def read1(self, size: int = -1) -> bytes:
        self.reads += 1
        block = self.data[self.at : self.at + min(self.piece, size if size > 0 else self.piece)]
        self.at += len(block)
        return _Searched(block)


@pytest.mark.parametrize("lines", [1, 3, 200])
def test_standard_input_is_read_in_time_linear_in_its_lines(
    monkeypatch: pytest.MonkeyPatch, lines: int
) -> None:
    """JSON Lines piped in 4 KiB at a time, one line of 3 MB (or a few long ones, or many short
    ones): each byte is searched for a newline and concatenated a bounded number of times (the
    carry grown by `+=` and searched whole at every read cost 60 to 700 times the input here),
    and the tasks hold every line once, each task whole lines."""
    import types

    from generator.validate import tasks as tasks_module

    size = 3_000_000 // lines
    data = b"".join(
        json.dumps({"left": i, "note": "x" * size}).encode() + b"\n" for i in range(lines)
    )
    pipe = _Pipe(data, 4096)
    monkeypatch.setattr(tasks_module.sys, "stdin", types.SimpleNamespace(buffer=pipe))
    _Searched.work = 0
    planned = list(tasks_module._stdin_tasks(0, "jsonl", 1 << 20))
    assert _Searched.work <= 2 * len(data), (_Searched.work, len(data))
    assert (
        pipe.reads == -(-len(data) // 4096) + 1
    )  # every piece once, and the empty read at the end
    assert b"".join(task.data or b"" for task in planned) == data
    assert all((task.data or b"").endswith(b"\n") for task in planned[:-1])
    assert [task.first for task in planned] == [True] + [False] * (len(planned) - 1)
    assert [task.last for task in planned] == [False] * (len(planned) - 1) + [True]
    if lines == 200:
        assert len(planned) > 2  # short lines are cut into tasks as they arrive


def test_invalid_records_reports_a_raising_format_function_as_that_records_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A custom format function's exception (SystemExit(0) included) used to escape compute();
    it is now the record's `problem`, and the records after it are still checked."""
    import dask.bag as db

    import generator
    from generator.validate.dask import invalid_records

    (tmp_path / "skufmt_dask.py").write_text(
        "def is_sku(s):\n"
        "    if s == 'EXIT0':\n"
        "        raise SystemExit(0)\n"
        "    if s == 'BOOM':\n"
        "        raise ValueError('no sku here')\n"
        "    return s.startswith('SKU-')\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    compiled = generator.compile_module(
        {"properties": {"sku": {"type": "string", "format": "sku"}}},
        format=False,
        formats={"sku": "skufmt_dask:is_sku"},
    )
    records = [{"sku": s} for s in ("SKU-1", "EXIT0", "bad", "BOOM", "SKU-2")]
    found = invalid_records(db.from_sequence(records, npartitions=1), compiled).compute(
        scheduler="synchronous"
    )
    assert [entry["index"] for entry in found] == [1, 2, 3]
    raised = "cannot be checked: the custom format function skufmt_dask:is_sku raised"
    assert found[0]["problem"] == f"{raised} SystemExit: 0"
    assert "problem" not in found[1] and found[1]["errors"][0]["instance_location"] == "/sku"
    assert found[2]["problem"] == f"{raised} ValueError: no sku here"


def test_how_a_worker_ended_and_failed_is_said_even_when_odd(tmp_path: Path) -> None:
    """A signal number Python has no name for, an exception whose str() fails, and a range of
    JSON Lines that cannot be read any more are still worded, never a crash of the report."""
    from generator.validate.parallel import _detail, _ended, _not_checked
    from generator.validate.tasks import Task

    assert _ended(-9) == "killed by SIGKILL" and _ended(-250) == "killed by signal 250"
    assert _ended(3) == "exit status 3"

    class Unprintable(Exception):
        def __str__(self) -> str:
            raise RuntimeError("no text")

    assert _detail(Unprintable()) == "Unprintable"
    assert _detail(ValueError("bad")) == "ValueError: bad"
    gone = Task(0, str(tmp_path / "removed.jsonl"), "jsonl", True, True, 10, start=0, end=10)
    result = _not_checked(gone, "the worker died")
    assert (result.unreadable, result.lines) == (1, 0)
    (failure,) = result.failures
    assert failure.line is None
    assert failure.problem == (
        "the 0 lines from here (those that begin between byte 0 and byte 10) could not be "
        "checked: the worker died"
    )
