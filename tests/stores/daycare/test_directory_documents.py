"""Quick open (Jump To) on a Daycare SQLite store lists the documents its search covers beside its skills and
memory: agents' prompt files and settings.json/auth.json, each opening in the section that shows it."""

from __future__ import annotations

from daycare_gui.stores import registry
from daycare_gui.stores.api import Directory
from daycare_gui.stores.daycare.demo import write_demo


def test_prompt_files_and_settings_are_listed_and_routed(tmp_path):
    from daycare_gui.ui.panes.generic import route_for

    dest = tmp_path / "daycare"
    write_demo(dest)
    agent = next(p for p in sorted((dest / "agents").iterdir()) if p.is_dir())
    (agent / "SYSTEM.md").write_text("You keep the quokkas.\n")
    with registry.open_store(dest) as store:
        entries = {e.key: e for e in store.capability(Directory).entries() if e.kind == "doc"}
        prompt = entries[f"agent-file:{agent.name}/SYSTEM.md"]
        assert prompt.label == f"SYSTEM.md — agent {agent.name}" and str(agent / "SYSTEM.md") in prompt.detail
        assert route_for(store, prompt) == ("agent_files", prompt.key)  # its page, as on today's stores
        settings = entries["settings:settings.json"]
        assert route_for(store, settings) == ("settings", None)
        skills = [e for e in entries.values() if e.detail.startswith("skill ·")]
        assert skills and route_for(store, skills[0])[0] == "skills"  # as before
