"""The one way a store's files are opened: regular files only, without blocking on a named pipe or
reading a device, and a refusal every reader reports as a problem."""

from __future__ import annotations

import io
import os

import pytest

from daycare_gui.stores.common.files.read import read_bytes
from daycare_gui.stores.common.regular_copy import FileGrew, copy_regular, copy_stream, growth_limit
from daycare_gui.stores.common.regular_files import NotRegularFile, open_regular, read_regular
from tests.hostile.guard import finishes


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


def test_a_named_pipe_is_refused_at_once_and_said(tmp_path, fifo):
    link = tmp_path / "messages.jsonl"
    link.symlink_to(fifo)
    for path in (fifo, link):
        with pytest.raises(NotRegularFile, match=r"a named pipe \(FIFO\), not a regular file"):
            finishes(lambda p=path: read_regular(p), fifos=[fifo])
    data, problems = finishes(lambda: read_bytes(link), fifos=[fifo])
    assert data is None
    assert [p.message for p in problems] == ["cannot read file: a named pipe (FIFO), not a regular file; not read"]


def test_a_device_is_refused_not_read(tmp_path):
    link = tmp_path / "zero"
    link.symlink_to("/dev/zero")
    with pytest.raises(NotRegularFile, match="a character device"):
        read_regular(link)


def test_a_folder_is_a_folder_and_a_link_is_refused_without_follow(tmp_path):
    with pytest.raises(IsADirectoryError):
        open_regular(tmp_path)
    real = tmp_path / "real.txt"
    real.write_bytes(b"text")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    assert read_regular(link) == b"text"
    with pytest.raises(NotRegularFile, match="a symbolic link"):
        open_regular(link, follow=False)


class Endless(io.RawIOBase):
    """A source that never ends, as a file that is appended to as fast as it is read."""

    def readable(self):
        return True

    def readinto(self, buffer):
        buffer[:] = b"\0" * len(buffer)
        return len(buffer)


def test_a_copy_stops_when_its_source_grows_past_any_plausible_size(tmp_path):
    out = io.BytesIO()
    with pytest.raises(FileGrew, match="grew from 1,000 bytes"):
        copy_stream(io.BufferedReader(Endless()), out, 1000, "data.db-wal", chunk=1 << 20)
    assert len(out.getvalue()) <= growth_limit(1000)


def test_copy_regular_refuses_a_device_and_leaves_no_partial_copy(tmp_path):
    link = tmp_path / "db-wal"
    link.symlink_to("/dev/zero")
    with pytest.raises(NotRegularFile):
        copy_regular(link, tmp_path / "copy")
    assert not (tmp_path / "copy").exists()
