"""Masking of secrets: API keys and tokens never leave the core unmasked for display or logs."""

from __future__ import annotations

import re
from typing import Any

# Keys whose values are secrets wherever they appear (auth.json entries, provider options, env maps).
_SECRET_KEY = re.compile(
    r"(api[_-]?key|token|secret|password|passwd|credential|authorization|private[_-]?key|cookie|session[_-]?key)",
    re.IGNORECASE,
)
# Keys that contain a secret-looking word but are not secrets.
_NOT_SECRET = {"type", "tokens", "tokenlimit", "maxtokens", "max_tokens", "passwordhash_enabled"}

MASK = "••••••••"

# scheme://user:password@host — the password part (up to the last '@' before the host's path). One slash is
# accepted too: a URL that went through path normalisation (a db path setting holding a URL) loses one.
_URL_PASSWORD = re.compile(r"(?P<head>\b[A-Za-z][A-Za-z0-9+.-]*:/{1,2}[^\s/?#@:]*:)(?P<password>[^\s/?#]*)(?P<at>@)")
# key=value pairs of libpq connection strings and query strings: password=..., sslpassword=...
_KV_PASSWORD = re.compile(r"(?P<head>\b(?:ssl)?password=)(?P<password>[^\s&;]+)", re.IGNORECASE)
# "some_token": "value" in JSON text (a diff line, an error message quoting the file).
_JSON_SECRET_PAIR = re.compile(r'"(?P<key>[^"\\]{1,80})"(?P<sep>\s*:\s*)"(?P<value>(?:[^"\\]|\\.)*)"')


def is_secret_key(key: str) -> bool:
    k = key.lower()
    if k in _NOT_SECRET:
        return False
    return bool(_SECRET_KEY.search(k))


def mask_url_credentials(text: str) -> str:
    """``postgresql://user:secret@host/db`` → ``postgresql://user:••••••••@host/db``, anywhere in ``text``;
    also ``password=…`` of a connection string."""
    if ":/" in text and "@" in text:
        text = _URL_PASSWORD.sub(lambda m: m.group("head") + (MASK if m.group("password") else "") + m.group("at"),
                                 text)
    if "=" in text and "password=" in text.lower():
        text = _KV_PASSWORD.sub(lambda m: m.group("head") + MASK, text)
    return text


def mask_text(text: str) -> str:
    """Mask what looks secret in free text: passwords inside URLs and ``"secret_key": "value"`` pairs."""
    text = mask_url_credentials(text)
    if '"' not in text:
        return text

    def pair(m: re.Match) -> str:
        if not is_secret_key(m.group("key")):
            return m.group(0)
        return f'"{m.group("key")}"{m.group("sep")}"{mask_value(m.group("value"))}"'

    return _JSON_SECRET_PAIR.sub(pair, text)


def mask_value(value: Any) -> str:
    """Show that a secret exists without revealing it: a fixed mask plus at most a 3-char hint of its kind."""
    if value is None or value == "":
        return ""
    if not isinstance(value, str):
        return MASK
    prefix = value[:3] if len(value) >= 12 and re.match(r"^[a-z]{2,3}[-_]", value) else ""
    return f"{prefix}{MASK}"


# Deeper than this, a value is not walked (Python's recursion limit is near) but replaced whole: whatever
# secret it may hold stays hidden.
MAX_MASK_DEPTH = 200
TOO_DEEP = "… (nested too deeply to show)"


def mask_secrets(obj: Any, *, all_strings: bool = False, _depth: int = 0) -> Any:
    """Return a deep copy of ``obj`` with every secret value masked.

    ``all_strings`` masks every string leaf (used for auth.json, where any field may be a credential
    except the entry ``type``). Containers nested deeper than ``MAX_MASK_DEPTH`` become ``TOO_DEEP``.
    """
    if isinstance(obj, (dict, list)) and _depth >= MAX_MASK_DEPTH:
        return TOO_DEEP
    if isinstance(obj, dict):
        out = {}
        for key, value in obj.items():
            if isinstance(value, (dict, list)):
                out[key] = mask_secrets(value, all_strings=all_strings, _depth=_depth + 1)
            elif is_secret_key(str(key)) or (all_strings and isinstance(value, str) and key != "type"):
                out[key] = mask_value(value)
            else:
                out[key] = mask_url_credentials(value) if isinstance(value, str) else value
        return out
    if isinstance(obj, list):
        return [mask_secrets(v, all_strings=all_strings, _depth=_depth + 1) for v in obj]
    if isinstance(obj, str):
        return mask_url_credentials(obj)
    return obj
