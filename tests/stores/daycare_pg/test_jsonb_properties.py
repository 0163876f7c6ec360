"""PGlite/PostgreSQL jsonb values, as psycopg hands them over (parsed: dict, list, str, int, float, bool,
None — or text from an odd store), become messages and rows or problems, never an exception: arbitrary
JSON, deep nesting and huge strings through the row → record parsing, and one real round-trip through the
PostgreSQL server for the extremes it accepts."""

from __future__ import annotations

import json

import psycopg
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from daycare_gui.stores import api, registry
from daycare_gui.stores.daycare.pg.collections import _changes
from daycare_gui.stores.daycare.pg.conversations import message_of_row as pg_message
from daycare_gui.stores.daycare.pg.shown_rows import markdown_of, masked_row, plain_values

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
json_values = st.recursive(scalars, lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=12), c,
                                                                                          max_size=4), max_leaves=25)
HISTORY_KEYS = ("text", "content", "role", "toolCalls", "tool_calls", "result", "message", "files", "tokens",
                "apiKey", "env", "name", "input", "output")
history_like = st.dictionaries(st.sampled_from(HISTORY_KEYS), json_values, max_size=6)


def _nested(depth: int, leaf=1, as_object: bool = False):
    value = leaf
    for _ in range(depth):  # built iteratively: the value psycopg would return, without recursion here
        value = {"a": value} if as_object else [value]
    return value


deep = st.tuples(st.integers(1, 900), st.booleans()).map(lambda t: _nested(t[0], as_object=t[1]))
huge = st.integers(1, 2_000_000).map(lambda n: "x" * n)
any_data = st.one_of(json_values, history_like, deep, huge.map(lambda s: {"text": s}),
                     st.text().map(json.dumps), st.text())
types = st.sampled_from(["user_message", "assistant_message", "tool_result", "note", "rlm_start", "", "x" * 300])


@SETTINGS
@given(types, st.one_of(st.none(), st.integers(), st.text(max_size=5)), any_data)
def test_any_jsonb_history_value_becomes_a_message(type_, at, data):
    message = pg_message(7, type_, at, data, session_id="s1")
    assert message.id
    repr(message)  # what the window shows is printable


@SETTINGS
@given(st.dictionaries(st.sampled_from(["id", "env", "data", "config", "body", "prompt", "value", "token",
                                        "valid_from", "version"]), any_data, max_size=6),
       st.sampled_from([None, "processes", "app_auth_verifications", "documents", "agents"]))
def test_any_row_of_jsonb_values_is_masked_and_described(row, table):
    shown = masked_row(plain_values(row), table)
    assert set(shown) == set(row)
    markdown_of(table or "", shown)
    _changes({}, shown)
    json.dumps(shown, default=str)


def test_deeper_than_the_decoder_and_bigger_than_a_page():
    for data in (_nested(100_000), _nested(100_000, as_object=True), "[" * 100_000 + "]" * 100_000,
                 {"text": "y" * 50_000_000}, "not json \udcff"):
        pg_message(1, "note", 0, data, session_id="s")
    masked_row({"env": _nested(5000, leaf="sk-secret-value"), "data": {"text": "y" * 50_000_000}}, "processes")


def _session(url: str) -> str:
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT id FROM sessions ORDER BY id LIMIT 1").fetchone()[0]


def test_extremes_round_trip_through_the_server(pg_fresh_url):
    """What PostgreSQL accepts into jsonb comes back through the store as messages (or problems)."""
    session = _session(pg_fresh_url)
    values = ["[" * 5000 + "]" * 5000, '{"a":' * 5000 + "1" + "}" * 5000, json.dumps({"text": "z" * 5_000_000}),
              json.dumps({"text": "caf\u00e9 \U0001f600", "role": "user"}), '["a", {"b": null}]', '"just a string"',
              "12.5"]
    with psycopg.connect(pg_fresh_url) as conn:
        before = conn.execute("SELECT count(*) FROM session_history WHERE session_id = %s", (session,)).fetchone()[0]
        for value in values:
            conn.execute("INSERT INTO session_history (session_id, type, at, data) VALUES "
                         "(%s, 'note', 1, %s::jsonb)", (session, value))  # JSON text: nothing nests in Python
    with registry.open_store(pg_fresh_url) as store:
        conv = store.capability(api.Conversations)
        agent = next(t.id for t in conv.threads() for s in conv.sessions(t.id) if s.ref.session_id == session)
        ref = next(s.ref for s in conv.sessions(agent) if s.ref.session_id == session)
        messages = conv.messages(ref, 0, before + len(values))
        assert len(messages) == before + len(values)
        tail = messages[before:]
        assert any("z" * 1000 in repr(m) for m in tail)
        assert all(m.id for m in tail)
        assert [m.problem for m in tail[:2]] == ["data is nested too deeply to read"] * 2
        assert tail[3].problem is None
