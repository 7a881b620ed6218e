"""A native module never ends the process, whatever the instance's depth and the caller's stack
(issue 29, item 3): errors(), output(), is_valid() and validate() give the pure module's answer or
the documented too-deep error.

The reproducer: issue 29's schema, an instance `{"i": 1, "r": ...}` 700 deep, errors() called a
few frames down. mypyc compares an int outside 63 bits (the module's _BIG, an instance's large int)
with PyObject_RichCompareBool, which CPython counts against the recursion limit, and aborted the
process ("fatal: out of memory") when the limit was reached exactly there; and the C stack a
native module uses between two counted calls ran out on a thread with a small stack. Both are
guarded in the native build (generator/native/guard.h). Every check runs in a child process, so an
abort or a crash fails the test instead of ending the test run. One build for the file.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.api import compile_rendered
from generator.native import EXTENSION_SUFFIX, build_native

pytestmark = pytest.mark.skipif(
    shutil.which("cc") is None and shutil.which("gcc") is None,
    reason="no C compiler on this machine",
)

SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["i"],
    "properties": {
        "i": {"type": "integer", "maximum": 10},
        "s": {"type": "string", "pattern": "^[A-Z]{2}$", "maxLength": 2},
        "s2": {"type": "string", "pattern": "^\\S*$"},
        "s3": {"type": "string", "pattern": "(a+)+$"},
        "s4": {"type": "string", "minLength": 1},
        "e": {"enum": [1, "a", None, True, [1], {"a": 1}]},
        "c": {"const": 1},
        "u": {"type": "array", "uniqueItems": True},
        "r": {"$ref": "#"},
    },
    "patternProperties": {"^x-": {"type": "string"}},
}
NAME = "deep_repro"

# The child's part common to both checks: the native module, the pure one (the same file,
# executed), each answer as a comparable value, and the true answer (the pure module's, with room
# enough for any depth here: a raised limit on a thread with a large stack).
_COMMON = """
import importlib.util, json, sys, threading
directory = sys.argv[1]
sys.path.insert(0, directory)
import {name} as native
assert native.__file__.endswith({suffix!r}), native.__file__
spec = importlib.util.spec_from_file_location("pure_{name}", directory + "/{name}.py")
pure = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pure)
TOO_DEEP = pure._TOO_DEEP_MESSAGE
LEAVES = (1, 11, 2**70, -2**70)  # valid, over the maximum, outside 63 bits over it and under it
FUNCTIONS = ("errors", "output", "is_valid", "validate")


def instance(depth, leaf):
    x = {{"i": leaf}}
    for _ in range(depth):
        x = {{"i": leaf, "r": x}}
    return x


def answer(module, function, x):
    if function == "errors":
        return [[e.instance_location, e.keyword_location, e.message] for e in module.errors(x)]
    if function == "output":
        return module.output(x, "basic")
    if function == "is_valid":
        return module.is_valid(x)
    try:
        module.validate(x)
    except module.ValidationError as error:
        return [error.instance_location, error.keyword_location, error.message]
    return None


def too_deep(function, found):
    if function == "errors":
        return found == [["", "", TOO_DEEP]]
    if function == "output":
        return found["valid"] is False and [e.get("error") for e in found["errors"]] == [TOO_DEEP]
    if function == "is_valid":
        return found is False
    return found == ["", "", TOO_DEEP]


def on_large_stack(function, *args):
    limit = sys.getrecursionlimit()
    threading.stack_size(512 * 1024 * 1024)
    sys.setrecursionlimit(1_000_000)
    out = []
    thread = threading.Thread(target=lambda: out.append(function(*args)))
    thread.start()
    thread.join()
    sys.setrecursionlimit(limit)
    threading.stack_size(0)
    return out[0]


def truths(depths):
    return {{(depth, leaf, function): on_large_stack(answer, pure, function, instance(depth, leaf))
            for depth in depths for leaf in LEAVES for function in FUNCTIONS}}


def down(frames, function, *args):
    return function(*args) if frames <= 1 else down(frames - 1, function, *args)


def report(case, found, truth, exact):
    ok = found == truth or (not exact and too_deep(case[-1], found))
    print(json.dumps([case, "ok" if ok else "wrong", found if not ok else None]), flush=True)
"""

# Instance depths against caller stack depths, at the default recursion limit: where the first
# RecursionError falls moves with both. At 500 and 700 levels every caller depth from 1 to 40
# frames is tried (the abort came at every other one), with a small and a large int.
_CALLERS = _COMMON + """
SWEPT = (500, 700)
depths = (0, 100, 500, 700, 1000, 5000)
truth = truths(depths)
assert all(not too_deep(f, truth[d, l, f]) for d, l, f in truth if f != "is_valid"), "the truth is too deep"
for depth in depths:
    for leaf in LEAVES:
        x = instance(depth, leaf)
        for function in FUNCTIONS:
            if depth in SWEPT:
                callers = range(1, 41) if leaf in (1, 2**70) and function in ("errors", "output") else ()
            else:
                callers = (1, 3, 5, 10, 50)
            for frames in callers:
                case = [depth, str(leaf), frames, function]
                print(json.dumps([case, "start"]), flush=True)
                found = down(frames, answer, native, function, x)
                # exact where shallow, and for the issue's valid instance 700 deep (the pure module's [])
                exact = depth <= 100 or (depth == 700 and truth[depth, leaf, "is_valid"] is True)
                report(case, found, truth[depth, leaf, function], exact)
"""

# Threads with small C stacks, and a recursion limit raised far above the default: the native
# module answers (or says too deep) where its C code once ran out of stack.
_STACKS = _COMMON + """
depths = (0, 300, 1000, 3000)
truth = truths(depths)
for kib in (64, 256, 1024, 8192):
    for limit in (1000, 1_000_000):
        for depth in depths:
            for leaf in (1, 11):
                x = instance(depth, leaf)
                for function in FUNCTIONS:
                    case = [kib, limit, depth, str(leaf), function]
                    print(json.dumps([case, "start"]), flush=True)
                    found = []
                    def run():
                        sys.setrecursionlimit(limit)
                        try:
                            found.append(answer(native, function, x))
                        finally:
                            sys.setrecursionlimit(1000)
                    threading.stack_size(kib * 1024)
                    thread = threading.Thread(target=run)
                    thread.start()
                    thread.join()
                    threading.stack_size(0)
                    # exact where the thread has room: shallow instances, and 300 levels on 1 MiB
                    exact = depth == 0 or (depth <= 300 and kib >= 1024 and limit == 1000)
                    report(case, found[0], truth[depth, leaf, function], exact)
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("native_deep")
    module = directory / f"{NAME}.py"
    rendered = compile_rendered(SCHEMA, name=NAME)[0]
    module.write_text(rendered.text)
    build_native(module, rendered)
    return directory


def _run(script: str, directory: Path) -> list[list[object]]:
    """Run a check in a child process; its cases, each ["ok" or "wrong", case, answer]. A child
    that ends other than by exiting 0 fails here, naming the case it was in."""
    source = script.format(name=NAME, suffix=EXTENSION_SUFFIX)
    done = subprocess.run(
        [sys.executable, "-c", source, str(directory)], capture_output=True, text=True, timeout=600
    )
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    started = [line[0] for line in lines if line[1] == "start"]
    assert done.returncode == 0, (done.returncode, "during", started[-1:], done.stderr[-2000:])
    results = [line for line in lines if line[1] != "start"]
    assert len(results) == len(started)
    return results


def test_the_reproducer_at_any_depth_from_any_caller_depth(built: Path) -> None:
    results = _run(_CALLERS, built)
    assert [r for r in results if r[1] != "ok"] == []
    assert len(results) == 2 * 2 * 2 * 40 + 4 * 4 * 4 * 5


def test_small_thread_stacks_and_a_raised_limit_never_crash(built: Path) -> None:
    results = _run(_STACKS, built)
    assert [r for r in results if r[1] != "ok"] == []
    assert len(results) == 4 * 2 * 4 * 2 * 4
