"""YAML text in small pieces: load a header safely, and write one scalar, key or list as text.

Edits never re-dump a whole header (that reformats it); they splice text made here into one key's
span. Everything produced here is checked by loading it back, with both the YAML 1.2 loader Daycare's
files are read with (gray-matter/js-yaml semantics ≈ ruamel's safe loader) and PyYAML's YAML 1.1 safe
loader, so a value written plain (unquoted) means the same string to either kind of reader.
"""

from __future__ import annotations

import datetime as _dt
import math
from typing import Any

import yaml as pyyaml
from ruamel.yaml import YAML

from .errors import DocumentError


def _safe_yaml() -> YAML:
    # pure=True: the pure-Python parser keeps exact character indexes in its marks (needed to splice).
    return YAML(typ="safe", pure=True)


def load_safe(text: str) -> Any:
    """Load YAML with the safe (YAML 1.2) loader; the values a document's ``get`` returns."""
    return _safe_yaml().load(text)


def compose(text: str):
    """The node tree of ``text`` (with character-index marks), or None for an empty document."""
    return _safe_yaml().compose(text)


def same_value(a: Any, b: Any) -> bool:
    """Equality as YAML means it: 1 is not True, NaN equals NaN, tuples equal lists."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=False))
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same_value(a[k], b[k]) for k in a)
    if type(a) is not type(b) and not (isinstance(a, (int, float)) and isinstance(b, (int, float))):
        return False
    return a == b


# --- scalars -------------------------------------------------------------------------------------

_LINE_BREAKS = "\n\r\x85\u2028\u2029"


def _needs_escape(ch: str) -> bool:
    cp = ord(ch)
    return cp < 0x20 or cp == 0x7F or 0x80 <= cp <= 0x9F or ch in "\u2028\u2029\ufeff" or cp in (0xFFFE, 0xFFFF)


def _check_encodable(text: str) -> None:
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in text):
        raise DocumentError("text contains lone surrogate characters and cannot be written as UTF-8")


def double_quoted(text: str) -> str:
    _check_encodable(text)
    named = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r", "\0": "\\0"}
    out = ['"']
    for ch in text:
        if ch in named:
            out.append(named[ch])
        elif _needs_escape(ch):
            cp = ord(ch)
            out.append(f"\\x{cp:02x}" if cp <= 0xFF else f"\\u{cp:04x}" if cp <= 0xFFFF else f"\\U{cp:08x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def single_quoted(text: str) -> str | None:
    """``'text'`` or None when single quotes cannot hold it on one line (control characters, line breaks)."""
    _check_encodable(text)
    if any(_needs_escape(ch) or ch in _LINE_BREAKS for ch in text):
        return None
    return "'" + text.replace("'", "''") + "'"


def _loads_as(text: str, expected: Any) -> bool:
    try:
        a = _safe_yaml().load(text)
        b = pyyaml.safe_load(text)
    except Exception:
        return False
    return same_value(a, expected) and same_value(b, expected)


def plain_ok(text: str) -> bool:
    """True when ``text`` can be written unquoted as a block-context value and still read back as this string."""
    if not text or text != text.strip() or "\t" in text or " #" in text:
        return False
    if any(_needs_escape(ch) or ch in _LINE_BREAKS for ch in text):
        return False
    return _loads_as(f"k: {text}\n", {"k": text})


def emit_string(text: str, style: str | None) -> str:
    """A string as a one-line YAML scalar in the quoting ``style`` (None = plain, "'" or '"') where possible.

    When the asked style cannot hold the text, double quotes can (they escape anything).
    """
    if style == '"':
        return double_quoted(text)
    if style is None and plain_ok(text):
        return text
    if style == "'":
        quoted = single_quoted(text)
        if quoted is not None:
            return quoted
    return double_quoted(text)


def emit_float(value: float) -> str:
    if math.isnan(value):
        return ".nan"
    if math.isinf(value):
        return ".inf" if value > 0 else "-.inf"
    text = repr(value)
    # YAML 1.1 readers need a dot in the mantissa of an exponent float ("1e+20" would be a string there).
    if "e" in text and "." not in text.split("e")[0]:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}.0e{exponent}"
    return text


def emit_inline(value: Any, style: str | None = None) -> str:
    """Any supported value as one-line YAML (scalars, or flow collections for nested values)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return emit_float(value)
    if isinstance(value, str):
        return emit_string(value, style)
    if isinstance(value, _dt.datetime):
        return emit_string(value.isoformat(), style)
    if isinstance(value, _dt.date):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_emit_flow_item(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_emit_flow_item(k)}: {_emit_flow_item(v)}" for k, v in value.items()) + "}"
    raise DocumentError(f"cannot write a value of type {type(value).__name__} into frontmatter")


def _emit_flow_item(value: Any) -> str:
    # Inside [ ] and { } plain scalars have more forbidden characters; double quotes are always safe there.
    if isinstance(value, str):
        return double_quoted(value)
    return emit_inline(value)


def emit_key(key: str) -> str:
    """A mapping key as text: plain when that reads back as the same string, else double-quoted."""
    if not isinstance(key, str):
        raise DocumentError("frontmatter keys must be strings")
    if (
        key
        and key == key.strip()
        and not any(_needs_escape(ch) or ch in _LINE_BREAKS for ch in key)
        and " #" not in key
        and "\t" not in key
        and _loads_as(f"{key}: 1\n", {key: 1})
    ):
        return key
    return double_quoted(key)


def emit_block_list(items: list, *, indent: str, style: str | None, eol: str) -> str:
    """Lines ``<indent>- item`` (no leading or trailing line break) for a block sequence."""
    lines = []
    for item in items:
        if isinstance(item, str):
            lines.append(f"{indent}- {emit_string(item, style)}")
        else:
            lines.append(f"{indent}- {emit_inline(item)}")
    return eol.join(lines)
