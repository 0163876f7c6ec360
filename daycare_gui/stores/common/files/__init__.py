"""Tolerant readers of a store's files (text, JSON, JSONL, Markdown with frontmatter) that report Problems
instead of raising, for every kind."""
