"""Fixtures of the hostile-input tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def private_tmp():
    """A temporary folder of the test's own for the commands it runs (TMPDIR), short enough for the unix
    socket PGlite's sidecar makes in it (pytest's tmp_path can pass the 107 bytes a socket path may have)."""
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="hostile-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)
