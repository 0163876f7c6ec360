"""Whole-file JSON reading: a value or None, plus Problems with the line of a syntax error."""

from __future__ import annotations

import json
import os
from typing import Any

from daycare_gui.stores.common.files.read import Root, read_text
from daycare_gui.stores.problems import Problem

_KIND = {dict: "a JSON object", list: "a JSON array"}


def _reject_constant(name: str):
    # Python accepts NaN/Infinity; JavaScript's JSON.parse (what Daycare uses) does not.
    raise ValueError(f"{name} is not valid JSON")


def parse_json(text: str, path: str | os.PathLike, *, line_offset: int = 0,
               python_constants: bool = False) -> tuple[Any, Problem | None]:
    """Parse one JSON text; on failure a Problem with the 1-based line (plus ``line_offset``).

    ``python_constants`` reads NaN, Infinity and -Infinity as numbers, as Python's ``json`` does: only for
    files a Python program reads and writes (CianaParrot's), where refusing them would hide the file."""
    try:
        return json.loads(text, parse_constant=None if python_constants else _reject_constant), None
    except json.JSONDecodeError as exc:
        return None, Problem(
            str(path), exc.lineno + line_offset, f"not valid JSON: {exc.msg} (column {exc.colno})"
        )
    except (ValueError, RecursionError) as exc:
        return None, Problem(str(path), (line_offset + 1) if line_offset else None, f"not valid JSON: {exc}")


def read_json(
    path: str | os.PathLike, *, root: Root = None, expect: type | None = None, python_constants: bool = False
) -> tuple[Any, list[Problem]]:
    """The parsed file, or None when it is missing (no problem) or broken (a Problem says why).

    ``expect`` (``dict`` or ``list``) turns a value of another kind into a Problem and a None result,
    because every Daycare JSON file has a fixed top-level kind. ``python_constants``: see :func:`parse_json`.
    """
    text, problems = read_text(path, root=root)
    if text is None:
        return None, problems
    if not text.strip():
        problems.append(Problem(str(path), None, "empty file (expected JSON)"))
        return None, problems
    value, problem = parse_json(text, path, python_constants=python_constants)
    if problem is not None:
        problems.append(problem)
        return None, problems
    if expect is not None and not isinstance(value, expect):
        problems.append(
            Problem(
                str(path), None, f"expected {_KIND.get(expect, expect.__name__)}, found {type_name(value)}"
            )
        )
        return None, problems
    return value, problems


def type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
