"""What the window imports on its GUI thread before a Daycare store's open runs on the worker (the worker must
never be the first to import a module): a SQLite store needs nothing beyond the kind's fixed list — not the
PostgreSQL generation's readers, nor the socket module its driver uses (~5 ms of every SQLite start) — while a
server, or a folder whose settings name one, gets them imported first."""

from __future__ import annotations

import json

from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.daycare.kind import KIND

PG = {"daycare_gui.stores.daycare.pg.automations", "socket"}


def test_a_sqlite_store_opens_with_the_fixed_list_alone(tmp_path):
    write_demo(tmp_path / "daycare")
    assert KIND.open_modules_for(str(tmp_path / "daycare")) == ()
    assert not PG & set(KIND.open_modules)


def test_a_server_or_a_folder_naming_one_imports_the_postgresql_readers_first(tmp_path):
    assert PG <= set(KIND.open_modules_for("postgresql://reader@db.example/daycare"))
    folder = tmp_path / "daycare"
    write_demo(folder)
    settings = json.loads((folder / "settings.json").read_text())
    settings["engine"] = {"db": {"url": "postgres://reader@db.example/daycare"}}
    (folder / "settings.json").write_text(json.dumps(settings))
    assert PG <= set(KIND.open_modules_for(str(folder)))
