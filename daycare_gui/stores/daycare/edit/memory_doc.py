"""Memory plugin entity files: frontmatter (name, description) plus ``## record`` sections in the body.

The body is a prefix (often ``# entity``) followed by level-2 sections; each section's heading is the
record's title and the lines under it its content. Edits splice only the lines of the section asked
for; blank lines separating sections stay with the section above, untouched, and lines an edit of a
record's text kept keep their own line endings (core.edit.line_breaks).
"""

from __future__ import annotations

from dataclasses import dataclass

from daycare_gui.stores.common.edit.document import line_ending_of, split_lines
from daycare_gui.stores.common.edit.errors import InvalidValue
from daycare_gui.stores.common.edit.line_breaks import EditorText
from daycare_gui.stores.common.edit.markdown_lines import headings, line_text, to_eol

from .views import DocView, _text


@dataclass(frozen=True)
class MemorySection:
    index: int
    title: str
    text: str  # the record's content as a text editor shows it (every line break a "\n"), without the
    # blank lines that follow it


def _check_title(title: str) -> str:
    if not isinstance(title, str) or not title.strip() or "\n" in title or "\r" in title:
        raise InvalidValue("a record title must be one non-empty line")
    return title.strip()


class MemoryEntityDoc(DocView):
    FIELDS = {"name": ("name",), "description": ("description",)}
    VALIDATORS = {"name": _text("name"), "description": _text("description")}

    def _layout(self) -> tuple[list[str], list[tuple[int, int]], list[str]]:
        """Body lines, each section's (heading line, end line) and titles."""
        lines = split_lines(self.doc.raw_body)
        starts = [h for h in headings(lines) if h.level == 2]
        spans = [(h.index, starts[i + 1].index if i + 1 < len(starts) else len(lines)) for i, h in enumerate(starts)]
        return lines, spans, [h.title for h in starts]

    @staticmethod
    def _content_end(lines: list[str], start: int, end: int) -> int:
        """One past the last non-blank line in [start, end) (start when all blank)."""
        last = start
        for index in range(start, end):
            if lines[index].strip():
                last = index + 1
        return last

    def _eol(self) -> str:
        return line_ending_of(self.doc.raw_body, self.doc.eol)

    @property
    def prefix(self) -> str:
        lines, spans, _ = self._layout()
        end = spans[0][0] if spans else len(lines)
        return "".join(lines[:end]).replace("\r\n", "\n")

    def sections(self) -> list[MemorySection]:
        lines, spans, titles = self._layout()
        found = []
        for index, ((start, end), title) in enumerate(zip(spans, titles, strict=False)):
            content = "".join(lines[start + 1 : self._content_end(lines, start + 1, end)])
            shown = EditorText(content).shown
            found.append(MemorySection(index, title, shown[:-1] if content.endswith("\n") else shown))
        return found

    def _span(self, index: int) -> tuple[list[str], int, int]:
        lines, spans, _ = self._layout()
        if not 0 <= index < len(spans):
            raise IndexError(f"there is no record {index}; the file has {len(spans)}")
        return lines, spans[index][0], spans[index][1]

    def set_section_text(self, index: int, text: str) -> None:
        """Set record ``index``'s content to ``text`` as an editor showing its :attr:`MemorySection.text`
        gives it (line breaks after the last line are dropped: the blank lines below stay as they are).

        Each line the edit kept, or changed in place, keeps its own line ending (a file may mix CRLF and
        LF, or hold a lone CR or U+2028 an editor shows as a break); new lines take the record's most
        common ending (the body's when it has none). Unchanged text writes nothing."""
        text = text.replace("\r\n", "\n").rstrip("\n")
        lines, start, end = self._span(index)
        eol = self._eol()
        content_end = self._content_end(lines, start + 1, end)
        old = "".join(lines[start + 1 : content_end])
        # (the content's last line break is the last line's own: the editor shows none after it)
        new = EditorText(old, eol).restore(text + "\n" if not old or old.endswith("\n") else text) if text else ""
        if new == old:
            return
        if not lines[start].endswith("\n"):
            lines[start] += eol
        self.doc.set_raw_body("".join(lines[: start + 1]) + new + "".join(lines[content_end:]))

    def rename_section(self, index: int, title: str) -> None:
        title = _check_title(title)
        lines, start, _ = self._span(index)
        ending = lines[start][len(line_text(lines[start])) :]
        lines[start] = f"## {title}{ending}"
        self.doc.set_raw_body("".join(lines))

    def add_section(self, title: str, text: str = "") -> int:
        """Append a record at the end of the body; returns its index."""
        title = _check_title(title)
        lines, spans, _ = self._layout()
        eol = self._eol()
        if lines and not lines[-1].endswith("\n"):
            lines[-1] += eol
        block = [eol] if lines and lines[-1].strip() else []
        block.append(f"## {title}{eol}")
        if text.strip("\n"):
            block += [line + eol for line in to_eol(text.strip("\n"), "\n").split("\n")]
        self.doc.set_raw_body("".join(lines + block))
        return len(spans)

    def remove_section(self, index: int) -> None:
        lines, start, end = self._span(index)
        self.doc.set_raw_body("".join(lines[:start] + lines[end:]))
