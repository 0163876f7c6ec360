"""Ids the migrations generate: cuid2-shaped row ids and Daycare-style nametags.

Both draw from an injected :class:`random.Random`, so a test can seed it and get the same ids every run.
Real upgrades use :class:`random.SystemRandom` (ids must not collide across machines, like cuid2's).
"""

from __future__ import annotations

import random
import re
import string

CUID2_LENGTH = 24
_LETTERS = string.ascii_lowercase
_ALPHANUMERIC = string.ascii_lowercase + string.digits
# What Daycare's import accepts as a cron taskId (`cuid2Is`): 24–32 lowercase letters/digits.
CUID2_PATTERN = re.compile(r"[a-z0-9]{24,32}")

# Daycare builds nametags as <adjective><noun><3 digits>, e.g. "realisticcontinuance748".
_ADJECTIVES = (
    "amber", "bold", "brave", "bright", "calm", "clever", "cosmic", "crisp", "curious", "daring",
    "eager", "fancy", "gentle", "golden", "happy", "honest", "jolly", "keen", "lively", "lucky",
    "mellow", "merry", "nimble", "noble", "patient", "polite", "proud", "quiet", "rapid", "realistic",
    "silent", "smart", "steady", "sunny", "swift", "tidy", "vivid", "warm", "wise", "witty",
)
_NOUNS = (
    "anchor", "badger", "beacon", "canyon", "cedar", "comet", "continuance", "coral", "falcon", "forest",
    "galaxy", "garden", "harbor", "heron", "island", "lantern", "maple", "meadow", "meteor", "otter",
    "orchard", "panda", "pebble", "planet", "prairie", "quartz", "raven", "river", "rocket", "sparrow",
    "summit", "thunder", "tiger", "valley", "voyage", "walrus", "willow", "zephyr", "ember", "harvest",
)


class IdSource:
    """Generates cuid2-shaped ids and nametags from one random stream."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self._rng = rng if rng is not None else random.SystemRandom()

    def cuid2(self) -> str:
        """24 characters: a lowercase letter, then lowercase letters and digits (the shape cuid2 produces)."""
        first = self._rng.choice(_LETTERS)
        rest = "".join(self._rng.choice(_ALPHANUMERIC) for _ in range(CUID2_LENGTH - 1))
        return first + rest

    def nametag(self) -> str:
        return f"{self._rng.choice(_ADJECTIVES)}{self._rng.choice(_NOUNS)}{self._rng.randrange(1000):03d}"

    def unique_nametag(self, taken: set[str], attempts: int = 1000) -> str:
        for _ in range(attempts):
            candidate = self.nametag()
            if candidate not in taken:
                return candidate
        raise RuntimeError("could not generate a unique nametag")


def is_cuid2(value: str) -> bool:
    return CUID2_PATTERN.fullmatch(value) is not None
