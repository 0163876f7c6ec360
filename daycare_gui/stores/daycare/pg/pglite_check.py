"""Before PGlite starts on a folder: the few files PostgreSQL checks first, checked here first.

PGlite stops at an internal trap ("unreachable", "Aborted()") on a damaged ``PG_VERSION``, ``pg_control`` or
relation map, which tells the user nothing. The same checks PostgreSQL makes at start-up, made here on the
user's folder (read only), name the file and say what it should be. The layouts are those of PostgreSQL 17
as PGlite 0.3 builds it (checked against the store Daycare 7c3c466c wrote and the demo PGlite writes).
"""

from __future__ import annotations

import errno
import struct
from pathlib import Path

from daycare_gui.stores.api import CannotOpen
from daycare_gui.stores.common.regular_files import NotRegularFile, open_regular

PG_VERSION = "17"  # the PostgreSQL inside PGlite 0.3
CONTROL_SIZE = 8192  # PG_CONTROL_FILE_SIZE
CONTROL_VERSION = 1700  # ControlFileData.pg_control_version, at byte 8
CONTROL_CRC_AT = 288  # offsetof(ControlFileData, crc): a CRC-32C of the bytes before it
MAP_SIZE = 524  # RELMAPPER_FILESIZE: magic, count, 64 mappings, CRC-32C of the 520 bytes before it
MAP_MAGIC = 0x592717
# Folders PostgreSQL cannot start without (the commit log, the write-ahead log, the catalogs).
FOLDERS = {"base": "the databases", "global": "the shared catalogs", "pg_wal": "the write-ahead log",
           "pg_xact": "the commit log", "pg_multixact": "the multixact state"}
NOT_DAYCARE = "Daycare would not start on this folder either"


class DamagedPglite(CannotOpen):
    """A PGlite folder PostgreSQL would refuse to start on; the message names the file."""


def _crc32c_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
        table.append(crc)
    return table


_TABLE = _crc32c_table()


def crc32c(data: bytes) -> int:
    """CRC-32C (Castagnoli), PostgreSQL's pg_crc32c. Pure Python: it covers a few hundred bytes here."""
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def check_pglite_folder(folder: Path) -> None:
    """Raise :class:`DamagedPglite` with one sentence when a file PostgreSQL reads first is damaged."""
    folder = Path(folder)
    for name, holds in FOLDERS.items():
        _check_folder(folder / name, holds)
    _check_version(folder / "PG_VERSION")
    _check_control(folder / "global" / "pg_control")
    maps = [folder / "global" / "pg_filenode.map"]
    maps += sorted(p / "pg_filenode.map" for p in (folder / "base").iterdir()
                   if (p / "pg_filenode.map").exists() or (p / "pg_filenode.map").is_symlink())
    for path in maps:
        _check_map(path)


def _check_folder(path: Path, holds: str) -> None:
    try:
        path.stat()
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise DamagedPglite(f"{path} is a symbolic link that loops back on itself where PostgreSQL keeps "
                                f"{holds} as a folder; {NOT_DAYCARE}") from None
        if path.is_symlink():
            raise DamagedPglite(f"{path} is a symbolic link to nothing where PostgreSQL keeps {holds} as a "
                                f"folder; {NOT_DAYCARE}") from None
        raise DamagedPglite(f"{path} is missing: PostgreSQL keeps {holds} there, and {NOT_DAYCARE}") from None
    if not path.is_dir():
        raise DamagedPglite(f"{path} is not a folder: PostgreSQL keeps {holds} there, and {NOT_DAYCARE}")


def _read(path: Path, what: str) -> bytes:
    try:  # the shared safe open: a pipe or device swapped in after a check would hang or never end a read
        with open_regular(path) as f:
            return f.read(max(CONTROL_SIZE, MAP_SIZE) + 1)
    except (NotRegularFile, IsADirectoryError):
        raise DamagedPglite(f"{path} is not a file: it should be {what}; {NOT_DAYCARE}") from None
    except OSError as exc:
        reason = "a symbolic link that loops back on itself" if exc.errno == errno.ELOOP else (
            "missing" if isinstance(exc, FileNotFoundError) else f"unreadable ({exc.strerror})")
        raise DamagedPglite(f"{path} is {reason}: it should be {what}; {NOT_DAYCARE}") from None


def _check_version(path: Path) -> None:
    what = f'the text "{PG_VERSION}" (the PostgreSQL version inside PGlite 0.3)'
    data = _read(path, what)
    if data.strip() != PG_VERSION.encode():
        shown = "".join(c if c.isprintable() else "?" for c in data[:20].decode("utf-8", "replace").strip())
        raise DamagedPglite(f'{path} says "{shown}" where a PGlite folder of Daycare says "{PG_VERSION}" '
                            f"(the PostgreSQL version inside PGlite 0.3); {NOT_DAYCARE}")


def _check_control(path: Path) -> None:
    what = f"PostgreSQL's control file ({CONTROL_SIZE} bytes with a checksum)"
    data = _read(path, what)
    if len(data) != CONTROL_SIZE:
        raise DamagedPglite(f"{path} holds {len(data):,} bytes where {what} has {CONTROL_SIZE:,}; {NOT_DAYCARE}")
    stored = struct.unpack_from("<I", data, CONTROL_CRC_AT)[0]
    if crc32c(data[:CONTROL_CRC_AT]) != stored:
        raise DamagedPglite(f"{path} is damaged: its checksum does not match its contents, and PostgreSQL "
                            f"keeps the state of the whole folder there; {NOT_DAYCARE}")
    version = struct.unpack_from("<I", data, 8)[0]
    if version != CONTROL_VERSION:
        raise DamagedPglite(f"{path} is of control-file version {version} where PostgreSQL 17 (inside PGlite "
                            f"0.3) writes {CONTROL_VERSION}; {NOT_DAYCARE}")


def _check_map(path: Path) -> None:
    what = f"PostgreSQL's relation map ({MAP_SIZE} bytes with a checksum)"
    data = _read(path, what)
    if len(data) != MAP_SIZE:
        raise DamagedPglite(f"{path} holds {len(data):,} bytes where {what} has {MAP_SIZE:,}; {NOT_DAYCARE}")
    magic = struct.unpack_from("<I", data, 0)[0]
    stored = struct.unpack_from("<I", data, MAP_SIZE - 4)[0]
    if magic != MAP_MAGIC:
        wrong = f"it does not start with the magic number of {what}"
    elif crc32c(data[:MAP_SIZE - 4]) != stored:
        wrong = "its checksum does not match its contents"
    else:
        return
    raise DamagedPglite(f"{path} is damaged: {wrong}, and PostgreSQL finds its catalogs' files through it; "
                        f"{NOT_DAYCARE}")
