"""The native stale check (generator/native: `native_modules`, `is_current`): an extension is used
only while its record says it was built from the module's current text and its files are the
bytes that build wrote. No mypyc build is needed: the record is written by the build's own
installer over stand-in bytes, which is all the check reads.

Then the other steps of a native build that need no mypyc build: the toolchain check and the
message naming what is missing, the module's dotted name, the worker's run (its output, its time
limit), the message of a failed build, the build's checks around the worker, the record the
install writes, and what `remove_native`, `backend_of` and `built_files` take from it. The worker
itself (mypyc and the C compiler) is tested in tests/test_native.py; here a stand-in writes the
files it would."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import sys
import sysconfig
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import generator
from generator import native
from generator.api import compile_rendered
from generator.native import (
    EXTENSION_SUFFIX,
    CompilerNotFound,
    NativeBuildError,
    NativeModule,
    _compile,
    _compiled_text,
    _failure,
    _install,
    _run,
    backend_of,
    build_native,
    built_files,
    c_compiler,
    check_toolchain,
    dotted_name,
    extension_path,
    is_current,
    library_path,
    native_modules,
    record_path,
    remove_native,
)
from generator.native.source import mypyc_source

MODULE_TEXT = b"def is_valid(x):\n    return True\n"
TEXT = MODULE_TEXT


def _built(tmp_path: Path) -> tuple[Path, Path]:
    module = tmp_path / "contract.py"
    module.write_bytes(MODULE_TEXT)
    extension = _install(module, MODULE_TEXT, [b"\x7fELF built from contract.py"])
    assert extension == extension_path(module) and record_path(extension).is_file()
    return module, extension


def _problems(module: Path) -> list[str | None]:
    return [found.problem for found in native_modules(module)]


def test_an_extension_with_its_record_is_current(tmp_path: Path) -> None:
    module, _ = _built(tmp_path)
    assert _problems(module) == [None] and is_current(module)


def test_an_extension_changed_after_its_build_is_not_used(tmp_path: Path) -> None:
    """Overwritten bytes (another build, a tampered file) no longer match the record: reported,
    never imported in place of the module."""
    module, extension = _built(tmp_path)
    extension.write_bytes(b"\x7fELF something else")
    assert _problems(module) == [f"{extension.name} is missing or was changed after it was built"]
    assert not is_current(module)


def test_a_file_of_the_build_that_is_gone_is_reported(tmp_path: Path) -> None:
    """The extension and its mypyc library are both in the record: a library removed is named."""
    module = tmp_path / "contract.py"
    module.write_bytes(MODULE_TEXT)
    extension = _install(module, MODULE_TEXT, [b"extension", b"library"])
    library = next(p for p in tmp_path.iterdir() if p.name.startswith("contract__mypyc"))
    assert _problems(module) == [None]
    library.unlink()
    assert _problems(module) == [f"{library.name} is missing or was changed after it was built"]
    assert not is_current(module) and extension.exists()


def test_an_extension_of_another_version_of_the_module_is_not_used(tmp_path: Path) -> None:
    module, _ = _built(tmp_path)
    module.write_bytes(MODULE_TEXT + b"# edited\n")
    assert _problems(module) == ["it was built from another version of the module"]
    assert not is_current(module)


def test_every_extension_of_the_module_is_found_and_judged(tmp_path: Path) -> None:
    """Among other files, each extension any interpreter would import in the module's place, with
    whether straightline built it (a record) and what is wrong with it."""
    module, extension = _built(tmp_path)
    for other in ("a.txt", "alpha" + EXTENSION_SUFFIX, "contract.txt", "contract_x.so"):
        (tmp_path / other).write_bytes(b"other")
    foreign = tmp_path / "contract.abi3.so"
    foreign.write_bytes(b"not ours")
    assert native_modules(module) == [
        NativeModule(
            foreign,
            False,
            "an extension module straightline did not build (no record beside it)",
            False,
        ),
        NativeModule(extension, True, None, True),
    ]
    assert native_modules(tmp_path / "absent" / "contract.py") == []


def test_a_record_that_does_not_name_the_extension_is_unreadable(tmp_path: Path) -> None:
    module, extension = _built(tmp_path)
    fields = json.loads(record_path(extension).read_text())
    unreadable = [
        "not json",
        "[]",
        json.dumps({**fields, "format": "straightline-native/2"}),
        json.dumps({**fields, "files": [extension.name]}),
        json.dumps({**fields, "files": {"other.so": fields["files"][extension.name]}}),
    ]
    for text in unreadable:
        record_path(extension).write_text(text)
        assert native_modules(module) == [
            NativeModule(extension, True, "its record is unreadable", True)
        ], text
    record_path(extension).write_text(json.dumps(fields))
    module.unlink()
    assert native_modules(module) == [NativeModule(extension, True, "its module is missing", True)]


def test_a_stale_or_changed_extension_is_still_one_straightline_built(tmp_path: Path) -> None:
    module, extension = _built(tmp_path)
    module.write_bytes(MODULE_TEXT + b"# edited\n")
    assert [found.recorded for found in native_modules(module)] == [True]
    module.write_bytes(MODULE_TEXT)
    extension.write_bytes(b"changed")
    assert [found.recorded for found in native_modules(module)] == [True]


# -- the build's other steps ---------------------------------------------------------------------


def _module(directory: Path, text: bytes = TEXT, name: str = "contract") -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    module = directory / f"{name}.py"
    module.write_bytes(text)
    return module


# -- the toolchain ------------------------------------------------------------------------------


def test_the_c_compiler_is_cc_from_the_environment_else_pythons_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CC", "clang -O1")
    assert c_compiler() == ("clang -O1", "the CC environment variable")
    built_with = "the compiler Python was built with (sysconfig CC)"
    for unset in ("", None):
        if unset is None:
            monkeypatch.delenv("CC")
        else:
            monkeypatch.setenv("CC", unset)
        assert c_compiler() == (str(sysconfig.get_config_var("CC") or "cc"), built_with)
    monkeypatch.setattr(sysconfig, "get_config_var", lambda name: None)
    assert c_compiler() == ("cc", built_with)
    monkeypatch.setattr(sysconfig, "get_config_var", lambda name: {"CC": "gcc -pthread"}[name])
    assert c_compiler() == ("gcc -pthread", built_with)


@pytest.fixture
def toolchain(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A complete toolchain: mypyc found, CC a program on PATH, Python.h in the include directory
    (returned)."""
    include = tmp_path / "include"
    include.mkdir()
    (include / "Python.h").write_text("")
    paths = {**sysconfig.get_paths(), "include": str(include)}
    monkeypatch.setattr(sysconfig, "get_paths", lambda: paths)
    found = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name: object() if name == "mypyc" else found(name)
    )
    monkeypatch.setenv("CC", f"{sys.executable} -O2")
    return include


def test_a_complete_toolchain_passes(toolchain: Path) -> None:
    check_toolchain()
    check_toolchain(mypyc=False)


def test_no_mypyc_is_named_unless_only_the_c_toolchain_is_asked_for(
    toolchain: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(NativeBuildError) as raised:
        check_toolchain()
    assert type(raised.value) is NativeBuildError and raised.value.message == (
        "native builds need mypyc, which comes with mypy: pip install 'straightline[native]'"
    )
    check_toolchain(mypyc=False)  # the C backend needs no mypyc


def test_a_cc_that_is_no_command_is_named(toolchain: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for command in ('"unclosed -O2', "   "):
        monkeypatch.setenv("CC", command)
        with pytest.raises(CompilerNotFound) as raised:
            check_toolchain()
        assert raised.value.code == "no-c-compiler"
        assert raised.value.message == (
            f"no C compiler: the CC environment variable is {command!r}, not a command"
        )


def test_a_c_compiler_not_on_path_is_named(
    toolchain: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CC", "no-such-cc -O2")
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(CompilerNotFound) as raised:
        check_toolchain(mypyc=False)
    assert raised.value.message == (
        "no C compiler found: 'no-such-cc' (the CC environment variable) is not installed or not "
        "on PATH; install one (gcc or clang) or set CC, or compile without native"
    )


def test_missing_python_headers_are_named(toolchain: Path) -> None:
    (toolchain / "Python.h").unlink()
    (toolchain / "Python.h").mkdir()  # (a directory is no header file)
    with pytest.raises(CompilerNotFound) as raised:
        check_toolchain()
    assert raised.value.message == (
        f"Python's C headers are not installed ({toolchain / 'Python.h'} is missing): install "
        "the python3-dev (or python3-devel) package, or compile without native"
    )


# -- names --------------------------------------------------------------------------------------


def test_a_module_is_named_under_its_enclosing_packages(tmp_path: Path) -> None:
    assert dotted_name(_module(tmp_path / "plain")) == "contract"
    inner = tmp_path / "top" / "pkg" / "sub"
    for directory in (tmp_path / "top" / "pkg", inner):
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "__init__.py").write_text("")
    assert dotted_name(_module(inner)) == "pkg.sub.contract"  # top/ has no __init__.py
    # a directory that is no identifier ends the name, as mypy's does
    odd = tmp_path / "not-a-name" / "pkg"
    for directory in (odd.parent, odd):
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "__init__.py").write_text("")
    assert dotted_name(_module(odd)) == "pkg.contract"


def test_package_directories_are_followed_32_deep_at_most(tmp_path: Path) -> None:
    directory = tmp_path
    for depth in range(40):
        directory = directory / f"p{depth}"
        directory.mkdir()
        (directory / "__init__.py").write_text("")
    name = dotted_name(_module(directory))
    assert name == ".".join([f"p{depth}" for depth in range(8, 40)] + ["contract"])


# -- the worker's run ---------------------------------------------------------------------------


def _python(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def test_the_worker_runs_in_its_directory_with_no_input_and_its_output_read(
    tmp_path: Path,
) -> None:
    code = (
        "import os, sys; print(os.getcwd()); print(repr(sys.stdin.read()), flush=True);"
        "print('to stderr', file=sys.stderr, flush=True);"
        "sys.stdout.buffer.write(b'\\xff\\n'); sys.exit(3)"
    )
    # (this process's input holds data the worker must not read)
    read_end, write_end = os.pipe()
    os.write(write_end, b"not for the worker\n")
    os.close(write_end)
    saved = os.dup(0)
    os.dup2(read_end, 0)
    try:
        status, output = _run(_python(code), tmp_path, timeout=60)
    finally:
        os.dup2(saved, 0)
        os.close(saved)
        os.close(read_end)
    assert status == 3
    assert output.splitlines() == [str(tmp_path), "''", "to stderr", "\ufffd"]


@pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="reads /proc")
def test_a_worker_over_its_time_is_stopped_with_what_it_started(tmp_path: Path) -> None:
    """The worker leads a session of its own: stopped, the compilers it started stop too."""
    started = tmp_path / "child.pid"
    code = (
        "import subprocess, sys, time\n"
        f"child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        f"open({str(started)!r}, 'w').write(str(child.pid))\n"
        "print('started', flush=True)\n"
        "time.sleep(60)\n"
    )
    begun = time.monotonic()
    status, output = _run(_python(code), tmp_path, timeout=5)
    assert status is None and output == "started\n"
    assert time.monotonic() - begun < 50  # (a hang limit: stopped, not run to its end)
    _assert_stopped(int(started.read_text()))


@pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="reads /proc")
def test_an_interrupted_worker_is_stopped_with_what_it_started(tmp_path: Path) -> None:
    """Interrupted (^C) while the worker runs, the build stops it and the compilers it started,
    then lets the interrupt through."""
    started = tmp_path / "child.pid"
    code = (
        "import subprocess, sys, time\n"
        f"child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)'])\n"
        f"open({str(started) + '.part'!r}, 'w').write(str(child.pid))\n"
        f"import os; os.replace({str(started) + '.part'!r}, {str(started)!r})\n"
        "time.sleep(30)\n"
    )

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    def interrupt_once_started() -> None:
        while not started.exists():
            time.sleep(0.02)
        signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGUSR1)

    previous = signal.signal(signal.SIGUSR1, interrupt)
    watcher = threading.Thread(target=interrupt_once_started, daemon=True)
    watcher.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            _run(_python(code), tmp_path, timeout=None)
    finally:
        watcher.join(60)
        signal.signal(signal.SIGUSR1, previous)
    _assert_stopped(int(started.read_text()))


# -- a failed build's message -------------------------------------------------------------------


def test_a_refused_module_is_reported_with_its_first_type_errors(tmp_path: Path) -> None:
    relative = "pkg/sub/contract.py"
    errors = [f"{relative}:{n}: error: bad {n} in {relative}  [misc]" for n in range(1, 11)]
    output = "\n".join(["building", *errors, "Found 10 errors"])
    message = _failure("pkg.sub.contract", relative, output)
    shown = [f"contract.py:{n}: error: bad {n} in {relative}  [misc]" for n in range(1, 9)]
    assert message == (
        "mypyc refused module pkg.sub.contract (10 type error(s) (and 2 more)); the pure-Python "
        "module is used:\n  " + "\n  ".join(shown)
    )
    eight = _failure("contract", "contract.py", "\n".join(errors[:8]))
    assert eight.startswith("mypyc refused module contract (8 type error(s)); the pure")
    assert eight.count(": error:") == 8


def test_a_failed_c_build_is_reported_with_the_end_of_its_output() -> None:
    output = "  " + "x" * 1990 + "cc: fatal error: no memory\n\n"
    assert _failure("contract", "contract.py", output) == (
        "the C build of module contract failed; the pure-Python module is used:\n"
        + ("x" * 1990 + "cc: fatal error: no memory")[-2000:]
    )
    assert _failure("contract", "contract.py", " \n") == (
        "the C build of module contract failed; the pure-Python module is used:\n(no output)"
    )


def test_mypyc_compiles_the_module_with_its_types_run_at_import(tmp_path: Path) -> None:
    rendered = compile_rendered({"type": "object", "required": ["a"]}, name="contract")[0]
    text = rendered.text.encode()
    module = tmp_path / "contract.py"
    compiled = _compiled_text(text, "contract", rendered, module)
    assert compiled == mypyc_source(rendered, "contract").encode() and compiled != text
    # without how it was rendered, the module goes to mypy as it stands, for mypy to report
    for broken in (b"\xff\xfe not utf-8", b"def broken(:\n"):
        assert _compiled_text(broken, "contract", None, module) == broken
    # a rendered module that is not the file's text is refused, naming the file
    with pytest.raises(NativeBuildError) as raised:
        _compiled_text(text + b"# edited\n", "contract", rendered, module)
    assert raised.value.message == (
        f"{module}: the module is not the one given as rendered; compile it again, then build it"
    )


# -- the build around the worker ----------------------------------------------------------------


class _Worker:
    """A stand-in for `_run` of worker.py: records the command and its directory, and writes the
    files the worker would (`writes`) under its --lib directory."""

    def __init__(self, status: int | None = 0, output: str = "", writes: tuple[str, ...] = ()):
        self.status, self.output, self.writes = status, output, writes
        self.calls: list[tuple[list[str], Path, float | None]] = []

    def __call__(
        self, command: list[str], directory: Path, timeout: float | None
    ) -> tuple[int | None, str]:
        self.calls.append((command, directory, timeout))
        lib = Path(command[command.index("--lib") + 1])
        package = Path(command[-1]).parent
        for name in self.writes:
            (lib / package).mkdir(parents=True, exist_ok=True)
            (lib / package / name).write_bytes(b"built " + name.encode())
        return self.status, self.output


def test_the_worker_is_given_the_module_in_its_package_layout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    library = "contract__mypyc" + EXTENSION_SUFFIX
    worker = _Worker(writes=("contract" + EXTENSION_SUFFIX, library))
    monkeypatch.setattr(native, "_run", worker)
    work = tmp_path / "work"
    work.mkdir()
    files = _compile(work, "pkg.sub.contract", TEXT, 2, 30.0)
    lib = work / "lib" / "pkg" / "sub"
    assert files == [lib / ("contract" + EXTENSION_SUFFIX), lib / library]
    [(command, directory, timeout)] = worker.calls
    assert directory == work / "src" and timeout == 30.0
    assert command == [
        sys.executable,
        str(Path(native.__file__).with_name("worker.py")),
        "--opt-level",
        "2",
        "--part-bytes",
        str(native.C_PART_BYTES),
        "--build",
        str(work / "build"),
        "--lib",
        str(work / "lib"),
        "pkg/sub/contract.py",
    ]
    source = work / "src"
    assert (source / "mypy.ini").read_text() == "[mypy]\n"
    assert (source / "pkg" / "__init__.py").read_bytes() == b""
    assert (source / "pkg" / "sub" / "__init__.py").read_bytes() == b""
    assert (source / "pkg" / "sub" / "contract.py").read_bytes() == TEXT  # what it was handed


def test_a_top_level_module_builds_its_extension_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    worker = _Worker(writes=("contract" + EXTENSION_SUFFIX,))
    monkeypatch.setattr(native, "_run", worker)
    work = tmp_path / "work"
    work.mkdir()
    assert _compile(work, "contract", TEXT, 3, None) == [
        work / "lib" / ("contract" + EXTENSION_SUFFIX)
    ]
    assert worker.calls[0][0][-1] == "contract.py" and worker.calls[0][2] is None


def test_a_worker_that_fails_or_builds_too_little_is_a_failed_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    extension = "contract" + EXTENSION_SUFFIX
    cases = [
        (_Worker(status=1, output="cc: boom", writes=(extension,)), "contract"),
        (_Worker(status=0, output="cc: nothing"), "contract"),
        (_Worker(status=0, output="cc: no library", writes=(extension,)), "pkg.contract"),
    ]
    for index, (worker, name) in enumerate(cases):
        monkeypatch.setattr(native, "_run", worker)
        work = tmp_path / str(index)
        work.mkdir()
        with pytest.raises(NativeBuildError) as raised:
            _compile(work, name, TEXT, 3, None)
        assert raised.value.message == (
            f"the C build of module {name} failed; the pure-Python module is used:\n"
            + worker.output
        )
    refused = _Worker(status=1, output="pkg/contract.py:3: error: no  [misc]\n")
    monkeypatch.setattr(native, "_run", refused)
    work = tmp_path / "refused"
    work.mkdir()
    with pytest.raises(NativeBuildError) as raised:
        _compile(work, "pkg.contract", TEXT, 3, None)
    assert raised.value.message.endswith(":\n  contract.py:3: error: no  [misc]")
    monkeypatch.setattr(native, "_run", _Worker(status=None))
    work = tmp_path / "late"
    work.mkdir()
    with pytest.raises(NativeBuildError) as raised:
        _compile(work, "pkg.contract", TEXT, 3, 1.5)
    assert raised.value.message == (
        "the native build of module pkg.contract took over 1.5 s and was stopped; the "
        "pure-Python module is used"
    )


@pytest.fixture
def no_toolchain_check(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    checked: list[bool] = []
    monkeypatch.setattr(native, "check_toolchain", lambda: checked.append(True))
    return checked


def test_a_build_installs_what_the_worker_built_with_its_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_toolchain_check: list[bool]
) -> None:
    worker = _Worker(writes=("contract" + EXTENSION_SUFFIX,))
    monkeypatch.setattr(native, "_run", worker)
    module = _module(tmp_path / "out")
    extension = build_native(str(module), opt_level=1, timeout=9.0)
    assert no_toolchain_check == [True]
    assert extension == extension_path(module)
    assert extension.read_bytes() == b"built contract" + EXTENSION_SUFFIX.encode()
    command, _, timeout = worker.calls[0]
    assert command[command.index("--opt-level") + 1] == "1" and timeout == 9.0
    assert native.is_current(module)
    # the build's directory is gone
    work = Path(command[command.index("--lib") + 1]).parent
    assert not work.exists()


def test_a_module_changed_while_it_was_compiled_is_not_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_toolchain_check: list[bool]
) -> None:
    module = _module(tmp_path)

    commands: list[list[str]] = []

    def edit_while_building(
        command: list[str], directory: Path, timeout: float | None
    ) -> tuple[int | None, str]:
        commands.append(command)
        module.write_bytes(TEXT + b"# edited\n")
        return _Worker(writes=("contract" + EXTENSION_SUFFIX,))(command, directory, timeout)

    monkeypatch.setattr(native, "_run", edit_while_building)
    with pytest.raises(NativeBuildError) as raised:
        build_native(module)
    assert raised.value.message == (
        f"{module}: the module changed while it was being compiled; build it again"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["contract.py"]
    # (the defaults: -O3, in a temporary directory named for straightline)
    [command] = commands
    assert command[command.index("--opt-level") + 1] == "3"
    work = Path(command[command.index("--lib") + 1]).parent
    assert work.name.startswith("straightline-native-")


def test_a_rendered_module_is_handed_to_the_worker_as_mypyc_compiles_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_toolchain_check: list[bool]
) -> None:
    """Built with how it was rendered, the worker gets mypyc's text of the module, whose runs at
    import name the module by its own name (not its package's) in their code's file name."""
    rendered = compile_rendered({"type": "object", "required": ["a"]}, name="contract")[0]
    # two packages deep: the name is the last part of outer.pkg.contract, not what follows the
    # first dot
    package = tmp_path / "outer" / "pkg"
    module = _module(package, rendered.text.encode())
    (package / "__init__.py").write_bytes(b"")
    (package.parent / "__init__.py").write_bytes(b"")
    handed: list[bytes] = []

    def worker(
        command: list[str], directory: Path, timeout: float | None
    ) -> tuple[int | None, str]:
        handed.append((directory / command[-1]).read_bytes())
        writes = ("contract" + EXTENSION_SUFFIX, "contract__mypyc" + EXTENSION_SUFFIX)
        return _Worker(writes=writes)(command, directory, timeout)

    monkeypatch.setattr(native, "_run", worker)
    build_native(module, rendered)
    compiled = mypyc_source(rendered, "contract")
    assert handed == [compiled.encode()]
    assert "'<data of contract>'" in compiled and mypyc_source(rendered, "pkg.contract") != compiled
    assert native.dotted_name(module) == "outer.pkg.contract"
    assert native.is_current(module)
    # a file that is no longer the text given as rendered is refused, naming the file
    module.write_bytes(rendered.text.encode() + b"# edited\n")
    with pytest.raises(NativeBuildError) as raised:
        build_native(module, rendered)
    assert raised.value.message.startswith(f"{module}: the module is not the one given")
    assert len(handed) == 1


def test_only_a_module_file_named_as_an_identifier_is_built(
    tmp_path: Path, no_toolchain_check: list[bool]
) -> None:
    for name in ("not-a-name.py", "contract.txt"):
        (tmp_path / name).write_bytes(TEXT)
        with pytest.raises(NativeBuildError) as raised:
            build_native(tmp_path / name)
        assert raised.value.message == (
            f"{tmp_path / name}: a native build needs a module file NAME.py, NAME an identifier"
        )
    (tmp_path / "folder.py").mkdir()
    for missing in ("missing.py", "folder.py"):
        with pytest.raises(NativeBuildError) as raised:
            build_native(tmp_path / missing)
        assert raised.value.message == f"{tmp_path / missing}: not a file"
    assert no_toolchain_check == []  # refused before the toolchain is looked at


# -- the record, and what is read from it -------------------------------------------------------


def _record(extension: Path) -> dict[str, Any]:
    return json.loads(record_path(extension).read_text())  # type: ignore[no-any-return]


def test_the_record_names_the_module_its_files_and_what_built_them(tmp_path: Path) -> None:
    import hashlib

    from mypy.version import __version__ as mypy_version

    module = _module(tmp_path)
    extension = _install(module, TEXT, [b"extension", b"library"])
    library = library_path(module)
    assert extension.read_bytes() == b"extension" and library.read_bytes() == b"library"
    assert extension.stat().st_mode & 0o111 and library.stat().st_mode & 0o111
    assert _record(extension) == {
        "format": "straightline-native/1",
        "module": "contract.py",
        "module_sha256": hashlib.sha256(TEXT).hexdigest(),
        "files": {
            extension.name: hashlib.sha256(b"extension").hexdigest(),
            library.name: hashlib.sha256(b"library").hexdigest(),
        },
        "straightline": generator.__version__,
        "python": sys.implementation.cache_tag,
        "mypy": mypy_version,
    }
    # sorted and indented, as a person reading the file or a diff of it wants it
    text = record_path(extension).read_text()
    assert text == json.dumps(_record(extension), indent=2, sort_keys=True) + "\n"
    assert backend_of(module) == "mypyc"
    c_built = _install(_module(tmp_path / "c"), TEXT, [b"extension"], backend="c")
    fields = _record(c_built)
    assert fields["backend"] == "c" and "mypy" not in fields
    assert backend_of(tmp_path / "c" / "contract.py") == "c"


def test_the_backend_is_read_from_the_record_alone(tmp_path: Path) -> None:
    module = _module(tmp_path)
    assert backend_of(module) is None  # no record
    extension = _install(module, TEXT, [b"extension"], backend="c")
    fields = _record(extension)
    record_path(extension).write_text(json.dumps({**fields, "backend": 3}))
    assert backend_of(module) is None


def test_the_install_writes_the_library_before_the_extension_and_the_record_last(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The extension loads the library, and the record says both are current: an interrupted
    install leaves no extension without its library, and no record of files not yet written."""
    module = _module(tmp_path)
    old = _install(module, TEXT, [b"old extension", b"old library"])
    written: list[str] = []
    write = native.write_atomic

    def recording(path: Path, data: Any, **options: Any) -> None:
        written.append(path.name)
        if path == old:  # interrupted before the new extension is in place
            raise OSError("disk full")
        write(path, data, **options)

    monkeypatch.setattr(native, "write_atomic", recording)
    with pytest.raises(OSError):
        _install(module, TEXT + b"# new\n", [b"new extension", b"new library"])
    assert written == [library_path(module).name, old.name]
    # the old record is gone first: the old extension is not taken for current
    assert not record_path(old).exists() and not native.is_current(module)


def test_removal_takes_what_straightline_built_and_nothing_else(tmp_path: Path) -> None:
    module = _module(tmp_path)
    extension = _install(module, TEXT, [b"extension", b"library"])
    library = library_path(module)
    # a file the record names that is no library of this module stays (it is the user's)
    fields = _record(extension)
    data = tmp_path / "data.json"
    data.write_text("{}")
    other = tmp_path / ("other__mypyc" + EXTENSION_SUFFIX)
    other.write_bytes(b"other")
    fields["files"].update({data.name: "0" * 64, other.name: "0" * 64})
    record_path(extension).write_text(json.dumps(fields))
    foreign = tmp_path / "contract.abi3.so"
    foreign.write_bytes(b"not ours")
    assert remove_native(module) == [extension]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["contract.py", data.name, other.name, foreign.name]
    )
    assert not library.exists() and not record_path(extension).exists()


def test_removal_may_keep_the_current_extension(tmp_path: Path) -> None:
    module = _module(tmp_path)
    extension = _install(module, TEXT, [b"extension"])
    assert remove_native(module, keep_current=True) == []
    assert remove_native(module) == [extension]  # by default, current or not
    extension = _install(module, TEXT, [b"extension"])
    assert remove_native(module, keep_current=True) == []
    assert extension.exists() and record_path(extension).exists()
    module.write_bytes(TEXT + b"# edited\n")  # no longer current: removed either way
    assert remove_native(module, keep_current=True) == [extension]
    assert not extension.exists() and not record_path(extension).exists()


def test_a_library_already_gone_is_no_error_on_removal(tmp_path: Path) -> None:
    module = _module(tmp_path)
    extension = _install(module, TEXT, [b"extension", b"library"])
    library_path(module).unlink()
    assert remove_native(module) == [extension]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["contract.py"]


def test_an_extension_with_an_unreadable_record_is_removed(tmp_path: Path) -> None:
    module = _module(tmp_path)
    extension = _install(module, TEXT, [b"extension"])
    record_path(extension).write_text("not json")
    assert remove_native(module) == [extension]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["contract.py"]


def test_a_package_takes_the_current_extension_and_its_library(tmp_path: Path) -> None:
    module = _module(tmp_path)
    assert built_files(module) == []
    extension = _install(module, TEXT, [b"extension", b"library"])
    assert built_files(module) == [extension, library_path(module)]
    module.write_bytes(TEXT + b"# edited\n")
    assert built_files(module) == []


def _assert_stopped(pid: int) -> None:
    """The process `pid` ends within 10 s: gone, or a zombie until whoever adopted it reaps it."""
    child = Path(f"/proc/{pid}/stat")
    for _ in range(200):
        try:
            if child.read_text().rpartition(")")[2].split()[0] == "Z":
                return
        except OSError:
            return
        time.sleep(0.05)
    raise AssertionError(f"the worker's child {child} still runs")
