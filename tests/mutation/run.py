"""`make mutate`: mutation testing with mutmut, one module at a time against its own tests.

For each module of tests/mutation/modules.toml (all of them, or those named on the command line)
this makes a workspace, .mutate/NAME/, holding a copy of the repository's sources and a
pyproject.toml whose [tool.mutmut] is the repository's with `only_mutate` set to the module's
files and the test selection set to its tests; runs `mutmut run` there (mutmut keeps its results
in the workspace, so a second run tests only the functions that changed); and reports the
module's score: the mutants its tests killed, of those not listed as equivalent in
tests/mutation/equivalent.toml. Every mutant that survived, found no test, or timed out, and is
not listed there, is printed with `mutmut show`'s diff. Exit status 1 when one is.

    python -m tests.mutation.run [NAME ...] [--max-children N] [--list]

Each module's results are also kept in tests/mutation/records/NAME.json, committed: each
mutant's exit code and each function's hash, as mutmut's own .meta files hold them. A new
workspace starts from that record, and mutmut keeps a recorded result while its function's hash
is the same (its own rule for its own results), so a run cut short on one machine is carried on
from where it stopped on another.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
WORK = ROOT / ".mutate"
RECORDS = HERE / "records"
MUTMUT = Path(sys.executable).parent / "mutmut"
# What a workspace holds a copy of: the sources, and what the tests and the compiler read beside
# them. (Copies, not links: hatchling's sdist walk, meeting a link to generator/ under .mutate/,
# left generator/ itself out of the sdist.)
COPIED = ("generator", "tests", "templates", "contracts", "generated", "examples")
_NOT_COPIED = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis", ".pytest_cache")
# mutmut's statuses, as `mutmut results` prints them, that count as a kill.
KILLED = ("killed", "timeout", "segfault", "caught by type check")
# ... and the one of a mutant no run has tested yet (a run stopped short: counted apart)
NOT_RUN = "not checked"


@dataclass
class Module:
    name: str
    mutate: list[str]
    tests: list[str]
    keyword: str = ""  # a pytest -k expression the tests must match


@dataclass
class Score:
    statuses: dict[str, str] = field(default_factory=dict)  # mutant -> status
    equivalent: dict[str, str] = field(
        default_factory=dict
    )  # mutant -> reason (listed and not killed)
    stale: list[str] = field(default_factory=list)  # listed as equivalent, but killed or gone

    @property
    def counted(self) -> list[str]:
        return [
            m
            for m in self.statuses
            if m not in self.equivalent and self.statuses[m] not in ("skipped", NOT_RUN)
        ]

    @property
    def not_run(self) -> int:
        return sum(status == NOT_RUN for status in self.statuses.values())

    @property
    def killed(self) -> int:
        return sum(self.statuses[m] in KILLED for m in self.counted)

    @property
    def alive(self) -> list[str]:
        return [m for m in self.counted if self.statuses[m] not in KILLED]

    def line(self, name: str) -> str:
        total = len(self.counted)
        percent = f"{100 * self.killed / total:.1f}%" if total else "-"
        pending = f"; {self.not_run} not run yet" if self.not_run else ""
        return (
            f"{name:10} {percent:>6} killed {self.killed} of {total} "
            f"({len(self.alive)} not killed; {len(self.equivalent)} equivalent listed"
            f"{pending}; {len(self.statuses)} mutants)"
        )


def modules() -> dict[str, Module]:
    table = tomllib.loads((HERE / "modules.toml").read_text(encoding="utf-8"))
    return {
        name: Module(name, entry["mutate"], entry["tests"], entry.get("keyword", ""))
        for name, entry in table.items()
    }


def equivalents() -> dict[str, str]:
    table = tomllib.loads((HERE / "equivalent.toml").read_text(encoding="utf-8"))
    return {mutant: reason for section in table.values() for mutant, reason in section.items()}


def _toml(value: object) -> str:
    """A TOML value of the simple kinds a [tool.mutmut] table holds."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"no TOML for {value!r}")


def workspace(module: Module) -> Path:
    """The module's workspace, made or brought up to date (its mutmut results are kept)."""
    where = WORK / module.name
    where.mkdir(parents=True, exist_ok=True)
    for name in COPIED:  # (copy2 keeps the times mutmut compares to see what changed)
        copy = where / name
        if copy.is_symlink():
            copy.unlink()
        elif copy.exists():
            shutil.rmtree(copy)
        shutil.copytree(ROOT / name, copy, ignore=_NOT_COPIED)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    settings = dict(project["tool"]["mutmut"])
    settings["only_mutate"] = module.mutate
    settings["pytest_add_cli_args_test_selection"] = module.tests + (
        ["-k", module.keyword] if module.keyword else []
    )
    pytest_settings = project["tool"]["pytest"]["ini_options"]
    lines = ["# Written by tests/mutation/run.py for one module: do not edit.", "[tool.mutmut]"]
    lines += [f"{key} = {_toml(value)}" for key, value in settings.items()]
    lines += ["", "[tool.pytest.ini_options]"]
    lines += [f"{key} = {_toml(value)}" for key, value in pytest_settings.items()]
    text = "\n".join(lines) + "\n"
    config = where / "pyproject.toml"
    if not config.exists() or config.read_text(encoding="utf-8") != text:
        config.write_text(text, encoding="utf-8")
    # the tests are copied into mutants/ by every run; a test file since removed must go too
    copied = where / "mutants" / "tests"
    if copied.is_dir():
        shutil.rmtree(copied)
    carried = restore_record(module, where)
    if carried:
        shown = _record_path(module).relative_to(ROOT)
        print(f"{module.name}: {carried} results carried from {shown}", flush=True)
    return where


def _record_path(module: Module) -> Path:
    return RECORDS / f"{module.name}.json"


def _meta(where: Path, source: str) -> Path:
    return where / "mutants" / (source + ".meta")


def restore_record(module: Module, where: Path) -> int:
    """Write the module's record into a workspace that has no results of its own: a .meta file
    of mutmut's for each source file the record holds and the workspace does not. mutmut drops
    a result when its function's hash differs. The number of results written."""
    path = _record_path(module)
    if not path.exists():
        return 0
    record = json.loads(path.read_text(encoding="utf-8"))
    written = 0
    for source, kept in record.items():
        meta = _meta(where, source)
        if meta.exists() or not (where / source).is_file():
            continue
        meta.parent.mkdir(parents=True, exist_ok=True)
        body = {
            "exit_code_by_key": kept["exit_code_by_key"],
            "hash_by_function_name": kept["hash_by_function_name"],
            "type_check_error_by_key": {},
            "durations_by_key": {},
            "estimated_durations_by_key": {},
        }
        meta.write_text(json.dumps(body, indent=1), encoding="utf-8")
        written += len(kept["exit_code_by_key"])
    return written


def _read_meta(meta: Path) -> dict[str, Any]:
    """A .meta file of mutmut's, read again while a running mutmut is half-way through writing
    it (it writes in place)."""
    for _ in range(50):
        try:
            body: dict[str, Any] = json.loads(meta.read_text(encoding="utf-8"))
            return body
        except json.JSONDecodeError:
            time.sleep(0.1)
    raise SystemExit(f"{meta}: not JSON after 5 s (is mutmut writing it?)")


def save_record(module: Module, where: Path) -> int:
    """The workspace's results, as its .meta files hold them now (also while mutmut runs: it
    writes each result as it comes), into the module's record: the mutants with a result and
    the hashes of their files' functions. The number of results kept."""
    record: dict[str, dict[str, dict[str, object]]] = {}
    root = where / "mutants"
    for meta in sorted(root.rglob("*.py.meta")) if root.is_dir() else []:
        source = meta.relative_to(root).as_posix()[: -len(".meta")]
        if not any(fnmatch.fnmatch(source, pattern) for pattern in module.mutate):
            continue
        body = _read_meta(meta)
        codes = {k: v for k, v in sorted(body["exit_code_by_key"].items()) if v is not None}
        if codes:
            hashes = dict(sorted(body["hash_by_function_name"].items()))
            record[source] = {"exit_code_by_key": codes, "hash_by_function_name": hashes}
    if not record:
        return 0
    RECORDS.mkdir(exist_ok=True)
    text = json.dumps(record, indent=1, sort_keys=True) + "\n"
    partial = _record_path(module).with_suffix(".json.part")
    partial.write_text(text, encoding="utf-8")
    partial.replace(_record_path(module))
    return sum(len(kept["exit_code_by_key"]) for kept in record.values())


def run_mutmut(module: Module, where: Path, max_children: int) -> int:
    """`mutmut run`: the mutants of functions new or changed since the last run; then those the
    last run left alive and not listed as equivalent, again (mutmut keeps a result until its
    function changes, and the tests may have changed)."""
    log = where / "mutmut.log"
    listed = (
        equivalents()
    )  # (an equivalent mutant would survive again, after every test it reaches)
    alive_before = [
        m
        for m, status in results(where).items()
        if status not in (*KILLED, NOT_RUN) and m not in listed
    ]
    with open(log, "w", encoding="utf-8") as out:
        command = [str(MUTMUT), "run", "--max-children", str(max_children)]
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
        done = subprocess.run(command, cwd=where, stdout=out, stderr=subprocess.STDOUT, env=env)
        if done.returncode == 0 and alive_before:
            done = subprocess.run(
                command + alive_before, cwd=where, stdout=out, stderr=subprocess.STDOUT, env=env
            )
    if done.returncode != 0:
        tail = log.read_text(encoding="utf-8", errors="replace")[-3000:]
        print(
            f"{module.name}: mutmut run failed (exit {done.returncode}); the end of {log}:\n{tail}"
        )
    return done.returncode


def results(where: Path) -> dict[str, str]:
    """Each mutant's status as `mutmut results` gives it ({} before the first run)."""
    if not (where / "mutants").is_dir():
        return {}
    done = subprocess.run(
        [str(MUTMUT), "results", "--all", "true"], cwd=where, capture_output=True, text=True
    )
    found = {}
    for line in done.stdout.splitlines():
        match = re.fullmatch(r"\s*(\S+): (.+)", line)
        if match:
            found[match.group(1)] = match.group(2).strip()
    return found


def _files_of(mutant: str) -> list[str]:
    """The files a mutant's name may come from (mutmut leaves `__init__` out of the name)."""
    parts = mutant.split(".")
    at = next(i for i, part in enumerate(parts) if part.startswith(("x_", "x\u01c1")))
    module = "/".join(parts[:at])
    return [module + ".py", module + "/__init__.py"]


def score(statuses: dict[str, str], listed: dict[str, str], module: Module) -> Score:
    result = Score(statuses=statuses)
    for mutant, reason in listed.items():
        if not any(
            fnmatch.fnmatch(f, pattern) for f in _files_of(mutant) for pattern in module.mutate
        ):
            continue
        if statuses.get(mutant) in (None, *KILLED):
            result.stale.append(mutant)
        else:
            result.equivalent[mutant] = reason
    return result


# `mutmut show` for many mutants in one process (each `mutmut show` loads mutmut anew).
_SHOW = """
import json, sys
from mutmut.mutation.diff_apply import find_mutant, get_diff_for_mutant
for name in json.loads(sys.stdin.read()):
    print(get_diff_for_mutant(name, path=find_mutant(name).path).strip() + "\\n\\0")
"""


def diffs(where: Path, mutants: list[str]) -> list[str]:
    """The diff of each mutant, as `mutmut show` prints it."""
    if not mutants:
        return []
    done = subprocess.run(
        [sys.executable, "-c", _SHOW],
        cwd=where,
        input=json.dumps(mutants),
        capture_output=True,
        text=True,
    )
    found = [part.strip() for part in done.stdout.split("\0")][: len(mutants)]
    return found + ["(no diff: " + done.stderr.strip()[-200:] + ")"] * (len(mutants) - len(found))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.mutation.run", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "names", nargs="*", help="modules of tests/mutation/modules.toml (default: all)"
    )
    parser.add_argument("--max-children", type=int, default=os.cpu_count() or 2)
    parser.add_argument(
        "--list", action="store_true", help="list the modules and their tests, run nothing"
    )
    parser.add_argument(
        "--report-only", action="store_true", help="report the last run's results, run nothing"
    )
    parser.add_argument(
        "--save-record",
        action="store_true",
        help="with --report-only: keep the workspace's results so far in tests/mutation/records/ "
        "(a run keeps them when it ends)",
    )
    parser.add_argument(
        "--fresh-stats",
        action="store_true",
        help="find again which tests reach which function (after a change to tests/mutation/plugin.py)",
    )
    args = parser.parse_args(argv)
    known = modules()
    unknown = [name for name in args.names if name not in known]
    if unknown:
        parser.error(f"unknown module(s) {', '.join(unknown)}: one of {', '.join(known)}")
    chosen = [known[name] for name in args.names] if args.names else list(known.values())
    if args.list:
        for module in chosen:
            keyword = f" -k {module.keyword!r}" if module.keyword else ""
            print(
                f"{module.name}: {' '.join(module.mutate)}\n    tests: {' '.join(module.tests)}{keyword}"
            )
        return 0
    if not MUTMUT.exists():
        print(
            f"mutmut is not installed beside {sys.executable}: pip install -e '.[mutate]'",
            file=sys.stderr,
        )
        return 2
    listed = equivalents()
    lines = []
    failed = False
    for module in chosen:
        where = WORK / module.name if args.report_only else workspace(module)
        if args.fresh_stats:
            (where / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)
        if not args.report_only:
            print(
                f"{module.name}: mutmut run in {where.relative_to(ROOT)} (log: mutmut.log)",
                flush=True,
            )
            code = run_mutmut(module, where, args.max_children)
            save_record(module, where)  # (what it tested, also when it stopped short)
            if code != 0:
                failed = True
                lines.append(f"{module.name:10} (mutmut run failed)")
                continue
        if args.report_only and args.save_record:
            kept = save_record(module, where)
            print(f"{module.name}: {kept} results kept in {_record_path(module).relative_to(ROOT)}")
        result = score(results(where), listed, module)
        for mutant, diff in zip(result.alive, diffs(where, result.alive)):
            print(f"\n{mutant}: {result.statuses[mutant]}\n{diff}")
        for mutant in result.stale:
            print(
                f"\n{mutant}: listed as equivalent in tests/mutation/equivalent.toml, but "
                f"{result.statuses.get(mutant, 'no longer a mutant')}: remove it"
            )
        failed = failed or bool(result.alive) or bool(result.not_run)
        lines.append(result.line(module.name))
    print("\nmodule      score")
    print("\n".join(lines))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
