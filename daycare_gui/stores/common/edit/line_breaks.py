"""A text as a plain-text editor shows it, and the same text with its own line breaks put back.

An editor widget shows every line break as a line feed: CRLF, a lone CR (old Mac), U+2028 / U+2029 (and
Qt's own block markers U+FDD0 / U+FDD1) all come back as ``\\n``. Writing what the editor gives would
rewrite every break of a file that uses anything else, or several kinds at once, when the user changed one
line. :class:`EditorText` remembers each line's own break and, given the edited text, puts them back by a
line diff against what the editor was shown: a line kept or edited in place keeps its break, a new line
takes the text's most common one. Unchanged text comes back exactly.

Used by the file editors' body and raw text (through core.edit.document), a PERMISSIONS.md's intent
(core.edit.permissions_doc), a memory entity's records (core.edit.memory_doc), the task-row editor's code
field, the shared edit form's multi-line text and the shared Documents page. Qt-free.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter

# What a text editor shows as one line break (Qt turns each of these into a line feed when given the text).
BREAK = re.compile("\r\n|[\r\n\u2028\u2029\ufdd0\ufdd1]")


class EditorText:
    """``original`` split into what an editor shows (:attr:`shown`) and each line's own break.

    ``default`` is the break new lines get when ``original`` has none (a one-line body of a CRLF file)."""

    def __init__(self, original: str, default: str = "\n") -> None:
        self.original = original
        self.default = default
        self.lines = BREAK.split(original)
        self.breaks = BREAK.findall(original)  # the break after each line but the last
        self.shown = "\n".join(self.lines)

    @property
    def usual_break(self) -> str:
        """What a new line ends with: the most common break (on a tie, the first used); CRLF or LF only."""
        if not self.breaks:
            return self.default
        counts = Counter(self.breaks)
        top = max(counts.values())
        usual = next(b for b in self.breaks if counts[b] == top)
        # (a text of only old-Mac or Unicode separators: new lines get a line feed, as everything reads it)
        return usual if usual in ("\r\n", "\n") else "\n"

    def restore(self, text: str) -> str:
        """``text`` as the editor gives it, with the original's breaks put back where it has line feeds.

        Any other break in ``text`` (a CRLF, a U+2028 pasted in) was put there on purpose and is kept."""
        if text == self.shown:
            return self.original
        new = BREAK.split(text)
        given = BREAK.findall(text)
        usual = self.usual_break
        # (the old last line had none: one added after it is like the line's before, as typing on does,
        # unless that was a separator or a lone CR, which a new line never gets)
        last = self.breaks[-1] if self.breaks and self.breaks[-1] in ("\r\n", "\n") else usual
        old_break = self.breaks + [last]
        if len(new) == len(self.lines):  # lines edited in place: each keeps its ending
            breaks = old_break[: len(new) - 1]
        else:
            breaks = []
            matcher = difflib.SequenceMatcher(None, self.lines, new, autojunk=False)
            for tag, i1, i2, j1, j2 in matcher.get_opcodes():
                for k in range(j2 - j1):
                    kept = tag in ("equal", "replace") and k < i2 - i1
                    breaks.append(old_break[i1 + k] if kept else usual)
            breaks = breaks[: len(new) - 1]
        breaks = [ending if wrote == "\n" else wrote for wrote, ending in zip(given, breaks)]
        return "".join(line + end for line, end in zip(new, breaks)) + new[-1]


def restore_line_breaks(original: str, text: str, default: str = "\n") -> str:
    """``text`` as edited from ``EditorText(original).shown``, with ``original``'s line breaks put back."""
    return EditorText(original, default).restore(text)
