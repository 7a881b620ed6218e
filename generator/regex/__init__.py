"""ECMA-262 regular expressions for `pattern` and `patternProperties`: parsed and translated
exactly into Python `re` syntax (ecma), or refused with the offending position."""

from .ecma import MAX_NESTING, RegexTranslationError, compile_pattern, translate

__all__ = ["MAX_NESTING", "RegexTranslationError", "compile_pattern", "translate"]
