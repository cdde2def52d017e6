"""One Redis a data directory: a lock file that a second server on the same directory cannot take.

Two ``redis-server`` writing one append-only file would corrupt it. A
:class:`~tienlen.local_redis.LocalRedis` holds an exclusive ``flock`` on
``<data_dir>/tienlen.lock`` from :meth:`~DataDirLock.acquire` until it stops;
the file holds the holder's pid, for the refusal of the next one. Its
``redis-server`` child holds the lock too (the open file is passed to it), so
the directory stays taken until that Redis has exited as well. The kernel
drops the lock when the last of them dies, however it dies, so a lock left by
dead processes never blocks: the file's pid is then just overwritten.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

__all__ = ["LOCK_FILE", "DataDirError", "DataDirInUseError", "DataDirLock"]

LOCK_FILE = "tienlen.lock"


class DataDirInUseError(RuntimeError):
    """Another live process holds the data directory's lock."""

    def __init__(self, data_dir: Path, holder: int | None) -> None:
        """Name the directory and the holder's pid (None when its lock file does not say)."""
        self.data_dir = data_dir
        self.holder = holder
        who = f"pid {holder}" if holder is not None else "a process that did not write its pid"
        super().__init__(f"the Redis data directory {data_dir} is in use by another server ({who})")


class DataDirError(RuntimeError):
    """The data directory cannot be made, or its lock file not opened (a file in its way, no permission)."""

    def __init__(self, data_dir: Path, error: OSError) -> None:
        """Name the directory and why it cannot be used."""
        self.data_dir = data_dir
        super().__init__(f"{data_dir} cannot be made or locked: {error.strerror or error}")


class DataDirLock:
    """The lock of one data directory, held by the process that acquired it."""

    def __init__(self, data_dir: Path) -> None:
        """The lock of ``data_dir`` (nothing is taken until :meth:`acquire`)."""
        self.path = data_dir / LOCK_FILE
        self._fd: int | None = None
        self._owner_pid: int | None = None

    @property
    def held(self) -> bool:
        """True while this process holds the lock."""
        return self._fd is not None and self._owner_pid == os.getpid()

    def fileno(self) -> int | None:
        """The lock file's descriptor while this process holds the lock (to hand the lock to a child), else None."""
        return self._fd if self.held else None

    def acquire(self) -> None:
        """Take the lock and write this process's pid in it; :class:`DataDirInUseError` when another holds it."""
        if self.held:
            return
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _pid_in(fd)
            os.close(fd)
            raise DataDirInUseError(self.path.parent, holder) from None
        except BaseException:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd, self._owner_pid = fd, os.getpid()

    def release(self) -> None:
        """Let the lock go (in the process that took it; elsewhere, as :meth:`forget`)."""
        fd = self._fd
        if fd is None:
            return
        if self._owner_pid == os.getpid():
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
        self.forget()

    def forget(self) -> None:
        """Close this process's copy of the lock without letting it go (a forked child: the parent keeps it).

        ``flock`` belongs to the open file, shared by parent and child: only
        when every copy is closed is the lock released.
        """
        fd, self._fd, self._owner_pid = self._fd, None, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)


def _pid_in(fd: int) -> int | None:
    """The pid the holder wrote in the lock file, or None."""
    try:
        text = os.pread(fd, 32, 0).decode("ascii", errors="replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None
