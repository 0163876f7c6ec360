"""Reading exports back the way their readers would: Markdown through markdown-it, HTML through
``html.parser``, JSONL line by line. Tests compare what comes back with the records."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from markdown_it import MarkdownIt

HEADING = re.compile(r"^(user|assistant|tool|system|note|event|other|\S+ → \S+|\S+)( · \d{4}-\d\d-\d\d .*UTC)?$")


@dataclass
class MdMessage:
    heading: str
    fences: list[tuple[str, str]] = field(default_factory=list)  # (language, content)


def markdown_messages(text: str) -> tuple[list[str], list[MdMessage]]:
    """(level-1 headings, one entry per level-2 heading with the fenced blocks under it)."""
    tokens = MarkdownIt("commonmark").parse(text)
    titles: list[str] = []
    out: list[MdMessage] = []
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open" and tok.level == 0:
            content = tokens[i + 1].content
            if tok.tag == "h1":
                titles.append(content)
            elif tok.tag == "h2" and tok.level == 0:  # a quote or list item in a message may hold one
                out.append(MdMessage(content))
        elif tok.type == "fence" and out:
            out[-1].fences.append((tok.info, tok.content))
    return titles, out


@dataclass
class HtmlMessage:
    classes: str
    text: str = ""
    arguments: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.urls: list[str] = []
        self.messages: list[HtmlMessage] = []
        self._into: tuple[str, str] | None = None  # (field, closing tag)
        self._depth = 0
        self.style = ""
        self._in_style = False

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        a = dict(attrs)
        for name in ("src", "href", "action", "srcset", "data", "poster"):
            if name in a:
                self.urls.append(a[name] or "")
        cls = a.get("class") or ""
        if tag == "style":
            self._in_style = True
        if tag == "article":
            self.messages.append(HtmlMessage(cls))
        elif tag == "div" and cls == "text":
            self._into = ("text", "div")
        elif tag == "pre" and cls in ("arguments", "output"):
            getattr(self.messages[-1], "arguments" if cls == "arguments" else "outputs").append("")
            self._into = (cls, "pre")

    def handle_endtag(self, tag):
        if tag == "style":
            self._in_style = False
        if self._into is not None and tag == self._into[1]:
            self._into = None

    def handle_data(self, data):
        if self._in_style:
            self.style += data
        if self._into is None or not self.messages:
            return
        m = self.messages[-1]
        if self._into[0] == "text":
            m.text += data
        elif self._into[0] == "arguments":
            m.arguments[-1] += data
        else:
            m.outputs[-1] += data


def html_page(text: str) -> _Page:
    page = _Page()
    page.feed(text)
    page.close()
    return page


def jsonl_records(text: str) -> list:
    assert text == "" or text.endswith("\n")
    return [json.loads(line) for line in text.split("\n")[:-1]]
