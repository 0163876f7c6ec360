"""Clean stores of every kind for the hostile-input campaign, each written once per test session by the
writers the kind's own tests use (Linggen's builder in both layouts, AgentStack's schema, LangGraph's
real saver for CianaParrot, the PGlite folder Daycare wrote, Daycare's SQLite demo), then copied per trial.

``STORES[name]`` → (kind, how to write it into a folder, the session a trial exports, the files a trial
may damage). A store's ``path`` is what the commands are given."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class CleanStore:
    kind: str
    path: Path  # the store's folder (or file) as the commands take it
    folder: Path  # the folder holding everything of the store (what must stay byte for byte as it was)
    session: str  # a session the export command is asked for


def _linggen_old(dest: Path) -> tuple[Path, str]:
    from tests.stores.linggen.builder import standard_home

    ws = dest.parent / "workspace"  # outside the store: the project's own folder
    ws.mkdir(parents=True, exist_ok=True)
    standard_home(dest, ws)
    return dest, "sess-1700000000-aaaa0001"


def _linggen_flat(dest: Path) -> tuple[Path, str]:
    from tests.stores.linggen.builder import Home, line

    home = Home(dest)
    home.flat_session("sess-1800000000-bbbb0001", "Plan the week", lines=line("user", "ling", "Plan my week")
                      + line("ling", "user", "Here is a plan.", obs=False))
    home.flat_mission("daily-review", runs='{"run_id": "r1", "status": "completed"}\n')
    home.agent("ling")
    home.skill("commit")
    return dest, "sess-1800000000-bbbb0001"


def _agentstack(dest: Path) -> tuple[Path, str]:
    from tests.stores.agentstack.builder import Builder

    b = Builder(dest / "data" / "aistack.db")
    b.memory("greeting", "hello from the hostile campaign")
    b.memory("plan", "write the tests first", namespace="work")
    return b.close(), ""


def _cianaparrot(dest: Path) -> tuple[Path, str]:
    from tests.stores.cianaparrot.builder import make_deployment

    return make_deployment(dest), "telegram_123456"


def _pglite(dest: Path) -> tuple[Path, str]:
    from tests.conftest import FIXTURES
    from tests.pg_helpers import unpack_pglite_fixture

    unpack_pglite_fixture(FIXTURES / "daycare-pglite-7c3c466c.tar.gz", dest)
    return dest, "s1"  # (named: looking it up would start PGlite once more)


def _daycare_sqlite(dest: Path) -> tuple[Path, str]:
    from daycare_gui.stores.daycare.demo import write_demo

    write_demo(dest)
    return dest, ""


WRITERS = {
    "linggen-old": ("linggen", _linggen_old),
    "linggen-flat": ("linggen", _linggen_flat),
    "agentstack": ("agentstack", _agentstack),
    "cianaparrot": ("cianaparrot", _cianaparrot),
    "pglite": ("daycare", _pglite),
    "daycare-sqlite": ("daycare", _daycare_sqlite),
}

_TEMPLATES: dict[str, CleanStore] = {}


def template(name: str, folder: Path) -> CleanStore:
    """The clean store ``name``, written into ``folder`` the first time it is asked for."""
    if name not in _TEMPLATES:
        kind, write = WRITERS[name]
        base = folder / name / "store"
        base.mkdir(parents=True)
        path, session = write(base)
        _TEMPLATES[name] = CleanStore(kind, path, base, session or _first_session(kind, path))
    return _TEMPLATES[name]


def fresh(name: str, templates: Path, dest: Path) -> CleanStore:
    """A private copy of the clean store ``name`` in ``dest`` (which the trial then damages)."""
    clean = template(name, templates)
    shutil.copytree(clean.folder, dest, symlinks=True)
    return CleanStore(clean.kind, dest / clean.path.relative_to(clean.folder), dest, clean.session)


def _first_session(kind: str, path: Path) -> str:
    """The first session the store lists (read once from the clean store), or '' when it has none."""
    from daycare_gui.stores import registry
    from daycare_gui.stores.api import Conversations

    with registry.open_store(path, kind=kind, live=False) as store:
        conv = store.capability(Conversations)
        for thread in conv.threads() if conv else ():
            for session in conv.sessions(thread.id):
                return session.ref.session_id
    return ""
