"""The PGlite sidecar's memory (#35): Node runs PGlite's WebAssembly compiled by Liftoff only, with a small
young generation.

On the 1M-record demo the sidecar peaked at ~420 MB with Node's defaults (TurboFan's code and compiler memory,
16 MB semi-spaces full of the garbage PGlite makes of each reply); the figures are in bench/README.md. Memory is not asserted here: what the sidecar is started with, and that it still reads
the store as before, is."""

from __future__ import annotations

from pathlib import Path

from daycare_gui.stores import api, registry
from daycare_gui.stores.daycare.pg.runtime import SIDECAR


def _argv(pid: int) -> list[str]:
    return [a.decode() for a in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0") if a]


def test_the_sidecar_runs_webassembly_by_liftoff_only_with_a_small_young_generation(pglite_demo):
    with registry.open_store(pglite_demo) as store:
        argv = _argv(store.server.proc.pid)
        served = [str(store.server.data), str(store.server.socket_dir)]
        cap = store.capability(api.Conversations)
        thread = cap.threads()[0]
        sessions = cap.sessions(thread.id)  # PGlite answers as before under these options
        assert sessions and any(s.message_count for s in sessions)
        ref = max(sessions, key=lambda s: s.message_count).ref
        count, _last = cap.tail(ref)
        assert count == sessions[[s.ref for s in sessions].index(ref)].message_count
        assert len(cap.page_before(ref, None, 3)) == min(3, count)
    script = argv.index(str(SIDECAR))
    node_options = argv[1:script]  # Node's own options come before the script; after it they would be its arguments
    assert "--liftoff-only" in node_options
    assert "--max-semi-space-size=1" in node_options
    assert argv[script + 1:] == served

