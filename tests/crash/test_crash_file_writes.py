"""SIGKILL at random moments during every file write of Linggen (documents, permission files) and
CianaParrot (task edits and the counter repair, each backed up first; skill documents): after each kill the
file is the old or the new state byte for byte, every backup is a whole copy of a state the file had, a
rerun succeeds and, after it, no temporary file stays (in the file's folder or the backup folder)."""

from __future__ import annotations

import json
import shutil

import pytest

from daycare_gui.stores.common import leftovers
from tests.crash import harness, writers
from tests.crash.writers import CHILD

pytestmark = pytest.mark.slow

def _linggen_home(tmp_path):
    from tests.stores.linggen.builder import permissions_file, standard_home

    ws = tmp_path / "repo"
    ws.mkdir(parents=True)
    home = standard_home(tmp_path / "home", ws)
    perms = permissions_file(ws, '{\n  "tool_allows": [],\n  "keep": "me"\n}\n')
    return home.root, home.root / "agents" / "ling.md", perms


def test_linggen_document_and_permission_saves_killed_at_random_moments(tmp_path, capsys):
    root, doc, perms = _linggen_home(tmp_path / "probe")
    writers.ROUNDS["linggen"](root, 0)  # one of each: the first states
    doc_states, perm_states = {doc.read_bytes()}, {perms.read_bytes()}
    duration = harness.run_to_end(CHILD, "linggen", str(root), "12")
    doc_states.add(doc.read_bytes())
    perm_states.add(perms.read_bytes())

    rng, tally = harness.rng(), harness.Tally()
    for trial in range(harness.trials(4)):
        root, doc, perms = _linggen_home(tmp_path / f"t{trial}")
        doc_states.add(doc.read_bytes())
        perm_states.add(perms.read_bytes())
        outcome = harness.kill_after(CHILD, rng.uniform(0, duration), "linggen", str(root), "12")
        assert doc.read_bytes() in doc_states, f"trial {trial}: a torn document"
        assert perms.read_bytes() in perm_states, f"trial {trial}: a torn permissions file"
        assert json.loads(perms.read_bytes())["keep"] == "me"
        litter = leftovers.in_folder(doc.parent) + leftovers.in_folder(perms.parent)
        assert all(lo.what == leftovers.SAVE and lo.removable for lo in litter)
        tally[f"{outcome}{'+litter' if litter else ''}"] += 1
        for i in (0, 1):  # the rerun (twice: a save of unchanged bytes writes nothing)
            writers.ROUNDS["linggen"](root, i)
        assert leftovers.in_folder(doc.parent) == [] and leftovers.in_folder(perms.parent) == []
        assert sorted(p.name for p in perms.parent.iterdir()) == ["permissions.json"]
    with capsys.disabled():
        print("\n" + tally.line(f"Linggen save kills ({sum(tally.values())} trials of 12 document + 12 "
                                f"permission saves, {duration:.2f}s)"))


def test_cianaparrot_writes_killed_at_random_moments(tmp_path, capsys):
    from tests.stores.cianaparrot.builder import make_deployment

    template = make_deployment(tmp_path / "template")
    files = {"tasks": "data/scheduled_tasks.json", "counters": "data/session_counters.json",
             "skill": "workspace/skills/weather/SKILL.md"}
    probe = tmp_path / "probe"
    shutil.copytree(template, probe)
    states = {k: {(template / rel).read_bytes()} for k, rel in files.items()}
    for i in (0, 1):  # both alternating states of every file
        writers.ROUNDS["ciana"](probe, i)
        for k, rel in files.items():
            states[k].add((probe / rel).read_bytes())
    states["counters"].add(json.dumps({"telegram_123456": 1}, indent=2).encode())
    duration = harness.run_to_end(CHILD, "ciana", str(probe), "6")
    backups_ok = states["tasks"] | states["counters"] | states["skill"]

    rng, tally = harness.rng(), harness.Tally()
    for trial in range(harness.trials(4)):
        root = tmp_path / f"t{trial}"
        shutil.copytree(template, root)
        outcome = harness.kill_after(CHILD, rng.uniform(0, duration), "ciana", str(root), "6")
        for k, rel in files.items():
            assert (root / rel).read_bytes() in states[k], f"trial {trial}: {rel} torn"
        backup_dir = root / "data" / ".daycare-gui-backups"
        backups = [p for p in backup_dir.iterdir() if p.suffix == ".bak"] if backup_dir.exists() else []
        assert all(b.read_bytes() in backups_ok for b in backups), f"trial {trial}: a torn backup"
        folders = [root / "data", backup_dir, root / "workspace" / "skills" / "weather"]
        litter = [lo for f in folders for lo in leftovers.in_folder(f)]
        assert all(lo.what == leftovers.SAVE and lo.removable for lo in litter)
        tally[f"{outcome}{'+litter' if litter else ''}"] += 1
        for i in (0, 1):  # the rerun (twice: a save of unchanged bytes writes nothing)
            writers.ROUNDS["ciana"](root, i)
        assert [lo for f in folders for lo in leftovers.in_folder(f)] == [], f"trial {trial}: litter after rerun"
        assert json.loads((root / files["counters"]).read_bytes()) == {"telegram_123456": 2}
    with capsys.disabled():
        print("\n" + tally.line(f"CianaParrot write kills ({sum(tally.values())} trials of 6 rounds of "
                                f"counter repair + task edit + skill save, {duration:.2f}s)"))
