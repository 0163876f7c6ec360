"""What the window remembers of a store it opened (last path, Open Recent): a folder or file as its
resolved path, a server URL as a URL, without its password.

A password is never written to the settings file: libpq finds it in PGPASSWORD or ~/.pgpass when the server
is opened again (and says so when it is in neither). Entries written by an earlier version are cleaned when
read: a URL loses its password, and a URL that was taken for a path (``<cwd>/postgresql:/user:pw@host/db``)
becomes the URL again."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
# A server URL that went through path resolution: its "//" became "/" and the working folder came before it.
_URL_TAKEN_FOR_A_PATH = re.compile(r"(?:^|[/\\])(?P<scheme>postgres(?:ql)?(?:\+psycopg)?):[/\\]+(?P<rest>[^/\\].*)$",
                                   re.IGNORECASE)
_PASSWORD_OPTIONS = ("password=", "sslpassword=")


def is_url(text: str) -> bool:
    return bool(_URL.match(text.strip()))


def url_without_password(url: str) -> str:
    """``postgresql://me:pw@h1:5432,h2/db?password=x&sslmode=require`` → ``postgresql://me@h1:5432,h2/db?sslmode=require``."""
    parts = urlsplit(url.strip())
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, _, hosts = netloc.rpartition("@")
        user = userinfo.split(":", 1)[0]
        netloc = f"{user}@{hosts}" if user else hosts
    query = "&".join(p for p in parts.query.split("&") if p and not p.lower().startswith(_PASSWORD_OPTIONS))
    return urlunsplit(parts._replace(netloc=netloc, query=query))


def remembered(location: str) -> str:
    """How an opened store is written to the settings: a URL without its password, else the resolved path."""
    if is_url(location):
        return url_without_password(location)
    return str(Path(location).resolve())


def cleaned(entry: str) -> str:
    """A remembered entry as this version writes it (see the module's docstring)."""
    if is_url(entry):
        return url_without_password(entry)
    taken = _URL_TAKEN_FOR_A_PATH.search(entry)
    if taken and not Path(entry).exists():
        return url_without_password(f"{taken.group('scheme')}://{taken.group('rest')}")
    return entry
