"""Any bytes in any Linggen file give records or problems, never an exception."""

import json
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from daycare_gui.stores.api import Collections, Conversations, Documents, SearchSource
from daycare_gui.stores.linggen import KIND
from daycare_gui.stores.linggen.jsonsplice import splice_value
from daycare_gui.stores.linggen.messages import json_plan_markdown, message_of, parse_line
from daycare_gui.stores.linggen.plans import parse_plan, plan_markdown
from daycare_gui.stores.linggen.readers import parse_json_text, parse_yaml_text
from daycare_gui.stores.problems import ProblemLog
from tests.stores.linggen.builder import Home, line

NASTY = [
    b"", b"\n", b"\xff\xfe\x00", b"\xef\xbb\xbf{}", b"[" * 5000, b"{" * 5000, b'{"a":' * 3000,
    b"- " * 3000, b"a: &x [*x]\n", b"x" * 200_000, b"NaN", b'{"content": "' + b"\xc3" + b'"}',
    b"---\n---\n", b"!!python/object/apply:os.system ['echo hi']\n",
    b"[" * 900 + b"]" * 900, b'{"content": ' * 900 + b"1" + b"}" * 900,
    b"a: &a [x,x,x,x,x,x,x,x,x]\n" + b"".join(  # "billion laughs": aliases that expand exponentially
        f"{c}: &{c} [{','.join(['*' + p] * 9)}]\n".encode() for p, c in zip("abcdefgh", "bcdefghi")),
]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
chunks = st.one_of(st.binary(max_size=300), st.sampled_from(NASTY),
                   json_values.map(lambda v: json.dumps(v).encode()))


@given(st.lists(chunks, max_size=6))
@settings(max_examples=150, deadline=None)
def test_any_message_line_gives_a_message(parts):
    for n, chunk in enumerate(parts, 1):
        message = parse_line(chunk, n)
        assert message.id == f"L{n}"


@given(json_values)
@settings(max_examples=200, deadline=None)
def test_any_message_object_and_plan_payload_render(value):
    obj = value if isinstance(value, dict) else {"content": value}
    message_of(obj, 1)
    message_of({"content": json.dumps({"type": "plan", "plan": value})}, 1)
    json_plan_markdown(value)


@given(chunks)
@settings(max_examples=200, deadline=None)
def test_small_file_parsers_never_raise(data):
    text = data.decode("utf-8", errors="replace")
    log = ProblemLog()
    value = parse_json_text(text, Path("x.json"), log)
    assert value is None or isinstance(value, dict)
    value = parse_yaml_text(text, Path("x.yaml"), log)
    assert value is None or isinstance(value, dict)
    plan_markdown(text)
    parse_plan(text)


@given(st.dictionaries(st.text(max_size=10), json_values, max_size=5), st.lists(st.text(max_size=12), max_size=5),
       st.sampled_from([None, 0, 2, 4, "\t"]))
@settings(max_examples=300, deadline=None)
def test_splicing_changes_exactly_the_list(obj, tools, indent):
    text = json.dumps(obj, indent=indent, ensure_ascii=False)
    out = json.loads(splice_value(text, "tool_allows", tools))
    assert out["tool_allows"] == tools
    assert {k: v for k, v in out.items() if k != "tool_allows"} == {k: v for k, v in obj.items()
                                                                    if k != "tool_allows"}


@given(st.lists(chunks, min_size=1, max_size=4), chunks, chunks, chunks)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_home_of_garbage_opens_and_browses(messages, yaml_bytes, json_bytes, md_bytes):
    root = Path(tempfile.mkdtemp())
    try:
        h = Home(root / "home")
        folder = h.project("/p")
        h.write(f"projects/{folder}/sessions/s/session.yaml", yaml_bytes)
        h.write(f"projects/{folder}/sessions/s/messages.jsonl", b"\n".join(messages))
        h.write(f"projects/{folder}/runs/r.json", json_bytes)
        h.write(f"projects/{folder}/missions/1.json", json_bytes)
        h.write(f"projects/{folder}/agent_overrides/a.json", json_bytes)
        h.write("credentials.json", json_bytes)
        h.write("plans/p.md", md_bytes)
        h.write("agents/a.md", md_bytes)
        h.write("missions/m/mission.md", md_bytes)
        h.write("missions/m/runs.jsonl", b"\n".join(messages))
        h.write("sessions/f/session.yaml", yaml_bytes)
        h.write("sessions/f/messages.jsonl", line("user", "ling", "ok").encode() + b"\n".join(messages))
        store = KIND.open(h.root)
        store.report()
        conv = store.capability(Conversations)
        for thread in conv.threads():
            for session in conv.sessions(thread.id):
                conv.messages(session.ref, 0, conv.message_count(session.ref))
        cols = store.capability(Collections)
        for c in cols.collections():
            cols.rows(c.id, 0, 100)
        list(store.capability(SearchSource).messages(None))
        store.capability(Documents).documents()
        json.dumps(store.report(), ensure_ascii=False)
    finally:
        shutil.rmtree(root)
