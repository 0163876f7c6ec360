"""Keys a JSON text writes more than once in one object.

Python's ``json`` and JavaScript's ``JSON.parse`` keep only the last of them, so the program that owns the
file sees that one while a text editor (or a splicing save) may change the first: the change would be saved
and never seen. Readers use this to list such objects; writers refuse to touch a repeated key.
"""

from __future__ import annotations

import json
from collections import Counter


class _Pairs(list):
    """One object's (key, value) pairs in file order (json's object_pairs_hook keeps them all)."""


def repeated_keys(text: str) -> dict[tuple, list[str]]:
    """The path of every object with a repeated key (keys and list indexes from the top; ``()`` is the
    top object) → its repeated keys in file order. Empty for text that is not JSON (other checks say so)."""
    try:
        tree = json.loads(text, object_pairs_hook=_Pairs)
    except (ValueError, RecursionError):
        return {}
    out: dict[tuple, list[str]] = {}
    stack = [((), tree)]
    while stack:  # iterative: a deep file must not exhaust the recursion limit here
        path, node = stack.pop()
        if isinstance(node, _Pairs):
            counts = Counter(k for k, _ in node)
            if repeated := [k for k in counts if counts[k] > 1]:
                out[path] = repeated
            stack.extend((path + (k,), v) for k, v in node)
        elif isinstance(node, list):
            stack.extend((path + (i,), v) for i, v in enumerate(node))
    return out
