"""Deterministic ids, clocks and paths shared by every demo module.

Everything random comes from a ``random.Random`` seeded with a constant, and every timestamp is an offset
from a fixed base, so two runs produce the same bytes.
"""

from __future__ import annotations

import json
import random
import string

from daycare_gui.stores.demos import FIXED_NOW_MS

SEED = 20260301
NOW_MS = FIXED_NOW_MS  # 2026-03-01T12:00:00Z in ms: "now" as far as the demo data is concerned
MINUTE = 60_000
HOUR = 60 * MINUTE
DAY = 24 * HOUR

# Stored paths are data, not locations: they name the demo user's home on an imaginary machine, so the
# output does not depend on where the demo is written.
FAKE_ROOT = "/home/demo/.daycare"
FAKE_WORKSPACE = f"{FAKE_ROOT}/workspace"


def current_minute_ms() -> int:
    """The wall clock floored to the minute, in ms: a ``now_ms`` that makes the demo look fresh today."""
    import time

    return time.time_ns() // 1_000_000 // MINUTE * MINUTE


_LOWER = string.ascii_lowercase
_ALNUM = string.ascii_lowercase + string.digits


def new_rng(salt: int = 0) -> random.Random:
    return random.Random(SEED + salt)


def cuid(rng: random.Random, length: int = 24) -> str:
    """A cuid2-shaped id: a letter, then lowercase letters and digits (matches ``^[a-z0-9]{24,32}$``)."""
    return rng.choice(_LOWER) + "".join(rng.choices(_ALNUM, k=length - 1))


def token(rng: random.Random, length: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    return "".join(rng.choices(alphabet, k=length))


def dumps(value) -> str:
    """Compact JSON in key order, as Daycare's ``JSON.stringify`` writes its columns."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def pretty(value) -> str:
    """Pretty JSON with a trailing newline, as Daycare writes its JSON files."""
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def iso(ms: int) -> str:
    """ISO-8601 UTC with milliseconds, like JavaScript's ``Date.toISOString``."""
    import datetime as _dt

    dt = _dt.datetime.fromtimestamp(ms / 1000, tz=_dt.timezone.utc)
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"
