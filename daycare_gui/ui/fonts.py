"""Emoji in conversations, names and documents: which installed font draws them.

Qt draws a character its font lacks with a fallback font; when none of the fonts it knows has emoji, they show
as empty boxes. The application names the colour emoji fonts of each platform as its emoji fonts, so Qt picks
one whichever family a widget or a stylesheet asks for. Debian and Ubuntu ship one as the package
``fonts-noto-color-emoji`` (README, "System packages"); without any, the log says which package to install.
"""

from __future__ import annotations

import logging

from PySide6.QtGui import QFont, QFontDatabase

log = logging.getLogger(__name__)

# Colour emoji fonts by platform (Linux, macOS, Windows, others), then a monochrome last resort.
EMOJI_FAMILIES = ("Noto Color Emoji", "Apple Color Emoji", "Segoe UI Emoji", "Twemoji", "Twitter Color Emoji",
                  "JoyPixels", "EmojiOne Color", "Noto Emoji", "Symbola")
DEBIAN_PACKAGE = "fonts-noto-color-emoji"


def install_emoji_fallback(base_families: tuple[str, ...] = ()) -> list[str]:
    """Make the installed emoji fonts Qt's fallback for emoji; returns them (empty: none is installed).

    Call once the QGuiApplication exists. ``base_families`` also get them as substitutes, for a Qt
    without the emoji font API (before 6.9)."""
    installed = set(QFontDatabase.families())
    found = [family for family in EMOJI_FAMILIES if family in installed]
    if not found:
        log.warning("No emoji font is installed, so emoji show as empty boxes; on Debian or Ubuntu install "
                    "the package %s.", DEBIAN_PACKAGE)
        return []
    if hasattr(QFontDatabase, "setApplicationEmojiFontFamilies"):  # Qt 6.9 and later
        QFontDatabase.setApplicationEmojiFontFamilies(found)
        return found
    # Older Qt: substitutes. Only there: a substitute also stands in for a family that is not installed
    # ("Sans Serif" is an alias), and then digits and spaces come from the emoji font, drawn wide.
    for family in {QFont().family(), "Sans Serif", "monospace", *base_families}:
        have = {f.lower() for f in QFont.substitutes(family)}  # Qt keeps substitutes in lower case
        QFont.insertSubstitutions(family, [f for f in found if f.lower() not in have])
    return found
