"""ECMA-262 regular expressions for `pattern` and `patternProperties`: parsed and translated
exactly into Python `re` syntax (ecma), or refused with the offending position; and, for patterns
whose backtracking could take super-linear time (risk), a linear-time matcher compiled into
plain tables (nfa, automaton, matcher), chosen per pattern by plan_pattern (plan)."""

from .ecma import MAX_NESTING, RegexTranslationError, compile_pattern, translate
from .plan import MATCHER_FUNCTIONS, PatternPlan, matcher_sources, plan_pattern, plan_search
from .risk import Risk, assess_risk

__all__ = [
    "MAX_NESTING",
    "RegexTranslationError",
    "compile_pattern",
    "translate",
    "MATCHER_FUNCTIONS",
    "PatternPlan",
    "matcher_sources",
    "plan_pattern",
    "plan_search",
    "Risk",
    "assess_risk",
]
