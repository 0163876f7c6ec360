"""The neutral records (and Daycare's own) are defined at import without their dataclass methods, which are
made on a class's first use (~1 ms a class: 40 ms of the window's start went to records it never used),
and each then behaves exactly as the frozen dataclass it was written as."""

from __future__ import annotations

import copy
import dataclasses
import json
import subprocess
import sys
import textwrap
import threading

import pytest

from daycare_gui.stores.deferred_dataclass import deferred, define, waiting


def test_importing_the_records_makes_none_of_their_methods(tmp_path):
    code = textwrap.dedent("""
        import json
        from daycare_gui.stores import records
        from daycare_gui.stores.daycare.records import agents, history, json_values, subsystems
        made = [name for module in (records, agents, history, json_values, subsystems) for name in dir(module)
                if isinstance(getattr(module, name), type)
                and type(vars(getattr(module, name)).get("__dataclass_fields__")) is dict
                and getattr(module, name).__module__.startswith(module.__name__)]  # (a package's modules too)
        print(json.dumps(made))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    made = json.loads(out.stdout.strip().splitlines()[-1])
    # the two records with __slots__ (a new class, so defined at once), SpaceReport (not frozen), and the
    # one record Daycare's module reads the defaults of as it loads
    assert sorted(made) == ["HistoryRecord", "JumpEntry", "SpaceReport", "UsageRecord"]


def test_a_record_behaves_as_the_frozen_dataclass_it_is_written_as():
    from daycare_gui.stores.records import Message, ToolCallRecord

    a = Message("1", "user", "hi", tool_calls=(ToolCallRecord("c", "run"),))
    b = Message("1", "user", "hi", tool_calls=(ToolCallRecord("c", "run"),))
    assert a == b and hash(a) == hash(b) and a != Message("2", "user", "hi")
    assert repr(a).startswith("Message(id='1', role='user', text='hi'")
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.text = "changed"
    assert dataclasses.replace(a, text="bye").text == "bye" and copy.deepcopy(a) == a
    assert dataclasses.is_dataclass(Message) and dataclasses.fields(Message)[0].name == "id"
    assert Message.__match_args__[:3] == ("id", "role", "text")
    assert a.summary() == "hi → run"
    with pytest.raises(TypeError):
        Message()  # the required fields are still required


def test_a_class_is_defined_by_its_first_instance_or_a_look_at_its_fields_and_its_bases_first():
    @deferred
    class Base:
        x: int
        y: str = "y"

    @deferred
    class Child(Base):
        z: tuple = ()

    @deferred
    class Looked:
        q: int = 0

    assert {Base, Child, Looked} <= set(waiting())
    assert "__eq__" not in vars(Child)
    child = Child(1, z=(2,))
    assert child == Child(1, "y", (2,)) and repr(child).endswith("Child(x=1, y='y', z=(2,))")
    assert Base not in waiting() and Base(3) == Base(3, "y")  # (defined with its subclass)
    assert [f.name for f in dataclasses.fields(Looked)] == ["q"] and Looked not in waiting()


def test_first_instances_made_on_two_threads_at_once_define_the_class_once():
    @deferred
    class Shared:
        n: int

    start = threading.Barrier(4)
    made, errors = [], []

    def make(i):
        try:
            start.wait()
            made.append(Shared(i))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=make, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and sorted(m.n for m in made) == [0, 1, 2, 3]
    assert Shared(1) == Shared(1) and Shared not in waiting()
    define(Shared)  # (again: nothing to do)


def test_the_window_defines_the_records_start_up_did_not_use_in_its_idle_steps():
    from daycare_gui.stores import records  # noqa: F401 - the records waiting
    from daycare_gui.stores.daycare.records import agents, history, json_values, subsystems  # noqa: F401
    from daycare_gui.ui.preload import MODULES, RECORDS_A_TURN, STEPS

    ours = [c for c in waiting() if c.__module__.startswith("daycare_gui.")]
    assert MODULES.count("define_records") * RECORDS_A_TURN >= len(ours)  # enough steps for all of them
    before = len(waiting())
    STEPS["define_records"]()
    assert len(waiting()) == max(0, before - RECORDS_A_TURN)  # a few a turn: no turn freezes the window


def test_a_post_init_runs_as_dataclass_would_run_it():
    """A deferred record's ``__post_init__`` runs on every instance, the first (which defines the class)
    and the rest, and on a copy made by ``dataclasses.replace``: a task's times that are not numbers (text in
    another tool's INTEGER column) are no time, and a REAL is its whole milliseconds."""
    from daycare_gui.stores.records.activity import Run, TaskItem, whole_ms

    @deferred
    class Stamped:
        at: object = None

        def __post_init__(self) -> None:
            object.__setattr__(self, "at", whole_ms(self.at))

    assert Stamped("soon").at is None and Stamped(1.9).at == 1 and Stamped(5).at == 5
    assert dataclasses.replace(Stamped(5), at="later").at is None
    task = TaskItem("t", "T", "cron", last_run_at="soon", next_run_at=1_700_000_000_000.5)
    assert (task.last_run_at, task.next_run_at) == (None, 1_700_000_000_000)
    assert Run("r", "a", "soon", float("inf")).started_at is None and Run("r", "a", 7, float("nan")).finished_at is None
    assert [whole_ms(v) for v in (True, b"1", "1", 2 ** 70 * 1.0, -3.5)] == [None, None, None, None, -3]
