"""Every kind names its store by an absolute path, as Daycare does, whatever was typed (issue 34: other
kinds printed the path as typed, so the same store read 'walk/linggen' in one place and '/…' in another)."""

import pytest

from daycare_gui import cli


@pytest.mark.parametrize("kind", ["linggen", "agentstack", "cianaparrot"])
def test_inspect_names_the_store_by_its_absolute_path(kind, tmp_path, monkeypatch, capsys):
    assert cli.main(["demo", str(tmp_path / kind), "--kind", kind, "--quiet"]) == 0
    capsys.readouterr()
    monkeypatch.chdir(tmp_path)
    assert cli.main(["inspect", kind]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert f"store: {tmp_path / kind}" in first, first
