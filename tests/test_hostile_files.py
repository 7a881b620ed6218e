"""Hostile files and output (GitHub-style issue 15, items 6 and 7): registry directories with
unusable entries, special files as sources, left-over temporary files, forged output lines,
malformed `$anchor` and `$id` values. Nothing may hang, print a traceback, or pick silently."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

import generator
from generator import load
from generator.cli import main
from generator.cli.files import printable
from generator.files import remove_stale_temporaries, write_atomic
from generator.resolve import RegistryProblem, RegistryWarning, load_registry_directory

from .bounded import bounded


def _registry(tmp_path: Path) -> Path:
    """good.json, bad.json (not JSON), x.json (a directory), fifo.json (a FIFO), two files with
    one $id, and unread.json (made unreadable by the tests that need it)."""
    root = tmp_path / "registry"
    root.mkdir()
    (root / "good.json").write_text('{"$id": "urn:good", "type": "integer"}', encoding="utf-8")
    (root / "bad.json").write_text("{not json", encoding="utf-8")
    (root / "x.json").mkdir()
    os.mkfifo(root / "fifo.json")
    (root / "one.json").write_text('{"$id": "urn:twice", "type": "string"}', encoding="utf-8")
    (root / "two.json").write_text('{"$id": "urn:twice", "type": "integer"}', encoding="utf-8")
    (root / "unread.json").write_text('{"type": "null"}', encoding="utf-8")
    return root


def _compile_against(root: Path, ref: str) -> Any:
    """Compile {"$ref": ref} beside the registry; the SchemaError's (code, pointer, message), or
    the module's verdict on 1, and the RegistryWarnings said."""
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        try:
            module = generator.compile_module(
                {"$ref": ref},
                registry=str(root),
                format=False,
                base_uri=(root / "main.json").as_uri(),
            )
            answer: Any = module.is_valid(1)
        except generator.SchemaError as error:
            answer = (error.code, error.pointer, error.message)
    return answer, sorted({str(w.message) for w in said if issubclass(w.category, RegistryWarning)})


def test_unusable_registry_entries_are_warnings_and_unrelated_compiles_go_on(
    tmp_path: Path,
) -> None:
    root = _registry(tmp_path)
    outcome = bounded(_compile_against, root, "good.json")
    assert outcome.kind is None, outcome.trace
    answer, said = outcome.value
    assert answer is True
    assert any(f"{root / 'bad.json'}: the registry file is not valid JSON" in w for w in said)
    assert any(
        f"{root / 'x.json'}: cannot read it: a directory, not a regular file" in w for w in said
    )
    assert any(
        f"{root / 'fifo.json'}: cannot read it: a FIFO, not a regular file" in w for w in said
    )
    assert any(
        f"$id 'urn:twice' is declared by 2 registry files: {root / 'one.json'}, {root / 'two.json'}"
        in w
        for w in said
    )


@pytest.mark.parametrize(
    "ref, named, why",
    [
        ("bad.json", "bad.json", "not valid JSON"),
        ("x.json", "x.json", "a directory, not a regular file"),
        ("fifo.json", "fifo.json", "a FIFO, not a regular file"),
        ("urn:twice", "one.json", "is ambiguous: $id 'urn:twice' is declared by 2 registry files"),
    ],
)
def test_a_reference_to_an_unusable_registry_entry_is_an_error_naming_it(
    tmp_path: Path, ref: str, named: str, why: str
) -> None:
    root = _registry(tmp_path)
    outcome = bounded(_compile_against, root, ref)
    assert outcome.kind is None, outcome.trace
    (code, pointer, message), _ = outcome.value
    assert (code, pointer) == ("unresolvable-ref", "/$ref")
    assert str(root / named) in message and why in message


def test_an_unreadable_registry_file_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _registry(tmp_path)
    real = load.read_regular

    def refuse(path: Any, limit: int | None = None) -> bytes:
        if Path(path).name == "unread.json":
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, limit)

    monkeypatch.setattr(load, "read_regular", refuse)  # (tests run as root: chmod would not do)
    answer, said = _compile_against(root, "unread.json")
    assert answer[:2] == ("unresolvable-ref", "/$ref")
    assert (
        f"registry file {root / 'unread.json'}, which cannot be used: cannot read it: Permission denied"
        in answer[2]
    )
    assert any(f"{root / 'unread.json'}: cannot read it: Permission denied" in w for w in said)


def test_the_registry_mapping_holds_problems_under_every_name_of_the_file(tmp_path: Path) -> None:
    root = _registry(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mapping = load_registry_directory(root, base_uri="http://example.com/schemas/")
    assert isinstance(mapping["http://example.com/schemas/bad.json"], RegistryProblem)
    assert isinstance(mapping[(root / "bad.json").resolve().as_uri()], RegistryProblem)
    assert mapping["urn:good"] == {"$id": "urn:good", "type": "integer"}
    assert (
        mapping[(root / "one.json").resolve().as_uri()]["type"] == "string"
    )  # each file still by path
    assert mapping["urn:twice"].files == (str(root / "one.json"), str(root / "two.json"))


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    process = subprocess.run(
        [sys.executable, "-m", "generator", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Traceback" not in process.stderr, process.stderr
    return process


def test_the_cli_warns_once_and_fails_only_the_source_that_references_a_bad_file(
    tmp_path: Path,
) -> None:
    root = _registry(tmp_path)
    (tmp_path / "ok.json").write_text('{"type": "string"}', encoding="utf-8")
    (tmp_path / "uses_bad.json").write_text('{"$ref": "registry/bad.json"}', encoding="utf-8")
    process = _cli(
        "compile", "ok.json", "uses_bad.json", "--registry", str(root), "--out", "out", cwd=tmp_path
    )
    assert process.returncode == 1
    assert (tmp_path / "out" / "ok.py").is_file() and not (
        tmp_path / "out" / "uses_bad.py"
    ).exists()
    lines = process.stderr.splitlines()
    assert (
        sum(
            "warning: " in line and "bad.json: the registry file is not valid JSON" in line
            for line in lines
        )
        == 1
    )
    assert any(
        line.startswith("uses_bad.json:/$ref: $ref 'registry/bad.json' names registry file")
        for line in lines
    ), process.stderr


def test_a_fifo_as_source_is_refused_at_once(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.json")
    for command in (
        ["compile", "pipe.json", "--out", "out"],
        ["check", "pipe.json", "--out", "out"],
        ["preflight", "pipe.json"],
    ):
        process = _cli(*command, cwd=tmp_path)  # (a blocking open would hit the timeout)
        assert process.returncode == 1
        assert (
            "pipe.json:(root): cannot read pipe.json: a FIFO, not a regular file [unreadable]"
            in process.stderr
        )
    with pytest.raises(generator.SchemaError, match="a directory, not a regular file"):
        load.read_source(str(tmp_path))


def test_a_fifo_in_place_of_a_module_does_not_block_check(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text('{"type": "string"}', encoding="utf-8")
    (tmp_path / "out").mkdir()
    os.mkfifo(tmp_path / "out" / "a.py")
    process = _cli(
        "check", "a.json", "--out", "out", cwd=tmp_path
    )  # (a timeout would catch a block)
    assert process.returncode == 1 and "out/a.py: not a module straightline wrote" in process.stderr


# -- left-over temporary files ------------------------------------------------------------------
def _temporary(out: Path, name: str, age: float) -> Path:
    path = out / name
    path.write_text("half a module", encoding="utf-8")
    then = time.time() - age
    os.utime(path, (then, then))
    return path


def test_a_later_compile_removes_stale_temporaries_of_its_target_only(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    stale = _temporary(out, ".a.py.k9x_2abc.tmp", 3600)  # a writer killed an hour ago
    fresh = _temporary(out, ".a.py.fresh123.tmp", 0)  # just created: its writer may lock it yet
    other = _temporary(out, ".b.py.k9x_2abc.tmp", 3600)  # another target's
    unrelated = _temporary(out, ".a.py.notours.tmp.bak", 3600)
    (tmp_path / "a.json").write_text('{"type": "string"}', encoding="utf-8")
    assert main(["compile", str(tmp_path / "a.json"), "--out", str(out)]) == 0
    assert not stale.exists()
    assert fresh.exists() and other.exists() and unrelated.exists()


def test_a_temporary_locked_by_a_live_writer_is_kept(tmp_path: Path) -> None:
    target = tmp_path / "a.py"
    held = _temporary(tmp_path, ".a.py.livewrit.tmp", 3600)
    writer = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import fcntl, sys, time\n"
                f"f = open({str(held)!r}, 'rb')\n"
                "fcntl.flock(f.fileno(), fcntl.LOCK_EX)\n"
                "print('locked', flush=True)\n"
                "sys.stdin.readline()\n"
            ),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert writer.stdout is not None and writer.stdout.readline().strip() == "locked"
        assert remove_stale_temporaries(target) == [] and held.exists()
        write_atomic(target, "x = 1\n")  # a concurrent write of the same target is not disturbed
        assert held.exists() and target.read_text(encoding="utf-8") == "x = 1\n"
    finally:
        writer.communicate("done\n", timeout=30)
    assert remove_stale_temporaries(target) == [held] and not held.exists()


def test_a_temporary_that_changes_under_the_clean_up_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between listing a left-over temporary file and removing it, another process may remove
    it, replace it or lock it: the clean-up then leaves it and the write goes on."""
    target = tmp_path / "a.py"
    assert remove_stale_temporaries(tmp_path / "absent" / "a.py") == []  # no directory to list
    stale = _temporary(tmp_path, ".a.py.k9x_2abc.tmp", 3600)
    real_open, real_lstat, real_unlink = os.open, os.lstat, os.unlink

    def gone(path: Any, *args: Any) -> int:
        if Path(path) == stale:
            raise FileNotFoundError(2, "No such file or directory")
        return real_open(path, *args)

    monkeypatch.setattr(os, "open", gone)
    assert remove_stale_temporaries(target) == [] and stale.exists()
    monkeypatch.setattr(os, "open", real_open)
    looked = 0

    def replaced(path: Any, *args: Any) -> os.stat_result:
        nonlocal looked
        if Path(path) == stale:
            looked += 1
            if looked == 2:  # (the look after it was opened: another file by now)
                return real_lstat(tmp_path)
        return real_lstat(path, *args)

    monkeypatch.setattr(os, "lstat", replaced)
    assert remove_stale_temporaries(target) == [] and stale.exists()
    monkeypatch.setattr(os, "lstat", real_lstat)

    def busy(path: Any, *args: Any) -> None:
        if Path(path) == stale:
            raise PermissionError(13, "Permission denied")
        real_unlink(path, *args)

    monkeypatch.setattr(os, "unlink", busy)
    assert remove_stale_temporaries(target) == [] and stale.exists()
    monkeypatch.setattr(os, "unlink", real_unlink)
    assert remove_stale_temporaries(target) == [stale] and not stale.exists()


def test_without_flock_writes_are_still_atomic_and_nothing_is_cleaned_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where there is no fcntl (Windows): the file is renamed once closed, and left-over
    temporaries are left, since a live writer's cannot be told from a dead one's."""
    import generator.files

    monkeypatch.setattr(generator.files, "fcntl", None)
    stale = _temporary(tmp_path, ".a.py.k9x_2abc.tmp", 3600)
    write_atomic(tmp_path / "a.py", "x = 1\n")
    assert (tmp_path / "a.py").read_text(encoding="utf-8") == "x = 1\n" and stale.exists()
    assert remove_stale_temporaries(tmp_path / "a.py") == []


def test_the_umask_is_read_without_proc_as_well(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without /proc (macOS), the umask is set and set back to read it."""
    import generator.files

    from_proc = generator.files._umask()

    def no_proc(*args: Any, **kwargs: Any) -> Any:
        raise FileNotFoundError(2, "No such file or directory", "/proc/self/status")

    monkeypatch.setattr(generator.files, "open", no_proc, raising=False)
    assert generator.files._umask() == from_proc
    monkeypatch.undo()
    assert generator.files._umask() == from_proc  # (set back as it was)


def test_concurrent_writes_of_one_target_all_succeed_and_leave_nothing(tmp_path: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    target = tmp_path / "a.py"
    texts = [f"x = {i}\n" for i in range(40)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(lambda text: write_atomic(target, text), texts))
    assert target.read_text(encoding="utf-8") in texts
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.py"]
    assert fcntl is not None


# -- forged output lines ------------------------------------------------------------------------
def test_printable_escapes_every_line_breaking_or_terminal_controlling_character() -> None:
    assert printable("a\nb\rc\x1b[31md\x00e\x85f\u2028g\u2029h\u202ei\ud800j\tk") == (
        "a\\nb\\rc\\x1b[31md\\x00e\\x85f\\u2028g\\u2029h\\u202ei\\ud800j\\tk"
    )
    assert printable("plain é 名前 C:\\path") == "plain é 名前 C:\\path"


def test_a_schema_cannot_forge_lines_of_cli_output(tmp_path: Path) -> None:
    forged = "x\nother.json:/: all good [fake]\x1b[2K\u2028"
    schema = (
        '{"type": "object", "properties": {'
        + generator.values.dumps_exact(forged)
        + ': {"minimum": "1"}}}'
    )
    (tmp_path / "evil.json").write_text(schema, encoding="utf-8")
    process = _cli("compile", "evil.json", "--out", "out", cwd=tmp_path)
    assert process.returncode == 1
    assert (
        process.stderr.count("\n") == 1
        and "\x1b" not in process.stderr
        and "\u2028" not in process.stderr
    )
    assert process.stderr.startswith(
        "evil.json:/properties/x\\nother.json:~1: all good [fake]\\x1b[2K\\u2028/minimum:"
    )


def test_a_file_name_cannot_forge_lines_either(tmp_path: Path) -> None:
    name = "a\nforged -> line.json"
    (tmp_path / name).write_text('{"type": "string"}', encoding="utf-8")
    process = _cli("compile", name, "--out", "out", cwd=tmp_path)
    assert process.returncode == 0 and process.stdout.count("\n") == 1
    assert process.stdout.startswith("a\\nforged -> line.json -> ")


# -- $anchor and $id, exactly per draft -----------------------------------------------------------
@pytest.mark.parametrize(
    "draft, schema, pointer",
    [
        ("draft2020-12", {"$defs": {"a": {"$anchor": "1bad"}}}, "/$defs/a/$anchor"),
        ("draft2020-12", {"$anchor": "a b"}, "/$anchor"),
        ("draft2020-12", {"$anchor": ""}, "/$anchor"),
        ("draft2020-12", {"$anchor": "a:b"}, "/$anchor"),  # a colon: 2019-09 only
        ("draft2020-12", {"$dynamicAnchor": "-x"}, "/$dynamicAnchor"),
        ("draft2019-09", {"$anchor": "_a"}, "/$anchor"),  # an underscore first: 2020-12 only
        ("draft2020-12", {"$id": "http://example.com/a#name"}, "/$id"),
        ("draft2020-12", {"$defs": {"a": {"$id": "#name"}}}, "/$defs/a/$id"),
        ("draft2019-09", {"$id": "http://example.com/a#/b"}, "/$id"),
        ("draft7", {"$id": "#1bad"}, "/$id"),
        ("draft6", {"$id": "http://example.com/a#a b"}, "/$id"),
        ("strict", {"$id": "https://example.com/a#frag"}, "/$id"),
    ],
)
def test_malformed_anchors_and_ids_are_refused(draft: str, schema: Any, pointer: str) -> None:
    with pytest.raises(generator.SchemaError) as raised:
        generator.compile_source(schema, profile=draft, format=False)
    assert (raised.value.code, raised.value.pointer) == ("bad-keyword-value", pointer)


@pytest.mark.parametrize(
    "draft, schema",
    [
        ("draft2020-12", {"$anchor": "_a.b-c9", "$dynamicAnchor": "Z"}),
        ("draft2019-09", {"$anchor": "a:b.c-d_9"}),
        ("draft2020-12", {"$id": "http://example.com/a#"}),  # an empty fragment is allowed
        ("draft7", {"definitions": {"a": {"$id": "#foo:bar.baz-1_"}}}),
        ("draft6", {"$id": "http://example.com/a#name"}),
        ("draft4", {"id": "#1"}),  # draft 4 states no form for the name
        # a JSON pointer fragment names nothing in drafts 6 and 7 (issue 11: public schemas have it)
        ("draft7", {"definitions": {"a": {"$id": "#/definitions/a"}}}),
        ("draft6", {"properties": {"a": {"$id": "http://example.com/a.json#/properties/a"}}}),
    ],
)
def test_well_formed_anchors_and_ids_are_accepted(draft: str, schema: Any) -> None:
    generator.compile_source(schema, profile=draft, format=False)


# A compile whose write stops after the temporary file is written (os.fsync made to wait), so a
# signal can be sent at exactly the moment a half-written module could be left behind.
_STOPPED_IN_A_WRITE = """
import os, sys, time

def waiting_fsync(fd):
    print("writing", flush=True)
    time.sleep(120)

os.fsync = waiting_fsync
from generator.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("signal_name", ["SIGTERM", "SIGINT"])
def test_a_compile_stopped_by_a_signal_in_mid_write_leaves_no_file(
    tmp_path: Path, signal_name: str
) -> None:
    """SIGTERM (timeout, a cancelled CI job, kill) and Ctrl-C in the middle of writing a module:
    the command exits at once (143 or 130) without a traceback, and neither the module nor its
    temporary file is left (SIGTERM's default action would have left the temporary file, which a
    build hook's package then includes)."""
    import signal

    (tmp_path / "a.json").write_text('{"type": "string"}', encoding="utf-8")
    command = [sys.executable, "-c", _STOPPED_IN_A_WRITE, "compile", "a.json", "--out", "out"]

    def as_from_a_terminal() -> None:
        # a job a shell starts in the background inherits SIGINT ignored, and Python then leaves
        # it ignored: the command is started as from a terminal, where Ctrl-C reaches it
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    with subprocess.Popen(
        command,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=as_from_a_terminal,
    ) as proc:
        assert proc.stdout is not None
        assert (
            proc.stdout.readline() == "writing\n"
        )  # the temporary file is written, not yet renamed
        assert [p.name for p in (tmp_path / "out").iterdir()][0].endswith(".tmp")
        proc.send_signal(getattr(signal, signal_name))
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == (143 if signal_name == "SIGTERM" else 130), (proc.returncode, err)
    assert "Traceback" not in err, err
    assert list((tmp_path / "out").iterdir()) == []


def test_a_reader_gone_is_told_apart_from_a_lost_output(monkeypatch: pytest.MonkeyPatch) -> None:
    """say() on standard output: a closed pipe stays BrokenPipeError (the command then stops
    quietly), any other write error is OutputLost (the command says the report is incomplete)."""
    from generator.cli.files import OutputLost, say

    class Failing:
        def __init__(self, error: OSError) -> None:
            self.error = error

        def write(self, text: str) -> int:
            raise self.error

        def flush(self) -> None:
            pass

    monkeypatch.setattr(sys, "stdout", Failing(BrokenPipeError(32, "Broken pipe")))
    with pytest.raises(BrokenPipeError):
        say("a line")
    monkeypatch.setattr(sys, "stdout", Failing(OSError(28, "No space left on device")))
    with pytest.raises(OutputLost, match="No space left on device"):
        say("a line")
