"""A store that cannot be opened is said in the sentence the command line prints, never with the Python
class name in front ("UnknownKind: …", "DamagedPglite: …"): issue 34."""

import pytest
from PySide6.QtWidgets import QMessageBox


@pytest.mark.parametrize("message, shown", [
    ("UnknownKind: no store kind named 'lingen'; the kinds are daycare, linggen, agentstack, cianaparrot",
     "no store kind named 'lingen'"),
    ("DamagedPglite: /s/daycare.pglite/PG_VERSION says 99 where PostgreSQL 17 writes 17",
     "PG_VERSION says 99"),
    ("PgliteUnavailable: Reading a PGlite store needs Node.js", "Reading a PGlite store needs Node.js"),
])
def test_a_refusal_is_shown_as_its_sentence(window, monkeypatch, message, shown):
    import daycare_gui.stores.daycare.pg.pglite_check  # noqa: F401  (the kind's own errors are loaded by then)
    import daycare_gui.stores.daycare.pg.runtime  # noqa: F401
    import daycare_gui.stores.registry  # noqa: F401

    said = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _parent, title, text, *a, **k: said.append((title, text)))
    window._open_failed("/s", message)
    assert said and said[0][0] == "Cannot open"
    assert shown in said[0][1] and message.split(":")[0] not in said[0][1]


def test_an_unexpected_error_keeps_its_class_name(window, monkeypatch):
    said = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _parent, title, text, *a, **k: said.append(text))
    window._open_failed("/s", "ZeroDivisionError: division by zero")
    assert "ZeroDivisionError: division by zero" in said[0]  # a bug, said as one, for its report
