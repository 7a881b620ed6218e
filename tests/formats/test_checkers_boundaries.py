"""The edges of each checker's rules that neither the official suite nor
test_checkers_edge_cases.py reaches, found by mutation testing (`make mutate MODULES=formats`):
each case is one side of a bound, a range end or a branch, with the rule that decides it.

The regex cases were checked against node's `new RegExp(pattern, "u")` (ECMA-262 with the u
flag), the others against the grammar they cite."""

from __future__ import annotations

import pytest

from generator.formats import checkers

# A U-label of 56 code points whose A-label (xn--aaa...-9ia style) is 63 octets, and longer ones.
_U63 = "a" * 55 + "\u00e9"
_A63 = "xn--" + _U63.encode("punycode").decode()
_A64 = "xn--" + ("a" * 56 + "\u00e9").encode("punycode").decode()
_U57 = "a" * 49 + "\u00e9"  # A-label of 57 octets; its quick bound (RFC 3492 digits) is 63

CASES: dict[str, list[tuple[str, bool, str]]] = {
    "ipv6": [
        ("1:2::3:4::5:6:7:8", False, 'RFC 4291 2.2: "::" at most once, even with eight groups'),
    ],
    "hostname_rfc1034": [
        ("a" * 63 + "." + "b" * 63 + "." + "c" * 63 + "." + "d" * 61, True, "253 characters"),
        ("a" * 63 + "." + "b" * 63 + "." + "c" * 63 + "." + "d" * 62, False, "254 characters"),
    ],
    "idn_hostname": [
        (_A63, True, "RFC 5890 2.3.2.1: an A-label of 63 octets"),
        (_A64, False, "RFC 5890 2.3.2.1: an A-label of 64 octets"),
        ("a" * 55 + "\u00e9", True, "RFC 5890 2.3.2.1: a U-label whose A-label is 63 octets"),
        ("a" * 56 + "\u00e9", False, "RFC 5890 2.3.2.1: a U-label whose A-label is 64 octets"),
        ("a" * 50 + "\u00e9", True, "an A-label of 58 octets (its quick bound is 64)"),
        ("a" * 54 + "\u00e9\u00fc\u00f6", False, "RFC 5890 2.3.2.1: an A-label of 67 octets"),
        (".".join([_U63] * 3) + "." + "b" * 61, True, "RFC 1034 3.1: 253 octets as A-labels"),
        (".".join([_U63] * 3) + "." + "b" * 62, False, "RFC 1034 3.1: 254 octets as A-labels"),
        (".".join([_U57] * 4) + ".bbb", True, "235 octets as A-labels (the quick bounds say 259)"),
        (".".join(["a" * 45 + "\u00e9"] * 5), False, "269 octets as A-labels, 234 characters"),
        ("a" * 63 + "." + "b" * 63 + "." + "c" * 63 + "." + "d" * 61, True, "253 characters"),
        ("\u00e9." + "a" * 63, True, "RFC 1123 2.1: an LDH label of 63 beside a U-label"),
        ("\u00e9.a-b", True, "RFC 1123 2.1: a hyphen inside an LDH label"),
        ("\u00e9.a-", False, "RFC 1123 2.1: no hyphen at the end of an LDH label"),
        ("\u00e9.-a", False, "RFC 1123 2.1: no hyphen at the start of an LDH label"),
        ("\u00e9.ab--c", False, "RFC 5891 4.2.3.1: no -- in the third and fourth places"),
        ("xn--bcher-kva.a-", False, "RFC 1123 2.1: every label after an A-label is checked"),
        ("\uff76", True, "CHOICE: RFC 5895 2 maps <narrow> HALFWIDTH KATAKANA KA to KA"),
    ],
    "email": [
        ("a@" + "b." * 160 + "c", False, "RFC 5321 4.5.3.1: longer than any valid path"),
        ("user@[192.0.2.1x", False, 'RFC 5321 4.1.3: an address literal ends with "]"'),
    ],
    "idn_email": [
        ("a" * 65 + "@example.com", False, "RFC 5321 4.5.3.1.1: 65 octets of local part"),
        ("\u00e9" * 32 + "a@example.com", False, "RFC 5321 4.5.3.1.1: 65 octets of UTF-8"),
        ("\ud800@example.com", False, "RFC 6531 3.3: a lone surrogate is no UTF-8"),
        ("\u00e9@[192.0.2.1]", True, "RFC 5321 4.1.3: IPv4-address-literal"),
        ("\u00e9@[IPv6:2001:db8::1]", True, "RFC 5321 4.1.3: IPv6-address-literal"),
        ("\u00e9@[192.0.2.1x", False, 'RFC 5321 4.1.3: an address literal ends with "]"'),
    ],
    "uri": [
        ("http://user@example.com:80/", True, "RFC 3986 3.2: userinfo, host and port"),
        ("http://[::1]:a80/", False, "RFC 3986 3.2.3: port = *DIGIT"),
        ("urn:a?b|c", False, 'RFC 3986 3.4: query = *( pchar / "/" / "?" ), no "|"'),
    ],
    "uri_reference": [
        (":a", False, 'RFC 3986 4.2: no scheme, and ":" in the first segment'),
        ("a/:b", True, 'RFC 3986 4.2: ":" after the first segment'),
    ],
    "iri_reference": [
        (":\u00e9", False, 'RFC 3987 2.2: no scheme, and ":" in the first segment'),
        ("http://example.com/a?b#c", True, "RFC 3987 2.2: an IRI is an IRI-reference"),
        ("a\U0001fffe", False, "RFC 3987 2.2: U+1FFFE is not ucschar"),
        ("a\ue000", False, "RFC 3987 2.2: iprivate only in iquery"),
    ],
    "date": [
        ("2024-02-29", True, "RFC 3339 appendix C: divisible by 4, not by 100"),
        ("2015-02-29", False, "RFC 3339 appendix C: not divisible by 4"),
    ],
    "regex": [
        ("\\u{41}", True, "ECMA-262 22.2.1 (u): \\u{CodePoint}"),
        ("\\u{}", False, "ECMA-262 22.2.1: CodePoint has a digit"),
        ("\\u{41", False, 'ECMA-262 22.2.1: \\u{ ends with "}"'),
        ("\\u{4g}", False, "ECMA-262 22.2.1: HexDigits"),
        ("\\u{0000000041}", True, "ECMA-262 22.2.1: leading zeros (the value counts)"),
        ("\\u{10FFFF}", True, "ECMA-262 22.2.1.1: up to 10FFFF"),
        ("\\u{FFFFFFF}", False, "ECMA-262 22.2.1.1: above 10FFFF"),
        ("\\u{1F600}a}", False, 'ECMA-262 22.2.1 (u): the first "}" ends it; "}" alone is not'),
        ("\\u{0}", True, "ECMA-262 22.2.1: the code point 0"),
        ("\\u{a}\\u{A}", True, "ECMA-262 22.2.1: hex digits in either case"),
        ("[\\u{41}-\\u{5A}]", True, "ECMA-262 22.2.2.9: an ordered range"),
        ("[\\u{5A}-\\u{41}]", False, "ECMA-262 22.2.1.1: a range out of order"),
        ("[\\u{100}-\\u0101]", True, "ECMA-262 22.2.1.1: 256 <= 257 (hex values)"),
        ("[\\u{1000}-\\u{FFF}]", False, "ECMA-262 22.2.1.1: 4096 > 4095"),
        ("[\\u{0}-\\u{1}]", True, "ECMA-262 22.2.1.1: 0 <= 1"),
        ("\\u004", False, "ECMA-262 22.2.1: \\u Hex4Digits"),
        ("\\u00411", True, "ECMA-262 22.2.1: four digits, then the literal 1"),
        ("[\\u0041-\\u0042]", True, "ECMA-262 22.2.1.1: 65 <= 66"),
        ("[\\u0042-\\u0041]", False, "ECMA-262 22.2.1.1: 66 > 65"),
        ("[\\ud83d\\ude00-\\uffff]", False, "ECMA-262 22.2.1 (u): a surrogate pair is one 1F600"),
        ("[\\ud83d\\ude00-\\ud83d\\ude01]", True, "ECMA-262 22.2.1 (u): 1F600 <= 1F601"),
        ("[\\ud83d\\ude01-\\ud83d\\ude00]", False, "ECMA-262 22.2.1 (u): 1F601 > 1F600"),
        ("[\\ud83d\\u0041-\\u0042]", True, "ECMA-262 22.2.1 (u): a lead without a trail"),
        ("[\\udbff\\udfff-\\u{10FFFF}]", True, "ECMA-262 22.2.1 (u): the last pair is 10FFFF"),
        ("[\\ud800\\udc00-\\u{10000}]", True, "ECMA-262 22.2.1 (u): the first pair is 10000"),
        ("[\\ud800\\udc00-\\u{FFFF}]", False, "ECMA-262 22.2.1 (u): 10000 > FFFF"),
        ("[\\uDBFF\\uDFFF-\\u{10FFFE}]", False, "ECMA-262 22.2.1 (u): 10FFFF > 10FFFE"),
        ("[\\udbff\\udbff-\\udbff]", True, "ECMA-262 22.2.1 (u): two leads are no pair"),
        ("[\\ud7ff\\udc00-\\udc00]", True, "ECMA-262 22.2.1 (u): D7FF is no lead surrogate"),
        ("[\\ud800\\ue000-\\ue000]", True, "ECMA-262 22.2.1 (u): E000 is no trail surrogate"),
        ("\\ud83d\\ude00{2}", True, "ECMA-262 22.2.1 (u): a pair quantified as one atom"),
    ],
}


@pytest.mark.parametrize(
    ("name", "value", "expected", "why"),
    [(n, v, e, w) for n, cases in CASES.items() for v, e, w in cases],
    ids=lambda x: x if isinstance(x, str) and len(x) < 40 else None,
)
def test_format_boundary(name: str, value: str, expected: bool, why: str) -> None:
    assert getattr(checkers, "_format_" + name)(value) is expected, why
