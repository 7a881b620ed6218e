"""The C backend's public is_valid (c_module.py's PublicIsValid, c_runtime.h's
sl_public_is_valid): where the pure module's is_valid is templates/api.py.j2's function that
calls its root, directly or through `_memo_owned`, and answers a RecursionError on a fresh
stack, the extension's is_valid is C and answers as it: the same answers, at the same depths,
and the same answer where the caller's stack runs out; any other shape stays the pure one.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import shutil
import sys
import warnings
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

import pytest

import generator
from generator.api import compile_built
from generator.codegen import Code, Name
from generator.native.c_build import build_c_natives
from generator.native.c_module import PublicIsValid, public_is_valid
from generator.render.module import Root, root_of

from .native_hostile import assert_same, hostile_instances
from .test_native_c import DOUBLING, _nested, _pure
from .test_native_c_memo import TREE, TREE_TESTS

pytestmark = pytest.mark.skipif(
    shutil.which("cc") is None and shutil.which("gcc") is None,
    reason="no C compiler on this machine",
)

PACKAGE = "straightline_c_public"  # (each native test file its own: one run may import several)
# a reference, no doubling: is_valid calls the root directly
LINKED = {
    "type": "object",
    "properties": {"n": {"type": "integer"}, "next": {"$ref": "#"}},
    "required": ["n"],
}
# a dynamic scope: the root takes one, which this C form does not pass
DYNAMIC = {
    "$id": "https://example.com/root",
    "$dynamicAnchor": "node",
    "type": ["object", "integer"],
    "additionalProperties": {"$dynamicRef": "#node"},
}


def _linked(depth: int, last: Any) -> Any:
    value: Any = {"n": last}
    for _ in range(depth):
        value = {"n": 1, "next": value}
    return value


CASES: dict[str, tuple[Any, list[Any]]] = {
    "linked": (LINKED, [_linked(d, leaf) for d in (0, 1, 30) for leaf in (1, "s", 2**70)]),
    "doubling": (DOUBLING, [_nested(d, leaf) for d in (0, 3, 40) for leaf in (1, "s")]),
    # a doubling whose root is C and memoized below: is_valid calls it through `_memo_owned`
    "tree": (TREE, TREE_TESTS),
    "dynamic": (DYNAMIC, [{"a": {"b": 1}}, {"a": "s"}, 1, "s"]),
    # a doubling below a C root, beside a reference loop: its memo wrappers watch for a
    # re-entry in Python, so `_memo_owned` stays Python (its table is the wrappers' dict: a C
    # owner's table would be one they never see, and each would evaluate on its own, 2**depth
    # times), and so does is_valid
    "looped": (
        {
            "$defs": {
                "loop": {"allOf": [{"$ref": "#/$defs/loop"}]},
                "d": {
                    "allOf": [{"items": {"$ref": "#/$defs/d"}}, {"items": {"$ref": "#/$defs/d"}}],
                    "type": ["array", "integer"],
                },
            },
            "properties": {"never": {"$ref": "#/$defs/loop"}, "d": {"$ref": "#/$defs/d"}},
            "type": "object",
        },
        [{"d": _nested(12, 1)}, {"d": _nested(12, "s")}, {"never": 1}, {"x": 1}, "s"],
    ),
}


class Sample:
    def __init__(self, directory: Path) -> None:
        package = directory / PACKAGE
        package.mkdir()
        (package / "__init__.py").write_text("")
        for name, (schema, _) in CASES.items():
            (package / f"{name}.py").write_text(generator.compile_source(schema, name=name))
        build_c_natives(
            [
                (package / f"{name}.py", schema, {"name": name})
                for name, (schema, _) in CASES.items()
            ],
            timeout=900,
        )
        assert PACKAGE not in sys.modules
        sys.path.insert(0, str(directory))
        try:
            self.native = {name: importlib.import_module(f"{PACKAGE}.{name}") for name in CASES}
        finally:
            sys.path.remove(str(directory))
        self.pure = {name: _pure(package / f"{name}.py") for name in CASES}


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Sample:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (the loop's own warning)
        return Sample(tmp_path_factory.mktemp("native_c_public"))


def _is_c(function: Any) -> bool:
    return type(function).__name__ == "builtin_function_or_method"


@pytest.mark.parametrize("name", ["linked", "doubling", "tree"])
def test_the_public_is_valid_is_c_and_answers_as_the_pure_one(sample: Sample, name: str) -> None:
    native, pure = sample.native[name], sample.pure[name]
    assert _is_c(native.is_valid) and not _is_c(pure.is_valid)
    if name == "linked":
        assert not hasattr(native, "_memo_owned")
    else:
        assert _is_c(native._memo_owned)
    # (what help() and inspect show: the pure function's name, signature and docstring)
    assert native.is_valid.__name__ == "is_valid"
    assert native.is_valid.__doc__ == pure.is_valid.__doc__
    assert str(inspect.signature(native.is_valid)) == "(instance, /)"
    instances = CASES[name][1] + hostile_instances()[:40]
    for instance in instances:
        assert_same(native, pure, instance)
    # validate() and output() call it by its module-level name
    assert native.output(CASES[name][1][0], "flag") == pure.output(CASES[name][1][0], "flag")


@pytest.mark.parametrize("name", ["dynamic", "looped"])
def test_a_scoped_root_or_a_python_owner_keeps_the_pure_is_valid(sample: Sample, name: str) -> None:
    """`_v0(instance, ())` (a dynamic scope) is not the shape, and where `_memo_owned` is
    Python the C would make a table its wrappers never see: the pure is_valid runs, with the C
    root under it where there is one."""
    native, pure = sample.native[name], sample.pure[name]
    assert not _is_c(native.is_valid)
    if name == "looped":  # (a dynamic scope's root takes two arguments: no C form)
        assert _is_c(native._v0) and not _is_c(native._memo_owned)
    for instance in CASES[name][1]:
        assert_same(native, pure, instance)


def _at_depth(levels: int, run: Callable[[], Any]) -> Any:
    """run() called `levels` Python frames below this one: "raised" when it raises
    RecursionError ("not reached" when the frames above it did)."""
    if levels > 0:
        return _at_depth(levels - 1, run)
    try:
        return run()
    except RecursionError:
        return "raised"


def _answer_at_depth(levels: int, run: Callable[[], Any]) -> Any:
    try:
        return _at_depth(levels, run)
    except RecursionError:
        return "not reached"


@pytest.mark.parametrize("name", ["linked", "doubling"])
def test_a_caller_near_the_recursion_limit_gets_the_pure_answer(sample: Sample, name: str) -> None:
    """Called with the stack nearly spent, the root's RecursionError is answered on a fresh
    stack (a valid instance stays valid) at every depth, as the pure is_valid answers it; where
    not even the call fits, both raise."""
    native, pure = sample.native[name], sample.pure[name]
    valid = _linked(40, 1) if name == "linked" else _nested(40, 1)
    invalid = _linked(40, "s") if name == "linked" else _nested(40, "s")
    here = len(inspect.stack(0))
    limit = sys.getrecursionlimit()
    answers: dict[str, list[Any]] = {"native": [], "pure": []}
    for levels in range(limit - here - 80, limit - here + 5):
        for label, module in (("native", native), ("pure", pure)):
            for instance in (valid, invalid):
                found = _answer_at_depth(levels, functools.partial(module.is_valid, instance))
                answers[label].append((levels, found))
    assert answers["native"] == answers["pure"]
    # (the control: the window holds answers given on a fresh stack and calls that raised)
    found = {answer for _, answer in answers["native"]}
    assert {True, False, "raised"} <= found


# -- the shape recognised -------------------------------------------------------------------------

_PLAIN = '''
def is_valid(instance: Any) -> TypeGuard[Instance]:
    """Whether the instance matches the contract (stops at the first failure)."""
    try:
        return _v0r(instance)
    except RecursionError:  # deep: answered on a fresh stack, whatever the caller's depth
        return bool(_on_fresh_stack(_deep_is_valid, instance))


def _deep_is_valid(instance: Any) -> bool:
    return False
'''
_OWNED = _PLAIN.replace(
    "        return _v0r(instance)",
    "        valid: bool = _memo_owned(_v0r, (instance,))\n        return valid",
)
PLAIN_ROOT = Root(Name("_v0r"), Name("_e0r"), Code(""))
OWNED_ROOT = replace(PLAIN_ROOT, memo=True)


def test_the_template_s_two_shapes_are_recognised() -> None:
    plain = public_is_valid(_PLAIN, PLAIN_ROOT)
    assert plain == PublicIsValid(
        "is_valid",
        "_v0r",
        False,
        "_deep_is_valid",
        "Whether the instance matches the contract (stops at the first failure).",
    )
    owned = public_is_valid(_OWNED, OWNED_ROOT)
    assert owned == replace(plain, owned=True)
    # (the roots the compiler gives the sample's modules: the module text holds their shape)
    for name, (schema, _) in CASES.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            text, built = compile_built(schema, name=name)
        found = public_is_valid(text, root_of(built.emitter, built.fast, built.error))
        assert (found is None) is (name == "dynamic"), name
        assert found is None or found.owned is (name in ("doubling", "tree", "looped")), name


@pytest.mark.parametrize(
    "old,new",
    [
        ("return _v0r(instance)", "return _v0r(instance, ())"),  # a dynamic scope
        ("_memo_owned(_v0r", "_memo_other(_v0r"),
        (
            "    try:\n",
            "    if not isinstance(instance, (dict, list)):\n        return False\n    try:\n",
        ),
        ("except RecursionError:", "except Exception:"),
        ("return bool(_on_fresh_stack(_deep_is_valid, instance))", "return False"),
        ("_on_fresh_stack(_deep_is_valid, instance)", "_on_fresh_stack(_deep_is_valid, x)"),
        ("(instance,))", "(instance, instance))"),
        (
            "        return bool(_on_fresh_stack(_deep_is_valid, instance))\n",
            "        return bool(_on_fresh_stack(_deep_is_valid, instance))\n    finally:\n        pass\n",
        ),
        ('    """Whether the instance', '    # a comment\n    """Whether the instance'),
        ('stops at the first failure)."""', 'stops at the first failure).\n    """'),
        ("def is_valid(", "def is_valid_input("),
        ("\n\ndef _deep_is_valid", "\n    return True\n\ndef _deep_is_valid"),
        ("\n\ndef _deep_is_valid", "\n# a comment\n    return True\n\ndef _deep_is_valid"),
        (
            "def _deep_is_valid(",
            "def is_valid(instance: Any) -> TypeGuard[Instance]:\n    pass\n\n\ndef _x(",
        ),
    ],
)
def test_any_other_text_is_left_to_the_pure_module(old: str, new: str) -> None:
    changed = 0
    for text, root in ((_PLAIN, PLAIN_ROOT), (_OWNED, OWNED_ROOT)):
        assert public_is_valid(text, root) is not None
        if text.replace(old, new) != text:
            changed += 1
            assert public_is_valid(text.replace(old, new), root) is None, new
    assert changed, old


@pytest.mark.parametrize(
    "root",
    [
        replace(PLAIN_ROOT, direct=True),
        replace(PLAIN_ROOT, scope=Code(", ()")),
        replace(PLAIN_ROOT, envelope=True),
        replace(PLAIN_ROOT, fast=Name("_v1")),
        replace(PLAIN_ROOT, memo=True),
    ],
)
def test_a_root_the_text_does_not_call_as_the_shape_says_is_left_to_the_pure_module(
    root: Root,
) -> None:
    assert public_is_valid(_PLAIN, root) is None
