"""Every record type each kind's demo and test stores write comes out of a Markdown and an HTML export with
its content (see content.py); Daycare on PGlite is in tests/stores/daycare_pg/test_pg_export_records.py."""

from __future__ import annotations

from daycare_gui.stores.daycare.records.history import HISTORY_KINDS
from tests.stores.export.content import assert_every_record_content_exported


def test_daycare_sqlite_demo(tmp_path):
    from daycare_gui.stores.daycare.demo import write_demo

    write_demo(tmp_path / "daycare", now_ms=1_795_000_000_000)
    checked = assert_every_record_content_exported(tmp_path / "daycare")
    assert set(HISTORY_KINDS) <= set(checked)  # rlm_tool_call among them


def test_linggen_demo_and_test_home(tmp_path):
    from daycare_gui.stores.linggen import write_demo
    from tests.stores.linggen.builder import standard_home

    checked = assert_every_record_content_exported(write_demo(tmp_path / "demo"))
    assert {"plan"} <= set(checked)
    standard_home(tmp_path / "home")
    assert assert_every_record_content_exported(tmp_path / "home")


def test_cianaparrot_demo_and_a_store_langgraph_wrote(tmp_path):
    from daycare_gui.stores.cianaparrot.demo import write_demo
    from tests.stores.cianaparrot.builder import make_deployment

    checked = assert_every_record_content_exported(write_demo(tmp_path / "demo"))
    assert {"HumanMessage", "AIMessage", "ToolMessage"} <= set(checked)
    checked = assert_every_record_content_exported(make_deployment(tmp_path / "real"))
    assert {"HumanMessage", "AIMessage", "ToolMessage"} <= set(checked)


def test_agentstack_has_no_conversations_and_export_says_so(tmp_path, capsys):
    """AgentStack keeps memory, tasks and reviews, not conversations: there is no record to lose."""
    from daycare_gui.cli import main
    from daycare_gui.stores.agentstack import write_demo

    write_demo(tmp_path / "as")
    assert main(["export", str(tmp_path / "as"), "session:x"]) == 2
    assert "has no conversations to export" in capsys.readouterr().err
