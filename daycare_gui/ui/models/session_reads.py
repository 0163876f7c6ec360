"""What the DB worker reads for a session the list has not paged yet, each in one round trip: its opening
page, its count with its last page, and its count once its last page is shown already. Plain functions
over ``api.Conversations`` (no Qt): the conversation view submits them, ``MessagePagesModel`` is seeded with
what they return (``seed_page``, ``seed_tail``)."""

from __future__ import annotations

from daycare_gui.stores.records import SessionRef


def fetch_page_without_keys(cap, ref: SessionRef, count: int, page: int, page_size: int = 200):
    """The rows of ``page`` when nothing is cached yet (the first page a session shows), read in the same
    round trip as the session's count."""
    start = page * page_size
    n = max(0, min(page_size, count - start))
    if n == 0:
        return []
    if start == 0:
        return cap.page_after(ref, None, n)
    if start + n >= count:
        return cap.page_before(ref, None, n)
    return cap.page_at(ref, start, n)


def count_with_last_page(cap, ref: SessionRef, page_size: int = 200):
    """``(count, last key, the rows of the session's last page)``, so that End is ready the moment the
    count is (the page is read by key, up to the last message counted; none when the session fits on its
    first page, which is shown already)."""
    count, last = cap.tail(ref)
    if count <= page_size or last is None:
        return count, last, []
    n = count - (count - 1) // page_size * page_size
    return count, last, cap.page_before(ref, int(last) + 1, n)


def count_from_end(cap, ref: SessionRef, first_key: int, last_key: int, page_size: int = 200):
    """For a session shown as its last ``page_size`` rows before it was counted (keys ``first_key`` …
    ``last_key``): ``(count, last key, rows)``, where ``rows`` are what the pages at the end lack besides
    those shown: the rest of the page above the last (its rows before ``first_key``), or, when a writer
    appended meanwhile, the last page and the one above."""
    count, last = cap.tail(ref)
    if count <= page_size or last is None:
        return count, last, []
    n = count - (count - 1) // page_size * page_size
    if int(last) == last_key:
        return count, last, cap.page_before(ref, first_key, n) if n < page_size else []
    return count, last, cap.page_before(ref, int(last) + 1, min(count, n + page_size))
