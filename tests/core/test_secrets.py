"""Passwords inside URLs are masked wherever text is shown (issue 18, item 12)."""

from __future__ import annotations

import pytest

from daycare_gui.core.problems import Problem
from daycare_gui.core.secrets import mask_secrets, mask_text, mask_url_credentials


@pytest.mark.parametrize("text, shown", [
    ("postgresql://user:secret@host/db", "postgresql://user:••••••••@host/db"),
    ("postgres://u:p@ss@h:5432/d?sslmode=disable", "postgres://u:••••••••@h:5432/d?sslmode=disable"),
    ("redis://:pw@cache", "redis://:••••••••@cache"),
    ("/data/postgresql:/u:pw@h/d.pglite", "/data/postgresql:/u:••••••••@h/d.pglite"),
    ("postgresql://user@host/db", "postgresql://user@host/db"),  # no password: nothing to hide
    ("https://example.com/a@b", "https://example.com/a@b"),
    ("mail me: alex@example.com", "mail me: alex@example.com"),
    ("host=db user=me password=s3cret sslmode=disable", "host=db user=me password=•••••••• sslmode=disable"),
    ("https://h/x?PassWord=abc&y=1", "https://h/x?PassWord=••••••••&y=1"),
])
def test_url_credentials(text, shown):
    assert mask_url_credentials(text) == shown


def test_values_lists_text_and_problems():
    masked = mask_secrets({"engine": {"db": {"url": "postgresql://a:b@h/d"}}, "hosts": ["x://a:b@c"]})
    assert masked == {"engine": {"db": {"url": "postgresql://a:••••••••@h/d"}}, "hosts": ["x://a:••••••••@c"]}
    assert mask_text('+  "apiKey": "sk-abcdefghijkl",') == '+  "apiKey": "sk-••••••••",'
    problem = Problem("/s/settings.json", None, "cannot reach postgresql://a:b@h/d")
    assert problem.message == "cannot reach postgresql://a:••••••••@h/d" and "b@h" not in str(problem)
