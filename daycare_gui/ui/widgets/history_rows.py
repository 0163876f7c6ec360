"""The message list's row painter: time, a coloured kind badge, the one-line summary (of a neutral Message).

Rows have one fixed height so the list view can use uniform item sizes: Qt then asks only for the rows
on screen, which is what keeps a million-record session instant.
"""

from __future__ import annotations

import re
from collections import OrderedDict

from PySide6.QtCore import QLocale, QPointF, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette, QPixmap, QStaticText
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from daycare_gui.stores.common.secrets import mask_free_text
from daycare_gui.ui.formats import date_time, date_time_formatter
from daycare_gui.ui.models.message_pages import KINDS, ROLES, kind_of
from daycare_gui.ui.theme import colours

# Looked up once: every Qt enum or colour reached through its class costs a Python call per use, and a
# screen of rows paints dozens of times a second while scrolling. (Reaching them here also creates
# PySide's enum types at import, in idle time, rather than during the first paint.)
_PANEL = QStyle.PrimitiveElement.PE_PanelItemViewItem
_SELECTED = QStyle.StateFlag.State_Selected
_HOVER = QStyle.StateFlag.State_MouseOver
_CENTER = Qt.AlignmentFlag.AlignCenter
_ELIDE = Qt.TextElideMode.ElideRight
_PLAIN = Qt.TextFormat.PlainText
_TRANSPARENT = Qt.GlobalColor.transparent
_ANTIALIAS = QPainter.RenderHint.Antialiasing
_TEXT = QPalette.ColorRole.Text
_HIGHLIGHTED = QPalette.ColorRole.HighlightedText
_PLACEHOLDER = QPalette.ColorRole.PlaceholderText
_BASE = QPalette.ColorRole.Base
_SOLID = Qt.BrushStyle.SolidPattern
_NO_SHAPING = QFont.StyleStrategy.PreferNoShaping

# Text made only of these is drawn the same without shaping as with it, but for kerning: Latin (with its
# precomposed accents), Greek, Cyrillic, and the punctuation, currency signs and arrows used beside them
# (the narrow no-break space too: most locales put one before a time's "AM" or "PM").
# Anything else may need shaping to be drawn right at all (combining marks, Arabic, Indic scripts, emoji
# sequences such as flags, skin tones and families): it is drawn in the view's own font.
_NEEDS_SHAPING = re.compile("[^\x00-\u02ff\u0370-\u0482\u048a-\u052f\u2010-\u2027\u202f\u2030-\u205e"
                            "\u20a0-\u20cf\u2190-\u21ff]").search


def _time_samples() -> list[str]:
    """Times as wide as the locale writes them: its form of a morning and an evening of every month (the
    widest digits, "AM" and "PM", the month's name where its form has one), and the form the C locale
    writes. (US English's "11/28/2025 10:16:40 PM" is wider than "2025-11-28 10:16:40": measured on the
    latter alone, "PM" ran under the kind's badge.)"""
    import datetime

    samples = ["0000-00-00 00:00:00"]
    for month in range(1, 13):
        for hour in (10, 22):
            at = datetime.datetime(2000, month, 28, hour, 58, 58).timestamp()  # (local time)
            samples.append(date_time(int(at * 1000)))
    return samples


def _static(text: str) -> QStaticText:
    st = QStaticText(text)
    st.setTextFormat(_PLAIN)
    return st


class HistoryRowDelegate(QStyledItemDelegate):
    """Paints one row from the record alone, as one cached image.

    A row is rendered once (time, kind badge, elided summary) into a pixmap kept in a small LRU; painting
    it again — every repaint while scrolling, selecting or hovering — is one pixmap blit (about 15 µs a
    row against about 90 µs for laying out and drawing its texts each time). Plain rows are drawn in
    blocks onto the view's own background colour (opaque: copying them is a plain copy, not a blend of
    every pixel, which was most of Qt's cost of a repaint after the texts), each block only as far down
    as a paint has needed so far (the rows below the screen's last are drawn into it when they are shown).
    A selected or hovered row has an image of its own, transparent, over the background the style draws
    for it. So a row's image depends only on the record, the row's size, whether it is selected (text
    colour) or hovered, the font, the palette and the screen's pixel ratio; a change of the last three
    empties the cache. The row's entry comes from the model in one call instead of item-data round trips."""

    TEXT_CACHE = 600  # rows' formatted strings kept (a few screens; cheap)
    BLOCK = 8  # rows drawn together into one image (one painter for eight rows); divides the page size
    BLOCK_CACHE = 16  # blocks kept: 128 rows, about four screens (~400 KB a block at 600 px wide)
    ROW_CACHE = 32  # selected and hovered rows' images (transparent, over the style's background)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._texts: OrderedDict[int, tuple[str, str]] = OrderedDict()  # key → (time, summary)
        # (key, w, h, problem, selected) → a selected or hovered row's own image
        self._rows: OrderedDict[tuple, QPixmap] = OrderedDict()
        # (block, w, h) → [image with room for BLOCK rows, [(record key, problem)] of the rows drawn in it
        # so far (from its top), the model's paint_token for them when drawn], oldest first
        self._blocks: OrderedDict[tuple, list] = OrderedDict()
        self._badges: dict[tuple, QPixmap] = {}
        self._placeholders: dict[str, QStaticText] = {}
        self._metrics_key: QFont | None = None  # the font measured
        self._locale = QLocale().name()  # the locale the time column was measured in
        self._fast: tuple[QFont, QFontMetrics] | None = None  # that font without optional shaping (_measure)
        self._metrics: tuple[QFontMetrics, int, int] | None = None
        self._palette_key = None
        self._ratio = None
        self._colours = None  # the palette's Colours, and its meta text colour as a QColor
        self._meta: QColor | None = None
        self._fill = _TRANSPARENT  # what a block's image is filled with: the view's background colour
        self._base = None  # the palette's Base colour the fill was worked out for
        self._when = None  # the locale's time formatter, for the paint under way (see _check)
        self.rows_rendered = 0  # rows laid out and drawn into an image (tests prove the cache with it)

    def sizeHint(self, option, index) -> QSize:  # noqa: N802
        return QSize(200, QFontMetrics(option.font).height() + 8)

    def clear_cache(self) -> None:
        """Forget every rendered row and formatted text: the list shows another session (its records are
        keyed by id, and a legacy session's ids are line numbers, which another agent's file repeats). The
        badges and the font's measures stay: a new font is noticed when a row is drawn."""
        self._rows.clear()
        self._blocks.clear()
        self._texts.clear()

    def _measure(self, font) -> tuple[QFontMetrics, int, int]:
        """The measures of the view's ``font``, worked out again when it changes."""
        if self._metrics_key is None or font != self._metrics_key:  # (QFont's == is cheaper than its key())
            fm = QFontMetrics(font)
            self._metrics_key = QFont(font)
            # Text that needs no shaping (_NEEDS_SHAPING) is drawn without it, in a copy of the font with
            # Qt's PreferNoShaping: shaping was a third of drawing a row (an elided summary took 30 µs, 19
            # without); the text is ~0.3% wider on average, at most 2%, for want of kerning. Such text is
            # measured in the font it is drawn in, so an elided summary still ends in its room.
            fast = QFont(font)
            fast.setStyleStrategy(fast.styleStrategy() | _NO_SHAPING)
            self._fast = (fast, QFontMetrics(fast))
            self._metrics = (fm, max(map(fm.horizontalAdvance, _time_samples())) + 10,
                             fm.horizontalAdvance("Python → tool") + 12)
            self._rows.clear()  # drawn with the old font
            self._blocks.clear()
            self._badges.clear()
            self._placeholders.clear()
        return self._metrics

    def summary_left(self, font) -> int:
        """Where a row's summary starts: after its time and its kind."""
        _fm, time_w, badge_w = self._measure(font)
        return 6 + time_w + badge_w + 8

    def width_for(self, font, summary_chars: int) -> int:
        """A row's width that shows its time, its kind and ``summary_chars`` average characters of summary."""
        return self.summary_left(font) + 4 + summary_chars * self._measure(font)[0].averageCharWidth()

    def _theme(self, palette):
        """The palette's colours, worked out again only when the palette changes (light ↔ dark)."""
        key = palette.cacheKey()
        if key != self._palette_key:
            self._palette_key = key
            self._colours = colours(palette)
            self._meta = QColor(self._colours.meta)
            self._base = None  # (the fill is worked out again by _check)
            self._badges.clear()
            self._rows.clear()
            self._blocks.clear()
        return self._colours

    def _text(self, key, rec, when) -> tuple[str, str]:
        """The row's time (``when``: a date_time_formatter) and summary, formatted once."""
        texts = self._texts.get(key)
        if texts is None:
            texts = self._texts[key] = (when(rec.at), mask_free_text(rec.summary(300)))
            if len(self._texts) > self.TEXT_CACHE:
                self._texts.popitem(last=False)
        return texts

    def _badge(self, family: str, label: str, problem: bool, width: int, height: int, font, ratio: float):
        key = (family, label, problem, width, height, ratio)
        pixmap = self._badges.get(key)
        if pixmap is None:
            c = self._colours
            bg, accent = c.family(family)
            pixmap = QPixmap(round(width * ratio), round(height * ratio))
            pixmap.setDevicePixelRatio(ratio)
            pixmap.fill(_TRANSPARENT)
            p = QPainter(pixmap)
            p.setRenderHint(_ANTIALIAS)
            p.setFont(self._fast[0])  # (the kinds' labels need no shaping)
            p.setBrush(QColor(c.error_badge if problem else bg))
            p.setPen(QColor(accent))
            p.drawRoundedRect(QRect(0, 0, width - 1, height - 1), 4, 4)
            p.setPen(QColor(c.error_badge_text if problem else accent))
            p.drawText(QRect(0, 0, width, height), _CENTER, label)
            p.end()
            self._badges[key] = pixmap
        return pixmap

    def warm_up(self, font, palette, row_height: int, ratio: float) -> None:
        """Make every kind's badge and lay out a line of text now (the first of each costs a few ms: glyph
        caches, antialiased painting), so the first page painted does not pay for them."""
        fm, time_w, badge_w = self._measure(font)
        self._theme(palette)
        for family, label in (*KINDS.values(), *ROLES.values()):
            for problem in (False, True):
                self._badge(family, label, problem, badge_w, row_height - 6, font, ratio)
        image = QPixmap(max(1, round(400 * ratio)), max(1, round(row_height * ratio)))
        image.setDevicePixelRatio(ratio)
        image.fill(_TRANSPARENT)
        painter = QPainter(image)
        painter.setFont(self._fast[0])
        painter.drawText(QPointF(0, fm.ascent()),
                         self._fast[1].elidedText("2026-01-01 00:00:00 warm up " * 20, _ELIDE, 380))
        painter.end()

    def _draw_rows(self, p: QPainter, rows, width: int, height: int, selected: bool, font, fg,
                   ratio: float) -> None:
        """Time, badge and elided summary of each ``(record, key, problem)`` in ``rows``, one under the
        other from the top of ``p``'s device (its font and pen are changed). Each kind of item is drawn
        for every row in turn: one pen change per block, not two per row."""
        fm, time_w, badge_w = self._measure(font)
        left = 6
        offset = round((height - fm.height()) / 2) + fm.ascent()  # a row's text baseline below its top
        x = self.summary_left(font)
        room = max(0, width - 4 - x)
        # Eliding shapes the whole string: cut it first to what the room could hold at half the average
        # glyph width (no line of narrower glyphs exists in practice), so a long summary costs no more.
        cut = room * 2 // max(1, fm.averageCharWidth()) + 2
        when = self._when
        if when is None:  # (once a paint: looking the locale up took longer than formatting a block's times)
            when = self._when = date_time_formatter()
        texts = [self._text(key, rec, when) for rec, key, _problem in rows]
        p.setPen(fg if selected else self._meta)
        self._column(p, font, left, [when for when, _summary in texts], height, offset)
        badge = self._badge
        for i, (rec, _key, problem) in enumerate(rows):
            family, label = kind_of(rec)
            p.drawPixmap(left + time_w, i * height + 3, badge(family, label, problem, badge_w, height - 6, font, ratio))
        p.setPen(fg)
        self._column(p, font, x, [summary[:cut] for _when, summary in texts], height, offset, room)
        self.rows_rendered += len(rows)

    def _column(self, p: QPainter, font, x: int, texts: list[str], height: int, offset: int,
                room: int | None = None) -> None:
        """Each of ``texts`` at ``x`` on its row's baseline (elided to ``room`` when given): those that need
        no shaping in the fast font, then the others in the view's ``font``. One font change for each."""
        plain, shaped = [], []
        for row in enumerate(texts):
            (shaped if _NEEDS_SHAPING(row[1]) else plain).append(row)
        # (drawText at two ints: PySide resolves that overload faster than one taking a QPointF)
        draw = p.drawText
        for (row_font, metrics), rows in ((self._fast, plain), ((font, self._metrics[0]), shaped)):
            if rows:
                p.setFont(row_font)
                elided = metrics.elidedText
                for i, text in rows:
                    draw(x, i * height + offset, text if room is None else elided(text, _ELIDE, room))

    def _image(self, width: int, height: int, ratio: float, fill=_TRANSPARENT) -> QPixmap:
        pixmap = QPixmap(max(1, round(width * ratio)), max(1, round(height * ratio)))
        pixmap.setDevicePixelRatio(ratio)
        pixmap.fill(fill)
        return pixmap

    def _render_own(self, rec, key, width: int, height: int, problem: bool, selected: bool, font, palette,
                    ratio: float) -> QPixmap:
        """A selected or hovered row's own image, transparent over the background the style draws for it;
        a selected row's text takes the highlight colour."""
        pixmap = self._image(width, height, ratio)
        p = QPainter(pixmap)
        self._draw_rows(p, [(rec, key, problem)], width, height, selected, font,
                        palette.color(_HIGHLIGHTED if selected else _TEXT), ratio)
        p.end()
        return pixmap

    def _new_block(self, key: tuple, width: int, height: int, token: int, font) -> list:
        """An empty block cache entry (rows are drawn into it by :meth:`_extend`)."""
        self._measure(font)  # (a new font empties the cache: before this entry joins it)
        image = None
        if len(self._blocks) >= self.BLOCK_CACHE:
            # The oldest block's image is painted over rather than a new one made: a block's image is ~400 KB,
            # and a new one is fresh memory the system maps page by page as it is first filled (a scroll
            # replaces a block every eight rows; making each anew was about a tenth of drawing its rows).
            _key, (old, _drawn, _token) = self._blocks.popitem(last=False)
            fill = self._fill
            if (old.width() == max(1, round(width * self._ratio))
                    and old.height() == max(1, round(height * self.BLOCK * self._ratio))
                    and old.devicePixelRatio() == self._ratio
                    and old.hasAlphaChannel() == (fill is _TRANSPARENT)):
                old.fill(fill)
                image = old
        if image is None:
            image = self._image(width, height * self.BLOCK, self._ratio, self._fill)
        entry = self._blocks[key] = [image, [], token]
        return entry

    def _extend(self, entry: list, model, block: int, upto: int, width: int, height: int, font, palette) -> None:
        """Draw the rows of ``block`` after those ``entry`` holds, down to row ``upto`` (as far as they are
        loaded), into its image with one painter; a paint draws no row below the screen's last."""
        first = block * self.BLOCK
        drawn = entry[1]
        rows = []
        for row in range(first + len(drawn), min(first + self.BLOCK, model.rowCount(), upto + 1)):
            rec, state = model.paint_entry(row)
            if rec is None:  # not here yet (a block never spans two pages, but a page may come back short)
                break
            rows.append((rec, rec.id if rec.id is not None else id(rec), state == "problem"))
        if rows:
            p = QPainter(entry[0])
            if drawn:
                p.translate(0, len(drawn) * height)
            self._draw_rows(p, rows, width, height, False, font, palette.color(_TEXT), self._ratio)
            p.end()
            drawn.extend((key, problem) for _rec, key, problem in rows)

    def paint(self, painter, option, index) -> None:
        """One row, for Qt's own callers (the record list paints its rows with :meth:`paint_rows`)."""
        flags, rect, widget = option.state, option.rect, option.widget
        if flags & (_SELECTED | _HOVER) and widget is not None:  # the background, from the style
            widget.style().drawPrimitive(_PANEL, option, painter, widget)
        self._check(painter, option.palette)
        model, row = index.model(), index.row()
        rec, state = model.paint_entry(row)
        if rec is None:
            self._paint_placeholders(painter, option.font, option.palette, rect.left(), rect.height(),
                                     [(rect.top(), state)])
            return
        image, y = self._image_of(model, row, rec, state, bool(flags & _SELECTED), bool(flags & _HOVER),
                                  rect.width(), rect.height(), option.font, option.palette)
        self._blit(painter, rect.left(), rect.top(), image, y, rect.width(), rect.height())

    def paint_rows(self, painter, view, first: int, last: int, left: int, top: int, width: int, height: int,
                   selected, hover_row: int) -> None:
        """Rows ``first``..``last`` of ``view``, the first at (``left``, ``top``): one Python call for a whole
        repaint instead of one per row (Qt's per-row call into Python, with the option and index it wraps
        for it, cost more than copying the row's image). Rows of one block drawn already are copied in one
        go, checked once for the block (see :meth:`_block_for`), not row by row. ``selected``: the selected
        rows among them (a set)."""
        option = QStyleOptionViewItem()
        view.initViewItemOption(option)  # the view's font, palette and state (enabled, active window)
        base_state, font, palette, style = option.state, option.font, option.palette, view.style()
        self._check(painter, palette)
        model = view.model()
        size = self.BLOCK
        waiting = []  # (top, text) of rows whose page is on its way, drawn together at the end
        row = first
        while row <= last:
            is_selected, hovered = row in selected, row == hover_row
            if not (is_selected or hovered):
                # The plain rows from here to the end of their block (or the next selected or hovered row)
                block, offset = divmod(row, size)
                stop = min(last, block * size + size - 1)
                for other in range(row + 1, stop + 1):
                    if other in selected or other == hover_row:
                        stop = other - 1
                        break
                entry = self._block_for(model, block, stop, width, height, font, palette)
                if entry is not None:
                    drawn = min(stop - block * size, len(entry[1]) - 1) - offset + 1  # rows it holds
                    if drawn > 0:
                        self._blit(painter, left, top, entry[0], offset * height, width, drawn * height)
                        row += drawn
                        top += drawn * height
                        continue
            if is_selected or hovered:  # the background comes from the style, as the view would draw it
                state = base_state
                if is_selected:
                    state |= _SELECTED
                if hovered:
                    state |= _HOVER
                option.rect, option.state = QRect(left, top, width, height), state
                style.drawPrimitive(_PANEL, option, painter, view)
                option.state = base_state
            rec, state = model.paint_entry(row)
            if rec is None:  # the row's page is on its way: "…" (every row of a fast scroll paints this first)
                waiting.append((top, state))
            else:  # a selected or hovered row, or one past the rows its block was drawn with
                image, y = self._image_of(model, row, rec, state, is_selected, hovered, width, height, font,
                                          palette)
                self._blit(painter, left, top, image, y, width, height)
            row += 1
            top += height
        if waiting:
            self._paint_placeholders(painter, font, palette, left, height, waiting)

    def _block_for(self, model, block: int, upto: int, width: int, height: int, font, palette):
        """The block cache's entry for ``block``, its rows drawn down to row ``upto`` (as far as they are
        loaded), or None while its first row's page is on its way. The model's paint token for the rows
        says whether the image is still theirs: it is the same as long as the model holds the same records
        for them, so one check covers the block."""
        token = model.paint_token(block * self.BLOCK)
        if token is None:
            return None
        key = (block, width, height)
        entry = self._blocks.get(key)
        if entry is not None and entry[2] != token:
            if self._drawn_from(model, block, entry[1]):  # the page was read again, alike
                entry[2] = token
            else:
                entry = None
        if entry is None:
            entry = self._new_block(key, width, height, token, font)
        if len(entry[1]) <= upto - block * self.BLOCK:
            self._extend(entry, model, block, upto, width, height, font, palette)
        return entry

    def _drawn_from(self, model, block: int, drawn: list) -> bool:
        """Whether the model's rows of ``block`` are still the records (and problems) ``drawn`` lists (rows
        the model holds below them are drawn when shown)."""
        first = block * self.BLOCK
        for offset, was in enumerate(drawn):
            rec, state = model.paint_entry(first + offset)
            if rec is None or was != (rec.id if rec.id is not None else id(rec), state == "problem"):
                return False
        return True

    def _check(self, painter, palette) -> None:
        """Empty the caches when what the images were drawn for changed (each check is a call into Qt,
        so once per repaint; the font is compared only when a row is drawn). The locale's time format is
        looked up again by the first row this paint draws, if any."""
        self._when = None
        locale = QLocale().name()
        if locale != self._locale:  # the time column is as wide as this locale's times: measured again
            self._locale, self._metrics_key = locale, None
        if palette.cacheKey() != self._palette_key:
            self._theme(palette)
        self._fill_for(palette)
        ratio = painter.device().devicePixelRatioF()
        if ratio != self._ratio:
            self._ratio = ratio
            self._rows.clear()
            self._blocks.clear()

    def _fill_for(self, palette) -> None:
        """The viewport paints its Base brush under the rows: a plain colour is drawn into the blocks (a
        texture or gradient would not line up: those blocks stay transparent). Per colour group: a
        disabled view's may differ, in the same palette."""
        base = palette.color(_BASE)
        if base != self._base:
            self._base = base
            brush = palette.brush(_BASE)
            self._fill = QColor(brush.color()) if brush.style() == _SOLID else _TRANSPARENT
            self._blocks.clear()

    def _image_of(self, model, row: int, rec, state: str, selected: bool, hovered: bool, width: int,
                  height: int, font, palette) -> tuple[QPixmap, int]:
        """The image ``row`` is drawn in and the row's top in it (in logical pixels): a selected or hovered
        row's own (transparent, over the style's background; a selected row's text takes the highlight
        colour), otherwise its block's, drawn down to it first if need be."""
        problem = state == "problem"
        record_key = rec.id if rec.id is not None else id(rec)
        if selected or hovered:
            key = (record_key, width, height, problem, selected)
            image = self._rows.get(key)
            if image is None:
                image = self._rows[key] = self._render_own(rec, record_key, width, height, problem, selected,
                                                           font, palette, self._ratio)
                if len(self._rows) > self.ROW_CACHE:
                    self._rows.popitem(last=False)
            return image, 0
        block, offset = divmod(row, self.BLOCK)
        key = (block, width, height)
        entry = self._blocks.get(key)
        if entry is not None and offset < len(entry[1]) and entry[1][offset] != (record_key, problem):
            del self._blocks[key]  # drawn from other records
            entry = None
        if entry is None:
            entry = self._new_block(key, width, height, model.paint_token(row), font)
        if offset >= len(entry[1]):
            self._extend(entry, model, block, row, width, height, font, palette)
        return entry[0], offset * height

    def _blit(self, painter, x: int, y: int, image: QPixmap, source_y: int, width: int, height: int) -> None:
        ratio = self._ratio
        if ratio == 1.0:
            painter.drawPixmap(x, y, image, 0, source_y, width, height)
        else:  # the image has ratio × the pixels: its part in device pixels, drawn into logical ones
            painter.drawPixmap(QRectF(x, y, width, height), image,
                               QRectF(0, source_y * ratio, width * ratio, height * ratio))

    def _paint_placeholders(self, painter, font, palette, left: int, height: int, rows) -> None:
        """The placeholder text of each ``(top, text)`` in ``rows``, with one pen and font set for all."""
        fm = self._measure(font)[0]
        offset = (height - fm.height()) / 2
        painter.save()
        painter.setFont(font)
        painter.setPen(palette.color(_PLACEHOLDER))
        for top, state in rows:
            placeholder = self._placeholders.get(state)
            if placeholder is None:
                placeholder = self._placeholders[state] = _static(state)
            painter.drawStaticText(QPointF(left + 6, top + offset), placeholder)
        painter.restore()
