"""JSON Lines throughput of `straightline validate`, next to parsing alone.

Two files of generated event records (all valid; 1% invalid) are written to a temporary directory
at bench time (never committed). Each is timed, whole, as: parsing alone (json.loads over its
lines; orjson.loads too where installed), `straightline validate` in this process (the command's
main(), output to /dev/null), and the installed command as a subprocess, in one process and with
--jobs 2, beside parsing alone in a subprocess of its own. The target: validating in one process
takes no more than 1.5x the time of parsing alone. Before any timing the command's answer is
checked (exit status, and the invalid records counted where they were planted).

Then the same on real schemas (`schemas`): SchemaStore's Dependabot and GitHub workflow schemas
(the built-in ones) and its package.json schema, each over a file of its valid SchemaStore
samples as compact JSON lines, cycled to 200,000 lines: json.loads alone, msgspec alone (the
extra `fast`, which the command uses where installed), the command in this process, and as
commands json.loads alone against `straightline validate --jobs 2`. The target: --jobs 2 within
1.2x of parsing alone. Beside each: the load average before and after its rounds (on a shared
machine the --jobs 2 ratio holds only while a second core is idle), and what compiling its module
costs every run where no bytecode cache is written (PYTHONDONTWRITEBYTECODE).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

FULL_LINES = 500_000
QUICK_LINES = 2_000
INVALID_EVERY = 100  # 1% invalid
REAL_LINES = 200_000
REAL_TARGET = 1.2

ROOT = Path(__file__).resolve().parent.parent
# (name, how the command is told the schema, the directory of SchemaStore's valid samples)
REAL_SCHEMAS: tuple[tuple[str, tuple[str, ...], Path], ...] = (
    (
        "dependabot",
        ("--builtin-schema", "vendor.dependabot"),
        ROOT / "tests/validate/schemastore/valid/dependabot-2.0",
    ),
    (
        "github-workflows",
        ("--builtin-schema", "vendor.github-workflows"),
        ROOT / "tests/validate/schemastore/valid/github-workflow",
    ),
    ("package.json", ("--module", "package.py"), ROOT / "bench/data/schemastore/package-samples"),
)
PACKAGE_SCHEMAS = ROOT / "bench/data/schemastore"  # package.json and the schemas it $refs

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["id", "ts", "user", "event", "amount", "tags"],
    "additionalProperties": False,
    "properties": {
        "id": {"type": "integer", "minimum": 0},
        "ts": {"type": "string", "maxLength": 40},
        "user": {
            "type": "object",
            "required": ["name", "email"],
            "properties": {
                "name": {"type": "string", "minLength": 1},
                "email": {"type": "string", "maxLength": 80},
            },
        },
        "event": {"enum": ["click", "view", "buy"]},
        "amount": {"type": "number", "minimum": 0},
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 5},
    },
}

PARSE_ALONE = """
import json, sys
loads = json.loads
with open(sys.argv[1], "rb") as handle:
    for line in handle.read().decode("utf-8").split("\\n"):
        if line:
            loads(line)
"""


def _record(number: int, rng: random.Random, invalid: bool) -> dict[str, Any]:
    record: dict[str, Any] = {
        "id": number,
        "ts": f"2026-01-{1 + number % 28:02d}T{number % 24:02d}:{number % 60:02d}:00Z",
        "user": {"name": f"user{rng.randrange(10_000)}", "email": f"u{number}@example.org"},
        "event": ("click", "view", "buy")[number % 3],
        "amount": round(rng.random() * 100, 2),
        "tags": [f"t{rng.randrange(50)}" for _ in range(number % 4)],
    }
    if invalid:
        record["amount"] = -1  # below the minimum
    return record


def write_data(directory: Path, lines: int) -> dict[str, Path]:
    """The valid file and the 1%-invalid one (deterministic: the same bytes every run)."""
    paths = {"valid": directory / "valid.jsonl", "1% invalid": directory / "invalid.jsonl"}
    for name, path in paths.items():
        rng = random.Random(2026)
        with path.open("w", encoding="utf-8") as handle:
            for number in range(lines):
                bad = name != "valid" and number % INVALID_EVERY == INVALID_EVERY - 1
                handle.write(json.dumps(_record(number, rng, bad), separators=(",", ":")) + "\n")
    return paths


def _rounds(actions: dict[str, Callable[[], Any]], repeats: int) -> dict[str, list[float]]:
    """Seconds of each action, `repeats` times, taken in turns (one of each, then the next round),
    so a slow spell of a shared machine falls on all of them alike."""
    times: dict[str, list[float]] = {label: [] for label in actions}
    for _ in range(repeats):
        for label, action in actions.items():
            start = time.perf_counter()
            action()
            times[label].append(time.perf_counter() - start)
    return times


def _median_ratio(ours: list[float], theirs: list[float]) -> float:
    """The median of the per-round ratios (times taken side by side)."""
    return statistics.median(a / b for a, b in zip(ours, theirs))


def _parse_json(path: Path) -> None:
    loads = json.loads
    with path.open("rb") as handle:
        for line in handle.read().decode("utf-8").split("\n"):
            if line:
                loads(line)


def _parse_orjson(path: Path) -> None:
    import orjson  # type: ignore[import-not-found,unused-ignore]

    loads = orjson.loads
    with path.open("rb") as handle:
        for line in handle.read().split(b"\n"):
            if line:
                loads(line)


def _validate_in_process(module: Path, path: Path) -> int:
    from generator.cli import main

    with open(os.devnull, "w", encoding="utf-8") as sink, contextlib.redirect_stdout(sink):
        return main(["validate", "--module", str(module), str(path)])


def _command(*args: str) -> list[str]:
    return [str(Path(sys.executable).parent / "straightline"), "validate", *args]


def _check(module: Path, path: Path, lines: int, expect_invalid: int) -> str | None:
    """Why the command's answer on `path` is wrong, or None."""
    for jobs in ("1", "2"):
        done = subprocess.run(
            _command("--module", str(module), "--jobs", jobs, str(path)),
            capture_output=True,
            text=True,
            check=False,
        )
        summary = done.stdout.splitlines()[-1] if done.stdout else done.stderr
        wanted = f"{lines} records in 1 file: {lines - expect_invalid} valid, {expect_invalid} invalid, 0 unreadable"
        if done.returncode != (1 if expect_invalid else 0) or summary != wanted:
            return f"--jobs {jobs}: exit {done.returncode}, {summary!r}, expected {wanted!r}"
    return None


def _orjson_installed() -> bool:
    try:
        import orjson  # noqa: F401  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return False
    return True


def run(
    *,
    quick: bool = False,
    lines: int | None = None,
    log: Callable[[str], None] = print,
    real_lines: int | None = None,
) -> dict[str, Any]:
    """The JSONL section of the bench document (`real_lines`: lines of each real schema's file;
    by default `lines` where given, else 200,000, or QUICK_LINES with `quick`)."""
    import generator

    real_lines = real_lines or lines or (QUICK_LINES if quick else REAL_LINES)
    lines = lines or (QUICK_LINES if quick else FULL_LINES)
    repeats = 1 if quick else 3
    with tempfile.TemporaryDirectory(prefix="straightline-bench-jsonl-") as temporary:
        directory = Path(temporary)
        module = directory / "events.py"
        module.write_text(generator.compile_source(SCHEMA), encoding="utf-8")
        log(f"jsonl: writing 2 x {lines:,} lines")
        paths = write_data(directory, lines)
        files = []
        for name, path in paths.items():
            invalid = 0 if name == "valid" else lines // INVALID_EVERY
            problem = _check(module, path, lines, invalid)
            entry: dict[str, Any] = {
                "name": name,
                "lines": lines,
                "invalid": invalid,
                "bytes": path.stat().st_size,
                "problem": problem,
                "seconds": {},
            }
            files.append(entry)
            if problem:
                log(f"jsonl: {name}: WRONG ANSWER, not timed: {problem}")
                continue
            log(f"jsonl: timing {name}")
            timings: dict[str, Callable[[], Any]] = {
                "json.loads": lambda path=path: _parse_json(path)
            }
            if _orjson_installed():
                timings["orjson.loads"] = lambda path=path: _parse_orjson(path)
            timings["straightline (in process)"] = (
                lambda path=path, module=module: _validate_in_process(module, path)
            )
            timings["json.loads (command)"] = lambda path=path: subprocess.run(
                [sys.executable, "-c", PARSE_ALONE, str(path)], check=True
            )
            timings["straightline (command)"] = lambda path=path, module=module: subprocess.run(
                _command("--module", str(module), str(path)), stdout=subprocess.DEVNULL, check=False
            )
            timings["straightline --jobs 2 (command)"] = (
                lambda path=path, module=module: subprocess.run(
                    _command("--module", str(module), "--jobs", "2", str(path)),
                    stdout=subprocess.DEVNULL,
                    check=False,
                )
            )
            rounds = _rounds(timings, repeats)
            seconds = {label: statistics.median(times) for label, times in rounds.items()}
            entry["seconds"] = seconds
            entry["records_per_second"] = {label: lines / value for label, value in seconds.items()}
            entry["ratio_in_process"] = _median_ratio(
                rounds["straightline (in process)"], rounds["json.loads"]
            )
            entry["ratio_command"] = _median_ratio(
                rounds["straightline (command)"], rounds["json.loads (command)"]
            )
        schemas = _real_schemas(directory, real_lines, repeats, log)
    return {
        "lines": lines,
        "repeats": repeats,
        "target_ratio": 1.5,
        "files": files,
        "schemas": schemas,
        "schemas_target_ratio": REAL_TARGET,
    }


def _samples(folder: Path) -> list[bytes]:
    """Each valid sample of a folder (JSON, YAML or TOML, as the command reads them) as a compact
    JSON line."""
    from generator.validate.readers import format_for, read_documents

    records: list[bytes] = []
    for path in sorted(folder.iterdir()):
        for _, value in read_documents(format_for(path.name, None), path.read_bytes()):
            records.append(
                json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
            )
    return records


def _parse_msgspec(path: Path) -> None:
    import msgspec  # type: ignore[import-not-found,unused-ignore]

    decode = msgspec.json.Decoder().decode
    with path.open("rb") as handle:
        for line in handle.read().split(b"\n"):
            if line:
                decode(line)


def _validate_args_in_process(args: list[str], cwd: Path) -> int:
    from generator.cli import main

    here = os.getcwd()
    os.chdir(cwd)
    try:
        with open(os.devnull, "w", encoding="utf-8") as sink, contextlib.redirect_stdout(sink):
            return main(["validate", *args])
    finally:
        os.chdir(here)


def _real_schemas(
    directory: Path, lines: int, repeats: int, log: Callable[[str], None]
) -> list[dict[str, Any]]:
    """The `schemas` entries: each real schema's file of samples, checked, then timed."""
    import generator
    from generator.builtin.build import HOSTS

    package = json.loads((PACKAGE_SCHEMAS / "package.json").read_text(encoding="utf-8"))
    registry = {
        f"{host}{path.name}": json.loads(path.read_text(encoding="utf-8"))
        for path in PACKAGE_SCHEMAS.glob("*.json")
        for host in HOSTS
    }
    (directory / "package.py").write_text(
        generator.compile_source(package, registry=registry, format=False), encoding="utf-8"
    )
    entries = []
    for name, chosen, folder in REAL_SCHEMAS:
        samples = _samples(folder)
        path = directory / f"{name}.jsonl"
        path.write_bytes(
            b"".join(samples[number % len(samples)] + b"\n" for number in range(lines))
        )
        args = [*chosen, str(path)]
        entry: dict[str, Any] = {
            "name": name,
            "lines": lines,
            "samples": len(samples),
            "bytes": path.stat().st_size,
            "problem": None,
            "seconds": {},
        }
        entries.append(entry)
        wanted = f"{lines} records in 1 file: {lines} valid, 0 invalid, 0 unreadable"
        for jobs in ("1", "2"):
            done = subprocess.run(
                _command(*args, "--jobs", jobs),
                capture_output=True,
                text=True,
                cwd=directory,
                check=False,
            )
            summary = done.stdout.splitlines()[-1] if done.stdout else done.stderr
            if done.returncode != 0 or summary != wanted:
                entry["problem"] = (
                    f"--jobs {jobs}: exit {done.returncode}, {summary!r}, expected {wanted!r}"
                )
        if entry["problem"]:
            log(f"jsonl: {name}: WRONG ANSWER, not timed: {entry['problem']}")
            continue
        entry["module"] = _module_cost(chosen, directory)
        log(f"jsonl: timing {name} ({lines:,} lines of {len(samples)} samples)")
        entry["load_average"] = [_load()]
        timings: dict[str, Callable[[], Any]] = {"json.loads": lambda path=path: _parse_json(path)}
        if _msgspec_installed():
            timings["msgspec"] = lambda path=path: _parse_msgspec(path)
        timings["straightline (in process)"] = (
            lambda args=args, directory=directory: _validate_args_in_process(args, directory)
        )
        timings["json.loads (command)"] = lambda path=path: subprocess.run(
            [sys.executable, "-c", PARSE_ALONE, str(path)], check=True
        )
        timings["straightline --jobs 2 (command)"] = (
            lambda args=args, directory=directory: subprocess.run(
                _command(*args, "--jobs", "2"),
                stdout=subprocess.DEVNULL,
                cwd=directory,
                check=False,
            )
        )
        rounds = _rounds(timings, repeats)
        entry["load_average"].append(_load())
        entry["seconds"] = {label: statistics.median(times) for label, times in rounds.items()}
        entry["records_per_second"] = {
            label: lines / value for label, value in entry["seconds"].items()
        }
        entry["ratio_in_process"] = _median_ratio(
            rounds["straightline (in process)"], rounds["json.loads"]
        )
        entry["ratio_jobs_2"] = _median_ratio(
            rounds["straightline --jobs 2 (command)"], rounds["json.loads (command)"]
        )
    return entries


def _load() -> float | None:
    """The 1-minute load average (None where the system has none)."""
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def _module_cost(chosen: tuple[str, ...], directory: Path) -> dict[str, Any]:
    """The size of a schema's module, the seconds compile() takes on it, and whether the commands
    timed here pay that at every start (no bytecode cache is written for them)."""
    if chosen[0] == "--module":
        path = directory / chosen[1]
    else:
        from generator.builtin import find

        path = Path(find(chosen[1]).module_path)
    text = path.read_text(encoding="utf-8")
    start = time.perf_counter()
    compile(text, str(path), "exec")
    return {
        "bytes": len(text.encode("utf-8")),
        "compile_seconds": time.perf_counter() - start,
        "compiled_every_run": bool(os.environ.get("PYTHONDONTWRITEBYTECODE")),
    }


def _msgspec_installed() -> bool:
    try:
        import msgspec  # noqa: F401  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return False
    return True


def table(section: dict[str, Any]) -> str:
    """The JSONL throughput report as text."""
    out = [
        f"JSON Lines throughput ({section['lines']:,} lines; median of {section['repeats']}; "
        "ratios: median of per-round time / json.loads time; target <= 1.5x in one process)"
    ]
    for entry in section["files"]:
        out.append(
            f"  {entry['name']} ({entry['bytes'] / 1e6:.1f} MB, {entry['invalid']:,} invalid)"
        )
        if entry["problem"]:
            out.append(f"    WRONG ANSWER: {entry['problem']}")
            continue
        for label, seconds in entry["seconds"].items():
            rate = entry["records_per_second"][label]
            out.append(f"    {label:<34} {seconds:8.3f} s  {rate:>12,.0f} records/s")
        out.append(
            f"    ratio in process {entry['ratio_in_process']:.2f}x, as commands {entry['ratio_command']:.2f}x"
        )
    schemas = section.get("schemas") or []
    if schemas:
        out.append(
            f"Real schemas (SchemaStore's valid samples cycled; target: --jobs 2 within "
            f"{section['schemas_target_ratio']}x of json.loads, as commands)"
        )
    for entry in schemas:
        out.append(
            f"  {entry['name']} ({entry['lines']:,} lines of {entry['samples']} samples, "
            f"{entry['bytes'] / 1e6:.1f} MB)"
        )
        if entry["problem"]:
            out.append(f"    WRONG ANSWER: {entry['problem']}")
            continue
        for label, seconds in entry["seconds"].items():
            rate = entry["records_per_second"][label]
            out.append(f"    {label:<34} {seconds:8.3f} s  {rate:>12,.0f} records/s")
        out.append(
            f"    ratio --jobs 2 {entry['ratio_jobs_2']:.2f}x (as commands), "
            f"in one process {entry['ratio_in_process']:.2f}x"
        )
        load = entry.get("load_average") or []
        if len(load) == 2 and None not in load:
            out.append(f"    load average {load[0]:.1f} before, {load[1]:.1f} after")
        module = entry.get("module")
        if module:
            paid = (
                "paid once by every command here (PYTHONDONTWRITEBYTECODE: no bytecode cache)"
                if module["compiled_every_run"]
                else "once, then read from its bytecode cache"
            )
            out.append(
                f"    module {module['bytes'] / 1e6:.2f} MB, compiled in "
                f"{module['compile_seconds']:.2f} s: {paid}"
            )
    return "\n".join(out)
