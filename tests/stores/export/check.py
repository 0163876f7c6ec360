"""One comparison of an export with the records it came from, for every format and every kind."""

from __future__ import annotations

from markdown_it import MarkdownIt

from daycare_gui.stores.common.export.formats import arguments_text, masked, who
from daycare_gui.stores.common.secrets import mask_tree
from tests.stores.export.parse import html_page, jsonl_records, markdown_messages


def _own_fences(text: str) -> list[tuple[str, str]]:
    return [(t.info, t.content) for t in MarkdownIt("commonmark").parse(text) if t.type == "fence"]


def assert_export_matches(messages, fmt: str, text: str) -> None:
    """``text`` (an export in ``fmt``) holds exactly ``messages``, in order, each as it is stored."""
    shown_messages = [masked(m) for m in messages]
    if fmt == "md":
        _titles, shown = markdown_messages(text)
        assert len(shown) == len(messages)
        for m, s in zip(shown_messages, shown):
            assert s.heading.split(" · ")[0] == " ".join(who(m).split())
            expected = [] if m.tool_result is not None else _own_fences(m.text)
            expected += [(arguments_text(c.arguments)[1], _ends(arguments_text(c.arguments)[0]))
                         for c in m.tool_calls]
            if m.tool_result is not None:
                expected.append((None, _ends(m.tool_result.text)))
            assert [(lang if want is not None else None, body) for (lang, body), (want, _b)
                    in zip(s.fences, expected)] == expected
            assert len(s.fences) == len(expected)
    elif fmt == "html":
        page = html_page(text)
        assert "script" not in page.tags and page.urls == []
        assert len(page.messages) == len(messages)
        for m, s in zip(shown_messages, page.messages):
            assert s.text == (m.text if m.tool_result is None else (m.text if m.text != m.tool_result.text else ""))
            assert s.arguments == [arguments_text(c.arguments)[0] for c in m.tool_calls]
            assert s.outputs == ([m.tool_result.text] if m.tool_result is not None else [])
    else:
        rows = jsonl_records(text)
        assert len(rows) == len(messages)
        for m, row in zip(messages, rows):
            if m.raw is not None:
                assert row == mask_tree(m.raw)
            else:
                assert row["id"] == m.id and row["role"] == m.role


def _ends(text: str) -> str:
    return text if text.endswith("\n") or not text else text + "\n"
