import sqlite3

import pytest

from daycare_gui.stores.daycare.demo import write_demo


@pytest.fixture(scope="module")
def small_demo(tmp_path_factory):
    dest = tmp_path_factory.mktemp("small") / "store"
    summary = write_demo(dest)
    return dest, summary


@pytest.fixture
def demo_db(small_demo):
    dest, _ = small_demo
    # immutable=1: never creates -wal/-shm next to the checkpointed file.
    conn = sqlite3.connect(f"file:{dest / 'daycare.db'}?immutable=1", uri=True)
    conn.row_factory = sqlite3.Row
    yield conn
    conn.close()
