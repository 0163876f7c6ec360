"""Masking of secrets for display and logs: every kind masks before a value leaves it."""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Any

from daycare_gui.stores.masking import (
    MASK,
    PAIR_KEY_WORDS,
    TEXT_STEPS,
    MaskStep,
    contains_any,
    has_secret_pair,
    is_secret_key,
    mask_secrets,
    mask_url_credentials,
    mask_value,
    run_steps,
)

# Credentials recognisable by their shape alone, wherever they appear in free text (a key pasted into a
# chat, a token echoed by a tool): the providers' documented prefixes, plus bearer tokens in headers.
_TOKEN = re.compile(
    r"\b(?:sk-[A-Za-z0-9_-]{16,}"  # OpenAI, Anthropic (sk-ant-), OpenRouter (sk-or-)
    r"|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}"  # GitHub
    r"|glpat-[A-Za-z0-9_-]{20,}"  # GitLab
    r"|xox[abposr]-[A-Za-z0-9-]{10,}"  # Slack
    r"|(?:AKIA|ASIA)[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}"  # AWS access key id (long-term, temporary), Google
    r"|eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})"  # a JWT: header.payload.signature
    r"|(?<=Bearer )[A-Za-z0-9._~+/-]{16,}=*"
)


# Literal pieces every token above starts with, and words every secret key (``is_secret_key``) contains:
# substring tests on them are far cheaper than the regular expressions they guard.
_TOKEN_HINTS = ("sk-", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "xox", "AKIA", "ASIA",
                "AIza", "eyJ", "Bearer ")
_LOWER_HINTS = tuple(dict.fromkeys(hint.lower() for hint in _TOKEN_HINTS))
_KEY_WORDS = ("api", "token", "secret", "password", "passwd", "credential", "authorization", "private",
              "cookie", "session")


def _has_token_hint(text: str) -> bool:
    return any(hint in text for hint in _TOKEN_HINTS)


def mask_url(text: str) -> str:
    """``postgresql://me:s3cret@host/db`` → ``postgresql://me:••••••••@host/db``; also ``password=…``.

    One implementation for every kind: the core's (it also runs on every value the Daycare readers show)."""
    return mask_url_credentials(text)


# Every rule of the masker for free text, in order: the core's (URL passwords, secret pairs), then tokens
# recognisable by their shape.
FREE_TEXT_STEPS = (*TEXT_STEPS, MaskStep(_TOKEN, lambda m: mask_value(m.group(0)),
                                         lambda text, lowered: contains_any(lowered, _LOWER_HINTS)))


# A step of FREE_TEXT_STEPS applies only to a text whose lowered form holds one of these: ":/" (a URL's
# password), "passw" (``password=``), a word of a secret key (a pair) or a token's prefix. A text holding
# none is returned as it is after one look at it, not one per step (the search index masks every record it
# indexes, and nearly none holds a secret). A test checks each step's own condition implies one of them.
STEP_HINTS = tuple(dict.fromkeys((":/", "passw", *PAIR_KEY_WORDS, *_LOWER_HINTS)))


# Characters outside ASCII whose lower case holds an ASCII letter (KELVIN SIGN → k, İ → i̇): a text's UTF-8
# with its ASCII letters lowered holds a hint whenever its lowered text does, or one of these (a test checks
# the list against every code point).
ASCII_LOWERING = ("\u0130", "\u212a")
_BYTE_HINTS = tuple(hint.encode() for hint in (*STEP_HINTS, *ASCII_LOWERING))


def texts_to_mask(joined: bytes, sizes: list[int]) -> set[int]:
    """Which texts :func:`mask_free_text` may change, of those in ``joined`` (UTF-8, as SQLite holds them, each
    followed by ``b"\\n"`` but the last; ``sizes`` their lengths in bytes): the others hold no hint and come
    back from it as they are. One look at them all, a pass per hint, is cheaper than a look at each (a search
    index masks every record; nearly none holds a secret)."""
    lowered = joined.lower()  # (ASCII letters only: the others that lower to ASCII are hints of their own)
    out: set[int] = set()
    starts: list[int] = []
    for hint in _BYTE_HINTS:
        found = lowered.find(hint)
        if found >= 0 and not starts:
            at = 0
            for size in sizes:
                starts.append(at)
                at += size + 1
        while found >= 0:  # (a hint never holds "\n": each match is inside one text)
            row = bisect_right(starts, found) - 1
            out.add(row)
            found = lowered.find(hint, starts[row + 1]) if row + 1 < len(starts) else -1
    return out


def mask_free_text(text: str) -> str:
    """Mask every secret recognisable in free text: passwords in URLs, ``"api_key": "…"`` pairs, ``secret: …``
    and ``token=…`` pairs, and tokens with a provider's prefix (``sk-…``, ``ghp_…``, ``AKIA…``, JWTs). The one
    masking function for text leaving the application (screen, exports, copies, search snippets and index)."""
    lowered = text.lower()
    for hint in STEP_HINTS:  # (a loop: cheaper than any() over a generator, on every record indexed)
        if hint in lowered:
            return run_steps(FREE_TEXT_STEPS, text)
    return text


# A URL cut short before its host, as an excerpt's end cuts it ("…" or the end): "scheme://user:secret"
_CUT_URL_PASSWORD = re.compile(r"(\b[A-Za-z][A-Za-z0-9+.-]*:/{1,2}[^\s/?#@:]*:)([^\s/?#@:…]+)(?=…|$)")
SNIPPET_STEPS = (*FREE_TEXT_STEPS,
                 MaskStep(_CUT_URL_PASSWORD, lambda m: m.group(0) if m.group(2).isdigit() else m.group(1) + MASK,
                          lambda text, lowered: ":/" in text))


def mask_snippet(text: str) -> str:
    """:func:`mask_free_text` for an excerpt (a search hit's snippet), whose end may cut a URL before its
    host: a password left just before the cut is masked too (a port, all digits, is not)."""
    return run_steps(SNIPPET_STEPS, text)


def mask_marked_snippet(snippet: str, mark_open: str, mark_close: str, open_: str, close: str) -> str:
    """A search snippet whose matches are wrapped in ``mark_open``/``mark_close`` (the index's markers),
    masked as :func:`mask_snippet` masks it and its matches then wrapped in ``open_``/``close``.

    The masker reads the text without the markers (a marker inside ``sk-proj-…`` or between a key and its
    value would hide the secret from it); the marks are then put back where their text still is. A match
    inside a masked secret marks the whole mask: a mark never splits a mask, nor shows what it hides."""
    raw: list[str] = []
    marked: list[tuple[int, int]] = []  # [start, end) of each match in the unmarked text
    start = None
    for ch in snippet:
        if ch == mark_open:
            start = len(raw) if start is None else start
        elif ch == mark_close:
            if start is not None:
                marked.append((start, len(raw)))
            start = None
        else:
            raw.append(ch)
    if start is not None:
        marked.append((start, len(raw)))
    text = "".join(raw)
    origin = [(i, i + 1) for i in range(len(text))]  # where each character of the masked text came from
    for step in SNIPPET_STEPS:
        if step.applies(text, text.lower()):
            text, origin = _tracked(step, text, origin)
    out: list[str] = []
    inside = False
    for ch, (a, b) in zip(text, origin):
        hit = any(a < end and start < b for start, end in marked)  # (a mask's own characters: a < b)
        if hit != inside:
            out.append(open_ if hit else close)
            inside = hit
        out.append(ch)
    if inside:
        out.append(close)
    return "".join(out)


def _tracked(step: MaskStep, text: str, origin: list[tuple[int, int]]) -> tuple[str, list[tuple[int, int]]]:
    """``step`` run on ``text`` (as :func:`run_steps` runs it), and where each character of the result came
    from: a kept one from its own place, each one of a mask from the whole span it replaced."""
    pieces: list[str] = []
    where: list[tuple[int, int]] = []
    pos = 0
    for m in step.pattern.finditer(text):
        old, new = m.group(0), step.replace(m)
        pieces.append(text[pos:m.start()])
        where.extend(origin[pos:m.start()])
        head = 0  # the replacement keeps the match's start and end as they were (a key, a provider prefix)
        while head < min(len(old), len(new)) and old[head] == new[head]:
            head += 1
        tail = 0
        while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
            tail += 1
        gone = origin[m.start() + head:m.end() - tail]
        at = origin[m.start() + head][0] if m.start() + head < len(origin) else (origin[-1][1] if origin else 0)
        span = (gone[0][0], gone[-1][1]) if gone else (at, at)
        pieces.append(new)
        where.extend(origin[m.start():m.start() + head])
        where.extend([span] * (len(new) - head - tail))
        where.extend(origin[m.end() - tail:m.end()])
        pos = m.end()
    pieces.append(text[pos:])
    where.extend(origin[pos:])
    return "".join(pieces), where


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
    return any(is_secret_key(k) for k in _JSON_KEY.findall(json_text)) or has_secret_pair(json_text)


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


__all__ = ["MASK", "is_secret_key", "mask_free_text", "mask_marked_snippet", "mask_secrets", "mask_snippet",
           "mask_tree", "mask_url", "mask_value", "may_hold_secret", "texts_to_mask"]
