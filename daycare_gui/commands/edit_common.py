"""What both paths of ``daycare-gui edit`` share: the exit codes, reading ``--set KEY=VALUE``, applying the
edits to a Markdown file's bytes, the diff shown, and ``--check``'s verdict.

The Daycare path (commands.edit) and the other kinds' path (commands.edit_kinds) both use these; kept here,
below both, so neither imports the other's module to reach them (they used to import each other).
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

from daycare_gui.stores.common.edit import yaml_text
from daycare_gui.stores.common.edit.atomic import ReadOnlyError, refuse_read_only
from daycare_gui.stores.common.edit.document import FrontmatterDocument
from daycare_gui.stores.common.edit.errors import DocumentError, InvalidValue

EXIT_OK, EXIT_REFUSED, EXIT_CONFLICT = 0, 2, 3
MARKDOWN_SUFFIXES = (".md", ".markdown")


def parse_assignment(text: str) -> tuple[str, object]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise InvalidValue(f"--set expects KEY=VALUE, got {text!r}")
    try:
        parsed = yaml_text.load_safe(value) if value.strip() else None
    except Exception as exc:
        # Unquoted text YAML cannot read (a cron "*/5 * * * *" starts like an alias) is meant as a string;
        # brackets and quotes signal intended structure, so a typo there is an error, not a string.
        if value.strip()[:1] in "[{\"'":
            problem = getattr(exc, "problem", None) or str(exc).strip().splitlines()[0]
            raise InvalidValue(f"the value for {key.strip()!r} is not valid YAML: {problem}") from exc
        parsed = value.strip()
    return key.strip(), parsed


def apply_edits(path: Path, data: bytes, assignments: list[tuple[str, object]], body: str | None,
                editor=None) -> bytes:
    """The new bytes of ``path`` after the edits (through the kind's ``editor``, else as Markdown with
    frontmatter); raises DocumentError / InvalidValue to refuse."""
    if editor is not None:
        return editor.apply(data, assignments, body)
    if path.suffix.lower() not in MARKDOWN_SUFFIXES:
        raise InvalidValue(f"{path.name} is not a file this command edits")
    doc = FrontmatterDocument.parse(data)
    if doc.error is not None and assignments:
        raise DocumentError(str(doc.error), doc.error.line)
    for key, value in assignments:
        doc.set(key, value)
    if body is not None:
        doc.set_body(body)
    return doc.to_bytes()


def unified_diff(path: Path, before: bytes, after: bytes, editor=None) -> str:
    old = before.decode("utf-8", errors="replace").splitlines(keepends=True)
    new = after.decode("utf-8", errors="replace").splitlines(keepends=True)
    lines = difflib.unified_diff(old, new, fromfile=f"a/{path.name}", tofile=f"b/{path.name}")
    text = "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)
    return editor.mask_diff(text) if editor is not None else text


def check_verdict(path: Path, reasons: list[str | None], force: bool) -> int:
    """What ``--check`` says: the edit is valid and would be written (exit 0), or the real run would refuse
    it — a reason that needs --force, a file marked read-only — and --check says so and exits 2 as it would."""
    try:
        refuse_read_only(path)
    except ReadOnlyError as exc:
        print(f"daycare-gui edit: {path} would be refused (--check): {exc.strerror}", file=sys.stderr)
        return EXIT_REFUSED
    reasons = [r for r in reasons if r]
    if reasons and not force:
        print(f"daycare-gui edit: {path} would be refused (--check): {' '.join(_sentence(r) for r in reasons)} "
              "Add --force to write it anyway.", file=sys.stderr)
        return EXIT_REFUSED
    for reason in reasons:
        print(f"daycare-gui edit: warning: {reason}; it would be written anyway (--force)", file=sys.stderr)
    print(f"{path}: valid; not written (--check)", file=sys.stderr)
    return EXIT_OK


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", ")")) else f"{text}."
