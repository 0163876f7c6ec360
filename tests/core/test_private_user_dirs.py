"""Tests never write into the real user cache or config (a session-wide fixture in tests/conftest.py)."""

from pathlib import Path

import platformdirs

from daycare_gui.stores.common.fts import default_dir
from daycare_gui.stores.common.search_index import index_file


def test_caches_and_indexes_go_to_the_test_session(_private_user_dirs):
    home = Path(_private_user_dirs)
    for where in (platformdirs.user_cache_dir("daycare-gui"), platformdirs.user_config_dir("daycare-gui"),
                  default_dir(), index_file("daycare-sqlite:/some/store/daycare.db")):
        assert Path(where).is_relative_to(home), where
    assert not Path(default_dir()).is_relative_to(Path.home() / ".cache")
