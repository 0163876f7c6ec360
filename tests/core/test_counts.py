"""Navigation counts: what each page will list."""

from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.daycare.sqlite.counts import nav_counts
from daycare_gui.stores.daycare.sqlite.store import open_store


def test_nav_counts_of_the_demo_store(tmp_path):
    root = tmp_path / "daycare"
    write_demo(root)
    with open_store(root) as store:
        counts = nav_counts(store)
    assert counts["agents"] == 15 and counts["collection:users"] == 4 and counts["inbox"] == 9  # (Users: the shared list)
    # 5 cron rows + one task that exists only as a file; 3 heartbeat rows + one file-only
    assert counts["cron"] == 6 and counts["heartbeat"] == 4
    assert counts["storage"] == 20


def test_nav_counts_of_a_legacy_only_store(fixture_copy):
    with open_store(fixture_copy("daycare-808af509", with_db=False)) as store:
        counts = nav_counts(store)
    assert counts["agents"] == 2 and counts["cron"] == 1 and counts["heartbeat"] == 1
    assert counts["storage"] == 0 and counts["problems"] >= 1
