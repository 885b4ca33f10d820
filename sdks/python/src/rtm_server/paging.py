"""Iterating over paged answers: a cursor (`nextCursor`) or a seq bound (`before`/`after` of history)."""
from __future__ import annotations

from typing import Callable, Iterator, Optional, Sequence, Tuple, TypeVar

T = TypeVar("T")


def cursor_pages(fetch: Callable[[Optional[str]], Tuple[Sequence[T], Optional[str]]]) -> Iterator[T]:
    """Every item of every page: `fetch(cursor)` answers a page's items and its `nextCursor` (None: the last)."""
    cursor: Optional[str] = None
    while True:
        items, cursor = fetch(cursor)
        yield from items
        if cursor is None:
            return


def seq_pages(fetch: Callable[[Optional[int]], Tuple[Sequence[T], bool]], seq: Callable[[T], int], newest_first: bool, start: Optional[int]) -> Iterator[T]:
    """
    Every item of a seq-ordered listing whose pages come ascending: `fetch(bound)` answers a page
    and whether more lie beyond it. Newest first, each page is walked backwards and the next one is
    asked `before` its first seq; oldest first, `after` its last.
    """
    bound = start
    while True:
        items, more = fetch(bound)
        yield from (reversed(items) if newest_first else items)
        if not more or len(items) == 0:
            return
        bound = seq(items[0] if newest_first else items[-1])
