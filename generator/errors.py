"""The typed errors of the compiler: every rejected schema or option ends up as one of these."""

from __future__ import annotations

from typing import Callable


def shown_pointer(pointer: str) -> str:
    """A JSON pointer as a message shows it: the whole document (pointer "") as `(root)`, since
    `/` is the pointer of the member named "" (the command line and `straightline validate` alike).
    """
    return pointer or "(root)"


class Terminated(SystemExit):
    """SIGTERM, raised by the command's handler (its code 128 + the signal's number): it ends the
    command, and is never taken for a record's problem, as a custom format function's own
    SystemExit is."""


def _restored(cls: type[BaseException], args: tuple[object, ...]) -> BaseException:
    """An error unpickled: made without __init__ (whose arguments are not its args), then given
    its attributes back by pickle."""
    return cls.__new__(cls, *args)


class StraightlineError(Exception):
    """Base of every error straightline reports to a user (never a bare traceback)."""

    code: str = "error"

    def __reduce__(self) -> tuple[object, ...]:
        # (pickled for worker processes, dask and multiprocessing)
        return (_restored, (type(self), self.args), self.__dict__)

    def __init__(self, message: str, *, code: str | None = None, pointer: str = "") -> None:
        if code is not None:
            self.code = code
        self.pointer = pointer
        self.message = message
        super().__init__(self.__str__())

    def __str__(self) -> str:
        return f"{shown_pointer(self.pointer)}: {self.message} [{self.code}]"


class SchemaError(StraightlineError):
    """A schema was rejected. `.code` is stable (see CODES), `.pointer` is a JSON pointer into the
    schema (for a problem in another document a $ref reached, a registry's file, that document's
    URI with the pointer as its fragment: `https://example.com/item.json#/properties/n`),
    `.message` is a sentence for a person. `.errors` lists every problem found: the error itself
    alone, or each of several found together (every unresolvable reference of a schema, say);
    then `.code` and `.pointer` are the first one's and `.message` names them all."""

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        pointer: str = "",
        errors: tuple[SchemaError, ...] = (),
        what: str = "problems",
    ) -> None:
        super().__init__(message, code=code, pointer=pointer)
        self.errors: tuple[SchemaError, ...] = errors or (self,)
        self.what = what  # what the listed errors are, for the message of a combined one

    @classmethod
    def combine(cls, errors: list[SchemaError], what: str = "problems") -> SchemaError:
        """One SchemaError for several problems (each kept whole in `.errors`; `what` names them
        in the message), or the only one."""
        unique = list({(e.pointer, e.code, e.message): e for e in errors}.values())
        if len(unique) == 1:
            return unique[0]
        first = unique[0]
        listed = "; ".join(f"{shown_pointer(e.pointer)}: {e.message}" for e in unique)
        return cls(
            f"{len(unique)} {what}: {listed}",
            code=first.code,
            pointer=first.pointer,
            errors=tuple(unique),
            what=what,
        )

    def under(self, prefix: str) -> SchemaError:
        """The same error with `prefix` before every pointer into this document (a tool
        contract's `/input`); a location in another document (in_document) stays as it is."""
        return self._moved(lambda pointer: prefix + pointer if is_local(pointer) else pointer)

    def in_document(self, uri: str) -> SchemaError:
        """The same error found in another document, one a $ref reached (a registry's file):
        each pointer becomes that document's URI with the pointer as its fragment, so a message
        never names a place in the compiled file that is not there."""
        return self._moved(lambda pointer: f"{uri}#{pointer}" if is_local(pointer) else pointer)

    def _moved(self, move: Callable[[str], str]) -> SchemaError:
        if len(self.errors) == 1:
            return SchemaError(self.message, code=self.code, pointer=move(self.pointer))
        moved = [SchemaError(e.message, code=e.code, pointer=move(e.pointer)) for e in self.errors]
        return SchemaError.combine(moved, self.what)


def is_local(pointer: str) -> bool:
    """Whether an error's location is a JSON pointer into the compiled document (not a URI)."""
    return pointer == "" or pointer.startswith("/")


class OptionError(StraightlineError, ValueError):
    """An option passed to the compiler (profile, limits, ...) is not acceptable."""

    code = "bad-option"


class SchemaWarning(UserWarning):
    """A schema compiles, but something in it is probably a mistake (a keyword the draft does not
    know, a profile that overrides `$schema`). Same fields as a SchemaError; `several`, where
    given, says the same of a number of them, after that number (`unknown keywords 'deprecated'
    (...): draft7 ignores them`): the command line says warnings with one message once, counted."""

    def __init__(
        self, message: str, *, code: str, pointer: str = "", several: str | None = None
    ) -> None:
        self.code = code
        self.pointer = pointer
        self.message = message
        self.several = several
        super().__init__(f"{shown_pointer(pointer)}: {message} [{code}]")

    def __reduce__(self) -> tuple[object, ...]:
        return (_restored, (type(self), self.args), self.__dict__)


class ConfigError(StraightlineError):
    """The project configuration ([tool.straightline] in pyproject.toml) is missing or wrong;
    the message names the file and the key."""

    code = "bad-config"


# The stable codes a SchemaError may carry.
CODES = {
    "bad-json": "the schema source is not valid JSON (syntax, encoding, duplicate keys, NaN/Infinity)",
    "unreadable": "the schema source cannot be read: missing, no permission, a directory or special "
    "file, or YAML without PyYAML installed",
    "not-a-schema": "a value where a schema is expected is neither an object nor a boolean",
    "keyword-not-in-profile": "a keyword outside the chosen profile (fail-closed profiles only)",
    "bad-keyword-value": "a keyword's value has the wrong type or an impossible value",
    "limit-exceeded": "a profile limit (source size, nesting, properties, enum values) was hit",
    "bad-regex": "a pattern is not valid ECMA-262 or cannot be translated exactly to Python re",
    "unresolvable-ref": "a $ref that does not resolve in the registry",
    "ref-cycle": "references that loop back without consuming input (validation would never end): "
    "refused by the strict and seed profiles, a warning in the draft profiles",
    "bad-contract": "a tool contract file is malformed (unknown key, missing input/output/name)",
    "unknown-profile": "the profile named (or implied by $schema) does not exist",
    "unknown-keyword": "a keyword the draft in force does not know (with unknown_keywords='error')",
    "unsafe-regex": "a pattern whose backtracking can take super-linear time and that no linear-time "
    "engine runs (a risky look-around or back-reference, or an automaton too large): "
    "strict refuses it, the drafts with unsafe_patterns='error'",
    "unknown-format": "a format asserted but not known in the draft in force (with unknown_formats='error')",
}


def escape_pointer_token(token: str) -> str:
    """One reference token of a JSON pointer (RFC 6901)."""
    if "~" not in token and "/" not in token:
        return token
    return token.replace("~", "~0").replace("/", "~1")


def join_pointer(base: str, *tokens: str | int) -> str:
    if len(tokens) == 1:  # (the common case, on every keyword of every schema: kept quick)
        return base + "/" + escape_pointer_token(str(tokens[0]))
    return base + "".join("/" + escape_pointer_token(str(t)) for t in tokens)
