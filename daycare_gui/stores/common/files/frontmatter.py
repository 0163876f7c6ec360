"""Markdown documents with optional YAML frontmatter, split the way gray-matter (Daycare's parser) does.

A document whose first line is ``---`` has frontmatter up to the next ``---`` line. Broken frontmatter is
reported with the line number *in the file* and its raw text kept; the mapping is then empty, so callers
fall back to defaults exactly where Daycare would refuse or skip the file.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

from daycare_gui.stores.common.files.read import Root, read_text
from daycare_gui.stores.common.files.yaml_guard import too_deep
from daycare_gui.stores.problems import Problem

_FENCE = re.compile(r"^---[ \t]*$")
# Frontmatter is a few lines of metadata; PyYAML's pure-Python loader takes minutes over tens of megabytes,
# so a block larger than this is reported and kept raw instead of parsed.
MAX_FRONTMATTER = 1_000_000


_LOADER: type | None = None


def _loader() -> type:
    """PyYAML's safe loader, nudged from YAML 1.1 towards js-yaml 4 (what gray-matter uses).

    Only ``true``/``false`` are booleans (YAML 1.1 also turns ``yes``/``no``/``on``/``off`` into booleans,
    which would turn a title like ``on`` into True), and timestamps stay strings so every value is
    JSON-serialisable for display. Made at the first parse, not at import: the window imports this module
    to open a Daycare store, and PyYAML was ~17 ms of that on the GUI thread (its preloader imports yaml
    in idle time, before any worker parses).
    """
    global _LOADER
    if _LOADER is None:
        import yaml

        class Loader(yaml.SafeLoader):
            pass

        Loader.yaml_implicit_resolvers = {
            first: [
                (tag, rx)
                for tag, rx in resolvers
                if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:timestamp")
            ]
            for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
        }
        Loader.add_implicit_resolver(
            "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
        )
        _LOADER = Loader
    return _LOADER


@dataclass(frozen=True)
class MarkdownDoc:
    path: str
    meta: dict  # the frontmatter mapping; {} when absent or broken
    body: str  # everything after the closing fence (the whole text when there is no valid fence pair)
    has_frontmatter: bool  # a complete ``---`` … ``---`` block was found
    frontmatter_raw: str | None  # the text between the fences, exactly as written
    body_line: int  # 1-based file line where ``body`` starts
    problems: tuple[Problem, ...] = field(default=(), compare=False)

    @property
    def frontmatter_ok(self) -> bool:
        return not any(p.severity == "error" for p in self.problems)


def parse_yaml(text: str, path: str | os.PathLike, first_line: int) -> tuple[Any, Problem | None]:
    """Parse a YAML block whose first line is file line ``first_line``."""
    if len(text) > MAX_FRONTMATTER:
        return None, Problem(str(path), first_line, f"frontmatter is {len(text):,} characters, too large to read "
                                                    f"as YAML (more than {MAX_FRONTMATTER:,}); kept as text")
    if reason := too_deep(text):  # PyYAML's scanner is quadratic in nesting depth: minutes, not an error
        return None, Problem(str(path), first_line, f"frontmatter is {reason}; kept as text")
    import yaml

    try:
        return yaml.load(text, Loader=_loader()), None  # noqa: S506 - the loader derives from SafeLoader
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = first_line + mark.line if mark is not None else first_line
        what = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        return None, Problem(str(path), line, f"frontmatter is not valid YAML: {what}")
    except Exception as exc:  # noqa: BLE001 - a constructor error on odd input must not stop a scan
        return None, Problem(str(path), first_line, f"frontmatter could not be read: {exc}")


def parse_markdown(text: str, path: str | os.PathLike) -> MarkdownDoc:
    where = str(path)
    lines = text.splitlines(keepends=True)
    if not lines or not _FENCE.match(lines[0].rstrip("\r\n")):
        return MarkdownDoc(where, {}, text, False, None, 1)
    close = next((i for i in range(1, len(lines)) if _FENCE.match(lines[i].rstrip("\r\n"))), None)
    if close is None:
        problem = Problem(where, 1, "frontmatter opened with --- on line 1 is never closed; shown as body")
        return MarkdownDoc(where, {}, text, False, "".join(lines[1:]), 1, (problem,))
    raw = "".join(lines[1:close])
    body = "".join(lines[close + 1 :])
    body_line = close + 2
    if not raw.strip():
        return MarkdownDoc(where, {}, body, True, raw, body_line)
    value, problem = parse_yaml(raw, where, 2)
    if problem is not None:
        return MarkdownDoc(where, {}, body, True, raw, body_line, (problem,))
    if value is None:
        return MarkdownDoc(where, {}, body, True, raw, body_line)
    if not isinstance(value, dict):
        problem = Problem(where, 2, f"frontmatter must be a mapping of keys, found {type(value).__name__}")
        return MarkdownDoc(where, {}, body, True, raw, body_line, (problem,))
    meta = {str(k): v for k, v in value.items()}
    return MarkdownDoc(where, meta, body, True, raw, body_line)


def read_markdown(path: str | os.PathLike, *, root: Root = None) -> tuple[MarkdownDoc | None, list[Problem]]:
    """The split document, or None when missing/refused/unreadable. Problems include the doc's own."""
    text, problems = read_text(path, root=root)
    if text is None:
        return None, problems
    doc = parse_markdown(text, path)
    return doc, problems + list(doc.problems)


def section(markdown: str, heading: str, level: int) -> str:
    """The trimmed text under ``#…# heading`` (case-insensitive) up to the next heading of that level or
    higher, as Daycare's ``markdownSectionRead`` does; "" when absent."""
    pattern = re.compile(r"^" + "#" * level + r"\s+" + re.escape(heading) + r"\s*$", re.IGNORECASE)
    stop = re.compile(r"^##\s+") if level == 2 else re.compile(r"^##\s+|^###\s+")
    collecting = False
    out: list[str] = []
    for line in markdown.split("\n"):
        if not collecting:
            if pattern.match(line.strip()):
                collecting = True
            continue
        if stop.match(line.strip()):
            break
        out.append(line)
    return "\n".join(out).strip()


def opt_str(value: Any) -> str | None:
    """A string trimmed, or None when not a string or blank (Daycare's ``toOptionalString``)."""
    if not isinstance(value, str):
        return None
    value = value.strip()
    return value or None
