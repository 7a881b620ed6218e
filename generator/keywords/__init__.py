"""The keywords, one unit per vocabulary family, each declaring in one place which profiles and
drafts know a keyword, its preflight check, its lowering, its IR check, its cost, its fast and
error code (the reference interpreter reads keywords by its own tables, generator/reference/):

- any_instance: type, enum, const          - numbers: minimum, maximum, exclusive*, multipleOf
- strings: minLength, maxLength, pattern   - arrays: items, prefixItems, contains, minItems, ...
- objects: properties, required, additionalProperties, patternProperties, ...
- dependent_required: dependentRequired (dependencies' array form reads as it)
- applicators: allOf, anyOf, oneOf, not, if/then/else
- refs: $ref, $dynamicRef, $recursiveRef   - unevaluated: unevaluatedProperties/Items
- annotations: $schema, $id, $defs, title, ... (never checks)

registry.py collects them into one KeywordTables (base.py). Only the pipeline imports the
registry; it hands the tables to the stages, which import neither it nor a unit.
"""
