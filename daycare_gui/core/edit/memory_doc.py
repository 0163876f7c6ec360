"""Memory plugin entity files: frontmatter (name, description) plus ``## record`` sections in the body.

The body is a prefix (often ``# entity``) followed by level-2 sections; each section's heading is the
record's title and the lines under it its content. Edits splice only the lines of the section asked
for; blank lines separating sections stay with the section above, untouched.
"""

from __future__ import annotations

from dataclasses import dataclass

from .document import line_ending_of, split_lines
from .errors import InvalidValue
from .markdown_lines import headings, line_text, to_eol
from .views import DocView, _text


@dataclass(frozen=True)
class MemorySection:
    index: int
    title: str
    text: str  # the record's content, "\n" line endings, without the blank lines that follow it


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
            content_end = self._content_end(lines, start + 1, end)
            text = "\n".join(line_text(line) for line in lines[start + 1 : content_end])
            found.append(MemorySection(index, title, text))
        return found

    def _span(self, index: int) -> tuple[list[str], int, int]:
        lines, spans, _ = self._layout()
        if not 0 <= index < len(spans):
            raise IndexError(f"there is no record {index}; the file has {len(spans)}")
        return lines, spans[index][0], spans[index][1]

    def set_section_text(self, index: int, text: str) -> None:
        if text.strip("\n") == self.sections()[index].text:
            return
        lines, start, end = self._span(index)
        eol = self._eol()
        content_end = self._content_end(lines, start + 1, end)
        new = [line + eol for line in to_eol(text.strip("\n"), "\n").split("\n")] if text.strip("\n") else []
        if content_end == len(lines) and content_end > start + 1 and not lines[content_end - 1].endswith("\n") and new:
            new[-1] = new[-1][: -len(eol)]  # the file ended on this record without a newline: keep it so
        if not lines[start].endswith("\n"):
            lines[start] += eol
        self.doc.set_raw_body("".join(lines[: start + 1] + new + lines[max(content_end, start + 1) :]))

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
