"""A row of today's Daycare as the window, the command line and exports show it: secrets masked
(:func:`masked_row`), values JSON-friendly (:func:`plain_values`), the text that reads as its Markdown
(:func:`markdown_of`).

Below the store, its capabilities, its lists and its users, which all show rows: the store kept the masking
and the capabilities the rest, and each imported the other for them.
"""

from __future__ import annotations

import datetime as _dt

from daycare_gui.stores.common.secrets import mask_secrets, mask_value


def masked_row(row: dict, table: str | None = None) -> dict:
    """A row for display: secret columns (tokens, passwords) and secret keys inside JSON masked.

    Two columns hold credentials under names that do not say so: every value of a process environment
    (``DATABASE_URL``, ``GH_PAT``, ...), and the one-time value of an auth verification.
    """
    out = mask_secrets(row)
    if out.get("env") is not None and (table in (None, "processes")):
        out["env"] = mask_secrets(out["env"], all_strings=True) if isinstance(out["env"], (dict, list)) \
            else mask_value(out["env"])
    if table == "app_auth_verifications" and out.get("value") is not None:
        out["value"] = mask_value(out["value"])
    return out


def plain_values(row: dict | None) -> dict:
    """JSON-friendly values (timestamps as ISO text, lists kept)."""
    if row is None:
        return {}
    out = {}
    for k, v in row.items():
        out[k] = v.isoformat() if isinstance(v, (_dt.datetime, _dt.date)) else v
    return out


def markdown_of(table: str, row: dict) -> str | None:
    for key in ("prompt", "message", "text", "system_prompt", "code", "description"):
        value = row.get(key)
        if isinstance(value, str) and value.strip():
            return value
    return None
