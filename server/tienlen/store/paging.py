"""Reading a sorted set a page at a time, highest score first, after a cursor (score, member)."""

from __future__ import annotations

from typing import Any, cast

TIES_READ_AHEAD = 64  # entries read beyond a page, so that ties at the cursor's score can be skipped


def page_down(
    client: Any,
    key: str,
    before: tuple[int, str] | None,
    count: int,
    top: int | str = "+inf",
    bottom: int | str = "-inf",
) -> list[tuple[str, int]]:
    """Up to ``count`` (member, score) of ``key`` from ``top`` down to ``bottom``, after the cursor ``before``.

    Equal scores come in descending member order; those the cursor already
    passed are skipped. More than :data:`TIES_READ_AHEAD` entries sharing the
    cursor's score may end a page early (never repeat one).
    """
    if before is not None:
        top = before[0]
    found = client.zrevrangebyscore(key, top, bottom, start=0, num=count + TIES_READ_AHEAD, withscores=True)
    page: list[tuple[str, int]] = []
    for member, score in cast(list[tuple[bytes, float]], found):
        entry = (member.decode(), int(score))
        if before is not None and entry[1] == before[0] and entry[0] >= before[1]:
            continue
        page.append(entry)
        if len(page) == count:
            break
    return page
