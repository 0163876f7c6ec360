"""The application paints on its own thread: Qt's raster engine would otherwise split every fill taller
than 96 pixel rows across a pool of helper threads and wait for them, which for a window's widgets costs
more than the painting (see ``daycare_gui.ui.app``)."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

_SCRIPT = textwrap.dedent("""
    import sys
    from pathlib import Path
    from PySide6.QtCore import QRect, Qt
    from PySide6.QtGui import QColor, QImage, QPainter
    from PySide6.QtWidgets import QApplication
    if sys.argv[1] == "daycare-gui":
        from daycare_gui.ui.app import make_application
        app = make_application(sys.argv[:1])
    else:
        app = QApplication(sys.argv[:1])
    threads = lambda: len(list(Path("/proc/self/task").iterdir()))
    before = threads()
    image = QImage(400, 700, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.white)
    painter = QPainter(image)
    painter.fillRect(QRect(0, 0, 400, 700), QColor(40, 90, 200, 128))  # a tall see-through fill
    painter.end()
    print("painted", image.pixelColor(10, 600).name(), "threads started", threads() - before)
""")


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts threads through Linux's /proc")
@pytest.mark.parametrize("app, started", [("daycare-gui", 0), ("plain Qt", None)])
def test_a_tall_fill_is_painted_without_helper_threads(tmp_path, app, started):
    script = tmp_path / "paint.py"
    script.write_text(_SCRIPT)
    env = {k: v for k, v in os.environ.items() if k != "QT_NO_GUI_THREADPOOL"}
    env.update(QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(REPO))
    out = subprocess.run([sys.executable, str(script), app], capture_output=True, text=True, cwd=tmp_path,
                         env=env, timeout=60)
    assert out.returncode == 0, out.stderr[-800:]
    assert "painted #93ace3" in out.stdout  # the fill landed either way
    count = int(out.stdout.split("threads started")[1])
    if started is None:  # plain Qt does hand the fill to helper threads (so the check above can fail)
        assert count > 0
    else:
        assert count == started
