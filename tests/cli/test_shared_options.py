"""``--since`` and ``--kind`` mean the same in every command that takes them, and bad values get the same one
sentence (exit 2, no traceback) wherever they are typed."""

import pytest

from daycare_gui import cli

SINCE_COMMANDS = ["automations", "costs", "search", "export"]
KIND_COMMANDS = ["automations", "costs", "storage", "prune", "inspect", "export", "search"]
PLACES = {"search": ["words"], "export": ["costs:day"], "prune": ["--keep", "1"]}  # what else each needs


@pytest.mark.parametrize("command", SINCE_COMMANDS)
def test_a_bad_date_is_one_sentence_and_the_same_in_each_command(command, tmp_path, capsys):
    assert cli.main([command, str(tmp_path), *PLACES.get(command, []), "--since", "last tuesday"]) == 2
    err = capsys.readouterr().err
    assert err == (f"daycare-gui {command}: --since 'last tuesday' is not a date (write 2026-11-01, or a time "
                   "such as 2026-11-01T07:00; a time without a zone is UTC).\n")


@pytest.mark.parametrize("command", SINCE_COMMANDS)
def test_an_impossible_day_is_refused_the_same_way(command, tmp_path, capsys):
    assert cli.main([command, str(tmp_path), *PLACES.get(command, []), "--since", "2026-02-30"]) == 2
    err = capsys.readouterr().err
    assert "--since '2026-02-30' is not a date" in err and "Traceback" not in err


def test_search_until_is_checked_the_same_way(tmp_path, capsys):
    assert cli.main(["search", str(tmp_path), "words", "--until", "soon"]) == 2
    assert capsys.readouterr().err.startswith("daycare-gui search: --until 'soon' is not a date (write 2026-11-01")


def test_every_command_takes_a_date_and_a_time():
    from daycare_gui.commands import options

    day, time = options.since("2026-11-01"), options.since("2026-11-01T07:00Z")
    assert day.isoformat() == "2026-11-01T00:00:00+00:00" and time.isoformat() == "2026-11-01T07:00:00+00:00"
    assert options.since("2026-11-01T09:00+02:00") == time


@pytest.mark.parametrize("command", KIND_COMMANDS)
def test_every_kind_option_lists_the_same_kinds(command, capsys):
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--kind KIND open as this kind (daycare, linggen, agentstack, cianaparrot" in out


@pytest.mark.parametrize("command", KIND_COMMANDS)
def test_an_unknown_kind_is_one_sentence(command, tmp_path, capsys):
    code = cli.main([command, str(tmp_path), *PLACES.get(command, []), "--kind", "nosuch"])
    err = capsys.readouterr().err
    assert code == 2 and "unknown store kind 'nosuch'" in err and "Traceback" not in err
