"""Property tests: any frontmatter file writes back byte for byte, and setting one key touches only that key."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from daycare_gui.stores.common.edit import yaml_text
from daycare_gui.stores.common.edit.document import FrontmatterDocument, split_lines

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Characters a YAML reader accepts inside a line (no controls, no Unicode line/paragraph separators).
LINE_CHARS = st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp", "Cn", "Co"), blacklist_characters="\ufeff\x85")
KEY_CHARS = st.sampled_from(list("abcxyzABZ019_-. :@#'\"éü日本ß") + ["\u00a0"])

text_values = st.text(LINE_CHARS, max_size=20)
keys = st.text(KEY_CHARS, min_size=1, max_size=10)
eols = st.sampled_from(["\n", "\r\n"])
comments = st.text(LINE_CHARS, max_size=12).map(lambda t: "#" + t)


@dataclass
class Entry:
    key: str
    lines: list[str]  # the entry's own lines, endings included


@st.composite
def scalar_text(draw, value):
    """``value`` written as YAML text in a drawn quoting style."""
    if isinstance(value, str):
        style = draw(st.sampled_from(["plain", "single", "double"]))
        if style == "plain" and yaml_text.plain_ok(value):
            return value
        if style == "single" and yaml_text.single_quoted(value) is not None:
            return yaml_text.single_quoted(value)
        return yaml_text.double_quoted(value)
    return yaml_text.emit_inline(value)


@st.composite
def key_text(draw, key):
    plain = yaml_text.emit_key(key)
    if plain == key and draw(st.booleans()):
        return key
    single = yaml_text.single_quoted(key)
    if single is not None and draw(st.booleans()):
        return single
    return yaml_text.double_quoted(key)


values = st.one_of(text_values, st.integers(-1000, 10**12), st.booleans(), st.none(), st.lists(text_values, min_size=1, max_size=3))


@st.composite
def entry(draw, key, eol_for):
    value = draw(values)
    ktext = draw(key_text(key))
    if isinstance(value, list):
        indent = draw(st.sampled_from(["", "  ", "    "]))
        lines = [f"{ktext}:{eol_for()}"] + [f"{indent}- {draw(scalar_text(item))}{eol_for()}" for item in value]
    else:
        spacing = draw(st.sampled_from([" ", "  "]))
        comment = draw(st.one_of(st.just(""), comments.map(lambda c: "  " + c)))
        rendered = draw(scalar_text(value))
        if value is None and draw(st.booleans()):
            rendered = ""  # "key:" with an empty value
            spacing = ""
        lines = [f"{ktext}:{spacing}{rendered}{comment}{eol_for()}"]
    return Entry(key, lines)


@st.composite
def frontmatter_files(draw):
    style = draw(st.sampled_from(["lf", "crlf", "mixed"]))
    if style == "mixed":
        eol_for = lambda: draw(eols)  # noqa: E731 — each line gets its own ending
    else:
        fixed = "\n" if style == "lf" else "\r\n"
        eol_for = lambda: fixed  # noqa: E731
    names = draw(st.lists(keys, min_size=1, max_size=6, unique=True))
    header_lines: list[str] = []
    ranges: dict[str, tuple[int, int]] = {}
    for name in names:
        for _ in range(draw(st.integers(0, 1))):  # separators that belong to no key
            header_lines.append(draw(st.one_of(st.just(""), comments)) + eol_for())
        made = draw(entry(name, eol_for))
        ranges[name] = (len(header_lines), len(header_lines) + len(made.lines))
        header_lines.extend(made.lines)
    if draw(st.booleans()):
        header_lines.append(draw(comments) + eol_for())
    body = draw(st.text(st.characters(blacklist_categories=("Cs",)), max_size=40))
    body = body.replace("\r", "")  # endings in the body come from the file's style
    body_lines = body.split("\n")
    body = "".join(line + eol_for() for line in body_lines[:-1]) + body_lines[-1]
    close = "---" + (eol_for() if body or draw(st.booleans()) else "")
    bom = "\ufeff" if draw(st.booleans()) else ""
    text = bom + "---" + eol_for() + "".join(header_lines) + close + body
    return text.encode("utf-8"), header_lines, ranges, body


@SETTINGS
@given(frontmatter_files())
def test_parse_then_write_is_identity(case):
    data, _, _, _ = case
    assert FrontmatterDocument.parse(data).to_bytes() == data


@SETTINGS
@given(st.binary(max_size=200), st.sampled_from([b"", b"---\n", b"---\r\n", b"\xef\xbb\xbf---\n"]))
def test_any_bytes_round_trip(tail, prefix):
    data = prefix + tail
    doc = FrontmatterDocument.parse(data)
    assert doc.to_bytes() == data


@SETTINGS
@given(st.text(max_size=200).map(lambda t: "---\n" + t.replace("\ud800", "")))
def test_any_text_round_trips_and_never_raises(text):
    data = text.encode("utf-8", errors="surrogatepass")
    assume(b"\xed\xa0" not in data)
    doc = FrontmatterDocument.parse(data)
    assert doc.to_bytes() == data


new_values = st.one_of(
    text_values,
    st.integers(),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=True),
    st.lists(text_values, max_size=3),
)


@SETTINGS
@given(frontmatter_files(), st.data(), new_values)
def test_setting_one_key_changes_only_that_key(case, data, new_value):
    raw, header_lines, ranges, body = case
    doc = FrontmatterDocument.parse(raw)
    assert doc.error is None, doc.error
    before = doc.values()
    assume(list(before) == list(ranges))  # the rendering meant what the generator intended
    key = data.draw(st.sampled_from(list(ranges)))

    doc.set(key, new_value)
    out = doc.to_bytes()

    again = FrontmatterDocument.parse(out)
    assert again.error is None
    after = again.values()
    assert list(after) == list(before)
    for name in before:
        if name != key:
            assert yaml_text.same_value(after[name], before[name])
    assert yaml_text.same_value(after[key], new_value)

    start, end = ranges[key]
    new_header_lines = split_lines(again.header_text)
    assert new_header_lines[:start] == header_lines[:start]
    suffix = header_lines[end:]
    assert new_header_lines[len(new_header_lines) - len(suffix) :] == suffix
    assert again.raw_body == body
    assert out.startswith(raw[: raw.index(b"---") + 3])


@SETTINGS
@given(frontmatter_files(), st.data())
def test_deleting_one_key_keeps_the_others(case, data):
    raw, header_lines, ranges, body = case
    doc = FrontmatterDocument.parse(raw)
    assume(doc.error is None and list(doc.values()) == list(ranges))
    before = doc.values()
    key = data.draw(st.sampled_from(list(ranges)))
    doc.delete(key)
    again = FrontmatterDocument.parse(doc.to_bytes())
    expected = {k: v for k, v in before.items() if k != key}
    assert list(again.values()) == list(expected)
    assert all(yaml_text.same_value(again.get(k), v) for k, v in expected.items())
    start, end = ranges[key]
    assert split_lines(again.header_text) == header_lines[:start] + header_lines[end:]
    assert again.raw_body == body


@SETTINGS
@given(frontmatter_files(), keys, new_values)
def test_adding_a_key_appends_one_entry(case, key, new_value):
    raw, header_lines, ranges, body = case
    doc = FrontmatterDocument.parse(raw)
    assume(doc.error is None and list(doc.values()) == list(ranges) and key not in ranges)
    doc.set(key, new_value)
    again = FrontmatterDocument.parse(doc.to_bytes())
    assert list(again.values()) == list(ranges) + [key]
    assert yaml_text.same_value(again.get(key), new_value)
    assert split_lines(again.header_text)[: len(header_lines)] == header_lines
    assert again.raw_body == body
