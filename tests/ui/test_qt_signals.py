"""PySide6 6.12.0 aborts the interpreter after some thousands of signal emissions (a refcount bug in
bool handling). The DB worker emits several signals per request, so a long session would crash.
This guards the pinned version range in pyproject.toml."""

import subprocess
import sys
import textwrap


def test_fifty_thousand_signal_emissions_do_not_abort_the_interpreter(tmp_path):
    script = tmp_path / "emit.py"
    script.write_text(textwrap.dedent("""
        from PySide6.QtCore import QCoreApplication, QObject, Signal
        app = QCoreApplication([])
        class Source(QObject):
            fired = Signal(object)
        source = Source()
        got = []
        source.fired.connect(got.append)
        for i in range(50000):
            source.fired.emit(i)
        print("emitted", len(got))
        # 6.12.0 also drops a reference to None on every binding call that returns None
        for i in range(200000):
            source.setObjectName("x")
        print("calls ok")
    """))
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path,
                         env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr[-500:]
    assert "emitted 50000" in out.stdout and "calls ok" in out.stdout
