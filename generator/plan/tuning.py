"""The tuning constants of the generated code's shape, in one place: each trades module size and
compile time against speed on the benchmark's schemas (bench/README.md); the measurements behind
them are in docs/performance.md, "Measurements behind the rules"."""

# A subschema of a property or item is checked in place (no call) up to this nesting depth of
# inlined copies, when it has at most this many checks; a leaf (no subschemas) at any depth.
INLINE_DEPTH = 4
INLINE_CHECKS = 6

# A subschema used in many places is one shared function once its copies would exceed this many
# IR units (checks and subschemas, a rough measure of emitted lines): FHIR's `extension` array is
# in 656 definitions, and a copy in each would make the module, and its import, much larger.
COPY_BUDGET = 256

# An object schema with this many checked properties is validated by a loop over the instance's
# names through a table (one lookup per present name instead of a test per declared one). Below it,
# by name: that is faster where most declared names are present and where the properties' checks
# are small enough to run in place (the table calls a function per name); the table wins where few
# are present and most are references anyway.
PROPERTY_TABLE = 14
# Up to this many required names (or all the names of a closed object that requires each) are
# tested one by one, `"a" not in x or ...` (with the object's size), and more as a keys view
# compared with a set: the tests are faster in CPython, and the view's comparison is a generic
# call in a native module.
NAME_TESTS = 32
# The error path looks properties up in a table from this many (its code stays small).
ERROR_TABLE = 3

# An array of leaf items with a minItems of 1 to UNROLL_ITEMS (a point's coordinates) is unpacked
# at that length, when the item's checks repeated that often stay within UNROLL_LINES lines.
UNROLL_ITEMS = 4
UNROLL_LINES = 16

# Plain references followed at compile time before giving up (a longer chain is called as it is).
REF_CHAIN = 64

# A type test against this many exact types is one set lookup instead of a chain of `is` tests.
TYPE_SET = 3
