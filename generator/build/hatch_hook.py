"""The hatch build hook `straightline`: with `[tool.hatch.build.hooks.straightline]` in a
project's pyproject.toml (and straightline in its build-system requires), building the project
compiles its contracts ([tool.straightline]) into the source tree and includes the modules in
the wheel and sdist, even where .gitignore leaves generated files out. With `native = true` the
native modules (generator/native) are built and included too, and the wheel is tagged for the
interpreter and platform that built them.

Registered in straightline's own metadata: entry point group `hatch`, name `straightline`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface
from hatchling.plugin import hookimpl

from . import compile_for_build, is_native


class StraightlineBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "straightline"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Compile, then list every written file as a build artifact (included whatever the
        VCS ignores; anchored at the project root, with glob characters escaped)."""
        root = Path(self.root)
        written = compile_for_build(root)
        for path in written:
            if is_native(path) and self.target_name != "wheel":
                continue  # a native module is for the wheel: an sdist is built again where installed
            relative = path.resolve().relative_to(root.resolve()).as_posix()
            build_data.setdefault("artifacts", []).append("/" + _escape_pattern(relative))
        if self.target_name == "wheel" and any(is_native(path) for path in written):
            # native modules (native = true): the wheel is for this interpreter and platform
            build_data["pure_python"] = False
            build_data["infer_tag"] = True


def _escape_pattern(path: str) -> str:
    """A path as a gitignore pattern that matches only itself."""
    return "".join("\\" + c if c in "*?[]!#\\ " else c for c in path)


@hookimpl
def hatch_register_build_hook() -> type[BuildHookInterface]:  # type: ignore[type-arg]
    return StraightlineBuildHook
