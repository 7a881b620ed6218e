"""The SchemaStore corpus: every public schema of a SchemaStore checkout compiled, and held to its
own test instances (src/test/NAME/ must be valid, src/negative_test/NAME/ invalid).

Run it on demand (nothing here is fetched: point it at a checkout of SchemaStore/schemastore, or
any directory with its `src/schemas/json`, `src/test` and `src/negative_test`):

    .venv/bin/python -m tests.corpus.schemastore /path/to/schemastore [--no-format] [--only NAME]

References resolve from the corpus only: a registry of its schemas under their SchemaStore URLs
(https://json.schemastore.org/NAME.json and the www., http: and suffix-less spellings) and their
`$id`; a reference to anything else is an unresolvable remote reference, counted apart from real
refusals. The report: schemas compiled (and why the others were not), instances whose verdict
matches their label, each mismatch (with the reference interpreter's verdict), crashes (any
exception that is not a SchemaError: each one is a bug) and compile times (total, slowest ten).
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import signal
import sys
import time
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any, Iterator

from generator import SchemaError, compile_source
from generator.load import load_json
from generator.pipeline import TABLES
from generator.profiles import choose_profile

HOSTS = (
    "https://json.schemastore.org/",
    "https://www.schemastore.org/",
    "http://json.schemastore.org/",
    "http://www.schemastore.org/",
)
# A compile or a schema's instances taking longer than this is a hang (a bug), not a slow case.
HANG_SECONDS = 300
INSTANCE_SUFFIXES = (".json", ".yaml", ".yml", ".toml")


class Hang(Exception):
    """Raised by the alarm when a compile or a validation runs past HANG_SECONDS."""


@dataclass
class Corpus:
    """The schemas of a SchemaStore checkout, the registry they resolve from, and their tests."""

    root: Path
    schemas: dict[str, Path]  # file name (NAME.json) -> path
    values: dict[str, Any]  # file name -> the schema as the exact loader reads it
    unreadable: dict[str, str]  # file name -> why it could not be read
    registry: dict[str, Any]
    skiptest: frozenset[str]  # what SchemaStore's own validation skips (schema-validation.jsonc)

    def url(self, name: str) -> str:
        return HOSTS[0] + name

    def tests(self, name: str) -> Iterator[tuple[Path, bool]]:
        """(instance file, whether it is labelled valid) for the schema `name`."""
        stem = name.removesuffix(".json")
        for folder, label in (("test", True), ("negative_test", False)):
            directory = self.root / "src" / folder / stem
            if directory.is_dir():
                for path in sorted(directory.iterdir()):
                    if path.suffix in INSTANCE_SUFFIXES:
                        yield path, label


def strip_jsonc(text: str) -> str:
    """JSON with // and /* */ comments (schema-validation.jsonc) as plain JSON text."""
    pattern = r'("(?:\\.|[^"\\])*")|//[^\n]*|/\*.*?\*/'
    text = re.sub(pattern, lambda m: m.group(1) or "", text, flags=re.S)
    return re.sub(r",(\s*[\]}])", r"\1", text)  # trailing commas


def load_corpus(root: Path) -> Corpus:
    """Read every schema of the checkout once and build the registry from them."""
    folder = root / "src" / "schemas" / "json"
    if not folder.is_dir():
        raise FileNotFoundError(f"{root} has no src/schemas/json: not a SchemaStore checkout")
    schemas = {path.name: path for path in sorted(folder.glob("*.json"))}
    values: dict[str, Any] = {}
    unreadable: dict[str, str] = {}
    for name, path in schemas.items():
        try:
            values[name] = load_json(path.read_bytes())
        except SchemaError as error:
            unreadable[name] = str(error)
    return Corpus(root, schemas, values, unreadable, build_registry(values), _skiptest(root))


def build_registry(values: dict[str, Any]) -> dict[str, Any]:
    """URI -> schema: each file under its SchemaStore URLs, then under its `$id` (or draft 4's
    `id`) where no file already holds that URI."""
    registry: dict[str, Any] = {}
    for name, value in values.items():
        for host in HOSTS:
            registry[host + name] = value
            registry.setdefault(host + name.removesuffix(".json"), value)
    for value in values.values():
        if isinstance(value, dict):
            for keyword in ("$id", "id"):
                ident = value.get(keyword)
                if isinstance(ident, str) and "://" in ident:
                    registry.setdefault(ident.partition("#")[0], value)
    return registry


def _skiptest(root: Path) -> frozenset[str]:
    path = root / "src" / "schema-validation.jsonc"
    if not path.is_file():
        return frozenset()
    return frozenset(json.loads(strip_jsonc(path.read_text("utf-8"))).get("skiptest", []))


# --- instances ----------------------------------------------------------------------------------


def _plain_toml(value: Any) -> Any:
    """A TOML value as JSON has it: dates and times become their RFC 3339 text."""
    if isinstance(value, dict):
        return {key: _plain_toml(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain_toml(item) for item in value]
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    return value


_YAML_CORE = {  # the YAML 1.2 core schema's implicit scalars, as SchemaStore's YAML reader has them
    "bool": (r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    "null": (r"^(?:~|null|Null|NULL|)$", "~nN"),
    "int": (r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    "float": (
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
        "-+0123456789.",
    ),
}


def _yaml_loader() -> Any:
    """PyYAML's safe loader with the YAML 1.2 core schema (`on`, `yes` and `1:20` stay strings,
    timestamps too), aliases and merge keys allowed (test data, not a schema)."""
    import yaml  # type: ignore[import-untyped]

    prefix = "tag:yaml.org,2002:"
    dropped = {prefix + name for name in ("bool", "null", "int", "float", "timestamp")}

    class Loader(yaml.SafeLoader):  # type: ignore[misc]
        yaml_implicit_resolvers = {
            first: [(tag, rx) for tag, rx in entries if tag not in dropped]
            for first, entries in yaml.SafeLoader.yaml_implicit_resolvers.items()
        }

    for name, (pattern, firsts) in _YAML_CORE.items():
        Loader.add_implicit_resolver(
            prefix + name, re.compile(pattern), list(firsts) + ([""] if name == "null" else [])
        )

    def integer(loader: Any, node: Any) -> int:
        text = loader.construct_scalar(node)
        return int(text, 0) if text[:2] in ("0o", "0x") else int(text, 10)

    Loader.add_constructor(prefix + "int", integer)
    return Loader


def _json_keys(value: Any) -> Any:
    """YAML keys that are not strings become their JSON text, as a JavaScript reader makes them."""
    if isinstance(value, dict):
        return {
            key if isinstance(key, str) else json.dumps(key): _json_keys(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_json_keys(item) for item in value]
    return value


def read_instances(path: Path) -> list[Any]:
    """The instances of a test file (a YAML file may hold several documents; an empty one has
    none)."""
    data = path.read_bytes()
    if path.suffix == ".json":
        return [json.loads(data.decode("utf-8-sig"))]
    if path.suffix == ".toml":
        return [_plain_toml(tomllib.loads(data.decode("utf-8-sig")))]
    import yaml

    text = data.decode("utf-8-sig").replace("\n\ufeff", "\n")  # a BOM after a leading comment line
    documents = list(yaml.load_all(text, Loader=_yaml_loader()))
    return [_json_keys(document) for document in documents if document is not None]


# --- one schema ---------------------------------------------------------------------------------


@dataclass
class Mismatch:
    """An instance whose verdict is not its label."""

    file: str
    label: bool
    verdict: bool
    reference: bool | str | None = None  # the reference interpreter's verdict, or why it has none
    errors: list[str] = field(default_factory=list)  # ours, for an instance labelled valid


@dataclass
class SchemaResult:
    name: str
    status: str  # compiled | remote-ref | refused | crash | hang | unreadable | not-a-schema-file
    seconds: float = 0.0  # the compile's wall time
    cpu: float = 0.0  # its CPU time (this process), steadier on a busy machine
    code: str = ""
    message: str = ""
    matching: int = 0
    unreadable_instances: list[str] = field(default_factory=list)
    mismatches: list[Mismatch] = field(default_factory=list)
    crashes: list[str] = field(default_factory=list)  # exceptions that are no SchemaError

    @property
    def instances(self) -> int:
        return self.matching + len(self.mismatches)


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise Hang(f"still running after {HANG_SECONDS} s")


class _Guard:
    """A hang guard: SIGALRM after HANG_SECONDS (main thread, POSIX)."""

    def __enter__(self) -> None:
        self.previous = signal.signal(signal.SIGALRM, _on_alarm)
        signal.alarm(HANG_SECONDS)

    def __exit__(self, *exc: object) -> None:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, self.previous)


def is_remote(error: SchemaError, registry: dict[str, Any]) -> bool:
    """Whether a refusal is only references to documents the corpus does not hold."""
    parts = getattr(error, "errors", None) or [error]
    return all(
        part.code == "unresolvable-ref" and "no schema is known as" in part.message
        for part in parts
    )


def compile_one(corpus: Corpus, name: str, *, format: bool) -> tuple[SchemaResult, str | None]:
    """Compile one schema; the result so far and the module text (None when it did not compile)."""
    if name in corpus.unreadable:
        return SchemaResult(name, "unreadable", message=corpus.unreadable[name]), None
    raw = corpus.schemas[name].read_bytes()
    started, cpu = time.perf_counter(), time.process_time()
    try:
        with _Guard():
            text = compile_source(
                raw, base_uri=corpus.url(name), registry=corpus.registry, format=format
            )
        result = SchemaResult(name, "compiled")
    except SchemaError as error:
        text = None
        status = "remote-ref" if is_remote(error, corpus.registry) else "refused"
        result = SchemaResult(name, status, code=error.code, message=str(error))
    except Hang as error:
        text, result = None, SchemaResult(name, "hang", message=str(error))
    except Exception as error:  # noqa: BLE001 - a crash is what this run looks for
        text, result = None, SchemaResult(name, "crash", message=_describe(error))
    result.seconds, result.cpu = time.perf_counter() - started, time.process_time() - cpu
    return result, text


def _describe(error: BaseException) -> str:
    import traceback

    frames = traceback.extract_tb(error.__traceback__)[-3:]
    where = " <- ".join(f"{Path(f.filename).name}:{f.lineno}" for f in reversed(frames))
    return f"{type(error).__name__}: {str(error)[:300]} (at {where})"


def check_instances(corpus: Corpus, result: SchemaResult, text: str) -> None:
    """Run the compiled module over the schema's tests, recording matches, mismatches, crashes."""
    namespace: dict[str, Any] = {"__name__": "corpus_" + re.sub(r"\W", "_", result.name)}
    try:
        exec(compile(text, f"<corpus {result.name}>", "exec"), namespace)
    except Exception as error:  # noqa: BLE001
        result.crashes.append(f"module does not load: {_describe(error)}")
        return
    for path, label in corpus.tests(result.name):
        try:
            instances = read_instances(path)
        except Exception as error:  # noqa: BLE001 - a test file our readers cannot read
            result.unreadable_instances.append(
                f"{path.name}: {type(error).__name__}: {str(error)[:200]}"
            )
            continue
        if not instances:
            result.unreadable_instances.append(f"{path.name}: empty (no YAML document)")
        for index, instance in enumerate(instances):
            where = path.name if len(instances) == 1 else f"{path.name}[{index}]"
            _check_instance(corpus, result, namespace, where, label, instance)


def _check_instance(
    corpus: Corpus,
    result: SchemaResult,
    module: dict[str, Any],
    where: str,
    label: bool,
    instance: Any,
) -> None:
    try:
        with _Guard():
            verdict = module["is_valid"](instance)
            errors = module["errors"](instance)
    except Exception as error:  # noqa: BLE001
        result.crashes.append(f"{where}: {_describe(error)}")
        return
    if verdict != (not errors):
        result.crashes.append(
            f"{where}: is_valid says {verdict} but errors() has {len(errors)} errors"
        )
    if verdict == label:
        result.matching += 1
        return
    shown = [
        f"{e.instance_location or '(root)'}: {e.message[:160]} ({e.keyword_location})"
        for e in errors[:5]
    ]
    result.mismatches.append(
        Mismatch(where, label, verdict, reference_verdict(corpus, result.name, instance), shown)
    )


def reference_verdict(corpus: Corpus, name: str, instance: Any) -> bool | str:
    """What the reference interpreter says (the oracle), or why it cannot say."""
    from generator.reference import DraftReference

    value = corpus.values[name]
    try:
        with _Guard():
            draft = choose_profile(value, None, corpus.registry, TABLES).draft or "draft2020-12"
            return DraftReference(
                value, draft, registry=corpus.registry, base_uri=corpus.url(name)
            ).is_valid(instance)
    except Exception as error:  # noqa: BLE001
        return f"{type(error).__name__}: {str(error)[:200]}"


def run_schema(corpus: Corpus, name: str, *, format: bool = True) -> SchemaResult:
    result, text = compile_one(corpus, name, format=format)
    if text is not None:
        check_instances(corpus, result, text)
    return result


# --- the whole corpus ---------------------------------------------------------------------------


def run_corpus(
    corpus: Corpus, names: list[str] | None = None, *, format: bool = True, progress: bool = False
) -> list[SchemaResult]:
    chosen = names if names is not None else [n for n in corpus.schemas if n not in corpus.skiptest]
    results = []
    for count, name in enumerate(chosen, 1):
        results.append(run_schema(corpus, name, format=format))
        if progress:
            last = results[-1]
            print(
                f"[{count}/{len(chosen)}] {name}: {last.status} {last.seconds:.2f}s (cpu {last.cpu:.2f}s)",
                file=sys.stderr,
                flush=True,
            )
    return results


def report(results: list[SchemaResult], *, format: bool, skipped: int = 0) -> str:
    """The report as text: counts first, then every refusal, mismatch and crash, then times."""
    statuses = Counter(r.status for r in results)
    instances = sum(r.instances for r in results)
    matching = sum(r.matching for r in results)
    crashes = [(r.name, c) for r in results for c in r.crashes] + [
        (r.name, r.message) for r in results if r.status in ("crash", "hang")
    ]
    compiled = [r for r in results if r.status == "compiled"]
    total = sum(r.seconds for r in results)
    cpu = sum(r.cpu for r in results)
    lines = [
        f"schemas: {len(results)} run ({skipped} skipped as SchemaStore's skiptest lists them)",
        f"compiled: {statuses['compiled']}; unresolvable remote references: {statuses['remote-ref']}; "
        f"refused: {statuses['refused']}; crashes: {statuses['crash']}; hangs: {statuses['hang']}; "
        f"unreadable: {statuses['unreadable']}",
        f"instances: {matching} of {instances} match their label; "
        f"{instances - matching} mismatches; {sum(len(r.unreadable_instances) for r in results)} unreadable",
        f"crashes (exceptions that are no SchemaError): {len(crashes)}",
        f"compile time (format={format}): {total:.1f} s in total, {total / max(len(results), 1):.3f} s a schema"
        f" ({sum(r.seconds for r in compiled):.1f} s for the compiled ones); CPU time {cpu:.1f} s",
    ]
    lines += _section(
        "refused", [f"{r.name}: {r.message}" for r in results if r.status == "refused"]
    )
    lines += _section(
        "unresolvable remote references",
        [f"{r.name}: {r.message[:300]}" for r in results if r.status == "remote-ref"],
    )
    lines += _section(
        "unreadable",
        [f"{r.name}: {r.message}" for r in results if r.status == "unreadable"]
        + [f"{r.name}/{u}" for r in results for u in r.unreadable_instances],
    )
    lines += _section(
        "mismatches", [_mismatch_line(r.name, m) for r in results for m in r.mismatches]
    )
    lines += _section("crashes", [f"{name}: {text}" for name, text in crashes])
    slowest = sorted(results, key=lambda r: -r.cpu)[:10]
    lines += _section(
        "slowest ten compiles (CPU time)",
        [f"{r.cpu:7.2f} s  {r.name} ({r.status}; wall {r.seconds:.2f} s)" for r in slowest],
    )
    return "\n".join(lines)


def _section(title: str, entries: list[str]) -> list[str]:
    return [f"\n{title} ({len(entries)}):", *("  " + entry for entry in entries)] if entries else []


def _mismatch_line(name: str, mismatch: Mismatch) -> str:
    label = "valid" if mismatch.label else "invalid"
    text = f"{name}/{mismatch.file}: labelled {label}, compiled module says {mismatch.verdict}, reference says {mismatch.reference}"
    return text + "".join(f"\n      {error}" for error in mismatch.errors)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.corpus.schemastore", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("root", type=Path, help="a SchemaStore checkout (with src/schemas/json)")
    parser.add_argument(
        "--no-format", action="store_true", help="compile with format=False (no black)"
    )
    parser.add_argument("--only", action="append", help="run only this schema file (repeatable)")
    parser.add_argument(
        "--progress", action="store_true", help="one line per schema on standard error"
    )
    args = parser.parse_args(argv)
    corpus = load_corpus(args.root)
    names = args.only if args.only else None
    skipped = 0 if names else sum(1 for n in corpus.schemas if n in corpus.skiptest)
    results = run_corpus(corpus, names, format=not args.no_format, progress=args.progress)
    print(report(results, format=not args.no_format, skipped=skipped))
    return 1 if any(r.status in ("crash", "hang") or r.crashes for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
