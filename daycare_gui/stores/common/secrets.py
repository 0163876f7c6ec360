"""Masking of secrets for display and logs: every kind masks before a value leaves it."""

from __future__ import annotations

from daycare_gui.core.secrets import MASK, is_secret_key, mask_secrets, mask_url_credentials, mask_value


def mask_url(text: str) -> str:
    """``postgresql://me:s3cret@host/db`` → ``postgresql://me:••••••••@host/db``; also ``password=…``.

    One implementation for every kind: the core's (it also runs on every value the Daycare readers show)."""
    return mask_url_credentials(text)


__all__ = ["MASK", "is_secret_key", "mask_secrets", "mask_url", "mask_value"]
