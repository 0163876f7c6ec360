"""Is Daycare's engine running on this store?

Daycare treats the engine as running when its Unix socket answers ``GET /v1/engine/status`` with 2xx, or
when the pid in ``<configDir>/engine.pid`` is alive. After a crash both can be stale, so we check both and
report what we saw. Nothing here writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from daycare_gui.stores.common.processes import process_exists
from daycare_gui.stores.common.regular_files import read_regular
from daycare_gui.stores.daycare.paths import DaycarePaths


@dataclass(frozen=True)
class EngineStatus:
    running: bool
    pid: int | None
    pid_alive: bool
    socket_exists: bool
    socket_answers: bool
    detail: str

    def to_dict(self) -> dict:
        return {
            "running": self.running,
            "pid": self.pid,
            "pid_alive": self.pid_alive,
            "socket_exists": self.socket_exists,
            "socket_answers": self.socket_answers,
            "detail": self.detail,
        }


def _read_pid(path: Path) -> int | None:
    try:
        text = read_regular(path).decode("ascii", errors="replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def _socket_answers(path: Path, timeout: float) -> bool:
    """HTTP over the Unix socket; a 2xx status line means an engine is there."""
    import socket  # only when a socket file exists: importing it is ~3 ms of every start otherwise

    if not hasattr(socket, "AF_UNIX"):
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(timeout)
            sock.connect(str(path))
            sock.sendall(b"GET /v1/engine/status HTTP/1.1\r\nHost: daycare\r\nConnection: close\r\n\r\n")
            head = sock.recv(64)
    except OSError:
        return False
    parts = head.split(b" ", 2)
    return len(parts) >= 2 and parts[0].startswith(b"HTTP/") and parts[1][:1] == b"2"


def engine_status(paths: DaycarePaths, *, timeout: float = 0.3) -> EngineStatus:
    pid = _read_pid(paths.pid_path) if paths.pid_path.exists() else None
    pid_alive = pid is not None and bool(process_exists(pid))
    socket_exists = paths.socket_path.exists()
    answers = socket_exists and _socket_answers(paths.socket_path, timeout)
    running = pid_alive or answers
    if answers:
        detail = f"the engine answers on {paths.socket_path}"
    elif pid_alive:
        detail = f"process {pid} from {paths.pid_path} is alive"
    elif pid is not None:
        detail = f"stale pid file {paths.pid_path} (process {pid} is gone)"
    elif socket_exists:
        detail = f"stale socket {paths.socket_path} (nothing answers)"
    else:
        detail = "no pid file and no socket"
    return EngineStatus(running, pid, pid_alive, socket_exists, answers, detail)
