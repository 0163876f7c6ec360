"""Property tests for every file reader of the kind: any bytes in any of the bot's files give records or
problems, never an exception; the faithful JSON splicer edits exactly one value."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from daycare_gui.stores.api import Actions, Collections, Conversations, Documents, Tasks
from daycare_gui.stores.cianaparrot import KIND, json_splice
from daycare_gui.stores.cianaparrot.checkpoints import decode_metadata
from daycare_gui.stores.report import inspect_report

_json_like = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
              st.text(max_size=12)),
    lambda c: st.one_of(st.lists(c, max_size=4), st.dictionaries(st.text(max_size=6), c, max_size=4)),
    max_leaves=30)
_nasty = st.one_of(
    st.binary(max_size=400),
    _json_like.map(lambda v: json.dumps(v).encode()),
    st.integers(1, 3000).map(lambda n: b"[" * n + b"]" * n),  # deep nesting
    st.integers(1, 200_000).map(lambda n: b'{"role": "user", "content": "' + b"x" * n + b'"}\n'),  # a huge line
    st.sampled_from([b"\xff\xfe\x00{", b'{"a": 1}\n\xc3\x28\n', b'[{"id": "x", "type": "cron"}]', b"{}", b"[]"]),
)
_FILES = ["data/session_counters.json", "data/scheduled_tasks.json", "data/cc_user_states.json",
          "workspace/sessions/telegram_1.jsonl", "data/sessions/telegram_1.jsonl", "config.yaml",
          "workspace/MEMORY.md", "workspace/skills/x/SKILL.md"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.fixed_dictionaries({name: _nasty for name in _FILES}))
def test_any_bytes_in_the_bots_files_open_as_records_or_problems(contents):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for name, data in contents.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_bytes(data)
        (root / "data").mkdir(exist_ok=True)
        with KIND.open(root) as store:
            conv = store.capability(Conversations)
            for chat in conv.threads():
                for s in conv.sessions(chat.id):
                    conv.message_count(s.ref)
                    conv.messages(s.ref, 0, 50)
            cols = store.capability(Collections)
            for c in cols.collections():
                cols.rows(c.id, 0, 50)
            store.capability(Tasks).tasks()
            store.capability(Documents).documents()
            store.capability(Actions).run("counters-check")
            json.dumps(inspect_report(store), default=str)


@settings(max_examples=200, deadline=None)
@given(_nasty)
def test_any_metadata_blob_decodes_or_is_kept_raw(data):
    value, problem = decode_metadata(data)
    assert problem is None or value is not None


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.text(max_size=200), _json_like.map(lambda v: json.dumps(v, indent=2))))
def test_the_splicer_parses_what_json_parses_and_nothing_else(text):
    try:
        expected = json.loads(text)
    except ValueError:
        expected = ValueError
    try:
        json_splice.parse(text)
    except (json_splice.SpliceError, ValueError):
        return  # refusing text that json accepts is safe (the edit is refused); accepting garbage is not
    assert expected is not ValueError


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.dictionaries(st.text(max_size=6), _json_like, max_size=5), min_size=1, max_size=4),
       st.data(), st.sampled_from([None, 2, 4]))
def test_setting_one_member_changes_only_that_member(items, data, indent):
    text = json.dumps(items, indent=indent)
    i = data.draw(st.integers(0, len(items) - 1))
    key = data.draw(st.text(max_size=6))
    value = data.draw(_json_like)
    obj = json_splice.parse(text).items[i]
    new = json_splice.set_member(text, obj, key, value)
    expected = [dict(x) for x in items]
    expected[i][key] = value
    assert json.loads(new) == expected
    old = obj.member(key)
    if old is not None:  # everything around the value's span is untouched
        assert new.startswith(text[: old.start]) and new.endswith(text[old.end:])
    else:
        assert new.startswith(text[: obj.members[-1][2].end if obj.members else obj.start])
        assert new.endswith(text[obj.end:])
