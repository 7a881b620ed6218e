"""Cases the official suite does not have, each with the answer its standard gives (the section
is named beside it), or, marked CHOICE, the answer docs/formats.md records where the standard or
the suite leaves one."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.formats import checkers

CASES: dict[str, list[tuple[str, bool, str]]] = {
    "date_time": [
        ("1985-04-12T23:20:50.52Z", True, "RFC 3339 5.8 example"),
        ("1996-12-19T16:39:57-08:00", True, "RFC 3339 5.8 example"),
        ("1990-12-31T23:59:60Z", True, "RFC 3339 5.8: a leap second"),
        ("1990-12-31T15:59:60-08:00", True, "RFC 3339 5.8: the same leap second, Pacific time"),
        ("1937-01-01T12:00:27.87+00:20", True, "RFC 3339 5.8: Netherlands time"),
        ("1990-12-31T23:59:60+01:00", False, "a leap second is 23:59:60 UTC; this is 22:59:60 UTC"),
        ("1991-01-01T00:29:60+00:30", True, "23:59:60 UTC the day before, written with an offset"),
        ("1985-04-12T23:20:50-00:00", True, "RFC 3339 4.3: unknown local offset"),
        (
            "1985-04-12T23:20:50+23:59",
            True,
            "RFC 3339 5.6: time-numoffset hour 00-23, minute 00-59",
        ),
        ("1985-04-12T23:20:50.Z", False, 'RFC 3339 5.6: time-secfrac = "." 1*DIGIT'),
        ("2000-02-29T00:00:00Z", True, "RFC 3339 appendix C: 2000 is divisible by 400"),
        ("1900-02-29T00:00:00Z", False, "RFC 3339 appendix C: 1900 is not a leap year"),
        ("0000-01-01T00:00:00Z", True, "RFC 3339 5.6: date-fullyear = 4DIGIT"),
        (
            "1985-04-12 23:20:50Z",
            False,
            "CHOICE: the ABNF's T; the 5.6 note lets applications "
            "choose a space, jsonschema-rs does not",
        ),
        ("1985-04-12T23:20Z", False, "RFC 3339 5.6: partial-time has seconds"),
        ("1998-12-30T23:59:60Z", True, "CHOICE: a leap second on any date (jsonschema-rs)"),
    ],
    "time": [
        ("23:59:60.5Z", True, "RFC 3339 5.6: a leap second may have a fraction"),
        ("00:00:00z", True, "RFC 3339 5.6 note: z in lower case"),
        ("00:00:00+00:00", True, "RFC 3339 5.6 time-numoffset"),
        ("24:00:00Z", False, "RFC 3339 5.6: time-hour 00-23"),
        ("12:00:00+1:00", False, "RFC 3339 5.6: time-numoffset hours are 2DIGIT"),
    ],
    "date": [
        ("2000-02-29", True, "RFC 3339 appendix C"),
        ("2019-02-29", False, "RFC 3339 5.7: February has 28 days in a common year"),
        ("9999-12-31", True, "RFC 3339 5.6: any 4DIGIT year"),
    ],
    "duration": [
        ("P3Y6M4DT12H30M5S", True, "RFC 3339 appendix A: dur-date dur-time"),
        ("P0W", True, "RFC 3339 appendix A: dur-week"),
        ("P1W1D", False, "RFC 3339 appendix A: dur-week stands alone"),
        ("PT1H0M", True, "RFC 3339 appendix A: dur-hour [dur-minute]"),
        ("P1DT", False, "RFC 3339 appendix A: dur-time needs an element"),
        ("P1M1Y", False, "RFC 3339 appendix A: year before month"),
        ("p1d", False, "CHOICE: upper case P and units only (jsonschema-rs, ISO 8601)"),
    ],
    "uuid": [
        ("f81d4fae-7dec-11d0-a765-00a0c91e6bf6", True, "RFC 4122 3: the example UUID"),
        ("F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6", True, "RFC 4122 3: case insensitive on input"),
        ("ffffffff-ffff-ffff-ffff-ffffffffffff", True, "RFC 9562 5.10: the Max UUID"),
        ("{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}", False, "RFC 9562 4: no braces"),
        ("f81d4fae7dec-11d0-a765-00a0c91e6bf6-", False, "RFC 9562 4: 8-4-4-4-12"),
    ],
    "json_pointer": [
        ("/~01", True, 'RFC 6901 3: "~0" then "1"'),
        ("/~10", True, 'RFC 6901 3: "~1" then "0"'),
        ("/~", False, 'RFC 6901 3: escaped = "~" ( "0" / "1" )'),
        ("~1", False, 'RFC 6901 3: json-pointer = *( "/" reference-token )'),
        ("//", True, "RFC 6901 3: empty reference tokens"),
    ],
    "relative_json_pointer": [
        ("0", True, "relative JSON pointer draft 5.1 example"),
        ("1/0", True, "relative JSON pointer draft 5.1 example"),
        ("2/highly/nested/objects", True, "relative JSON pointer draft 5.1 example"),
        ("0#", True, "relative JSON pointer draft 5.1 example"),
        ("1#", True, "relative JSON pointer draft 5.1 example"),
        ("00", False, "non-negative-integer = %x30 / %x31-39 *( %x30-39 )"),
        ("#", False, "the integer prefix is required"),
        ("0+1/a", False, "CHOICE: no index manipulation (draft-handrews-...-01, jsonschema-rs)"),
    ],
    "ipv4": [
        ("0.0.0.0", True, "RFC 2673 3.2 dotted-quad"),
        ("01.2.3.4", False, "CHOICE: no leading zeros (jsonschema-rs; RFC 2673 allows them)"),
        ("1.2.3.04", False, "CHOICE: no leading zeros"),
        ("1.2.3", False, "RFC 2673 3.2: four decbytes"),
    ],
    "ipv6": [
        ("2001:DB8:0:0:8:800:200C:417A", True, "RFC 4291 2.2 example 1"),
        ("FF01:0:0:0:0:0:0:101", True, "RFC 4291 2.2 example 1"),
        ("2001:DB8::8:800:200C:417A", True, "RFC 4291 2.2 example 2"),
        ("FF01::101", True, "RFC 4291 2.2 example 2"),
        ("0:0:0:0:0:0:13.1.68.3", True, "RFC 4291 2.2 example 3"),
        ("::FFFF:129.144.52.38", True, "RFC 4291 2.2 example 3"),
        ("::13.1.68.3", True, "RFC 4291 2.2 example 3"),
        ("1:2:3:4:5:6:7::", True, 'RFC 4291 2.2: "::" is one or more groups of zeros'),
        ("1:2:3:4:5:6:7:8::", False, 'RFC 4291 2.2: eight groups and "::" are nine'),
        ("1:2:3:4:5:6:1.2.3.4", True, "RFC 4291 2.2: x:x:x:x:x:x:d.d.d.d"),
        ("1:2:3:4:5:6:7:1.2.3.4", False, "RFC 4291 2.2: the IPv4 part is the last 32 bits"),
        ("1.2.3.4::", False, "RFC 4291 2.2: the IPv4 part comes last"),
        ("02001:db8::1", False, "RFC 4291 2.2: one to four hex digits"),
    ],
    "hostname": [
        ("example.com", True, "RFC 1123 2.1"),
        ("a" * 63 + "." + "b" * 63 + "." + "c" * 63 + "." + "d" * 61, True, "253 characters"),
        ("a" * 63 + "." + "b" * 63 + "." + "c" * 63 + "." + "d" * 62, False, "254 characters"),
        ("xn--bcher-kva.example", True, "RFC 5890 2.3.2.1: an A-label (b\u00fccher)"),
        ("XN--BCHER-KVA.example", True, "RFC 5890 2.3.1: the ACE prefix in any case"),
        ("ab--cd.example", False, "RFC 5890 2.3.1: a reserved LDH label that is not an A-label"),
        ("xn--bcher-kva-.example", False, "RFC 1123 2.1: no hyphen at the end"),
        ("1.2.3.4", True, "CHOICE: all-numeric labels (jsonschema-rs)"),
        ("example.com.", False, 'CHOICE: no root dot (the suite\'s "example." is invalid)'),
    ],
    "hostname_rfc1034": [
        ("ab--cd.example", True, "RFC 1034 3.1: hyphens anywhere inside a label"),
        ("xn--X", True, "RFC 1034 3.1: drafts 4 and 6 do not read A-labels"),
        ("-a.example", False, "RFC 1034 3.1: a label starts with a letter or digit"),
    ],
    "idn_hostname": [
        ("b\u00fccher.example", True, "RFC 5891 4: a U-label"),
        ("B\u00dcCHER.example", True, "CHOICE: RFC 5895 maps upper case to lower case"),
        (
            "bu\u0308cher.example",
            True,
            "CHOICE: RFC 5895 maps to NFC (the suite's idn-email " "domain caf\u00e9)",
        ),
        (
            "\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45.com",
            True,
            "CHOICE: RFC 5895 maps fullwidth letters to their decompositions",
        ),
        ("a\u200db", False, "RFC 5892 A.2: ZERO WIDTH JOINER only after a virama"),
        ("\u0628\u200c\u0628", True, "RFC 5892 A.1: ZWNJ between two dual-joining letters"),
        ("\u0628\u200ca", False, "RFC 5892 A.1: a following non-joining letter"),
        ("\u05d0\u05d1.com", True, "RFC 5893 2: an RTL label and an LTR label"),
        ("\u05d0a", False, "RFC 5893 2 rule 2: no L in an RTL label"),
        ("\u05d01", True, "RFC 5893 2 rule 3: an RTL label may end in EN"),
        ("1\u05d0", False, "RFC 5893 2 rule 1: first an L, R or AL character"),
        ("\u2160.com", False, "RFC 5892 2.2: ROMAN NUMERAL ONE is unstable under NFKC"),
        ("a\u0300", True, "RFC 5892 2.1: a combining mark after a letter (NFC: \u00e0)"),
        ("\u0300a", False, "RFC 5891 4.2.3.2: no leading combining mark"),
        ("xn--bcher-kva.example", True, "RFC 5890 2.3.2.1: an A-label"),
    ],
    "email": [
        ("simple@example.com", True, "RFC 5321 4.1.2"),
        ('"a\\"b"@example.com', True, "RFC 5321 4.1.2: quoted-pairSMTP"),
        ('"a"b"@example.com', False, "RFC 5321 4.1.2: an unescaped DQUOTE ends the string"),
        ("a@b", True, "RFC 5321 4.1.2: a one-label Domain"),
        ("user@[192.0.2.1]", True, "RFC 5321 4.1.3: IPv4-address-literal"),
        ("user@[IPv6:2001:db8::1]", True, "RFC 5321 4.1.3: IPv6-address-literal"),
        ("user@[ipv6:2001:db8::1]", True, 'RFC 5321 4.1.3: "IPv6:" is case-insensitive (ABNF)'),
        ("user@[IPv6:2001:db8::g]", False, "RFC 5321 4.1.3: IPv6-addr"),
        ("user@[300.0.0.1]", False, "RFC 5321 4.1.3: Snum is at most 255"),
        ("user@[x-tag:abc]", False, "CHOICE: no General-address-literal (jsonschema-rs)"),
        ("a" * 64 + "@example.com", True, "RFC 5321 4.5.3.1.1: 64 octets of local part"),
        ("a" * 65 + "@example.com", False, "RFC 5321 4.5.3.1.1: more than 64 octets"),
        ("user@-example.com", False, "RFC 5321 4.1.2 sub-domain (RFC 1123 labels)"),
        ("user(comment)@example.com", False, "RFC 5321 4.1.2: no RFC 5322 comments"),
        ("\u03b4\u03bf\u03ba\u03b9\u03bc\u03ae@example.com", False, "RFC 5321: ASCII only"),
    ],
    "idn_email": [
        ("\u03b4\u03bf\u03ba\u03b9\u03bc\u03ae@example.com", True, "RFC 6531 3.3: UTF8-non-ascii"),
        ("\u7528\u6237@\u4f8b\u5b50.\u5e7f\u544a", True, "RFC 6531 3.3 with an IDN domain"),
        ("user@xn--fsqu00a.xn--4rr70v", True, "RFC 6531 3.3: an A-label domain"),
        ("\u00e9" * 33 + "@example.com", False, "RFC 5321 4.5.3.1.1: 66 octets of UTF-8"),
        ("\u00e9" * 32 + "@example.com", True, "RFC 5321 4.5.3.1.1: 64 octets of UTF-8"),
    ],
    "uri": [
        ("telnet://192.0.2.16:80/", True, "RFC 3986 1.1.2 example"),
        ("http://[v7.fe80::a+en1]/", True, "RFC 3986 3.2.2: IPvFuture"),
        ("http://example.com:", True, "RFC 3986 3.2.3: port = *DIGIT"),
        ("http://user:pass@example.com/", True, 'RFC 3986 3.2.1: userinfo may hold ":"'),
        ("HTTP://EXAMPLE.COM/", True, "RFC 3986 3.1: schemes are case-insensitive"),
        ("a:", True, "RFC 3986 3: hier-part may be path-empty"),
        ("http://[::1", False, 'RFC 3986 3.2.2: IP-literal ends with "]"'),
        ("http://[::1]x/", False, 'RFC 3986 3.2: only ":" port may follow the host'),
        ("http://[fe80::1%25eth0]/", False, "CHOICE: RFC 3986 without RFC 6874 zone ids"),
        ("http://exa mple.com/", False, "RFC 3986 2: no space"),
        ("//example.com/", False, "RFC 3986 3: a URI has a scheme"),
        ("a+b.c-d:x", True, 'RFC 3986 3.1: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )'),
    ],
    "uri_reference": [
        ("#", True, "RFC 3986 4.2: an empty fragment"),
        ("?", True, "RFC 3986 4.2: an empty query"),
        ("a/b:c", True, 'RFC 3986 4.2: ":" after the first segment'),
        ("a:b", True, "RFC 3986 4.1: a URI is a URI-reference"),
        ("%", False, 'RFC 3986 2.1: pct-encoded = "%" HEXDIG HEXDIG'),
        ("//[::1]:8080/x", True, "RFC 3986 4.2: a network-path reference"),
    ],
    "iri": [
        (
            "http://\u4f8b\u5b50.\u6d4b\u8bd5/\u8def\u5f84?\u67e5\u8be2=\u503c#\u7247\u6bb5",
            True,
            "RFC 3987 2.2: ucschar everywhere",
        ),
        ("http://example.com/\ue000", False, "RFC 3987 2.2: iprivate only in iquery"),
        ("http://example.com/?\ue000", True, "RFC 3987 2.2: iquery admits iprivate"),
        ("http://example.com/#\ue000", False, "RFC 3987 2.2: ifragment does not"),
        ("http://example.com/\ufffe", False, "RFC 3987 2.2: U+FFFE is not ucschar"),
        ("http://example.com/\U0001fffe", False, "RFC 3987 2.2: U+1FFFE is not ucschar"),
        ("http://example.com/\U000e0041", False, "RFC 3987 2.2: ucschar skips E0000-E0FFF"),
    ],
    "iri_reference": [
        ("\u00e9t\u00e9", True, "RFC 3987 2.2: irelative-ref"),
        (
            "\u00e9:t\u00e9",
            False,
            "RFC 3987 2.2: not an IRI (a scheme is ASCII) nor a relative "
            'reference (":" in the first segment)',
        ),
    ],
    "uri_template": [
        ("http://example.com/~{username}/", True, "RFC 6570 1.1 example"),
        ("http://example.com/search{?q,lang}", True, "RFC 6570 1.1 example"),
        ("{+path}/here", True, "RFC 6570 3.2.3"),
        ("{#path:6}/here", True, "RFC 6570 3.2.4"),
        ("X{.list*}", True, "RFC 6570 3.2.5"),
        ("{/list*,path:4}", True, "RFC 6570 3.2.6"),
        ("{;keys*}", True, "RFC 6570 3.2.7"),
        ("{?x,y,undef}", True, "RFC 6570 3.2.8"),
        ("{&x}", True, "RFC 6570 3.2.9"),
        ("{=var}", True, "RFC 6570 2.2: op-reserve is in the grammar"),
        ("{var}}", False, 'RFC 6570 2.1: "}" is not a literal'),
        ("{ var}", False, "RFC 6570 2.3: varchar"),
        ("{v:}", False, "RFC 6570 2.4.1: max-length = %x31-39 0*3DIGIT"),
        ("{v*:3}", False, "RFC 6570 2.4: one modifier"),
        ("{v.}", False, 'RFC 6570 2.3: varname = varchar *( ["."] varchar )'),
        ("{.v.w}", True, "RFC 6570 2.3"),
        ("http://example.com/%zz", False, "RFC 6570 2.1: pct-encoded"),
        ("a\u0085b", False, "RFC 6570 2.1: U+0085 is not ucschar"),
    ],
    "regex": [
        ("a{,2}", False, 'ECMA-262 22.2.1 (u): "{" that is not a quantifier'),
        ("\\k<b>(?<a>x)", False, "ECMA-262 22.2.1.1: \\k names an existing group"),
        ("(?<a>x)(?<a>y)", False, "ECMA-262 22.2.1.1: duplicate names (before ES2025)"),
        ("\\1(a)", True, "ECMA-262 22.2.1.1: a forward reference is allowed"),
        ("(a)\\2", False, "ECMA-262 22.2.1.1 (u): \\2 > number of groups"),
        ("[\\d-z]", False, "ECMA-262 22.2.1.1 (u): a class escape as a range end"),
        ("[\\d-]", True, 'ECMA-262 22.2.1: "-" at the end of a class'),
        ("\\p{L}", True, "ECMA-262 22.2.2.9: a General_Category value"),
        ("\\p{gc=Lu}", True, "ECMA-262 22.2.2.9"),
        ("\\p{Script=Greek}", True, "ECMA-262 22.2.2.9"),
        ("\\p{scx=Grek}", True, "ECMA-262 22.2.2.9"),
        ("\\p{Foo}", False, "ECMA-262 22.2.1.1: an unknown property"),
        ("\\p{Script}", False, "ECMA-262 22.2.1.1: Script needs a value"),
        ("\\u{1F600}", True, "ECMA-262 22.2.1: \\u{CodePoint}"),
        ("\\u{110000}", False, "ECMA-262 22.2.1.1: above 10FFFF"),
        ("\\c1", False, "ECMA-262 22.2.1 (u): \\c AsciiLetter"),
        ("\\00", False, "ECMA-262 22.2.1 (u): \\0 not before a digit"),
        ("\\-", False, "ECMA-262 22.2.1 (u): \\- only in a class"),
        ("[\\-]", True, "ECMA-262 22.2.1 (u): ClassEscape \\-"),
        ("\\/", True, "ECMA-262 22.2.1 (u): IdentityEscape /"),
        ("\\q", False, "ECMA-262 22.2.1 (u): IdentityEscape is a SyntaxCharacter or /"),
        ("a**", False, "ECMA-262 22.2.1: a quantifier needs an atom"),
        ("a*?", True, "ECMA-262 22.2.1: a lazy quantifier"),
        ("(?=a)*", False, "ECMA-262 22.2.1 (u): a lookahead takes no quantifier"),
        ("(?<=a)?", False, "ECMA-262 22.2.1: a lookbehind takes no quantifier"),
        ("]", False, 'ECMA-262 22.2.1 (u): "]" is a SyntaxCharacter'),
        ("a{2,1}", False, "ECMA-262 22.2.1.1: min > max"),
        ("[b-a]", False, "ECMA-262 22.2.1.1: an out-of-order range"),
        ("(?i:a)", False, "CHOICE: no ES2025 pattern modifiers (as pattern is compiled)"),
        ("(?<$a>x)\\k<$a>", True, "ECMA-262 22.2.1: RegExpIdentifierName starts with $"),
        ("(?<1a>x)", False, "ECMA-262 22.2.1: a name cannot start with a digit"),
        ("[\\b]", True, "ECMA-262 22.2.1: \\b in a class is backspace"),
        ("a{99999999999999999999}", True, "ECMA-262 22.2.1: no bound on a quantifier"),
    ],
}

CONTENT_CASES: dict[str, list[tuple[str, bool, str]]] = {
    "_content_base64": [
        ("", True, 'RFC 4648 10: BASE64("") = ""'),
        ("Zg==", True, 'RFC 4648 10: BASE64("f")'),
        ("Zm8=", True, 'RFC 4648 10: BASE64("fo")'),
        ("Zm9vYmFy", True, 'RFC 4648 10: BASE64("foobar")'),
        ("Zg=", False, "RFC 4648 4: padding to a multiple of 4"),
        ("Zg", False, "CHOICE: padding is required (jsonschema-rs)"),
        ("Zh==", False, "CHOICE: RFC 4648 3.5 non-zero pad bits rejected (jsonschema-rs)"),
        ("Zm9v\nYmFy", False, "RFC 4648 3.3: no line breaks"),
        ("-_8=", False, "RFC 4648 4: not the URL-safe alphabet"),
        ("Zm9vYmFy=", False, "RFC 4648 4: padding only after a partial group"),
    ],
    "_content_application_json": [
        ("{}", True, "RFC 8259 2"),
        (" 1 ", True, "RFC 8259 2: whitespace around a value"),
        ("1" * 5000, True, "RFC 8259 6: any number of digits"),
        ("NaN", False, "RFC 8259 6: no NaN"),
        ("-Infinity", False, "RFC 8259 6: no Infinity"),
        ("[1,]", False, "RFC 8259 5"),
        ("", False, "RFC 8259 2: a value is required"),
        ("[" * 100_000 + "]" * 100_000, False, "CHOICE: nesting deeper than Python parses"),
    ],
}


@pytest.mark.parametrize(
    ("name", "value", "expected", "why"),
    [(n, v, e, w) for n, cases in CASES.items() for v, e, w in cases],
    ids=lambda x: x if isinstance(x, str) and len(x) < 40 else None,
)
def test_format_edge_case(name: str, value: str, expected: bool, why: str) -> None:
    assert getattr(checkers, "_format_" + name)(value) is expected, why


@pytest.mark.parametrize(
    ("name", "value", "expected", "why"),
    [(n, v, e, w) for n, cases in CONTENT_CASES.items() for v, e, w in cases],
    ids=lambda x: x if isinstance(x, str) and len(x) < 40 else None,
)
def test_content_edge_case(name: str, value: str, expected: bool, why: str) -> None:
    assert getattr(checkers, name)(value) is expected, why


def test_base64_decoder_gives_utf8_text_or_none() -> None:
    assert checkers._content_base64_decode("eyJhIjogMX0=") == '{"a": 1}'
    assert checkers._content_base64_decode("/w==") is None  # the byte FF is not UTF-8
    assert checkers._content_base64_decode("Zg=") is None


# -- the shortcuts of the common path agree with the full rules ------------------------------

_URI_ALPHABET = "ab09+-.:/?#[]@!$&'()*,;=%~_ABF"


@given(st.text(alphabet=_URI_ALPHABET, max_size=40).map(lambda t: "http://" + t))
def test_uri_fast_path_accepts_only_what_the_full_parser_accepts(text: str) -> None:
    if checkers._FMT_URI_FAST_RE.fullmatch(text) is not None:
        assert checkers._fmt_uri_parts_ok(text, True, checkers._FMT_URI_PARTS)
        assert checkers._fmt_uri_parts_ok(text, False, checkers._FMT_IRI_PARTS)


@given(
    st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=59).filter(
        lambda t: not t.isascii()
    )
)
def test_a_label_length_bound_is_never_below_the_length(label: str) -> None:
    exact = checkers._fmt_alabel_length(label, True)
    assert exact == 4 + len(label.encode("punycode"))
    assert checkers._fmt_alabel_length(label, False) >= exact
