"""Micro-benchmark of how patterns run: str tests against the compiled regex (issue 14).

    .venv/bin/python -m bench.patterns            # a minute or two
    .venv/bin/python -m bench.patterns --quick    # a few seconds, rough

Three tables, per-call times in nanoseconds: 200 samples of about a millisecond of each pair,
taken side by side (bench/timing.py), the fastest sample of each reported (on a shared machine
the other samples mostly measure the other work; for a comparison of two small pieces of code
the minimum is the stable figure):

1. **Shapes.** For each pattern shape that generator/regex/simple.py turns into str tests, a
   module `{"type": "string", "pattern": P}` compiled as usual (str tests) and the same with the
   str tests switched off (`re`), each module's `is_valid` on typical inputs. A shape is worth
   its str tests only if they are faster here; regex/simple.py keeps only such shapes. The last
   rows are patterns with a scanning negative lookahead, tested without it where the text it
   seeks is not there (regex/guard.py), against the whole pattern in `re`.
2. **Rejected.** The tests for classes no str method names exactly (`strip`/`translate` with a
   table, set inclusion), written out by hand, against `re`: why those patterns stay on `re`.
3. **Bench schemas.** The benchmark cases with patterns (Swagger's `^x-`, FHIR's), `is_valid`
   on their instance as compiled and with `re` for every pattern (as before the plans).

Absolute times on a shared machine are noise; the ratios (re / str tests: above 1, the str tests
are faster) are the figures.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
from typing import Any, Callable, Iterator

import generator
from generator.emit import patterns as emitted_patterns
from generator.emit.tree import COMMENTS
from generator.regex import compile_pattern

from .cases import SHARED_CASES, shared_data_dir
from .timing import QUICK, TimingSettings, measure_side_by_side

# Many short samples: the fastest of 200 one-millisecond samples is a window the rest of a busy
# machine left alone (bench/timing.py's FULL takes 15 of 20 ms, for medians).
MANY_SHORT = TimingSettings(
    repeats=200, target_ns=1_000_000, slow_call_ns=1_000_000_000, slow_repeats=3
)

# (pattern, typical inputs: a matching one first, then near misses)
SHAPES = [
    ("^x-", ["x-amazon-apigateway-integration", "description", "x"]),
    ("^https://", ["https://example.com/a/b", "http://example.com"]),
    (r"^\$ref$", ["$ref", "description"]),
    (r"\.json$", ["schemas/order.json", "order.yaml"]),
    ("type", ["type", "description"]),
    ("^(get|put|post|delete|options|head|patch|trace)$", ["post", "parameters"]),
    ("^true|false$", ["true", "false", "maybe"]),
    ("^([0-9]{3})$|^(default)$", ["200", "default", "2xx"]),
    (r"^\d+$", ["12345", "7", "12a45", "1" * 40, "1" * 200]),  # long ones: re's loop is faster
    ("^[A-Za-z]+$", ["Swagger", "a" * 200]),
    ("^[A-Z]{2}$", ["US", "us", "USA"]),
    ("^[a-z]{1,16}$", ["swagger", "Swagger", "a" * 20]),
    ("^[A-Za-z0-9]{1,64}$", ["abcDEF123", "abc-def"]),
    # a whole text in any ASCII case (SchemaStore's Azure schemas): a match, a case variant, a miss
    ("^([Pp][Rr][Ee][Ss][Ee][Nn][Tt]|[Aa][Bb][Ss][Ee][Nn][Tt])$", ["Present", "ABSENT", "other"]),
    (
        "^([Nn][Oo][Nn][Ee]|[Ii][Nn][Cc][Ll][Uu][Dd][Ee]|[Ee][Xx][Cc][Ll][Uu][Dd][Ee])$",
        ["include", "None", "all"],
    ),
    # ASCII first, then re (regex/simple.py): FHIR's uri, string and code (the string's class
    # leaves out two ASCII characters, \v and \f; the others' leave out all ASCII whitespace,
    # so their str tests accept printable ASCII without the space); the last inputs are not
    # accepted by the str tests and pay for both
    (r"^\S*$", ["http://terminology.hl7.org/CodeSystem/v2", "urn:oid:1.2", "a b"]),
    (r"^[ \r\n\t\S]+$", ["Sandy", "ACME Healthcare, Inc", "Line one.\nLine two.\tEnd", "l\u00e9a"]),
    (r"^[^\s]+(\s[^\s]+)*$", ["MR", "official", "a b"]),
]
# (pattern, inputs) with a scanning negative lookahead: tested without it where its text is not
# in the string (generator/regex/guard.py); the seed tool-package's entry path first
GUARDED = [
    (
        r"^(?!/)(?!.*(?:^|/)\.\.(?:/|$))[A-Za-z0-9_./-]+$",
        ["src/tools/pdf/main.py", "a/../b", "x" * 200],
    ),
    (r"^(?!.*--)[a-z-]+$", ["my-package-name", "my--name"]),
]

# (pattern, a hand-written str test of it, typical inputs): the ways of testing a class that no
# str method names, each exactly the pattern on these inputs (checked before timing)
HEX = "0123456789abcdef"
NAME_REST = "abcdefghijklmnopqrstuvwxyz0123456789_.-"
_DELETE_HEX = str.maketrans("", "", HEX)
_HEX_SET = frozenset(HEX)
REJECTED: list[tuple[str, str, Callable[[str], bool], list[str]]] = [
    (
        "^[a-f0-9]{64}$",
        "len(s) == 64 and not s.strip(HEX)",
        lambda s: len(s) == 64 and not s.strip(HEX),
        ["0123456789abcdef" * 4, "ab" * 32, "g" * 64],
    ),
    (
        "^[a-f0-9]{64}$",
        "len(s) == 64 and not s.translate(DELETE_HEX)",
        lambda s: len(s) == 64 and not s.translate(_DELETE_HEX),
        ["0123456789abcdef" * 4, "g" * 64],
    ),
    (
        "^[a-f0-9]{64}$",
        "len(s) == 64 and HEX_SET.issuperset(s)",
        lambda s: len(s) == 64 and _HEX_SET.issuperset(s),
        ["0123456789abcdef" * 4, "g" * 64],
    ),
    (
        "^[a-z][a-z0-9_.-]+$",
        "len(s) > 1 and s[0] in AZ and not s[1:].strip(NAME_REST)",
        lambda s: len(s) > 1
        and s[0] in "abcdefghijklmnopqrstuvwxyz"
        and not s[1:].strip(NAME_REST),
        ["my-package.name_2", "a1", "Ab"],
    ),
]


@contextlib.contextmanager
def str_tests_off(automata: bool = True) -> Iterator[None]:
    """Compile as if no pattern had a str-test shape (every "re" plan runs `re`), and with
    `automata` False as if every pattern were planned "re" (`re` everywhere, as before the plans
    were wired in)."""
    simple, plan, guard = (
        emitted_patterns.simple_tests,
        emitted_patterns.plan_pattern,
        emitted_patterns.literal_guard,
    )
    accept = emitted_patterns.ascii_accept
    emitted_patterns.simple_tests = lambda source: None  # type: ignore[assignment]
    emitted_patterns.literal_guard = lambda source: None  # type: ignore[assignment]
    emitted_patterns.ascii_accept = lambda source: None  # type: ignore[assignment]
    if not automata:
        emitted_patterns.plan_pattern = lambda source: dataclasses.replace(plan(source), kind="re")  # type: ignore[assignment]
    try:
        yield
    finally:
        emitted_patterns.simple_tests, emitted_patterns.plan_pattern = simple, plan  # type: ignore[assignment]
        emitted_patterns.literal_guard, emitted_patterns.ascii_accept = guard, accept  # type: ignore[assignment]


def both_modules(schema: Any, profile: str | None = None) -> tuple[Any, Any]:
    """(the module as compiled, the module with str tests off)."""
    on = generator.compile_module(schema, profile=profile, format=False)
    with str_tests_off():
        off = generator.compile_module(schema, profile=profile, format=False)
    return on, off


def _row(
    label: str, calls: dict[str, Callable[[Any], Any]], argument: Any, settings: TimingSettings
) -> str:
    timings = measure_side_by_side(calls, argument, settings)
    first, second = (min(timings[name].samples_ns) for name in calls)
    return f"| {label} | {second:,.0f} | {first:,.0f} | {second / first:.2f} |"


def shapes(settings: TimingSettings) -> list[str]:
    lines = ["| pattern | input | re | str tests | re / str tests |", "|---|---|---|---|---|"]
    for pattern, inputs in SHAPES + GUARDED:
        on, off = both_modules({"type": "string", "pattern": pattern})
        note = (
            "# "
            + COMMENTS[
                "guarded" if (pattern, inputs) in GUARDED else emitted_patterns._how(pattern)
            ]
        )
        assert note in on.__source__ and note not in off.__source__, pattern
        for text in inputs:
            assert (
                on.is_valid(text)
                == off.is_valid(text)
                == (compile_pattern(pattern).search(text) is not None)
            )
            label = f"`{_cell(pattern)}` | `{_cell(text[:24])}`" + ("..." if len(text) > 24 else "")
            lines.append(
                _row(label, {"str tests": on.is_valid, "re": off.is_valid}, text, settings)
            )
    return lines


def rejected(settings: TimingSettings) -> list[str]:
    lines = [
        "| pattern | str test | input | re | str test | re / str test |",
        "|---|---|---|---|---|---|",
    ]
    for pattern, text_of_test, test, inputs in REJECTED:
        search = compile_pattern(pattern).search

        def by_re(s: str, search: Callable[[str], Any] = search) -> bool:
            return search(s) is not None

        for text in inputs:
            assert test(text) == by_re(text), (pattern, text)
            label = f"`{_cell(pattern)}` | `{text_of_test}` | `{_cell(text[:20])}`" + (
                "..." if len(text) > 20 else ""
            )
            lines.append(_row(label, {"str test": test, "re": by_re}, text, settings))
    return lines


def bench_schemas(settings: TimingSettings) -> list[str]:
    """The bench cases, as compiled against `re` everywhere (before the plans were wired in):
    the str tests (ASCII first among them) save time, the automata (FHIR's two risky
    patterns) cost some where they run."""
    lines = [
        "| case | str tests, automata (places) | re everywhere | as compiled | ratio |",
        "|---|---|---|---|---|",
    ]
    directory = shared_data_dir()
    for name in ("swagger", "fhir"):
        schema_file, instances, _ = SHARED_CASES[name]
        schema = json.loads((directory / schema_file).read_text(encoding="utf-8"))
        on = generator.compile_module(schema, format=False)
        with str_tests_off(automata=False):
            before = generator.compile_module(schema, format=False)
        places = [
            sum(on.__source__.count("# " + COMMENTS[note]) for note in notes)
            for notes in (("str-tests", "ascii-first"), ("automaton",))
        ]
        for instance_file, expected in instances:
            instance = json.loads((directory / instance_file).read_text(encoding="utf-8"))
            assert on.is_valid(instance) is before.is_valid(instance) is expected
            lines.append(
                _row(
                    f"{name} ({instance_file}) | {places[0]}, {places[1]}",
                    {"as compiled": on.is_valid, "re": before.is_valid},
                    instance,
                    settings,
                )
            )
    return lines


def _cell(text: str) -> str:
    return text.replace("|", "\\|").encode("unicode_escape").decode("ascii")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.patterns", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--quick", action="store_true", help="few, short samples (rough figures)")
    settings = QUICK if parser.parse_args(argv).quick else MANY_SHORT
    for title, table in (
        ("Shapes (ns per is_valid call)", shapes),
        ("Rejected tests (ns per call)", rejected),
        ("Bench schemas (ns per is_valid call)", bench_schemas),
    ):
        print(f"\n{title}\n")
        print("\n".join(table(settings)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
