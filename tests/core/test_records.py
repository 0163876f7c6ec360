"""Typed parsing of the JSON columns: every kind, and bad values kept raw with a reason."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from daycare_gui.stores.daycare.records.agents import (
    parse_descriptor,
    parse_permissions,
    parse_stats,
    parse_tokens,
)
from daycare_gui.stores.daycare.records.history import HISTORY_KINDS, parse_history_row
from daycare_gui.stores.daycare.records.json_values import Unparsed

DESCRIPTORS = {
    "user": ({"type": "user", "connector": "telegram", "userId": "42", "channelId": "chat-42"}, "telegram user 42 · chat-42"),
    "cron": ({"type": "cron", "id": "dailycleanup", "name": "Daily cleanup"}, "Daily cleanup"),
    "system": ({"type": "system", "tag": "heartbeat"}, "system: heartbeat"),
    "subagent": ({"type": "subagent", "id": "s1", "parentAgentId": "a1", "name": "researcher"}, "researcher"),
    "app": ({"type": "app", "id": "a2", "parentAgentId": "a1", "name": "Deploy Check", "systemPrompt": "x",
             "appId": "deploy-check"}, "Deploy Check"),
    "permanent": ({"type": "permanent", "id": "p1", "name": "Ops", "description": "d", "systemPrompt": "s",
                   "username": "ops", "workspaceDir": "/w"}, "Ops"),
}


def test_every_descriptor_kind_gets_a_readable_name():
    for kind, (obj, name) in DESCRIPTORS.items():
        d = parse_descriptor(json.dumps(obj))
        assert d.type == kind and d.known_kind
        assert d.display_name == name
    app = parse_descriptor(json.dumps(DESCRIPTORS["app"][0]))
    assert app.app_id == "deploy-check" and app.parent_agent_id == "a1"


def test_unknown_descriptor_kind_and_unknown_keys_are_kept():
    d = parse_descriptor('{"type":"swarm","id":"x","colour":"red"}')
    assert d.type == "swarm" and not d.known_kind and d.extra == {"colour": "red"}


def test_bad_descriptor_values():
    for raw, reason in (("{", "not valid JSON"), ("[1]", "not a JSON object"), ('{"id":"x"}', "no type"),
                        (None, "NULL")):
        d = parse_descriptor(raw)
        assert isinstance(d, Unparsed) and reason in d.reason and d.raw == raw


def test_permissions_full_and_reduced():
    full = parse_permissions('{"workingDir":"/w","writeDirs":["/a"],"readDirs":[],"network":true,"events":false}')
    assert full.working_dir == "/w" and full.write_dirs == ("/a",) and full.network is True and not full.reduced
    reduced = parse_permissions('{"workingDir":"/tmp","writeDirs":[]}')
    assert reduced.reduced and reduced.network is None


def test_tokens_and_stats():
    t = parse_tokens('{"provider":"openai","model":"gpt-5","size":{"input":100,"output":40,"cacheRead":0,"cacheWrite":0,"total":140}}')
    assert t.provider == "openai" and t.size.total == 140
    assert parse_tokens(None) is None
    s = parse_stats('{"openai":{"gpt-5":{"input":1,"output":2,"cacheRead":0,"cacheWrite":0,"total":3}},'
                    '"anthropic":{"claude":{"total":10}}}')
    assert s.total.total == 13 and ("anthropic", "claude") in s.by_model
    assert isinstance(parse_stats("oops"), Unparsed)


HISTORY = {
    "user_message": {"text": "hello", "files": [{"id": "f", "name": "a.png", "mimeType": "image/png", "size": 3, "path": "/p"}]},
    "assistant_message": {"text": "ok", "files": [], "tokens": None,
                          "toolCalls": [{"type": "toolCall", "id": "c1", "name": "read", "arguments": {"path": "/x"}}]},
    "tool_result": {"toolCallId": "c1", "output": {"toolMessage": {"role": "toolResult", "toolCallId": "c1",
                    "toolName": "read", "content": [{"type": "text", "text": "file body"}], "isError": False},
                    "typedResult": {"ok": True}}},
    "rlm_start": {"toolCallId": "c2", "code": "print(1)\nx = 2", "preamble": ""},
    "rlm_tool_call": {"toolCallId": "c2", "snapshot": "AAAA", "printOutput": ["1"], "toolCallCount": 1,
                      "toolName": "search", "toolArgs": {"q": "x"}},
    "rlm_tool_result": {"toolCallId": "c2", "toolName": "search", "toolResult": "found", "toolIsError": False},
    "rlm_complete": {"toolCallId": "c2", "output": "done", "printOutput": ["1"], "toolCallCount": 1, "isError": True,
                     "error": "boom"},
    "assistant_rewrite": {"assistantAt": 5, "text": "shorter", "reason": "run_python_say_after_trim"},
    "note": {"text": "Agent booted"},
}


def test_every_history_kind_is_typed():
    assert set(HISTORY) == set(HISTORY_KINDS)
    recs = {k: parse_history_row(i, "s", k, 1000 + i, json.dumps(v))[0] for i, (k, v) in enumerate(HISTORY.items())}
    assert recs["user_message"].files[0].mime_type == "image/png"
    assert recs["assistant_message"].tool_calls[0].name == "read"
    assert recs["assistant_message"].tool_calls[0].arguments == {"path": "/x"}
    assert recs["tool_result"].tool_output_text == "file body" and recs["tool_result"].tool_name == "read"
    assert recs["rlm_start"].code.startswith("print") and recs["rlm_start"].summary() == "print(1)"
    assert recs["rlm_tool_call"].print_output == ("1",)
    assert recs["rlm_tool_result"].output == "found"
    assert recs["rlm_complete"].is_error and recs["rlm_complete"].summary() == "error: boom"
    assert recs["assistant_rewrite"].assistant_at == 5
    assert recs["note"].summary() == "Agent booted"
    assert all(r.known_kind for r in recs.values())


def test_bad_history_payload_is_kept_raw():
    rec, problem = parse_history_row(9, "s", "note", 1, "{truncated")
    assert problem and "not valid JSON" in problem and rec.data == {"_raw": "{truncated"}


@given(st.text())
def test_parsers_never_raise(raw):
    for parse in (parse_descriptor, parse_permissions, parse_tokens, parse_stats):
        parse(raw)
    parse_history_row(1, "s", "note", 0, raw)


def test_history_records_built_on_the_fast_path_are_ordinary_frozen_dataclasses():
    import dataclasses

    from daycare_gui.stores.daycare.records.history import HistoryRecord, history_record_from

    data = {"text": "hi", "toolCalls": [{"id": "c1", "name": "run", "arguments": {"a": 1}}],
            "tokens": {"provider": "p", "model": "m", "size": {"input": 1, "output": 2, "total": 3}}}
    rec = history_record_from("assistant_message", 5, data, id=7, session_id="s")
    plain = HistoryRecord(**{f.name: getattr(rec, f.name) for f in dataclasses.fields(HistoryRecord)})
    assert rec == plain and repr(rec) == repr(plain)
    assert rec.tokens.size.total == 3 and rec.tokens.size.cache_read == 0 and rec.files == ()
    assert dataclasses.replace(rec, text="other").text == "other"
    with pytest.raises(dataclasses.FrozenInstanceError):
        rec.text = "changed"
    odd = history_record_from("assistant_message", 5, {"tokens": {"size": {"input": True, "output": 2.7}}})
    assert (odd.tokens.size.input, odd.tokens.size.output) == (0, 2)  # a bool is not a count; floats truncate
