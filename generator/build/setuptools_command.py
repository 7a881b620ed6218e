"""A setuptools `build_py` that compiles the project's contracts ([tool.straightline]) first,
so the generated modules are built into the wheel like any other module. Use it from
pyproject.toml (no setup.py needed):

    [tool.setuptools.cmdclass]
    build_py = "generator.build.setuptools_command.build_py"

or `setup(cmdclass={"build_py": build_py})` in setup.py. The output package (`out`) must lie
inside a package of the distribution's package directories (`package-dir`); it is added to the
packages built when discovery ran before it existed."""

from __future__ import annotations

from pathlib import Path

from setuptools.command.build_py import build_py as _build_py

from . import compile_for_build


class build_py(_build_py):  # noqa: N801 (the name setuptools' command has)
    packages: list[str] | None  # (build_py's own, set by finalize_options: typed for mypy)

    def run(self) -> None:
        root = Path(self.distribution.src_root or ".").resolve()
        written = compile_for_build(root)
        packages: list[str] = list(
            self.packages or []
        )  # (build_py's own list, set by finalize_options)
        for directory in sorted({path.parent for path in written}):
            name = package_name(directory.resolve(), root, dict(self.package_dir or {}))
            if name is not None and name not in packages:
                packages.append(name)
        self.packages = packages
        super().run()


def package_name(directory: Path, root: Path, package_dir: dict[str, str]) -> str | None:
    """The dotted package name setuptools gives `directory`, following `package_dir` (longest
    mapped directory first; "" maps the root package directory)."""
    mapping = {prefix: (root / folder).resolve() for prefix, folder in package_dir.items()}
    mapping.setdefault("", root)
    for prefix, base in sorted(mapping.items(), key=lambda item: len(item[1].parts), reverse=True):
        if directory == base and prefix:
            return prefix
        if directory.is_relative_to(base) and directory != base:
            parts = directory.relative_to(base).parts
            return ".".join(([prefix] if prefix else []) + list(parts))
    return None
