"""Any bytes → records or problems, never an exception: the readers of embeddings, JSON columns, the
config file, and whole databases holding arbitrary values in every column."""

import atexit
import shutil
import sqlite3
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from daycare_gui.stores import registry
from daycare_gui.stores.agentstack import values as v
from daycare_gui.stores.agentstack.locate import locate, read_config
from daycare_gui.stores.agentstack.schema import KNOWN
from daycare_gui.stores.api import Collections, Tables
from tests.stores.agentstack.builder import Builder, all_rows

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

sql_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=300)
deep = st.integers(1, 3000).map(lambda n: "[" * n + "]" * n)
json_like = st.one_of(sql_text, deep, st.builds(lambda k, val: f'{{"{k}": {val}}}',
                                                st.sampled_from(["apiKey", "a", "token"]),
                                                st.sampled_from(["1", '"x"', "[1,{}]", "null", "{"])))
bad_utf8 = st.binary(min_size=1, max_size=60).map(lambda b: ("utf8", b + b"\xff"))
sql_value = st.one_of(st.none(), st.integers(-2**63, 2**63 - 1), st.floats(), sql_text, json_like,
                      st.binary(max_size=64), bad_utf8, st.just("x" * 100_000))


@given(st.binary(max_size=4096))
def test_embedding_facts_never_raise(blob):
    text, facts, problem = v.embedding_facts(blob)
    assert "0." not in text or "norm" in text  # never the numbers, only dimension and norm
    if blob and len(blob) % 4 == 0 and problem is None:
        assert facts["dimensions"] == len(blob) // 4


@given(json_like)
def test_json_columns_never_raise(text):
    value, problem = v.parse_json(text)
    assert value is not None or problem or text.strip() == "null"
    v.shown_json(text)
    v.describe_change({"metadata": text, "content": text}, {"metadata": None, "content": ""}, label_a="a",
                      label_b="b")


@given(st.binary(max_size=2000))
@settings(max_examples=40, deadline=None)
def test_config_files_never_raise(data):
    folder = Path(tempfile.mkdtemp())
    try:
        (folder / "aistack.config.json").write_bytes(data)
        read_config(folder / "aistack.config.json")
        locate(folder)
    finally:
        shutil.rmtree(folder)


_TEMPLATE: dict[str, Path] = {}


def _template() -> Path:
    if "db" not in _TEMPLATE:
        folder = Path(tempfile.mkdtemp())
        atexit.register(shutil.rmtree, folder, True)  # a test run leaves nothing in the temporary folder
        _TEMPLATE["db"] = Builder(folder / "aistack.db").close()
    return _TEMPLATE["db"]


def _put(conn, table, row):
    cols = KNOWN[table]
    params = []
    marks = []
    for value in row[:len(cols)]:
        if isinstance(value, tuple):  # invalid UTF-8 stored as TEXT
            marks.append("CAST(? AS TEXT)")
            params.append(value[1])
        else:
            marks.append("?")
            params.append(value)
    try:
        conn.execute(f"INSERT INTO {table} ({', '.join(cols[:len(params)])}) VALUES ({', '.join(marks)})", params)
    except (sqlite3.Error, OverflowError):
        pass  # a constraint said no: AgentStack could not have stored it either


TABLES = [t for t in KNOWN if t not in ("memory_fts",)]


@given(st.lists(st.tuples(st.sampled_from(TABLES), st.lists(sql_value, min_size=14, max_size=14)),
                min_size=1, max_size=12))
@SETTINGS
def test_any_values_in_any_table_give_rows_or_problems(rows):
    folder = Path(tempfile.mkdtemp())
    try:
        db = folder / "aistack.db"
        shutil.copyfile(_template(), db)
        conn = sqlite3.connect(db, isolation_level=None)
        conn.execute("PRAGMA foreign_keys = OFF")
        for table, values in rows:
            # ids that link tables: reuse a few so relationships, parents and sessions meet
            values[0] = values[0] if not isinstance(values[0], str) else values[0][:2]
            _put(conn, table, values)
        conn.close()
        with registry.open_store(db, kind="agentstack") as store:
            c = store.capability(Collections)
            for col in c.collections():
                for row in all_rows(c, col.id, 5):
                    c.row(col.id, row.key)
                    c.editable(col.id, row)
            c.search("a OR x", 10)
            t = store.capability(Tables)
            for ref in t.tables():
                t.rows(ref.name, 0, 20)
            store.report()
    finally:
        shutil.rmtree(folder)
