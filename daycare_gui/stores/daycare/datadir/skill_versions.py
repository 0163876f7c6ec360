"""A personal skill's earlier versions (``skills-history/<name>/versions/<n>/SKILL.md``), each with what
changed from it to the skill as it is now, as a unified diff (both sides read bounded)."""

from __future__ import annotations

import difflib

from daycare_gui.stores.daycare.datadir.config import Entry
from daycare_gui.stores.daycare.datadir.reading import read_capped, text_of
from daycare_gui.stores.daycare.datadir.skills import HISTORY, PERSONAL, SkillDoc
from daycare_gui.stores.problems import ProblemLog

DIFF_INPUT_LIMIT = 200_000  # bytes of each side compared; a larger skill is listed without its diff
DIFF_LINES = 2000  # lines of diff shown


def _text(doc: SkillDoc, problems: ProblemLog) -> str | None:
    data = read_capped(doc.ref.path, doc.folder, problems, DIFF_INPUT_LIMIT) if doc.ref.path else None
    return None if data is None else text_of(data)


def version_entries(files: list[SkillDoc], problems: ProblemLog) -> list[Entry]:
    current = {(d.user_id, d.ref.path.parent.name): d for d in files
               if d.source == PERSONAL and d.ref.path is not None and d.ref.path.parent != d.folder}
    out = []
    for doc in files:
        if doc.source != HISTORY or doc.ref.path is None:
            continue
        # <user>/skills-history/<name>/versions/<n>/SKILL.md: the skill's name is the folder above versions/
        name, version = doc.folder.parent.parent.name, doc.folder.name
        now = current.get((doc.user_id, name))
        old_text = _text(doc, problems)
        new_text = _text(now, problems) if now is not None else None
        if now is None:
            change, markdown = "the personal skill is gone", None
        elif old_text is None or new_text is None:
            change, markdown = "not compared (unreadable or too large)", None
        else:
            lines = list(difflib.unified_diff(old_text.splitlines(), new_text.splitlines(),
                                              f"version {version}", "now", lineterm=""))
            added = sum(1 for x in lines if x.startswith("+") and not x.startswith("+++"))
            removed = sum(1 for x in lines if x.startswith("-") and not x.startswith("---"))
            change = f"+{added} −{removed} lines" if lines else "same as now"
            shown = lines[:DIFF_LINES] + (["… (diff cut)"] if len(lines) > DIFF_LINES else [])
            markdown = "```diff\n" + "\n".join(shown) + "\n```" if lines else None
        out.append(Entry(doc.ref.id, (doc.user_id, name, version, change),
                         {"user": doc.user_id, "skill": name, "version": version, "path": str(doc.ref.path)},
                         markdown))
    return out
