"""While PostgreSQL starts in the sidecar (0.2 to 0.5 s in which the opening thread only waits), the open
imports what the store and its capabilities will need, and runs the caller's own preparation (the command
line's ``inspect`` imports its report's modules then), instead of after PGlite answers (#35)."""

from __future__ import annotations

import os
import subprocess
import sys

from daycare_gui.stores import api, registry
from daycare_gui.stores.common import opening
from tests.pg_helpers import use_test_pglite
from tests.stores.daycare_pg.test_sidecar_waits_for_copy import _sidecar_children

PROBE = """
import sys
from daycare_gui.stores.daycare.pg import pglite_copy
real = pglite_copy.PgliteServer._start
seen = []
def start(self, *args, **kwargs):
    real(self, *args, **kwargs)
    seen.append("daycare_gui.stores.daycare.pg.capabilities" in sys.modules)
pglite_copy.PgliteServer._start = start
from daycare_gui.stores import registry
with registry.open_store(sys.argv[1]) as store:
    pass
print(seen)
"""


def test_the_store_s_modules_are_imported_while_pglite_starts(pglite_demo):
    env = dict(os.environ)
    use_test_pglite(env)
    out = subprocess.run([sys.executable, "-c", PROBE, str(pglite_demo)], env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[True]"  # imported by the time PGlite answered, before the store is made


def test_the_caller_s_preparation_runs_once_while_pglite_starts(pglite_demo):
    seen = []

    def meanwhile():
        seen.append(len(_sidecar_children()))  # the sidecar runs, PostgreSQL starting in it

    with opening.reporting(meanwhile=meanwhile):
        store = registry.open_store(pglite_demo)
    with store:
        assert seen == [1]
        assert store.capability(api.Conversations).threads()  # (the store opened as before)


def test_with_a_head_start_under_way_the_open_prepares_while_it_copies_and_starts(pglite_demo):
    """The window's open takes the copy its head start began (pg.head_start): the time it waits for it is
    spent on the same preparation, once, before the copy is served."""
    from daycare_gui.stores.daycare.pg import head_start

    seen = []
    try:
        assert head_start.start(pglite_demo)
        with opening.reporting(meanwhile=lambda: seen.append(head_start.begun(pglite_demo / "daycare.pglite"))):
            store = registry.open_store(pglite_demo)
        with store:
            assert seen == [True]  # once, while the head start was still the one to take
            assert store.capability(api.Conversations).threads()
    finally:
        head_start.discard_all()
