"""Issue 15, "look right": every navigation entry has an icon that ships with the application, for Daycare's
sections and for the shared sections built for other store kinds, and the icons read in a dark palette."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QPalette

from daycare_gui.stores.daycare.sections import SECTIONS
from daycare_gui.ui.icons import FALLBACK, available, nav_icon
from daycare_gui.ui.theme import contrast, dark_palette
from tests.stores.agentstack.builder import Builder
from tests.ui.conftest import open_and_wait


def _ink(icon, size=32):
    """The colours of an icon's drawn pixels (alpha > 128)."""
    image = icon.pixmap(size, size).toImage()
    return [image.pixelColor(x, y) for x in range(image.width()) for y in range(image.height())
            if image.pixelColor(x, y).alpha() > 128]


def test_every_daycare_section_has_its_own_drawing():
    names = {section.icon for section in SECTIONS if section.in_nav}
    assert names <= set(available()), names - set(available())


def test_a_name_without_a_drawing_gets_the_list_icon(qapp):
    assert _ink(nav_icon("no-such-icon")) and nav_icon("").cacheKey() == nav_icon(FALLBACK).cacheKey()


@pytest.mark.parametrize("palette", ["light", "dark"])
def test_icons_are_drawn_in_the_palettes_text_colour(qapp, palette):
    p = dark_palette() if palette == "dark" else QPalette(qapp.style().standardPalette())
    base = p.color(QPalette.ColorRole.Base)
    for name in available():
        ink = _ink(nav_icon(name, p))
        assert len(ink) > 20, name
        # WCAG asks 3:1 for the parts of a graphic needed to understand it
        solid = [c for c in ink if c.alpha() == 255]
        assert solid and all(contrast(c, base) >= 3.0 for c in solid), name


def _agentstack(tmp_path):
    b = Builder(tmp_path / "proj" / "data" / "aistack.db")
    b.memory("deploy", "Deploy to staging first.", namespace="ops")
    b.task("Write the tests")
    return b.close()


def test_the_navigation_of_another_store_kind_has_icons_that_follow_the_palette(qtbot, qapp, window, tmp_path):
    path = _agentstack(tmp_path)
    window.open_path(str(path))
    qtbot.waitUntil(lambda: window.opened is not None and window.central.currentWidget() is window.splitter,
                    timeout=10000)
    names = window.nav.icon_names()
    assert len(names) > 5 and None not in names
    assert set(names) <= set(available())
    model = window.nav.nav_model
    items = [model.item(r) for r in range(model.rowCount())]
    assert all(not item.icon().isNull() for item in items)

    before = QPalette(qapp.palette())
    try:
        qapp.setPalette(dark_palette())
        base = window.nav.palette().color(QPalette.ColorRole.Base)

        def light_ink() -> bool:
            ink = [c for c in _ink(model.item(0).icon(), 16) if c.alpha() == 255]
            return bool(ink) and all(contrast(c, base) >= 3.0 for c in ink)

        qtbot.waitUntil(light_ink, timeout=5000)  # recoloured, not black on the dark navigation
    finally:
        qapp.setPalette(before)


def test_daycare_navigation_icons(qtbot, window, demo_store):
    open_and_wait(qtbot, window, demo_store)
    qtbot.waitUntil(lambda: window.nav._empty is not None, timeout=10000)  # the demo has no prompt files
    names = window.nav.icon_names()
    # (Costs since #37, Automations since #36; Search, Prompt files and the Empty folder since #33)
    assert len(names) == 23 and set(names) <= set(available())
