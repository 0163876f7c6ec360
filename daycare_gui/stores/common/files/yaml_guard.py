"""A cheap bound on how deeply YAML text nests, checked before a YAML loader sees it.

Deep nesting is where YAML loaders fail badly rather than raise: on 100,000 nested flow collections
libyaml (PyYAML's C loader) parses for minutes and then its composer recurses in C until the process dies
with a segmentation fault; PyYAML's pure-Python scanner takes minutes as well. Real configuration, session
and frontmatter files nest a handful of levels, so text that *could* nest deeper than ``LIMIT`` is reported
instead of parsed.

The estimate errs high, never low: brackets inside quoted strings count too, and each character of a line's
indentation counts as a level.
"""

from __future__ import annotations

import re

LIMIT = 400

_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_INDENT = re.compile(r"[ \t]*")
_INDICATOR = re.compile(r"[-?:][ \t]+")


def nesting_bound(text: str) -> int:
    """An upper bound on the nesting depth of ``text``'s collections (flow and block)."""
    depth = flow = 0
    for ch in _NOT_BRACKET.sub("", text):  # only the brackets: short for any real file
        if ch in "[{":
            depth += 1
            flow = max(flow, depth)
        elif depth:
            depth -= 1
    return flow + max((_block_levels(line) for line in text.splitlines()), default=0)


def _block_levels(line: str) -> int:
    """Indentation (one level per character, at most) plus the compact ``- ``/``? ``/``: `` indicators."""
    pos = _INDENT.match(line).end()
    levels = pos
    while m := _INDICATOR.match(line, pos):
        levels, pos = levels + 1, m.end()
    return levels


def too_deep(text: str, limit: int = LIMIT) -> str | None:
    """Why ``text`` is not handed to a YAML loader (None when it may be)."""
    bound = nesting_bound(text)
    if bound > limit:
        return f"nested too deeply to read safely (up to {bound:,} levels; more than {limit} are never parsed)"
    return None
