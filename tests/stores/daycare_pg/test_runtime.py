"""Which PGlite reads a store: the user's Daycare install's own (nothing to download), else the pinned
release in the cache; nothing else is needed beside it (the sidecar is its own wire server)."""

from __future__ import annotations

import json

from daycare_gui.stores.daycare.pg.runtime import PGLITE_VERSION, find_runtime


def _package(modules, version: str) -> None:
    folder = modules / "@electric-sql" / "pglite"
    folder.mkdir(parents=True)
    (folder / "package.json").write_text(json.dumps({"name": "@electric-sql/pglite", "version": version}))


def test_a_daycare_install_needs_nothing_from_the_cache(tmp_path, monkeypatch):
    install = tmp_path / "daycare" / "node_modules"
    _package(install, "0.3.15")
    monkeypatch.setenv("DAYCARE_GUI_NODE", "/usr/bin/node-for-this-test")
    monkeypatch.setenv("DAYCARE_GUI_DAYCARE_MODULES", str(install))
    monkeypatch.setenv("DAYCARE_GUI_PGLITE_DIR", str(tmp_path / "empty-cache"))
    runtime = find_runtime()
    assert runtime is not None and runtime.pglite_modules == install
    assert runtime.source == f"Daycare install at {install}" and runtime.pglite_version == "0.3.15"


def test_another_pglite_line_is_not_used_and_the_cache_is(tmp_path, monkeypatch):
    install = tmp_path / "daycare" / "node_modules"
    _package(install, "0.4.1")  # opens another database format: never used on a 0.3 store
    monkeypatch.setenv("DAYCARE_GUI_NODE", "/usr/bin/node-for-this-test")
    monkeypatch.setenv("DAYCARE_GUI_DAYCARE_MODULES", str(install))
    cache = tmp_path / "cache"
    monkeypatch.setenv("DAYCARE_GUI_PGLITE_DIR", str(cache))
    assert find_runtime() is None  # nothing usable yet: the window installs the pinned release
    _package(cache / "node_modules", PGLITE_VERSION)
    runtime = find_runtime()
    assert runtime is not None and runtime.source == "cache" and runtime.pglite_modules == cache / "node_modules"
