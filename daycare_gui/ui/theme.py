"""Colours that follow the palette, so every page reads in a light and in a dark desktop theme.

Nothing in the window names a fixed background. Tints (a conversation bubble, a banner, a badge) are the
family's hue mixed into the palette's Base or Window colour; text colours (accents, errors, notes) are
pulled towards the palette's Text colour until they reach WCAG AA contrast (4.5:1) on the background they
sit on. The results are plain ``#rrggbb`` strings, usable in HTML, style sheets and QColor alike, and
cached per palette.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from functools import lru_cache

import shiboken6
from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QBrush, QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QWidget

AA = 4.5  # WCAG 2 minimum contrast for body text

# Hues, named once: the conversation families and the states rows and messages are marked with.
FAMILY_HUES = {
    "user": "#1d5fbf",
    "assistant": "#555555",
    "tool": "#2e7d32",
    "rlm": "#6a3fa0",
    "rewrite": "#a86b00",
    "note": "#7a6f00",
    "marker": "#555555",
    "other": "#555555",
}
ERROR_HUE = "#c62828"
WARNING_HUE = "#9a6700"
INFO_HUE = "#1d5fbf"
PURPLE_HUE = "#6a3d9a"
FOCUS_HUE = "#f5b800"


# -- colour arithmetic (sRGB, WCAG 2 definitions) ----------------------------------------------------------

def _channel(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4


def luminance(colour) -> float:
    """WCAG relative luminance of a colour (a QColor or anything QColor accepts, e.g. "#1d5fbf")."""
    c = QColor(colour)
    return 0.2126 * _channel(c.red()) + 0.7152 * _channel(c.green()) + 0.0722 * _channel(c.blue())


def contrast(a, b) -> float:
    """WCAG contrast ratio of two colours, 1.0 (same) to 21.0 (black on white)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def mix(a, b, t: float) -> str:
    """``a`` moved by ``t`` (0..1) towards ``b``, as ``#rrggbb``."""
    ca, cb = QColor(a), QColor(b)
    return QColor(round(ca.red() + (cb.red() - ca.red()) * t), round(ca.green() + (cb.green() - ca.green()) * t),
                  round(ca.blue() + (cb.blue() - ca.blue()) * t)).name()


def readable(colour, background, towards, minimum: float = AA) -> str:
    """``colour`` as it is if it reads on ``background`` (one colour or several), else moved towards
    ``towards`` (the palette's text colour) just far enough to reach ``minimum`` contrast on all of them.
    Keeps the hue where it can."""
    grounds = [background] if isinstance(background, (str, QColor)) else list(background)
    for step in range(0, 21):
        candidate = mix(colour, towards, step / 20)
        if all(contrast(candidate, bg) >= minimum for bg in grounds):
            return candidate
    return QColor(towards).name()


def is_dark(palette: QPalette) -> bool:
    return luminance(palette.color(QPalette.ColorRole.Window)) < 0.2


# -- the palette's colours --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Colours:
    """Every colour the window draws with, worked out for one palette."""

    dark: bool
    text: str  # body text on base
    base: str  # text views and tables
    window: str  # labels, forms, banners
    window_text: str
    meta: str  # secondary text on base and every family tint (times, ids)
    window_meta: str  # secondary text on window (notes under a field)
    error: str  # on base
    link: str  # on base and every family tint
    error_badge: str  # a solid error marker, with its own text colour, the same in both palettes
    error_badge_text: str
    window_error: str  # on window
    window_warning: str
    code_background: str  # <pre> blocks on base
    focus: str  # the border of the record the conversation is centred on
    families: dict  # family -> (tint background, accent readable on that tint)
    states: dict  # row state -> text colour readable on base and alternate base
    banners: dict  # banner kind -> (background, border)

    def family(self, name: str) -> tuple[str, str]:
        return self.families.get(name) or self.families["other"]


def _hex(palette: QPalette, role: QPalette.ColorRole) -> str:
    return palette.color(QPalette.ColorGroup.Active, role).name()


@lru_cache(maxsize=8)
def _colours(text: str, base: str, alt: str, window: str, window_text: str, link: str) -> Colours:
    dark = luminance(window) < 0.2
    tint = 0.22 if dark else 0.10  # a dark base needs more of the hue before the tint shows

    families = {}
    for name, hue in FAMILY_HUES.items():
        bg = mix(base, hue, tint)
        families[name] = (bg, readable(hue, bg, text))
    # Secondary text, errors and links sit on the base and on every tint: readable on the worst of them.
    grounds = [base, alt] + [bg for bg, _ in families.values()]

    def on_all(colour) -> str:
        return readable(colour, grounds, text)

    states = {}
    for state, hue in (("stuck", ERROR_HUE), ("error", ERROR_HUE), ("ignored", WARNING_HUE), ("disabled", "#777777"),
                       ("dead", "#777777"), ("pending", WARNING_HUE), ("unknown", PURPLE_HUE),
                       ("later pending", ERROR_HUE)):
        states[state] = readable(hue, (base, alt), text)
    banners = {kind: (mix(window, hue, tint), mix(window, hue, 0.55))
               for kind, hue in (("info", INFO_HUE), ("warning", WARNING_HUE), ("error", ERROR_HUE))}
    return Colours(
        dark=dark, text=text, base=base, window=window, window_text=window_text,
        meta=on_all(mix(text, base, 0.45)),
        window_meta=readable(mix(window_text, window, 0.45), window, window_text),
        error=on_all(ERROR_HUE), link=on_all(link), error_badge=ERROR_HUE, error_badge_text="#ffffff", window_error=readable(ERROR_HUE, window, window_text),
        window_warning=readable(WARNING_HUE, window, window_text),
        code_background=mix(base, text, 0.06 if dark else 0.035),
        focus=FOCUS_HUE, families=families, states=states, banners=banners,
    )


_by_palette: dict[int, Colours] = {}  # a palette's cacheKey → its colours (the key changes with any change)


def colours(palette: QPalette | None = None) -> Colours:
    """The colours for ``palette`` (default: the application's). Looked up by the palette's cache key:
    reading its six colours again cost ~15 µs, and a table asks for a row's state colour in every cell it
    measures or paints."""
    if palette is None:
        palette = QGuiApplication.palette()
    key = palette.cacheKey()
    found = _by_palette.get(key)
    if found is None:
        R = QPalette.ColorRole
        found = _colours(_hex(palette, R.Text), _hex(palette, R.Base), _hex(palette, R.AlternateBase),
                         _hex(palette, R.Window), _hex(palette, R.WindowText), _hex(palette, R.Link))
        if len(_by_palette) >= 32:
            _by_palette.clear()
        _by_palette[key] = found
    return found


@lru_cache(maxsize=64)
def solid_brush(colour: str) -> QBrush:
    """A brush of one colour (a row's state colour), made once per colour. Not ``QBrush(QColor(...))``: PySide
    choosing among QBrush's constructors makes QGradient's Python types and enums the first time (~4 ms),
    paid by the first list that shows a coloured row."""
    brush = QBrush()
    brush.setStyle(Qt.BrushStyle.SolidPattern)
    brush.setColor(QColor(colour))
    return brush


def label_style(kind: str, palette: QPalette | None = None) -> str:
    """A style sheet for a label on the window background: "error", "warning", "note" or "" (plain)."""
    c = colours(palette)
    colour = {"error": c.window_error, "warning": c.window_warning, "note": c.window_meta}.get(kind)
    return f"color: {colour};" if colour else ""


def banner_style_sheet(palette: QPalette | None = None) -> str:
    """Style sheet rules for ``#banner`` frames (info, warning, error), tinted from the palette."""
    c = colours(palette)
    rules = []
    for kind, (bg, border) in c.banners.items():
        selector = "#banner" if kind == "info" else f'#banner[kind="{kind}"]'
        rules.append(f"{selector} {{ background: {bg}; border: 1px solid {border}; border-radius: 4px; }}")
    return "\n".join(rules)


def dark_palette() -> QPalette:
    """A dark palette (for screenshots and tests; on a desktop the platform theme provides its own)."""
    p = QPalette()
    R, G = QPalette.ColorRole, QPalette.ColorGroup
    for role, colour in ((R.Window, "#2b2b2b"), (R.WindowText, "#e6e6e6"), (R.Base, "#1e1e1e"),
                         (R.AlternateBase, "#262626"), (R.ToolTipBase, "#3a3a3a"), (R.ToolTipText, "#f0f0f0"),
                         (R.PlaceholderText, "#9a9a9a"), (R.Text, "#e6e6e6"), (R.Button, "#353535"),
                         (R.ButtonText, "#e6e6e6"), (R.BrightText, "#ff6b6b"), (R.Light, "#454545"),
                         (R.Midlight, "#3a3a3a"), (R.Mid, "#6a6a6a"), (R.Dark, "#1a1a1a"), (R.Shadow, "#000000"),
                         (R.Highlight, "#2f65ca"), (R.HighlightedText, "#ffffff"), (R.Link, "#7fb0ff"),
                         (R.LinkVisited, "#c39bff")):
        p.setColor(role, QColor(colour))
    for role, colour in ((R.WindowText, "#808080"), (R.Text, "#808080"), (R.ButtonText, "#808080"),
                         (R.HighlightedText, "#808080"), (R.Highlight, "#3d3d3d")):
        p.setColor(G.Disabled, role, QColor(colour))
    return p


# -- the application style sheet ------------------------------------------------------------------------

TONES = ("error", "warning", "note")


# Widgets that carry the application's rules as their own style sheet (see take_app_style), and the rules.
_styled: weakref.WeakSet = weakref.WeakSet()
_sheet = ""


def take_app_style(widget) -> None:
    """Give ``widget`` (and its children) the application's style sheet rules: the sizes in app.qss, the
    banner tints and the label tones, kept up to date by :class:`PaletteFollower`.

    Only the widgets that use a rule carry it. A style sheet on the application would put every widget
    of the window under Qt's style sheet style, which roughly doubles what creating, parenting and
    polishing each one costs (~30 ms of start-up for the first pages)."""
    if widget in _styled:
        return
    _styled.add(widget)
    if _sheet:
        widget.setStyleSheet(_sheet)


def _apply_app_style(sheet: str) -> None:
    global _sheet
    _sheet = sheet
    for widget in list(_styled):
        if shiboken6.isValid(widget):
            widget.setStyleSheet(sheet)


def set_tone(widget, tone: str | None) -> None:
    """Mark a label as an error, warning or note (``None``: plain); the application's rules colour it
    from the palette, so the colour follows a light/dark switch."""
    if (widget.property("tone") or "") == (tone or ""):
        return
    take_app_style(widget)
    widget.setProperty("tone", tone or "")
    widget.style().unpolish(widget)
    widget.style().polish(widget)


def tone_rules(palette: QPalette | None = None) -> str:
    c = colours(palette)
    colour = {"error": c.window_error, "warning": c.window_warning, "note": c.window_meta}
    return "\n".join(f'*[tone="{tone}"] {{ color: {colour[tone]}; }}' for tone in TONES)


def app_style_sheet(static: str, palette: QPalette | None = None) -> str:
    """``static`` (resources/styles/app.qss: sizes and paddings) plus the palette's colour rules."""
    return "\n".join((static, banner_style_sheet(palette), tone_rules(palette)))


class PaletteFollower(QObject):
    """Re-applies the application's style sheet rules (to the widgets that take them: take_app_style) when
    the palette changes (the desktop went dark or light).

    It hears of the change through a hidden widget of its own, which Qt tells whenever the application
    palette changes, not through an event filter on the application: that would call into Python for
    every event of every object in the program (each paint, timer tick and key press).

    Most platform themes hand Qt a new palette when the desktop's colour scheme changes. Some only report
    the scheme (``QStyleHints.colorSchemeChanged``) and leave a light palette in place; then the window
    takes a dark palette of its own, or the style's standard one when the desktop turns light again."""

    def __init__(self, app, static: str) -> None:
        super().__init__(app)
        self._app, self._static = app, static
        self._applied = None
        self.apply()
        self._listener = _PaletteListener(self.apply)
        app.styleHints().colorSchemeChanged.connect(self.scheme_changed)

    def scheme_changed(self, scheme) -> None:
        if scheme == Qt.ColorScheme.Unknown:
            return
        want_dark = scheme == Qt.ColorScheme.Dark
        if is_dark(self._app.palette()) != want_dark:
            self._app.setPalette(dark_palette() if want_dark else self._app.style().standardPalette())
        self.apply()

    def apply(self) -> None:
        sheet = app_style_sheet(self._static, self._app.palette())
        if sheet != self._applied:
            self._applied = sheet
            _apply_app_style(sheet)


class _PaletteListener(QWidget):
    """Never shown; its palette is the application's, so it changes whenever that does."""

    def __init__(self, changed) -> None:
        super().__init__()
        self._changed = changed

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            self._changed()
        super().changeEvent(event)


_PALETTE_EVENTS = (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange, QEvent.Type.StyleChange)


class _PaletteWatch(QObject):
    """Calls ``callback`` once after ``widget``'s palette changed, on the next turn of the event loop.

    Deferred on purpose: a parent hears of a new palette before its children have it, so HTML rendered
    from a child view's palette at that moment would still carry the old colours. A burst of events (the
    palette, then the style sheet re-polishing everything) is one call."""

    def __init__(self, widget, callback) -> None:
        super().__init__(widget)
        self._callback = callback
        self._timer = QTimer(self, singleShot=True, interval=0, timeout=self._fire)
        self._seen = colours(widget.palette())
        self._widget = widget
        widget.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt override)
        # (getattr: when the cyclic GC takes a closed widget and this watch apart, the watch's attributes
        # are cleared before Qt stops sending it the widget's last events)
        if obj is getattr(self, "_widget", None) and event.type() in _PALETTE_EVENTS:
            self._timer.start()
        return False

    def _fire(self) -> None:
        if getattr(self, "_widget", None) is None:
            return
        now = colours(self._widget.palette())
        if now != self._seen:  # a style sheet re-polish without a new palette draws nothing again
            self._seen = now
            self._callback()


def follow_palette(widget, callback) -> QObject:
    """Run ``callback`` (re-render HTML, recolour icons) whenever ``widget``'s palette turns into another
    one: the desktop switched between light and dark while the window is open. Returns the watcher, owned
    by ``widget``."""
    return _PaletteWatch(widget, callback)
