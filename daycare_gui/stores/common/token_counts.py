"""A model call's token counts read as stored, and why they cannot be read when another tool left something
else: a call whose counts were read as 0 would cost $0.00 and lower every total without a word, so such a
call is counted apart (``UsageRecord.problem``) and its Costs line says so.

No stored value is quoted in a problem: a stray count may be a secret pasted into the wrong field.
"""

from __future__ import annotations

import math

# What a JSON value is, in a user's words (never the value itself).
JSON_KIND = {str: "text", int: "a number", float: "a number", bool: "true or false", list: "a list",
             dict: "an object"}


def json_kind(value) -> str:
    return JSON_KIND.get(type(value), "something else")


def token_count(value) -> int | None:
    """A stored count as a whole number ≥ 0 (absent: 0), or None when it is no number: text that is not
    digits, a list, an object, true or false. A float counts its whole part, text of digits its number."""
    if value.__class__ is int:  # (the usual case, first: four counts a call)
        return value if value > 0 else 0
    if value is None:
        return 0
    if isinstance(value, float):
        return max(int(value), 0) if math.isfinite(value) else None
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def read_counts(named: dict[str, object]) -> tuple[list[int], str]:
    """``named``: a call's counts by the store's names for them → (the counts in that order, 0 for one that
    cannot be read; why they cannot be read, or "")."""
    counts, bad = [], []
    for name, value in named.items():
        n = token_count(value)
        if n is None:
            bad.append(f"{name} is stored as {json_kind(value)}")
            n = 0
        counts.append(n)
    if not bad:
        return counts, ""
    if len(bad) == 1:
        return counts, f"its token count {bad[0]}, not as a number"
    return counts, "its token counts are not numbers: " + ", ".join(bad)


def sizes_problem(tokens, size) -> str:
    """Why a call's ``tokens`` object (``size`` its sizes) holds no counts to read, or "": the call said it
    used tokens (``tokens`` is there, not null) but they are not an object of sizes."""
    if isinstance(tokens, dict) and isinstance(size, dict):
        return ""
    return sizes_problem_of(json_kind(tokens), None if size is None else json_kind(size))


def sizes_problem_of(tokens_kind: str, size_kind: str | None) -> str:
    """:func:`sizes_problem` from what the two are (``JSON_KIND``'s words; ``size_kind`` None: missing), for a
    store whose query tells their types, not their values."""
    if tokens_kind != "an object":
        return f"its tokens are stored as {tokens_kind}, not as an object"
    if size_kind == "an object":
        return ""
    return f"its token sizes are {'missing' if size_kind is None else 'stored as ' + size_kind}, not an object of counts"
