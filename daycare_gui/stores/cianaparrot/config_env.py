"""``${VAR}`` in the bot's config, filled in as its config loader does, from our best guess at its environment.

The loader (emanueleielo/ciana-parrot@d289c767, ``src/config.py`` ``_expand_env``) replaces only ``${VAR}``
(the pattern ``\\$\\{([^}]+)\\}``) in every string of the merged config, with ``os.environ.get(VAR, "")``: an
unset variable becomes empty; ``$VAR`` and ``~`` stay as written, and the paths are then used as they are,
relative to the bot's working directory.

Whose environment: the bot reads no ``.env`` itself (no dotenv in ``src/``), but its ``docker-compose.yml``
hands the container the ``.env`` beside it (``env_file: .env``), and the container does not see the shell
that started it. So a variable a ``.env`` beside the config sets is taken from there; any other from this
session's environment, which may not be the bot's. Every path that uses a variable gets a note saying which
variable and where its value came from (never the value: ``.env`` holds the bot's keys).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from daycare_gui.stores.common.regular_files import read_regular

BOT_VAR = re.compile(r"\$\{([^}]+)\}")  # the bot's own pattern
OTHER_VAR = re.compile(r"\$[A-Za-z_][A-Za-z0-9_]*")  # what a shell would expand and the bot does not
MAX_ENV_FILE = 1 << 20


def read_env_file(path: Path) -> tuple[dict[str, str] | None, str | None]:
    """``KEY=value`` lines of a compose ``.env`` (``export``, quotes and ``#`` comments as compose reads
    them; no interpolation), or None and why it could not be read; (None, None) when there is none."""
    try:
        if not path.is_file():
            return None, None
        if path.stat().st_size > MAX_ENV_FILE:
            return None, f"{path} is larger than 1 MiB; not read"
        text = read_regular(path).decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        return None, f"{path} could not be read ({type(exc).__name__})"
    out: dict[str, str] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("export "):
            line = line[len("export "):].lstrip()
        key, sep, value = line.partition("=")
        if not sep or not key.strip():
            continue
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        else:
            value = value.split(" #", 1)[0].rstrip()
        out[key.strip()] = value
    return out, None


class BotEnvironment:
    """Where the bot's variables are looked up for a deployment at ``root``; ``.env`` is read only when a
    path uses a variable."""

    def __init__(self, root: Path, session: dict[str, str] | None = None) -> None:
        self.env_file = root / ".env"
        self.session = os.environ if session is None else session
        self._file: dict[str, str] | None = None
        self._file_note: str | None = None
        self._read = False

    def _file_vars(self) -> dict[str, str] | None:
        if not self._read:
            self._file, self._file_note = read_env_file(self.env_file)
            self._read = True
        return self._file

    def expand(self, text: str, what: str) -> tuple[str, list[str]]:
        """``text`` as the bot's loader makes it, and notes on each variable it used and each ``$VAR`` or
        ``~`` it leaves as written."""
        notes: list[str] = []

        def value_of(match: re.Match) -> str:
            name = match.group(1)
            found = self._file_vars()
            if found is not None and name in found:
                notes.append(f"{what} uses ${{{name}}}, taken from {self.env_file} (the bot's "
                             "docker-compose.yml hands that file to the bot)")
                return found[name]
            elsewhere = f" ({self._file_note})" if self._file_note else (
                " (the .env beside the config does not set it)" if found is not None else "")
            if name in self.session:
                notes.append(f"{what} uses ${{{name}}}, taken from this session's environment{elsewhere}; "
                             "the bot's environment may differ")
                return self.session[name]
            notes.append(f"{what} uses ${{{name}}}, which this session's environment does not set{elsewhere}: "
                         "taken as empty, as the bot takes an unset variable; the bot's environment may set it")
            return ""

        expanded = BOT_VAR.sub(value_of, text)
        literal = BOT_VAR.sub("", text)  # (a $NAME that came from a variable's value is no longer in sight)
        for name in dict.fromkeys(OTHER_VAR.findall(literal)):
            notes.append(f"{what} holds {name}, which the bot does not expand (only ${{VAR}}): it is part of "
                         "the path as written")
        if expanded.startswith("~"):
            notes.append(f"{what} starts with ~, which the bot does not expand: it is a folder named ~ in its "
                         "working directory")
        return expanded, notes
