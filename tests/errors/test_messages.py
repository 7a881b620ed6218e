"""The message templates the keyword units declare (MESSAGES, emit/context.py "errors"): one
place per name, well formed, each filled by the generated code and the reference alike."""

from __future__ import annotations

import re

from generator.keywords import registry


def test_each_message_is_declared_by_one_unit() -> None:
    names = [name for unit in registry.UNITS for name in unit.MESSAGES]
    assert len(names) == len(set(names)) == len(registry.TABLES.messages)


def test_templates_are_fixed_text_with_named_placeholders() -> None:
    for name, template in registry.TABLES.messages.items():
        assert re.fullmatch(r"[a-zA-Z]+(\.[a-z]+)?", name), name
        assert template.isascii() and template == template.strip(), name
        text = re.sub(r"\{[A-Za-z]+\}", "", template)
        assert "{" not in text and "}" not in text, name
        assert re.findall(r"\{([A-Za-z]+)\}", template), name  # each names what failed


def test_a_keyword_with_several_messages_names_them_after_it() -> None:
    """`oneOf.several`, `contains.few`: a variant's keyword is its name's first part."""
    keywords = set(registry.KEYWORDS) | {"false"}
    for name in registry.TABLES.messages:
        assert name.partition(".")[0] in keywords, name
