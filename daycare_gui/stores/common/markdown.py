"""Markdown with optional YAML frontmatter, read safely (``yaml.SafeLoader``; bad YAML is a problem)."""

from daycare_gui.stores.common.files.frontmatter import MarkdownDoc, parse_markdown, read_markdown

__all__ = ["MarkdownDoc", "parse_markdown", "read_markdown"]
