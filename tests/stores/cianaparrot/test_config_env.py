"""Environment variables in config.yaml's paths are filled in as the bot's config loader does: ``${VAR}``
only (src/config.py ``_expand_env`` at emanueleielo/ciana-parrot@d289c767), an unset one as empty, ``$VAR``
and ``~`` left as written; a ``.env`` beside the config (which the bot's docker-compose.yml hands to the bot)
before this session's environment, and a note says where each value came from."""

from __future__ import annotations

import pytest

from daycare_gui.stores.cianaparrot import KIND, write_demo


@pytest.fixture
def bot(tmp_path, monkeypatch):
    for name in ("CP_DATA", "CP_UNSET"):
        monkeypatch.delenv(name, raising=False)
    return write_demo(tmp_path / "bot")


def _configure(root, data_dir: str):
    (root / "config.yaml").write_text(f'agent:\n  data_dir: "{data_dir}"\n')


def _move_data(root, to):
    to.parent.mkdir(parents=True, exist_ok=True)
    (root / "data").rename(to)
    return to


def test_a_variable_set_in_the_env_file_beside_the_config_wins_over_this_session(bot, tmp_path, monkeypatch):
    data = _move_data(bot, tmp_path / "from-env-file" / "state")
    (tmp_path / "from-session" / "state").mkdir(parents=True)
    monkeypatch.setenv("CP_DATA", str(tmp_path / "from-session"))
    (bot / ".env").write_text(f"# the bot's keys\nANTHROPIC_API_KEY=sk-ant-secret\nexport CP_DATA=\"{data.parent}\"\n")
    _configure(bot, "${CP_DATA}/state")
    with KIND.open(bot) as store:
        assert store.layout.data_dir == data and store.counts()["checkpoints"] == 28
        notes = store.summary().notes
        assert f"agent.data_dir uses ${{CP_DATA}}, taken from {bot / '.env'} (the bot's docker-compose.yml " \
               "hands that file to the bot)" in notes
        assert not any("sk-ant" in n for n in notes)


def test_a_variable_from_this_session_says_the_bots_environment_may_differ(bot, tmp_path, monkeypatch):
    data = _move_data(bot, tmp_path / "elsewhere" / "state")
    monkeypatch.setenv("CP_DATA", str(data.parent))
    _configure(bot, "${CP_DATA}/state")
    with KIND.open(bot) as store:
        assert store.layout.data_dir == data
        assert ("agent.data_dir uses ${CP_DATA}, taken from this session's environment; the bot's environment "
                "may differ") in store.summary().notes


def test_an_unset_variable_is_empty_as_the_bot_makes_it(bot):
    data = _move_data(bot, bot / "state")
    _configure(bot, "${CP_UNSET}state")
    with KIND.open(bot) as store:
        assert store.layout.data_dir == data
        assert ("agent.data_dir uses ${CP_UNSET}, which this session's environment does not set: taken as empty, "
                "as the bot takes an unset variable; the bot's environment may set it") in store.summary().notes


def test_dollar_var_and_tilde_are_not_expanded_as_the_bot_does_not(bot, tmp_path, monkeypatch):
    monkeypatch.setenv("CP_DATA", str(tmp_path / "expanded"))
    (tmp_path / "expanded" / "state").mkdir(parents=True)
    data = _move_data(bot, bot / "$CP_DATA" / "state")
    _configure(bot, "$CP_DATA/state")
    with KIND.open(bot) as store:
        assert store.layout.data_dir == data
        assert ("agent.data_dir holds $CP_DATA, which the bot does not expand (only ${VAR}): it is part of the "
                "path as written") in store.summary().notes
    (bot / "~").mkdir()
    data = data.rename(bot / "~" / "state")
    _configure(bot, "~/state")
    with KIND.open(bot) as store:
        assert store.layout.data_dir == data
        assert ("agent.data_dir starts with ~, which the bot does not expand: it is a folder named ~ in its "
                "working directory") in store.summary().notes
