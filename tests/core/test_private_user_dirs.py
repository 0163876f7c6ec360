"""Tests never write into the real user cache or config (a session-wide fixture in tests/conftest.py)."""

from pathlib import Path

import platformdirs

from daycare_gui.stores.daycare.sqlite.fts_index.index import default_dir, index_path


def test_caches_and_indexes_go_to_the_test_session(_private_user_dirs):
    home = Path(_private_user_dirs)
    for where in (platformdirs.user_cache_dir("daycare-gui"), platformdirs.user_config_dir("daycare-gui"),
                  default_dir(), index_path("/some/store/daycare.db")):
        assert Path(where).is_relative_to(home), where
    assert not Path(default_dir()).is_relative_to(Path.home() / ".cache")
