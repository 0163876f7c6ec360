"""Plans, in both places Linggen keeps them, as checklists.

``plans/<slug>.md`` holds ``# Plan: title``, ``**Status:** …`` and items marked ``[x]`` done, ``[~]`` in
progress, ``[ ]`` pending, ``[-]`` skipped (indented lines under an item are its detail). Later versions
keep plans as chat lines whose ``content`` is a JSON string ``{"type": "plan", "plan": {…}}`` with a
summary, a status, items (``pending``, ``in_progress``, ``done``, ``skipped``) and/or free Markdown.
Both become the same Markdown checklist for the detail pane.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from daycare_gui.stores.linggen.readers import text_of

# Marker in the file → the item state; the word used in JSON plans maps to the same states.
MARKERS = {"x": "done", "X": "done", "~": "in progress", " ": "pending", "-": "skipped"}
JSON_STATES = {"done": "done", "completed": "done", "in_progress": "in progress", "pending": "pending",
               "skipped": "skipped", "cancelled": "skipped"}
STATES = ("done", "in progress", "pending", "skipped")

_ITEM = re.compile(r"^(?P<indent>\s*)[-*+]\s+\[(?P<mark>.)\]\s?(?P<text>.*)$")
_STATUS = re.compile(r"^\*\*Status:\*\*\s*(?P<v>.+?)\s*$", re.IGNORECASE)
_ORIGIN = re.compile(r"^\*\*Origin:\*\*\s*(?P<v>.+?)\s*$", re.IGNORECASE)
_TITLE = re.compile(r"^#\s+(?:Plan:\s*)?(?P<v>.+?)\s*$")


@dataclass
class PlanItem:
    state: str  # one of STATES, or "unknown [?]" for a marker Linggen does not write
    text: str
    detail: list[str] = field(default_factory=list)
    line: int = 0


@dataclass
class PlanDoc:
    title: str
    status: str
    origin: str
    items: list[PlanItem]
    unknown_markers: list[int]  # line numbers of items with a marker Linggen does not write

    def tally(self) -> Counter:
        return Counter(i.state for i in self.items)


def parse_plan(text: str, fallback_title: str = "") -> PlanDoc:
    title = status = origin = ""
    items: list[PlanItem] = []
    unknown: list[int] = []
    for number, line in enumerate(text.splitlines(), 1):
        item = _ITEM.match(line)
        if item and not item.group("indent"):
            state = MARKERS.get(item.group("mark"))
            if state is None:
                state = f"unknown [{item.group('mark')}]"
                unknown.append(number)
            items.append(PlanItem(state, item.group("text").strip(), line=number))
            continue
        if items and line.strip() and (line[:1].isspace() or item):
            items[-1].detail.append(line.strip())
            continue
        if not title and (m := _TITLE.match(line)):
            title = m.group("v")
        elif not status and (m := _STATUS.match(line.strip())):
            status = m.group("v")
        elif not origin and (m := _ORIGIN.match(line.strip())):
            origin = m.group("v")
    return PlanDoc(title or fallback_title, status.lower(), origin, items, unknown)


def checklist(title: str, status: str, items: list[PlanItem], extra: str = "", origin: str = "") -> str:
    """The plan as GitHub-style Markdown: done items ticked, in-progress ones marked, skipped ones struck."""
    lines = [f"### {title or 'Plan'}", ""]
    facts = [f"**Status:** {status or 'unknown'}"]
    if origin:
        facts.append(f"**Origin:** {origin}")
    tally = Counter(i.state for i in items)
    if items:
        facts.append(f"**Items:** {tally['done']} of {len(items)} done")
    lines += ["  \n".join(facts), ""]
    for item in items:
        # Detail lines stay under their item on lines of their own (a trailing double space is a hard break).
        parts = [_item_line(item), *(f"  {d}" for d in item.detail)]
        lines += [p + "  " for p in parts[:-1]] + parts[-1:]
    if extra.strip():
        lines += ["", extra.strip()]
    return "\n".join(lines).rstrip() + "\n"


def _item_line(item: PlanItem) -> str:
    text = item.text or "(no text)"
    if item.state == "done":
        return f"- [x] {text}"
    if item.state == "in progress":
        return f"- [ ] {text} — *in progress*"
    if item.state == "skipped":
        return f"- [ ] ~~{text}~~ — *skipped*"
    if item.state == "pending":
        return f"- [ ] {text}"
    return f"- [ ] {text} — *{item.state}*"


def plan_markdown(text: str, fallback_title: str = "") -> str:
    doc = parse_plan(text, fallback_title)
    return checklist(doc.title, doc.status, doc.items, origin=doc.origin)


def json_plan_markdown(plan: object) -> str:
    """A chat line's ``{"type": "plan", "plan": {...}}`` payload as the same checklist."""
    if not isinstance(plan, dict):
        return "### Plan\n\n(the plan is not an object)\n"
    items = []
    for raw in plan.get("items") or []:
        if not isinstance(raw, dict):
            items.append(PlanItem("unknown", text_of(raw)))
            continue
        state = JSON_STATES.get(text_of(raw.get("status")), text_of(raw.get("status")) or "pending")
        item = PlanItem(state, text_of(raw.get("title") or raw.get("content")))
        if raw.get("description"):
            item.detail = text_of(raw.get("description")).splitlines()
        items.append(item)
    return checklist(text_of(plan.get("summary") or plan.get("goal")) or "Plan", text_of(plan.get("status")),
                     items, text_of(plan.get("plan_text")))
