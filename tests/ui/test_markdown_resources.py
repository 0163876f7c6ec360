"""Markdown views load no file a document names: a message's ``![x](/dev/zero)`` read the device on the GUI
thread until memory ran out, and a FIFO would have hung the window. Only inline ``data:`` images (bounded)
and the package's own icons are loaded."""

from __future__ import annotations

import base64
import os

import pytest
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QUrl
from PySide6.QtGui import QColor, QImage, QTextDocument

from daycare_gui.ui.widgets.markdown_view import DATA_URL_LIMIT, OWN_RESOURCES, SafeTextBrowser, set_markdown

IMAGE = QTextDocument.ResourceType.ImageResource.value


def loads_nothing(result) -> bool:
    """The empty placeholder: one transparent pixel (None would make Qt read the file itself)."""
    return isinstance(result, QImage) and result.width() == result.height() == 1 and result.pixelColor(0, 0).alpha() == 0


def _png_bytes() -> bytes:
    image = QImage(4, 4, QImage.Format.Format_RGB32)
    image.fill(QColor("red"))
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(data.data())


@pytest.fixture
def view(qtbot):
    browser = SafeTextBrowser()
    qtbot.addWidget(browser)
    return browser


@pytest.fixture
def picture(tmp_path, monkeypatch):
    """A real picture in the working folder, where Qt resolves a relative name."""
    (tmp_path / "chart.png").write_bytes(_png_bytes())
    monkeypatch.chdir(tmp_path)
    return tmp_path / "chart.png"


def test_a_picture_file_named_by_a_message_is_not_loaded(view, picture):
    for url in (QUrl("chart.png"), QUrl(str(picture)), QUrl.fromLocalFile(str(picture))):
        assert loads_nothing(view.loadResource(IMAGE, url)), url.toString()


def test_devices_fifos_and_system_files_in_markdown_load_nothing(view, picture, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)  # opening it to read would wait for a writer for ever
    named = ["/dev/zero", "file:///etc/passwd", "chart.png", str(fifo), f"file://{fifo}", "/dev/urandom",
             "https://example.invalid/x.png"]
    set_markdown(view, "\n\n".join(f"![x]({url})" for url in named))
    view.show()
    view.document().documentLayout().documentSize()  # lays out, asking for every image
    assert "chart.png" in view.toHtml()  # the images were there to load
    for url in named:
        assert loads_nothing(view.loadResource(IMAGE, QUrl(url))), url


def test_inline_images_and_own_icons_still_load(view):
    inline = "data:image/png;base64," + base64.b64encode(_png_bytes()).decode()
    loaded = view.loadResource(IMAGE, QUrl(inline))
    assert loaded is not None and not loads_nothing(loaded)
    huge = "data:image/png;base64," + "A" * (DATA_URL_LIMIT + 1)
    assert loads_nothing(view.loadResource(IMAGE, QUrl(huge)))
    icon = next(OWN_RESOURCES.glob("*.svg"))
    loaded = view.loadResource(IMAGE, QUrl.fromLocalFile(str(icon)))
    assert loaded is not None and not loads_nothing(loaded)
