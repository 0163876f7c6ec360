"""How the brackets of a JSON text nest, strings skipped: read before the text is parsed, to refuse JSON
nested too deep for the parser (AgentStack's values) or to tell a file cut off mid-write from one that is
just wrong (Linggen's session files)."""

from __future__ import annotations

from typing import NamedTuple


class Brackets(NamedTuple):
    open_at_end: int  # brackets still open where the text ends (above 0: it stops early)
    deepest: int  # the deepest they nest
    in_string: bool  # the text ends inside a string


def scan(text: str) -> Brackets:
    """The nesting of ``[`` and ``{`` in ``text``, skipping what stands inside strings (escapes included)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif ch in "]}":
            depth -= 1
    return Brackets(depth, deepest, in_string)
