"""Which PGlite reads a store (issue #32): never code found in a store's folder or its parents; the pinned
release from the cache, checked file for file before each use; a Daycare install's copy only through the
``daycare`` program on PATH and only if it is the pinned release; or the folder the user names explicitly."""

from __future__ import annotations

import json
import os
import shutil
import stat

import pytest

from daycare_gui.cli import main
from daycare_gui.stores.daycare.pg.runtime import (
    PACKAGE,
    PGLITE_VERSION,
    PIN,
    PgliteUnavailable,
    ensure_runtime,
    find_runtime,
)
from tests.pg_helpers import PGLITE_CACHE, plant_pglite

GOOD = PGLITE_CACHE / PACKAGE  # the test cache, which the application itself accepts (tests/pg_helpers.py)


@pytest.fixture(autouse=True)
def index_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(tmp_path / "index"))
    monkeypatch.delenv("DAYCARE_GUI_DAYCARE_MODULES", raising=False)


def _package(modules, version: str):
    folder = modules / "@electric-sql" / "pglite"
    (folder / "dist").mkdir(parents=True)
    (folder / "package.json").write_text(json.dumps({"name": "@electric-sql/pglite", "version": version}))
    (folder / "dist" / "index.js").write_text("export class PGlite {}\n")
    return folder


@pytest.mark.parametrize("where", ["store folder", "its parent"])
def test_inspect_and_search_never_run_a_pglite_planted_beside_the_store(pglite_fixture, tmp_path, capsys, where):
    marker = tmp_path / "planted-code-ran"
    plant_pglite(pglite_fixture if where == "store folder" else pglite_fixture.parent, marker)
    assert main(["inspect", str(pglite_fixture), "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["generation"] == "pglite"
    assert f"Starting PGlite {PGLITE_VERSION}" in err
    assert any(f"PGlite {PGLITE_VERSION} from cache" in note for note in json.loads(out)["notes"])
    assert main(["search", str(pglite_fixture), "hello OR help", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 2
    assert not marker.exists()


def test_a_tampered_cache_is_not_used_but_installed_again(pglite_fixture, tmp_path, monkeypatch):
    from daycare_gui.stores.daycare.paths import resolve_paths
    from daycare_gui.stores.daycare.pg.open import open_pglite

    cache = tmp_path / "cache"
    shutil.copytree(PGLITE_CACHE, cache)
    marker = tmp_path / "tampered-code-ran"
    entry = cache / PACKAGE / "dist" / "index.js"
    entry.write_text(f"import fs from 'node:fs'; fs.writeFileSync({json.dumps(str(marker))}, 'ran');\n"
                     + entry.read_text())
    monkeypatch.setenv("DAYCARE_GUI_PGLITE_DIR", str(cache))
    assert find_runtime() is None  # same version in package.json, other files: not the pinned release
    calls = _fake_npm(tmp_path, monkeypatch, GOOD)
    with open_pglite(resolve_paths(pglite_fixture)) as store:
        assert store.summary().generation == "pglite"
    assert not marker.exists()
    assert calls.read_text().split()[:2] == ["ci", "--ignore-scripts"]
    assert find_runtime() is not None and find_runtime().package == cache / PACKAGE  # the cache is whole again


def test_an_install_whose_files_differ_from_the_pin_is_refused(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("DAYCARE_GUI_PGLITE_DIR", str(cache))
    other = _package(tmp_path / "other", PGLITE_VERSION)  # what a wrong registry could hand npm
    _fake_npm(tmp_path, monkeypatch, other)
    with pytest.raises(PgliteUnavailable, match="not those of the pinned release"):
        ensure_runtime()
    assert not (cache / PACKAGE).exists()  # nothing half-trusted left to be found next time


def test_a_symbolic_link_in_the_installed_package_is_refused(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    shutil.copytree(PGLITE_CACHE, cache)
    monkeypatch.setenv("DAYCARE_GUI_PGLITE_DIR", str(cache))
    assert find_runtime().package == cache / PACKAGE
    (cache / PACKAGE / "dist" / "extra.js").symlink_to("/etc/hostname")
    assert find_runtime() is None


def test_the_pin_is_a_lockfile_with_the_tarballs_integrity():
    lock = json.loads((PIN / "package-lock.json").read_text())
    pinned = lock["packages"]["node_modules/@electric-sql/pglite"]
    assert pinned["version"] == PGLITE_VERSION and pinned["integrity"].startswith("sha512-")
    assert json.loads((PIN / "package.json").read_text())["dependencies"] == {"@electric-sql/pglite": PGLITE_VERSION}


def test_a_daycare_install_is_found_through_the_program_on_path_and_only_if_pinned(tmp_path, monkeypatch):
    lib = tmp_path / "lib" / "node_modules" / "daycare"
    (lib / "bin").mkdir(parents=True)
    (lib / "package.json").write_text('{"name": "daycare"}')
    program = lib / "bin" / "daycare.js"
    program.write_text("#!/usr/bin/env node\n")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "daycare").symlink_to(program)  # as npm links a global install's program
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("DAYCARE_GUI_PGLITE_DIR", str(tmp_path / "empty-cache"))
    installed = lib / "node_modules" / "@electric-sql" / "pglite"
    shutil.copytree(GOOD, installed)
    found = find_runtime()
    assert found.package == installed and found.source == f"Daycare install at {installed}"
    (installed / "README.md").write_text("changed")
    assert find_runtime() is None  # not the pinned release any more: not used


def test_a_node_modules_folder_the_user_names_is_used_as_named(tmp_path, monkeypatch):
    install = tmp_path / "daycare" / "node_modules"
    package = _package(install, "0.3.16")
    monkeypatch.setenv("DAYCARE_GUI_NODE", "/usr/bin/node-for-this-test")
    monkeypatch.setenv("DAYCARE_GUI_DAYCARE_MODULES", str(install))
    monkeypatch.setenv("DAYCARE_GUI_PGLITE_DIR", str(tmp_path / "empty-cache"))
    found = find_runtime()
    assert found.package == package and found.pglite_version == "0.3.16"
    assert found.source == f"DAYCARE_GUI_DAYCARE_MODULES ({package})"
    _package(tmp_path / "newer" / "node_modules", "0.4.1")  # opens another database format: never used
    monkeypatch.setenv("DAYCARE_GUI_DAYCARE_MODULES", str(tmp_path / "newer" / "node_modules"))
    assert find_runtime() is None


def test_ensure_runtime_takes_no_store_path(pglite_fixture):
    with pytest.raises(TypeError):
        ensure_runtime(pglite_fixture)


def _fake_npm(tmp_path, monkeypatch, package):
    """An ``npm`` on PATH that "installs" ``package`` where npm ci would, without the network."""
    bin_dir = tmp_path / "fake-npm"
    bin_dir.mkdir()
    calls = tmp_path / "npm-calls"
    npm = bin_dir / "npm"
    npm.write_text(f'#!/bin/sh\necho "$@" > {calls}\nmkdir -p node_modules/@electric-sql\n'
                   f'cp -R {package} node_modules/@electric-sql/pglite\n')
    npm.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return calls
