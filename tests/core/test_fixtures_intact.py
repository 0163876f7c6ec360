"""The fixtures are part of the repository and byte-identical to what Daycare wrote (tests/fixtures/README.md)."""

import hashlib

from tests.conftest import FIXTURE_NAMES, FIXTURES, PGLITE_TARBALL


def _listed() -> dict[str, str]:
    lines = (FIXTURES / "SHA256SUMS").read_text(encoding="utf-8").splitlines()
    return {name: digest for digest, name in (line.split(None, 1) for line in lines if line.strip())}


def test_every_fixture_file_matches_its_checksum():
    listed = _listed()
    present = sorted(str(p.relative_to(FIXTURES)) for p in FIXTURES.rglob("*")
                     if p.is_file() and p.name not in ("README.md", "SHA256SUMS"))
    assert present == sorted(listed), "tests/fixtures holds files SHA256SUMS does not list, or lacks some"
    changed = [n for n, d in listed.items() if hashlib.sha256((FIXTURES / n).read_bytes()).hexdigest() != d]
    assert changed == []


def test_the_fixtures_the_tests_name_are_all_there_without_wal_files():
    for name in FIXTURE_NAMES:
        db = FIXTURES / name / "daycare.db"
        assert db.read_bytes()[:16] == b"SQLite format 3\0"
        assert not db.with_name("daycare.db-wal").exists() and not db.with_name("daycare.db-shm").exists()
    assert (FIXTURES / PGLITE_TARBALL).stat().st_size > 1_000_000


def test_the_pglite_tarball_unpacks_to_a_data_folder(fixture_copy):
    root = fixture_copy(PGLITE_TARBALL)
    assert (root / "daycare.pglite" / "PG_VERSION").read_text().strip() == "17"
