"""Linggen's flat-layout missions as scheduled tasks: the schedule in words, the next runs, the last run.

A flat mission (``missions/<id>/mission.md``) is Linggen's scheduled work: its frontmatter's ``schedule``
(a cron expression, in the machine's time) and ``enabled`` say when it runs, its body is the prompt, and
``runs.jsonl`` beside it records each run. Per-project missions have no schedule (the active one steers the
project's agents) and stay in the Missions list. The mission's file is its one copy; it is edited on the
Documents page, whose save asks first while Linggen runs.
"""

from __future__ import annotations

from daycare_gui.stores import api
from daycare_gui.stores.common.secrets import mask_secrets
from daycare_gui.stores.linggen.inventory import FLAT
from daycare_gui.stores.linggen.missions import Mission
from daycare_gui.stores.linggen.readers import text_of
from daycare_gui.stores.records import DocRef, TaskCopy, TaskItem

_MISSIONS = "Missions"  # the Documents group mission.md files are listed in (documents.py)


class LinggenTasks(api.Tasks):
    reader = "Linggen"

    def __init__(self, missions: list[Mission]) -> None:
        self.missions = [m for m in missions if m.layout == FLAT]

    def groups(self) -> tuple[tuple[str, str], ...]:
        return (("cron", "Missions"),)

    def tasks(self) -> list[TaskItem]:
        return [self._item(m) for m in self.missions]

    def count(self) -> int | None:
        return len(self.missions)

    def _item(self, m: Mission) -> TaskItem:
        folder = m.path.parent.name
        runs = ", ".join(f"{n} {s}" for s, n in sorted(m.runs.items())) or "none yet"
        read = m.state in ("enabled", "disabled")  # unreadable: Linggen skips the file
        reason = ("Linggen runs the mission from its mission.md" if read else
                  m.problem or "Linggen cannot read this mission.md")
        return TaskItem(
            id=f"mission:{folder}", title=m.title, schedule_kind="cron",
            schedule=text_of(m.data.get("schedule")), enabled=m.state == "enabled",
            last_run_at=m.last_run_ms, source=str(m.path), body=m.text,
            document=DocRef(f"mission:{folder}", folder, m.path, _MISSIONS),
            meta=(("Project", m.project), ("Runs", runs), ("Flags", ", ".join(m.flags))),
            raw=mask_secrets(m.data) or None, problem=m.problem,
            copies=(TaskCopy("mission.md", str(m.path), read, reason),))
