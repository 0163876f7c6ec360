"""Masking of secrets for display and logs: every kind masks before a value leaves it."""

from __future__ import annotations

import re
from typing import Any

from daycare_gui.core.secrets import (
    MASK,
    is_secret_key,
    mask_secrets,
    mask_text,
    mask_url_credentials,
    mask_value,
)

# Credentials recognisable by their shape alone, wherever they appear in free text (a key pasted into a
# chat, a token echoed by a tool): the providers' documented prefixes, plus bearer tokens in headers.
_TOKEN = re.compile(
    r"\b(?:sk-[A-Za-z0-9_-]{16,}"  # OpenAI, Anthropic (sk-ant-), OpenRouter (sk-or-)
    r"|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}"  # GitHub
    r"|glpat-[A-Za-z0-9_-]{20,}"  # GitLab
    r"|xox[abposr]-[A-Za-z0-9-]{10,}"  # Slack
    r"|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35})"  # AWS access key id, Google API key
    r"|(?<=Bearer )[A-Za-z0-9._~+/-]{16,}=*"
)


# Literal pieces every token above starts with, and words every secret key (``is_secret_key``) contains:
# substring tests on them are far cheaper than the regular expressions they guard.
_TOKEN_HINTS = ("sk-", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "xox", "AKIA", "AIza",
                "Bearer ")
_KEY_WORDS = ("api", "token", "secret", "password", "passwd", "credential", "authorization", "private",
              "cookie", "session")


def _has_token_hint(text: str) -> bool:
    return any(hint in text for hint in _TOKEN_HINTS)


def mask_url(text: str) -> str:
    """``postgresql://me:s3cret@host/db`` → ``postgresql://me:••••••••@host/db``; also ``password=…``.

    One implementation for every kind: the core's (it also runs on every value the Daycare readers show)."""
    return mask_url_credentials(text)


def mask_free_text(text: str) -> str:
    """Mask every secret recognisable in free text: passwords in URLs, ``"api_key": "…"`` pairs and tokens
    with a provider's prefix (``sk-…``, ``ghp_…``). For text leaving the application (exports, copies)."""
    text = mask_text(text)
    if _has_token_hint(text):
        text = _TOKEN.sub(lambda m: mask_value(m.group(0)), text)
    return text


# A URL cut short before its host, as an excerpt's end cuts it ("…" or the end): "scheme://user:secret"
_CUT_URL_PASSWORD = re.compile(r"(\b[A-Za-z][A-Za-z0-9+.-]*:/{1,2}[^\s/?#@:]*:)([^\s/?#@:…]+)(?=…|$)")


def mask_snippet(text: str) -> str:
    """:func:`mask_free_text` for an excerpt (a search hit's snippet), whose end may cut a URL before its
    host: a password left just before the cut is masked too (a port, all digits, is not)."""
    text = mask_free_text(text)
    if ":/" in text:
        text = _CUT_URL_PASSWORD.sub(lambda m: m.group(0) if m.group(2).isdigit() else m.group(1) + MASK, text)
    return text


# In JSON text: every object key (`"key":`), and keys of JSON quoted inside a string (`\"key\":`).
_JSON_KEY = re.compile(r'"([^"\\]*(?:\\.[^"\\]*)*)"\s*:')  # "unrolled": no per-character alternation
_QUOTED_KEY = re.compile(r'\\"([^"\\]{1,80})\\"\s*:')


def may_hold_secret(json_text: str) -> bool:
    """Whether :func:`mask_tree` could change the value serialised (by ``json.dumps``, ``ensure_ascii``
    off) as ``json_text``. A cheap look at the text first lets exports skip the walk for the many records
    with nothing secret; it errs towards yes."""
    if ("@" in json_text and ":/" in json_text) or "password=" in json_text.lower():
        return True
    if _has_token_hint(json_text) and _TOKEN.search(json_text):
        return True
    lowered = json_text.lower()
    if not any(word in lowered for word in _KEY_WORDS):  # no key anywhere can be a secret's: the usual case
        return False
    if '\\"' in json_text and any(is_secret_key(k) for k in _QUOTED_KEY.findall(json_text)):
        return True
    return any(is_secret_key(k) for k in _JSON_KEY.findall(json_text))


def mask_tree(value: Any) -> Any:
    """A copy of JSON-like ``value`` with secrets masked: values under secret-looking keys (as
    :func:`mask_secrets` does), and secrets in every other string (see :func:`mask_free_text`). Keys,
    structure and other values stay as they were. One walk: exports call it on every record."""
    if isinstance(value, str):
        return mask_free_text(value)
    if isinstance(value, dict):
        return {k: (mask_tree(v) if isinstance(v, (dict, list)) or not is_secret_key(str(k)) else mask_value(v))
                for k, v in value.items()}
    if isinstance(value, list):
        return [mask_tree(v) for v in value]
    return value


__all__ = ["MASK", "is_secret_key", "mask_free_text", "mask_secrets", "mask_snippet", "mask_tree", "mask_url",
           "mask_value", "may_hold_secret"]
