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


def test_demo_to_a_path_it_cannot_create_says_so(tmp_path, capsys):
    """Issue 18, item 13: a clear message and exit 2, not a traceback."""
    (tmp_path / "file").write_text("x")
    assert main(["demo", str(tmp_path / "file" / "store")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("daycare-gui demo: cannot create ") and "Not a directory" in err
    assert "Traceback" not in err


def test_demo_that_fails_while_writing_says_so_and_leaves_nothing(tmp_path, capsys, monkeypatch):
    import errno

    from daycare_gui.stores.daycare.demo import files

    def full(*_a, **_k):
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "store" / "settings.json"))

    monkeypatch.setattr(files, "write_all", full)
    assert main(["demo", str(tmp_path / "store")]) == 1
    err = capsys.readouterr().err
    assert "cannot write the demo into" in err and "No space left on device" in err
    assert not (tmp_path / "store").exists()
