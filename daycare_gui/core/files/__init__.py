"""Readers for Daycare's file-based storage (JSON, JSONL, Markdown + frontmatter)."""
