"""Each agent's prompt files: ``agents/<agentId>/SYSTEM.md`` (the last system prompt rendered),
``INFERENCE.md`` (the last request's snapshot) and ``compaction_<yyyymmdd>.md`` (compaction logs).

Daycare rewrites all of them and never reads them back: they are shown read-only, grouped by agent.
"""

from __future__ import annotations

import re
from pathlib import Path

from daycare_gui.stores.daycare.datadir.reading import subfolders
from daycare_gui.stores.daycare.datadir.skills import SkillDoc
from daycare_gui.stores.problems import ProblemLog
from daycare_gui.stores.records import DocRef

PROMPT = "prompt"
_COMPACTION = re.compile(r"^compaction_\d{8}\.md$")
_REASONS = {
    "SYSTEM.md": "Daycare rewrites it whenever the agent's system prompt changes; it never reads it back",
    "INFERENCE.md": "Daycare overwrites it before each inference",
}
_COMPACTION_REASON = "Daycare appends to it at each compaction; it never reads it back"


def find_agent_files(agents_dir: Path, problems: ProblemLog) -> list[SkillDoc]:
    docs: list[SkillDoc] = []
    for agent in subfolders(agents_dir, problems):
        names = []
        try:
            names = sorted(p.name for p in agent.iterdir() if _COMPACTION.match(p.name))
        except OSError as exc:
            problems.add(agent, f"cannot list folder: {exc.strerror or exc}")
        for name in ("SYSTEM.md", "INFERENCE.md", *names):
            path = agent / name
            if not path.is_file() or path.is_symlink():
                continue
            ref = DocRef(f"agent-file:{agent.name}/{name}", name, path, f"Agents' prompt files · {agent.name}",
                         editable=False, frontmatter=False, readonly_reason=_REASONS.get(name, _COMPACTION_REASON),
                         source=PROMPT, thread_id=agent.name)
            docs.append(SkillDoc(ref, PROMPT, agent))
    return docs
