"""Several local servers run as one: started on entering, stopped on leaving (a Sentinel group, a Cluster)."""

from __future__ import annotations

from types import TracebackType
from typing import Self

__all__ = ["ServerGroup"]


class ServerGroup:
    """Several local servers run together (a Sentinel group, a Cluster, the tournament's private server and its
    Redis): started on entering, stopped on leaving."""

    def start(self) -> Self:
        """Start every server of the group and return the group."""
        raise NotImplementedError

    def stop(self) -> None:
        """Stop every server of the group (safe to call more than once)."""
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
