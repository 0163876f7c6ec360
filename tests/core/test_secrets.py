"""Passwords inside URLs are masked wherever text is shown (issue 18, item 12)."""

from __future__ import annotations

import pytest

from daycare_gui.stores.masking import mask_secrets, mask_text, mask_url_credentials
from daycare_gui.stores.problems import Problem


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


# -- issue #32: snippets masked before they are marked, and the patterns added since ----------------------
@pytest.mark.parametrize("text, shown", [
    ("secret: xyz123abc", "secret: ••••••••"),
    ('"client_secret": "abcdef"', '"client_secret": "••••••••"'),
    ("token=abcdef123 and more", "token=•••••••• and more"),
    ("export OPENAI_API_KEY=abcdef123", "export OPENAI_API_KEY=••••••••"),
    ('{\\"password\\": \\"hunter2\\"}', '{\\"password\\": \\"••••••••\\"}'),  # JSON inside a JSON string
    ("prompt_tokens: 12, api_key: null", "prompt_tokens: 12, api_key: null"),  # a count, and no secret
    ("the token is in the vault", "the token is in the vault"),  # prose: no key and value
])
def test_a_value_after_a_secret_key_in_any_spelling(text, shown):
    assert mask_text(text) == shown


def test_a_snippet_is_masked_before_its_matches_are_marked():
    from daycare_gui.stores.common.secrets import mask_marked_snippet

    o, c = "\ue000", "\ue001"

    def shown(snippet: str) -> str:
        return mask_marked_snippet(snippet, o, c, "[", "]")

    assert shown(f"{o}sk{c}-proj-abcdefghijklmnopqrstuvwx here") == "[sk]-•••••••• here"
    assert shown(f"use {o}ghp{c}_abcdefghijklmnopqrstuvwxyz0123") == "use [ghp]••••••••"
    assert shown(f"{o}postgresql{c}://u:pw1234@host/db") == "[postgresql]://u:••••••••@host/db"
    assert shown(f"{o}AKIA{c}IOSFODNN7EXAMPLE") == "[••••••••]"  # a match inside a mask marks it whole
    assert shown(f'x "{o}api{c}_key": "abcdefgh12345…') == 'x "[api]_key": "••••••••…'  # cut by the excerpt
    assert shown(f"{o}secret{c}: hunter2 and {o}more{c}") == "[secret]: •••••••• and [more]"
    assert shown(f"no secret {o}here{c}") == "no secret [here]"
