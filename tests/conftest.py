"""Shared test fixtures.

Real Daycare data folders live in ``tests/fixtures/`` (see its README). Tests never touch them in place:
:func:`fixture_copy` copies one into ``tmp_path`` first (an SQLite open of a WAL database would write
``-wal``/``-shm`` files beside it, an upgrade rewrites it, and PGlite writes into any folder it opens).
"""

from __future__ import annotations

import os
import shutil
import tarfile
from pathlib import Path

import pytest
from hypothesis import settings

# The suite is reproducible by default: the same examples every run, so a red CI is a change's fault and can
# be re-run. HYPOTHESIS_PROFILE=explore draws fresh examples (run it now and then to look for new bugs).
settings.register_profile("repeatable", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"
FIXTURE_NAMES = ("daycare-808af509", "daycare-newer", "daycare-stuck")
PGLITE_TARBALL = "daycare-pglite-7c3c466c.tar.gz"


def fixture_source(name: str) -> Path:
    """The one way to the repository's fixtures. A missing one fails the test: the fixtures are part of the
    repository, so their absence is a broken checkout, never a reason to skip."""
    src = FIXTURES / name
    if not src.exists():
        pytest.fail(f"fixture {name} is missing from {FIXTURES} (it is part of the repository)", pytrace=False)
    return src


def _plain_members(tar: tarfile.TarFile, name: str) -> list[tarfile.TarInfo]:
    """Only regular files and folders inside the target (what the fixture holds); Python's own "data" filter
    is missing from some 3.10/3.11 patch releases still shipped by distributions."""
    members = tar.getmembers()
    for m in members:
        parts = Path(m.name).parts
        if not (m.isfile() or m.isdir()) or m.name.startswith("/") or ".." in parts:
            pytest.fail(f"fixture {name}: unexpected member {m.name!r}", pytrace=False)
    return members


# Where the application keeps per-user files; tests point every one of them at a private folder.
USER_DIR_VARIABLES = ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME")


@pytest.fixture(scope="session", autouse=True)
def _private_user_dirs(tmp_path_factory):
    """No test writes into the real user cache or config: search indexes, settings and anything else kept
    per user go to a folder of this test session (a test may still point them elsewhere)."""
    home = tmp_path_factory.mktemp("user-dirs")
    values = {name: str(home / name.lower()) for name in USER_DIR_VARIABLES}
    values["DAYCARE_GUI_SEARCH_DIR"] = str(home / "xdg_cache_home" / "daycare-gui" / "search")
    # Private copies in the temporary folder, never in the machine's RAM folders (stores.common.ram_folders):
    # the tests that look for a killed child's copy look where TMPDIR says; those of copies in RAM name a
    # RAM folder of their own.
    values["DAYCARE_GUI_RAM_DIR"] = ""
    with pytest.MonkeyPatch.context() as patch:
        for name, value in values.items():
            patch.setenv(name, value)
        yield home


def _copy_fixture(name: str, dest: Path, *, with_db: bool = True, as_name: str | None = None) -> Path:
    src = fixture_source(name)
    if name.endswith(".tar.gz"):
        target = dest / (as_name or name.removesuffix(".tar.gz"))
        with tarfile.open(src) as tar:
            tar.extractall(target, members=_plain_members(tar, name))
        return target
    ignore = None if with_db else shutil.ignore_patterns("daycare.db", "daycare.db-wal", "daycare.db-shm")
    target = dest / (as_name or name)
    shutil.copytree(src, target, ignore=ignore)
    return target


@pytest.fixture
def fixture_copy(tmp_path):
    """``fixture_copy("daycare-808af509")`` → a private copy of that fixture folder;
    ``fixture_copy(PGLITE_TARBALL)`` → a folder holding the unpacked ``daycare.pglite/``."""

    def make(name: str, *, with_db: bool = True, as_name: str | None = None) -> Path:
        return _copy_fixture(name, tmp_path, with_db=with_db, as_name=as_name)

    return make


@pytest.fixture
def pglite_store(tmp_path):
    """A data dir holding only the real ``daycare.pglite/`` of Daycare 7c3c466c, unpacked fresh for each test
    (PGlite writes into any folder it opens, so no test may share one)."""
    tarball = fixture_source("daycare-pglite-7c3c466c.tar.gz")
    dest = tmp_path / "daycare-pglite"
    dest.mkdir()
    with tarfile.open(tarball) as tar:  # not filter="data": Debian 12's Python 3.11.2 predates it
        tar.extractall(dest, members=_plain_members(tar, tarball.name))
    return dest


def snapshot_tree(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` with its bytes: compare before/after to prove nothing was written."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
