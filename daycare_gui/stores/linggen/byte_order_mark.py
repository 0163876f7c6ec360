"""Which of Linggen's readers a UTF-8 byte-order mark at the start of a file breaks, and how to say so.

Python's readers here would skip the mark; Linggen's (Rust, linggen-agent 2d9569b4 and 2f5cb3fe) mostly do
not, so a file that looks fine here can be one Linggen cannot read:

- JSON files (``serde_json::from_str`` on the whole text: project.json, runs, missions, agent overrides,
  credentials.json, permissions.json): U+FEFF is not JSON whitespace, so the file does not parse, and
  Linggen treats it as any unparseable one (skips it, or takes it as empty).
- JSONL lines (messages.jsonl, a flat mission's runs.jsonl): each line goes to ``serde_json::from_str``
  after ``str::trim``, which keeps U+FEFF (it is not Unicode White_Space): that line is skipped.
- Markdown frontmatter (agents, skills, flat missions): Linggen tests ``starts_with("---")`` before any
  YAML is parsed. Behind a mark it finds none: an agent or skill is not loaded; a mission is read as one
  without settings (disabled, no schedule), its whole text, frontmatter included, as the prompt.
- Plans are read line by line with ``str::trim``: the ``# Plan:`` title on the first line is not seen.
- session.yaml goes to serde_yml, whose libyaml scanner skips a mark at the start: accepted, not flagged.

The config TOML files are not read by this app (only their presence is probed), so none is said here.
"""

from __future__ import annotations

from pathlib import Path

from daycare_gui.stores.common.regular_files import open_regular

BOM = b"\xef\xbb\xbf"
BOM_CHAR = "\ufeff"

# What every message starts with, so the user finds the same words in every list.
STARTS_WITH_BOM = "starts with a UTF-8 byte-order mark"
REMOVE_BOM = "remove the mark (save the file as UTF-8 without BOM)"
JSON_UNREAD = f"{STARTS_WITH_BOM}, which Linggen cannot parse (its JSON reader rejects the mark)"
JSONL_LINE_UNREAD = f"{STARTS_WITH_BOM}, which Linggen cannot parse: it skips this line"
AGENT_UNREAD = (f"{STARTS_WITH_BOM}: Linggen looks for the frontmatter's opening --- at the very first byte, "
                "finds none and does not load this file")
MISSION_UNREAD = (f"{STARTS_WITH_BOM}: Linggen looks for the frontmatter's opening --- at the very first byte, "
                  "finds none and reads this mission without its settings (disabled, no schedule), its whole "
                  "text as the prompt")
PLAN_TITLE_UNSEEN = f"{STARTS_WITH_BOM}: Linggen does not see the '# Plan:' title on its first line"


def starts_with_bom(data: bytes | str | None) -> bool:
    if isinstance(data, str):
        return data.startswith(BOM_CHAR)
    return data is not None and data.startswith(BOM)


def file_starts_with_bom(path: Path | None) -> bool:
    """The file's first bytes are the mark (a missing or unreadable file: no)."""
    if path is None:
        return False
    try:
        with open_regular(path) as handle:
            return handle.read(len(BOM)) == BOM
    except OSError:
        return False


def save_keeps_bom(what_breaks: str) -> str:
    """A save refusal for text that still starts with the mark: "save anyway" keeps it, so that is said."""
    return (f"The text {what_breaks}. Saving keeps the mark; {REMOVE_BOM} in another editor first, "
            "or save anyway to keep it")
