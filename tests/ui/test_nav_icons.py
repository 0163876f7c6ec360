"""Issue 15, "look right": every navigation entry has an icon that ships with the application, for Daycare's
sections and for the shared sections built for other store kinds, and the icons read in a dark palette."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QIcon, QPalette

from daycare_gui.stores.daycare.sections import SECTIONS
from daycare_gui.ui import icons
from daycare_gui.ui.icons import FALLBACK, available, nav_icon
from daycare_gui.ui.preload import MODULES, STEPS
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


def _fresh_palette(text: str, highlighted: str) -> QPalette:
    """A palette no other test made icons for (nav_icon keeps its icons per colour)."""
    p = QPalette()
    p.setColor(QPalette.ColorGroup.Active, QPalette.ColorRole.Text, QColor(text))
    p.setColor(QPalette.ColorGroup.Active, QPalette.ColorRole.HighlightedText, QColor(highlighted))
    return p


def _solid(pixmap):
    image = pixmap.toImage()
    return {(x, y): image.pixelColor(x, y) for x in range(image.width()) for y in range(image.height())
            if image.pixelColor(x, y).alpha() == 255}


def test_an_icon_turning_selected_is_its_drawing_recoloured_not_the_svg_drawn_again(qapp):
    """(#35) A navigation row turning selected, or back, rendered its SVG again in the new colour: 1-3 ms
    in the paint of the first page a user opened, twice (the row left and the row chosen)."""
    icon = nav_icon("folder", _fresh_palette("#123456", "#fedcba"))
    renders = icons.svg_renders
    normal = icon.pixmap(16, 16, QIcon.Mode.Normal)
    selected = icon.pixmap(16, 16, QIcon.Mode.Selected)
    assert icons.svg_renders == renders + 1  # one drawing at this size, for both colours
    # the same shape in each colour: solid where the drawing is solid, in that mode's colour
    ink, picked = _solid(normal), _solid(selected)
    assert len(ink) > 10 and ink.keys() == picked.keys()
    assert {c.name() for c in ink.values()} == {"#123456"} and {c.name() for c in picked.values()} == {"#fedcba"}
    icon.pixmap(32, 32, QIcon.Mode.Selected)
    assert icons.svg_renders == renders + 2  # another size is drawn for itself (sharp, not scaled)


def test_the_idle_warm_up_makes_every_mode_of_the_icons_shown(qapp):
    """After the idle-time warm-up, a row turning selected paints a pixmap made already."""
    icon = nav_icon("edit-find", _fresh_palette("#204060", "#e0c0a0"))
    icon.pixmap(16, 16, QIcon.Mode.Normal)  # shown in the navigation, not selected
    icons.warm_up()
    made = icons.pixmaps_made
    for mode in (QIcon.Mode.Selected, QIcon.Mode.Normal, QIcon.Mode.Disabled, QIcon.Mode.Active):
        icon.pixmap(16, 16, mode)
    assert icons.pixmaps_made == made
    assert "warm_up_icons" in STEPS and "warm_up_icons" in MODULES  # run by the window's preloader
