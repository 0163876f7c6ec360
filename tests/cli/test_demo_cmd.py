from daycare_gui.cli import main


def test_demo_command_writes_and_prints_summary(tmp_path, capsys):
    dest = tmp_path / "store"
    assert main(["demo", str(dest)]) == 0
    out = capsys.readouterr().out
    assert str(dest) in out and "15 agents" in out
    assert (dest / "daycare.db").is_file() and (dest / "settings.json").is_file()


def test_demo_command_refuses_non_empty(tmp_path, capsys):
    (tmp_path / "x").write_text("x")
    assert main(["demo", str(tmp_path)]) == 2
    assert "not empty" in capsys.readouterr().err
