"""PERMISSIONS.md of an app: the source intent and the allow/deny rule lists, edited in place.

Format (Daycare engine/apps/appPermissionsParse.ts): a ``## Source Intent`` section whose trimmed text
is the intent, and a ``## Rules`` section holding ``### Allow`` and ``### Deny`` lists; a rule is a line
starting with ``- ``. Headings match case-insensitively. Edits replace only the lines of the part asked
for; other sections, notes, blank lines and line endings stay byte for byte, and so do the intent's own
line endings on lines an edit of the intent kept (core.edit.line_breaks).
"""

from __future__ import annotations

import re

from daycare_gui.stores.common.edit.document import FrontmatterDocument, line_ending_of, split_lines
from daycare_gui.stores.common.edit.errors import InvalidValue
from daycare_gui.stores.common.edit.line_breaks import EditorText
from daycare_gui.stores.common.edit.markdown_lines import Heading, headings, line_text, section_end, to_eol

# Tags Daycare's permissionAccessParse accepts; read/write take a path.
_BARE_TAGS = {"network", "events", "workspace"}
_PATH_TAGS = {"read", "write"}
_TAG = re.compile(r"^@([A-Za-z][A-Za-z0-9_-]*)(?::(.*))?$")


def validate_rule(text: object) -> str | None:
    """None when ``text`` is a rule Daycare understands (or an unknown but well-formed ``@tag``); else why not."""
    if not isinstance(text, str):
        return "a rule must be text such as @read:/path"
    rule = text.strip()
    if not rule:
        return "a rule cannot be empty"
    if "\n" in rule or "\r" in rule:
        return "a rule must fit on one line"
    if not rule.startswith("@"):
        return f"{rule!r} is not a permission tag; rules look like @read:/path, @write:/path, @network, @events"
    match = _TAG.match(rule)
    if not match:
        return f"{rule!r} is not a well-formed tag (@word or @word:argument)"
    tag, argument = match.group(1), match.group(2)
    if tag in _PATH_TAGS:
        path = (argument or "").strip()
        if not path:
            return f"@{tag} needs a path: @{tag}:/absolute/path"
        if not (path.startswith("/") or path == "~" or path.startswith("~/")):
            return f"@{tag} needs an absolute path (or ~/…), not {path!r}"
        return None
    if tag in _BARE_TAGS and argument is not None:
        return f"@{tag} takes no argument"
    return None


def rule_warning(text: str) -> str | None:
    """A warning for a valid-looking rule Daycare may not know (a tag outside read/write/network/events/workspace)."""
    if validate_rule(text) is not None:
        return None
    tag = _TAG.match(text.strip()).group(1)
    if tag not in _BARE_TAGS | _PATH_TAGS:
        return f"@{tag} is not a tag Daycare is known to understand (read, write, network, events, workspace)"
    return None


def _is_rule_line(line: str) -> bool:
    return line.strip().startswith("- ")


def _rule_of(line: str) -> str:
    return line.strip()[2:].strip()


def _break_of(line: str) -> str:
    """The line break ending ``line`` (one of :func:`split_lines`' lines)."""
    return "\r\n" if line.endswith("\r\n") else "\n"


class PermissionsDoc:
    """View over a PERMISSIONS.md document. ``to_bytes()`` of an unedited file is its exact bytes."""

    def __init__(self, doc: FrontmatterDocument) -> None:
        self.doc = doc

    @classmethod
    def parse(cls, data: bytes) -> PermissionsDoc:
        return cls(FrontmatterDocument.parse(data))

    def to_bytes(self) -> bytes:
        return self.doc.to_bytes()

    # --- reading ---------------------------------------------------------------------------------

    def _lines(self) -> list[str]:
        return split_lines(self.doc.raw_body)

    def _eol(self) -> str:
        return line_ending_of(self.doc.raw_body, self.doc.eol)

    @staticmethod
    def _find(all_headings: list[Heading], title: str, level: int, after: int = -1, before: int | None = None):
        for heading in all_headings:
            if heading.level == level and heading.title.lower() == title.lower() and heading.index > after:
                if before is None or heading.index < before:
                    return heading
        return None

    def _intent_range(self, lines, hs) -> tuple[int, int] | None:
        head = self._find(hs, "Source Intent", 2)
        if head is None:
            return None
        return head.index + 1, section_end(hs, head, len(lines))

    def _rules_range(self, lines, hs) -> tuple[Heading, int] | None:
        head = self._find(hs, "Rules", 2)
        if head is None:
            return None
        return head, section_end(hs, head, len(lines))

    def _list_range(self, lines, hs, kind: str) -> tuple[int, int] | None:
        rules = self._rules_range(lines, hs)
        if rules is None:
            return None
        head, end = rules
        sub = self._find(hs, kind, 3, after=head.index, before=end)
        if sub is None:
            return None
        return sub.index + 1, min(section_end(hs, sub, len(lines)), end)

    @property
    def intent(self) -> str:
        lines = self._lines()
        found = self._intent_range(lines, headings(lines))
        return "" if found is None else "\n".join(line_text(x) for x in lines[found[0] : found[1]]).strip()

    def _intent_span(self) -> tuple[str, int, int] | None:
        """The body and where in it the intent's trimmed text starts and ends, with the line break right
        after it if there is one (None: no such section; begin == end: no text).

        What lies around that span (blank lines, the first line's indent) is left as it is by an edit of
        the intent."""
        lines = self._lines()
        found = self._intent_range(lines, headings(lines))
        if found is None:
            return None
        body = self.doc.raw_body
        start = sum(len(line) for line in lines[: found[0]])
        section = "".join(lines[found[0] : found[1]])
        begin = start + len(section) - len(section.lstrip())
        end = max(begin, start + len(section.rstrip()))
        if end > begin:
            end += 2 if body.startswith("\r\n", end) else 1 if body.startswith("\n", end) else 0
        return body, begin, end

    @property
    def shown_intent(self) -> str:
        """The intent as a text editor shows it: every line break (CRLF, a lone CR, U+2028…) a ``\\n``."""
        span = self._intent_span()
        return "" if span is None else EditorText(span[0][span[1] : span[2]]).shown.rstrip("\n")

    def rules(self, kind: str) -> list[str]:
        lines = self._lines()
        found = self._list_range(lines, headings(lines), _kind(kind))
        if found is None:
            return []
        return [_rule_of(line) for line in lines[found[0] : found[1]] if _is_rule_line(line) and _rule_of(line)]

    @property
    def allow(self) -> list[str]:
        return self.rules("allow")

    @property
    def deny(self) -> list[str]:
        return self.rules("deny")

    def problems(self) -> list[str]:
        """What Daycare would refuse or question in this file (an empty intent, malformed rules)."""
        found = [] if self.intent else ["the ## Source Intent section is missing or empty (Daycare requires it)"]
        for kind in ("allow", "deny"):
            for rule in self.rules(kind):
                problem = validate_rule(rule) or rule_warning(rule)
                if problem:
                    found.append(f"{kind}: {problem}")
        return found

    # --- editing ---------------------------------------------------------------------------------

    def set_intent(self, text: str) -> None:
        """Set the intent to ``text`` (trimmed), as an editor showing :attr:`shown_intent` gives it.

        Each line the edit kept, or changed in place, keeps its own line ending (a file may mix CRLF and
        LF, or hold a lone CR or U+2028 an editor shows as a break); new lines take the intent's most
        common ending (the body's when it has none). Unchanged text writes nothing."""
        text = text.replace("\r\n", "\n").strip()
        if not text:
            raise InvalidValue("the source intent cannot be empty: Daycare refuses apps without one")
        span = self._intent_span()
        lines, eol = self._lines(), self._eol()
        if span is not None and span[2] > span[1]:  # only the trimmed text changes; what is around it stays
            body, begin, end = span
            old = body[begin:end]
            # (the break after the text is its last line's own: the editor shows none after it)
            new = EditorText(old, eol).restore(text + "\n" if old.endswith("\n") else text)
            if new != old:
                self.doc.set_raw_body(body[:begin] + new + body[end:])
            return
        found = self._intent_range(lines, headings(lines))
        new_lines = [line + eol for line in to_eol(text, "\n").split("\n")]
        if found is None:  # Daycare's serializer writes this section first
            block = ["## Source Intent" + eol, eol, *new_lines, eol]
            self._write(block + lines)
            return
        start, end = found  # the section holds no text yet
        trailing = [eol] if end < len(lines) else []
        self._write(lines[:start] + [eol] + new_lines + trailing + lines[end:])

    def set_rules(self, kind: str, rules: list[str]) -> None:
        kind = _kind(kind)
        if isinstance(rules, str) or not isinstance(rules, (list, tuple)):
            raise InvalidValue(f"{kind.lower()} rules must be a list of rule strings")
        cleaned = []
        for rule in rules:
            problem = validate_rule(rule)
            if problem:
                raise InvalidValue(f"{kind.lower()} rule refused: {problem}")
            cleaned.append(rule.strip())
        if cleaned == self.rules(kind):
            return
        lines, eol = self._lines(), self._eol()
        hs = headings(lines)
        found = self._list_range(lines, hs, kind)
        if found is None:
            self._write(self._with_new_list(lines, hs, kind, cleaned, eol))
            return
        start, end = found
        bullet_indexes = [i for i in range(start, end) if _is_rule_line(lines[i])]
        prefix = "- "
        if bullet_indexes:
            first = lines[bullet_indexes[0]]
            prefix = first[: len(first) - len(first.lstrip())] + "- "
        insert_at = bullet_indexes[0] if bullet_indexes else start
        # A rule kept (or moved) keeps its own line: indent, spacing and line ending; a new one is written
        # like the first. A last line without an ending (end of file) must get one before others follow it.
        stored: dict[str, list[str]] = {}
        for i in bullet_indexes:
            stored.setdefault(_rule_of(lines[i]), []).append(lines[i])
        new_bullets = []
        for rule in cleaned:
            line = stored[rule].pop(0) if stored.get(rule) else f"{prefix}{rule}{eol}"
            new_bullets.append(line if line.endswith("\n") else line + eol)
        kept = [line for i, line in enumerate(lines) if i not in set(bullet_indexes)]
        offset = sum(1 for i in bullet_indexes if i < insert_at)
        position = insert_at - offset
        if position > 0 and not kept[position - 1].endswith("\n"):
            kept[position - 1] += eol
        if bullet_indexes and not lines[bullet_indexes[-1]].endswith("\n") and new_bullets and position == len(kept):
            last = new_bullets[-1]  # the file ended on a rule without a newline: it still does
            new_bullets[-1] = last[: -len(_break_of(last))]
        self._write(kept[:position] + new_bullets + kept[position:])

    def set_allow(self, rules: list[str]) -> None:
        self.set_rules("allow", rules)

    def set_deny(self, rules: list[str]) -> None:
        self.set_rules("deny", rules)

    def _with_new_list(self, lines, hs, kind: str, rules: list[str], eol: str) -> list[str]:
        block = [f"### {kind}{eol}"] + [f"- {rule}{eol}" for rule in rules]
        lines = list(lines)
        rules_section = self._rules_range(lines, hs)
        if rules_section is None:
            block = [f"## Rules{eol}", eol] + block
            at = len(lines)
        else:
            head, end = rules_section
            deny = self._find(hs, "Deny", 3, after=head.index, before=end) if kind == "Allow" else None
            at = deny.index if deny is not None else end
            while at > head.index + 1 and not lines[at - 1].strip():
                at -= 1  # go above trailing blank lines so the new list sits right after the content
            if at < len(lines) and lines[at].strip():
                block = block + [eol]
        if at > 0 and not lines[at - 1].endswith("\n"):
            lines[at - 1] += eol
        if at > 0 and lines[at - 1].strip():
            block = [eol] + block
        return lines[:at] + block + lines[at:]

    def _write(self, lines: list[str]) -> None:
        self.doc.set_raw_body("".join(lines))


def _kind(kind: str) -> str:
    lowered = kind.strip().lower()
    if lowered not in ("allow", "deny"):
        raise InvalidValue(f"rule lists are 'allow' and 'deny', not {kind!r}")
    return lowered.capitalize()
