"""NaN, Infinity and -Infinity: not JSON, yet Python's json (the bot's reader and writer) takes them as
numbers. A file holding one is read as the bot reads it, its values shown as the file spells them, the file
listed as one only Python's reader accepts, and edits of its other values leave those bytes as they are."""

from __future__ import annotations

import json

from daycare_gui.cli import main
from daycare_gui.stores.api import Actions, Tasks
from daycare_gui.stores.cianaparrot import KIND

TASKS = """[
  {
    "id": "plain001",
    "prompt": "Say hi",
    "type": "interval",
    "value": 3600,
    "channel": "telegram",
    "chat_id": "1",
    "last_run": null,
    "active": true
  },
  {
    "id": "nan00002",
    "prompt": "Never due",
    "type": "interval",
    "value": NaN,
    "channel": "telegram",
    "chat_id": "1",
    "last_run": null,
    "active": true,
    "weights": [Infinity, -Infinity]
  },
  {
    "id": "inf00003",
    "prompt": "Forever",
    "type": "interval",
    "value": Infinity,
    "channel": "telegram",
    "chat_id": "1",
    "last_run": null,
    "active": true
  },
  {
    "id": "once0004",
    "prompt": "Some day",
    "type": "once",
    "value": NaN,
    "last_run": null,
    "active": true
  }
]
"""


def _strict(text: str):
    """Parse as any JSON tool other than Python's would (refusing NaN and the infinities)."""
    def refuse(word):
        raise ValueError(f"{word} is not JSON")

    return json.loads(text, parse_constant=refuse)


def _messages(store, name):
    return [(p.message, p.line, p.severity) for p in store.problems if p.path.endswith(name)]


def test_a_tasks_file_holding_nan_lists_its_tasks_as_the_bot_sees_them(deployment):
    path = deployment / "data" / "scheduled_tasks.json"
    path.write_text(TASKS)
    ids = ["plain001", "nan00002", "inf00003", "once0004"]
    assert [t["id"] for t in json.loads(TASKS)] == ids  # the bot reads it
    stalls = "the bot's scheduler fails on it at every poll, so no task runs until it is fixed"
    with KIND.open(deployment) as store:
        tasks = {t.id: t for t in store.capability(Tasks).tasks()}
        assert list(tasks) == ids
        assert [tasks[i].schedule for i in ids[1:]] == ["NaN", "Infinity", "NaN"]
        assert "NaN" in json.dumps(tasks["nan00002"].raw)  # the raw view spells it as the file does
        assert tasks["nan00002"].problem == ("interval NaN is not a whole number of seconds; the scheduler skips "
                                             "it, so the task never runs")
        # what the bot's scheduler does not catch (int(Infinity): OverflowError; fromisoformat(NaN): TypeError)
        assert f"interval Infinity is not a whole number of seconds; {stalls}" in tasks["inf00003"].problem
        assert f"NaN is not an ISO time (not text); {stalls}" in tasks["once0004"].problem
        # ... stops every task: the one that would run says so, and the file lists both
        assert tasks["plain001"].problem == ("task inf00003 and task once0004 make the bot's scheduler fail at "
                                             "every poll, so this task does not run until that is fixed")
        assert _messages(store, "scheduled_tasks.json") == [
            ("scheduled_tasks.json holds NaN, Infinity and -Infinity, 5 values only Python's JSON reader "
             "accepts: the bot reads them as numbers, but other JSON tools reject the file", 16, "warning"),
            (f"task inf00003: interval Infinity is not a whole number of seconds; {stalls}", None, "error"),
            (f"task once0004: NaN is not an ISO time (not text); {stalls}", None, "error")]


def test_edits_beside_nan_keep_its_bytes_and_change_only_the_edited_value(deployment):
    path = deployment / "data" / "scheduled_tasks.json"
    path.write_text(TASKS)
    with KIND.open(deployment) as store:
        tasks = store.capability(Tasks)
        by_id = {t.id: t for t in tasks.tasks()}
        tasks.update(by_id["plain001"], {"prompt": "Say hello"})
        assert path.read_text() == TASKS.replace('"Say hi"', '"Say hello"')
        # the task holding NaN itself: NaN != NaN in Python, yet it has not "changed since it was read"
        updated = tasks.update(by_id["nan00002"], {"prompt": "Still never due"})
        assert updated.schedule == "NaN"
    assert path.read_text() == TASKS.replace('"Say hi"', '"Say hello"').replace('"Never due"', '"Still never due"')


def test_a_counters_file_holding_nan_is_read_repaired_around_it_and_reported_as_json(deployment, capsys):
    path = deployment / "data" / "session_counters.json"
    text = '{\n  "telegram_123456": NaN,\n  "telegram_789012": -Infinity\n}'
    path.write_text(text)
    with KIND.open(deployment) as store:
        said = _messages(store, "session_counters.json")
        assert ("counter 'telegram_123456' is NaN, not a number: the bot ignores it", None, "error") in said
        assert ("session_counters.json holds NaN and -Infinity, 2 values only Python's JSON reader accepts: "
                "the bot reads them as numbers, but other JSON tools reject the file", 2, "warning") in said
        # the bot ignores a counter that is not a whole number, so its threads make it too low: raised as it would
        assert store.counter_findings() == [("telegram_123456", 0, 2)]
        store.capability(Actions).run("counters-repair")
    assert path.read_text() == text.replace("NaN", "2")
    assert main(["inspect", str(deployment), "--json"]) == 0
    report = _strict(capsys.readouterr().out)  # a script's JSON parser takes the whole report
    assert report["session_counters"]["telegram_789012"] == {"counter": "-Infinity"}
