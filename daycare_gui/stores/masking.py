"""Masking of secrets: API keys and tokens never leave a reader unmasked for display or logs."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
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
# A value masked already is left as it is (masking twice must not eat the ": reason" after a URL's mask).
_KV_PASSWORD = re.compile(rf"(?P<head>\b(?:ssl)?password=)(?P<password>{MASK}|[^\s&;]+)", re.IGNORECASE)
# "some_token": "value" in JSON text (a diff line, an error message quoting the file).
_JSON_SECRET_PAIR = re.compile(r'"(?P<key>[^"\\]{1,80})"(?P<sep>\s*:\s*)"(?P<value>(?:[^"\\]|\\.)*)"')


def is_secret_key(key: str) -> bool:
    k = key.lower()
    if k in _NOT_SECRET:
        return False
    return bool(_SECRET_KEY.search(k))


class MaskStep:
    """One rule of the masker: ``pattern``'s matches become ``replace(match)`` in texts that pass the cheap
    ``applies(text, text.lower())`` test (substring tests: most texts hold no secret, and the search index
    masks every record it indexes). Every masking function runs a sequence of these, so one that must keep
    track of where each character came from (a search snippet's highlights,
    :mod:`daycare_gui.stores.common.secrets`) runs exactly the same rules."""

    __slots__ = ("pattern", "replace", "applies")

    def __init__(self, pattern: re.Pattern, replace: Callable[[re.Match], str],
                 applies: Callable[[str, str], bool]) -> None:
        self.pattern, self.replace, self.applies = pattern, replace, applies


def run_steps(steps: Sequence[MaskStep], text: str) -> str:
    lowered = text.lower()
    for step in steps:
        if step.applies(text, lowered):
            masked = step.pattern.sub(step.replace, text)
            if masked != text:
                text, lowered = masked, masked.lower()
    return text


def contains_any(lowered: str, words: Sequence[str]) -> bool:
    for word in words:  # (a loop: cheaper than any() over a generator, on every record indexed)
        if word in lowered:
            return True
    return False


def _json_pair(m: re.Match) -> str:
    if not is_secret_key(m.group("key")):
        return m.group(0)
    return f'"{m.group("key")}"{m.group("sep")}"{mask_value(m.group("value"))}"'


def _masked_group(m: re.Match, group: str, masked: str) -> str:
    """The match with only ``group`` replaced by ``masked``."""
    start, end = m.span(group)
    whole = m.group(0)
    return whole[:start - m.start()] + masked + whole[end - m.start():]


def _free_pair(m: re.Match) -> str:
    key = m.group("key")
    if not is_secret_key(key) or key.lower().endswith("tokens"):  # (prompt_tokens: 12 is a count)
        return m.group(0)
    group = "quoted" if m.group("quoted") is not None else "bare"
    if MASK in m.group(group):  # masked already (by a rule before this one): its hint stays
        return m.group(0)
    return _masked_group(m, group, mask_value(m.group(group)))


# A secret-looking key followed by ``:`` or ``=`` and a value, in free text: ``secret: xyz``, ``token=abc``,
# ``OPENAI_API_KEY=sk-…``, ``"client_secret": "abc`` (a JSON pair cut before its closing quote, as an
# excerpt's end cuts it), ``\"password\": \"x\"`` (JSON quoted inside a JSON string). A value in quotes
# runs to its quote, a line's end or an ellipsis; a bare one to a space or a delimiter; an HTTP auth scheme
# (``Authorization: Bearer …``) goes with its credential. null, true and false are not secrets.
_FREE_SECRET_PAIR = re.compile(
    r"""(?<![A-Za-z0-9_.\-])(?P<kq>\\?["']?)(?P<key>[A-Za-z0-9_.-]{0,60}?"""
    r"""(?:api[_-]?key|token|secret|passw(?:or)?d|credential|authorization|private[_-]?key|cookie|session[_-]?key)"""
    r"""[A-Za-z0-9_.-]{0,60}?)(?P=kq)[ \t]*[:=][ \t]*"""
    r"""(?:\\?["'](?P<quoted>[^"'\\\n…]+)"""
    r"""|(?P<bare>(?!(?:null|true|false)\b)(?:(?:Bearer|Basic|Token|Bot|Digest)[ ]+)?[^\s"'\\,;&=<>(){}\[\]…]+))""",
    re.IGNORECASE,
)
# Words every secret key (is_secret_key) holds, lowered: a text without any has no pair to mask.
PAIR_KEY_WORDS = ("api", "token", "secret", "passw", "credential", "authorization", "private", "cookie", "session")


def has_secret_pair(text: str) -> bool:
    """Whether ``text`` holds a value after a secret-looking key that :func:`mask_text` would mask."""
    return (contains_any(text.lower(), PAIR_KEY_WORDS)
            and any(_free_pair(m) != m.group(0) for m in _FREE_SECRET_PAIR.finditer(text)))


URL_STEPS = (
    MaskStep(_URL_PASSWORD, lambda m: m.group("head") + (MASK if m.group("password") else "") + m.group("at"),
             lambda text, lowered: ":/" in text and "@" in text),
    MaskStep(_KV_PASSWORD, lambda m: m.group("head") + MASK, lambda text, lowered: "password=" in lowered),
)
# Complete JSON pairs first (their value may hold spaces), then pairs in any other spelling. A secret key
# holds one of the key words (is_secret_key), so a text without any has no pair to mask.
TEXT_STEPS = (
    *URL_STEPS,
    MaskStep(_JSON_SECRET_PAIR, _json_pair, lambda text, lowered: '"' in text and contains_any(lowered, PAIR_KEY_WORDS)),
    MaskStep(_FREE_SECRET_PAIR, _free_pair, lambda text, lowered: contains_any(lowered, PAIR_KEY_WORDS)),
)


def mask_url_credentials(text: str) -> str:
    """``postgresql://user:secret@host/db`` → ``postgresql://user:••••••••@host/db``, anywhere in ``text``;
    also ``password=…`` of a connection string."""
    return run_steps(URL_STEPS, text)


def mask_text(text: str) -> str:
    """Mask what looks secret in free text: passwords inside URLs, ``"secret_key": "value"`` pairs and a
    value after a secret-looking key in any other spelling (``secret: xyz``, ``api_key=…``)."""
    return run_steps(TEXT_STEPS, text)


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
