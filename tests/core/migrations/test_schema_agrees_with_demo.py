"""The demo store's DDL (``schema_sql``) and the migration pipeline must produce the same schema."""

from __future__ import annotations

import sqlite3

from daycare_gui.stores.daycare.sqlite.schema_sql import schema_statements
from tests.core.migrations.helpers import describe_schema, migrate, owner_id


def test_empty_folder_schema_equals_schema_statements(tmp_path):
    (tmp_path / "store").mkdir()
    migrated = migrate(tmp_path / "store")
    owner = owner_id(migrated)
    assert migrated.execute("SELECT COUNT(*) FROM users").fetchone()[0] == 1
    assert migrated.execute("SELECT COUNT(*) FROM user_connector_keys").fetchone()[0] == 0

    demo = sqlite3.connect(tmp_path / "demo.db")
    for sql in schema_statements(owner):
        demo.execute(sql)
    # AUTOINCREMENT tables create sqlite_sequence lazily on both sides; compare without it.
    ours, theirs = describe_schema(migrated, owner), describe_schema(demo, owner)
    for schema in (ours, theirs):
        schema["tables"].pop("sqlite_sequence", None)
    assert ours == theirs
