"""Masking of secrets for display and logs: every kind masks before a value leaves it."""

from __future__ import annotations

import re

from daycare_gui.core.secrets import MASK, is_secret_key, mask_secrets, mask_value

# scheme://user:password@host — the password part, wherever such a URL appears in a text.
# (One slash too: a URL that went through path normalisation, "postgresql:/me:pw@host", still hides.)
_URL_PASSWORD = re.compile(r"(?P<head>\b[a-zA-Z][a-zA-Z0-9+.-]*:/{1,2}[^\s:/@]*:)(?P<pw>[^\s@/]+)(?P<at>@)")
# key=value pairs of libpq connection strings and query strings: password=..., sslpassword=...
_KV_PASSWORD = re.compile(r"(?P<head>\b(?:ssl)?password=)(?P<pw>[^\s&;]+)", re.IGNORECASE)


def mask_url(text: str) -> str:
    """``postgresql://me:s3cret@host/db`` → ``postgresql://me:••••••••@host/db``; also ``password=…``."""
    text = _URL_PASSWORD.sub(lambda m: f"{m['head']}{MASK}{m['at']}", text)
    return _KV_PASSWORD.sub(lambda m: f"{m['head']}{MASK}", text)


__all__ = ["MASK", "is_secret_key", "mask_secrets", "mask_url", "mask_value"]
