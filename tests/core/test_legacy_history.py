"""Legacy sessions read as conversations, from the 808af509 fixture's history.jsonl."""

import json

from daycare_gui.stores.daycare.paths import resolve_paths
from daycare_gui.stores.daycare.sqlite.queries.legacy_history import legacy_conversation
from tests.conftest import snapshot_tree


def test_sessions_of_the_fixture_agent(fixture_copy):
    root = fixture_copy("daycare-808af509", with_db=False)
    before = snapshot_tree(root)
    paths = resolve_paths(root)
    first = legacy_conversation(paths, "agentusr1", 0)
    assert first.agent_name == "telegram user 42 · chat-42" and first.session_count == 2
    assert [r.type for r in first.window.records] == ["user_message", "assistant_message"]
    assert first.window.records[0].text == "hello" and first.window.records[0].id == 2  # file line as id
    second = legacy_conversation(paths, "agentusr1", 1)
    assert second.session.reset_message == "manual reset"
    assert [r.text for r in second.window.records] == ["Agent booted"]  # the bad line 6 is skipped
    assert second.raw_by_line[5]["text"] == "Agent booted"
    assert snapshot_tree(root) == before


def test_tool_results_pair_and_unknown_agent(tmp_path, fixture_copy):
    root = fixture_copy("daycare-808af509", with_db=False)
    history = root / "agents" / "agentusr1" / "history.jsonl"
    call = {"type": "assistant_message", "at": 5, "text": "", "files": [], "tokens": None,
            "toolCalls": [{"type": "toolCall", "id": "c1", "name": "read", "arguments": {}}]}
    result = {"type": "tool_result", "at": 6, "toolCallId": "c1",
              "output": {"toolMessage": {"toolName": "read", "content": [{"type": "text", "text": "ok"}]}}}
    history.write_text(history.read_text() + json.dumps(call) + "\n" + json.dumps(result) + "\n")
    conv = legacy_conversation(resolve_paths(root), "agentusr1", 1)
    assert conv.window.results["c1"].tool_output_text == "ok"
    missing = legacy_conversation(resolve_paths(root), "nobody", 0)
    assert missing.session is None and missing.problems
