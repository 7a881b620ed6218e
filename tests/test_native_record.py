"""The native stale check (generator/native: `native_modules`, `is_current`): an extension is used
only while its record says it was built from the module's current text and its files are the
bytes that build wrote. No mypyc build is needed: the record is written by the build's own
installer over stand-in bytes, which is all the check reads."""

from __future__ import annotations

from pathlib import Path

from generator.native import _install, extension_path, is_current, native_modules, record_path

MODULE_TEXT = b"def is_valid(x):\n    return True\n"


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
