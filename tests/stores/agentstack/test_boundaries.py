"""The kind is core: no Qt, no UI, no Daycare core module of its own choosing, no other kind."""

import ast
import pkgutil
import subprocess
import sys
from pathlib import Path

import daycare_gui.stores.agentstack as pkg
from daycare_gui.stores.agentstack import ddl, schema

ALLOWED = ("daycare_gui.stores.agentstack", "daycare_gui.stores.api", "daycare_gui.stores.records",
           "daycare_gui.stores.common")


def test_imports_stay_inside_the_contract():
    for path in Path(pkg.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            for name in names:
                if name.startswith("daycare_gui"):
                    assert name.startswith(ALLOWED), f"{path.name} imports {name}"
                assert not name.startswith(("PySide6", "shiboken6")), f"{path.name} imports {name}"


def test_using_the_kind_pulls_in_no_qt(tmp_path):
    names = [m.name for m in pkgutil.walk_packages(pkg.__path__, prefix="daycare_gui.stores.agentstack.")]
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "from daycare_gui.stores.agentstack import write_demo\n"
        "from daycare_gui.stores import registry\n"
        f"write_demo({str(tmp_path)!r})\n"
        f"store = registry.open_store({str(tmp_path)!r})\n"
        "store.report()\n"
        "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6') "
        "or m.startswith('daycare_gui.ui'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_the_schema_script_matches_the_known_columns():
    import sqlite3

    conn = sqlite3.connect(":memory:")
    conn.executescript(ddl.schema_sql())
    tables = [n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
              if not n.startswith("memory_fts_")]
    assert sorted(tables) == sorted(schema.KNOWN) and len(tables) == 26
    for table in tables:
        assert tuple(r[1] for r in conn.execute(f"PRAGMA table_info({table})")) == schema.KNOWN[table]
