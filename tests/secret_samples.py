"""One planted secret for every pattern the masker knows, shaped like the real thing, for tests that check a
secret never leaves the application (search snippets, the search index, exports).

Each sample: a name, the text a history might hold, the part that must never be shown (``hidden``), and a
query that finds the text by what stays visible of it (the key, the provider's prefix, the scheme)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Sample:
    name: str
    text: str
    hidden: str
    query: str


_B = "Q7xT9pLm2VbN4cR8sK1wE5yH3jF6aB0dZ"  # the random-looking body of every planted secret


def _s(name: str, text: str, hidden: str, query: str) -> Sample:
    return Sample(name, f"planted {name} says: {text} end", hidden, query)


SAMPLES = (
    _s("openai", f"use sk-proj-{_B} now", f"proj-{_B[:20]}", "sk*"),
    _s("openai-legacy", f"key sk-{_B}", _B[:20], "sk*"),
    _s("anthropic", f"sk-ant-api03-{_B}", f"api03-{_B[:14]}", "sk*"),
    _s("github", f"token ghp_{_B}abcd", _B[:20], "ghp*"),
    _s("github-pat", f"github_pat_11ABCDEFG0{_B}", f"11ABCDEFG0{_B[:12]}", "github*"),
    _s("slack", f"xoxb-123456789012-{_B[:24]}", f"123456789012-{_B[:8]}", "xoxb*"),
    _s("aws", "AKIAQ7XT9PLM2VBN4CR8 is the id", "Q7XT9PLM2VBN4CR8", "AKIA*"),
    _s("bearer", f"curl -H 'Authorization: Bearer {_B}'", _B[:20], "Bearer"),
    _s("postgresql", f"db postgresql://bob:{_B[:18]}@db.example.com/app", _B[:18], "postgresql"),
    _s("password-pair", f"host=db password={_B[:16]} sslmode=require", _B[:16], "password"),
    _s("token-pair", f"access_token={_B[:16]}&x=1", _B[:16], "access_token"),
    _s("secret-colon", f"secret: {_B[:16]}", _B[:16], "secret"),
    _s("api-key-env", f"OPENAI_API_KEY={_B[:16]}", _B[:16], "OPENAI_API_KEY"),
    _s("client-secret-json", f'{{"client_secret": "{_B[:16]}", "id": 1}}', _B[:16], "client_secret"),
    _s("jwt", f"jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.{_B}", _B[:20], "jwt"),
)
# Every secret body: none may appear anywhere in an output that shows any of the samples.
HIDDEN = tuple(s.hidden for s in SAMPLES)


def leaked(text: str) -> list[str]:
    """The hidden parts (and their 12-character middles) found in ``text``."""
    found = []
    for s in SAMPLES:
        middle = s.hidden[len(s.hidden) // 2 - 6:len(s.hidden) // 2 + 6]
        if s.hidden in text or middle in text:
            found.append(f"{s.name}: {s.hidden}")
    return found
