"""Emoji and CJK text in conversations, names and documents: which installed fonts draw them.

Qt draws a character its font lacks with a fallback font; when none of the fonts it knows has emoji, they show
as empty boxes. The application names the colour emoji fonts of each platform as its emoji fonts, so Qt picks
one whichever family a widget or a stylesheet asks for. Debian and Ubuntu ship one as the package
``fonts-noto-color-emoji`` (README, "System packages"); without any, the log says which package to install.

Chinese, Japanese and Korean need a font with those scripts. Qt's own fallback finds one when it is
installed (through fontconfig on Linux, the system's font linking elsewhere); the application puts the
best installed one first in the fallback of its default family, so a text mixing scripts takes its CJK
glyphs from one consistent font. Debian's small choice is ``fonts-wqy-microhei`` (1.6 MB, what CI
installs); ``fonts-noto-cjk`` (57 MB) covers more.
"""

from __future__ import annotations

import logging

from PySide6.QtGui import QFont, QFontDatabase, QFontInfo

log = logging.getLogger(__name__)

# Colour emoji fonts by platform (Linux, macOS, Windows, others), then a monochrome last resort.
EMOJI_FAMILIES = ("Noto Color Emoji", "Apple Color Emoji", "Segoe UI Emoji", "Twemoji", "Twitter Color Emoji",
                  "JoyPixels", "EmojiOne Color", "Noto Emoji", "Symbola")
DEBIAN_PACKAGE = "fonts-noto-color-emoji"
# Fonts with Chinese, Japanese and Korean glyphs, preferred first: Noto/Source Han, then the platforms' own,
# then the small WenQuanYi and Droid fallbacks.
CJK_FAMILIES = ("Noto Sans CJK SC", "Noto Sans CJK JP", "Noto Sans CJK TC", "Noto Sans CJK KR",
                "Source Han Sans SC", "Source Han Sans", "PingFang SC", "Hiragino Sans", "Microsoft YaHei",
                "Yu Gothic UI", "Malgun Gothic", "WenQuanYi Micro Hei", "WenQuanYi Zen Hei",
                "Droid Sans Fallback", "Noto Sans SC", "AR PL UMing CN")
CJK_DEBIAN_PACKAGE = "fonts-wqy-microhei"


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


def install_cjk_fallback() -> list[str]:
    """Put the installed CJK fonts first in the fallback of the application's default family; returns them
    (empty: none is installed, and Chinese, Japanese or Korean text shows as boxes).

    Only the real, installed default family gets them: a substitute for an alias family would stand in
    for the whole text, Latin included (see install_emoji_fallback)."""
    installed = set(QFontDatabase.families())
    found = [family for family in CJK_FAMILIES if family in installed]
    if not found:
        log.warning("No font with Chinese, Japanese or Korean glyphs is installed, so such text shows as "
                    "empty boxes; on Debian or Ubuntu install the package %s (or fonts-noto-cjk).",
                    CJK_DEBIAN_PACKAGE)
        return []
    family = QFontInfo(QFont()).family()
    if family in installed and family not in found:
        have = {f.lower() for f in QFont.substitutes(family)}
        QFont.insertSubstitutions(family, [f for f in found if f.lower() not in have])
    return found
