"""The ``redis-server`` child process: start, wait until ready, stop (flushing the AOF).

Only the process that started a server stops it: a forked child (a gunicorn
worker, a multiprocessing worker) forgets the servers it inherited. What a
client of it uses (its URL, credentials, a client, ``PING``) is its
:class:`~tienlen.local_redis.endpoint.Endpoint`.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
import weakref
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, Self

from .access import access_args
from .binary import find_redis_server
from .child import pdeathsig_preexec
from .endpoint import Endpoint
from .lock import DataDirError, DataDirLock
from .ports import free_port
from .tls import TlsFiles, tls_server_args

__all__ = ["LocalRedis", "pdeathsig_preexec"]

_START_TIMEOUT_S = 10.0
_STOP_TIMEOUT_S = 10.0
_PORT_ATTEMPTS = 3


_INSTANCES: weakref.WeakSet[LocalRedis] = weakref.WeakSet()


def _detach_after_fork() -> None:
    """In a forked child, forget the parents' servers: only the parent stops them.

    The inherited ``Popen`` is marked finished before it is dropped, so neither
    :meth:`LocalRedis.stop` nor its garbage collection (e.g. while a gunicorn
    worker unwinds on Ctrl-C) tries to wait for or warn about a process that is
    not this child's.
    """
    for instance in list(_INSTANCES):
        instance._detach()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_detach_after_fork)


class LocalRedis(Endpoint):
    """A ``redis-server`` child process bound to ``host:port`` and storing its files in ``data_dir``.

    Use it as a context manager, or call :meth:`start` and :meth:`stop`::

        with LocalRedis(tmp_path / "redis") as server:
            client = redis.Redis.from_url(server.url)

    RDB snapshots are disabled (``--save ""``); with ``appendonly=True`` (the
    default) every write goes to the append-only file, fsynced every second, and
    :meth:`stop` uses ``SHUTDOWN`` so the file is flushed before the process exits.

    The child runs in its own session, so a Ctrl-C in the terminal reaches the
    parent only and the parent decides when Redis stops.  On Linux, when started
    from a single-threaded process, it is also told to terminate if the parent
    dies without stopping it.  Only the process that started the server stops it:
    :meth:`stop` in a forked child (e.g. a gunicorn worker unwinding) does nothing.
    """

    def __init__(
        self,
        data_dir: str | os.PathLike[str],
        port: int | None = None,
        *,
        appendonly: bool = True,
        host: str = "127.0.0.1",
        extra_args: Sequence[str] = (),
        config_file: str | os.PathLike[str] | None = None,
        password: str | None = None,
        username: str | None = None,
        tls: TlsFiles | None = None,
    ) -> None:
        """Configure the server; nothing is started until :meth:`start`.

        Args:
            data_dir: directory for the append-only file and ``redis.log`` (created if missing).
            port: TCP port; ``None`` picks a free one at start and keeps it for restarts.
            appendonly: enable the append-only file (durability across restarts).
            host: address to bind.
            extra_args: more ``redis-server`` options, after (and so over) the defaults,
                e.g. ``("--appendfsync", "always")`` or ``("--cluster-enabled", "yes")``.
            config_file: a configuration file, read before the options (a sentinel needs one it may rewrite).
            password: the password clients must give (``requirepass``); with ``username``, the password of that
                ACL user, the only one (the default user is off).
            username: an ACL user with every right (``user <name> on >password ~* &* +@all``).
            tls: serve TLS only, on :attr:`port`, with these files (``tls-port``; clients must show a
                certificate the CA signed); replication and a cluster's bus use TLS too.
        """
        self.data_dir = Path(data_dir).resolve()
        self.host = host
        self.appendonly = appendonly
        self.extra_args = tuple(extra_args)
        self.config_file = None if config_file is None else Path(config_file)
        if username is not None and password is None:
            raise ValueError("an ACL user needs a password")
        self.password = password
        self.username = username
        self.tls = tls
        self._requested_port = port
        self._port: int | None = port
        self._proc: subprocess.Popen[bytes] | None = None
        self._owner_pid: int | None = None
        self._log_offset = 0
        self._lock = DataDirLock(self.data_dir)
        self.executable: str | None = None

    # ------------------------------------------------------------------ properties

    @property
    def log_path(self) -> Path:
        """The server's log file (``<data_dir>/redis.log``)."""
        return self.data_dir / "redis.log"

    @property
    def pid(self) -> int | None:
        """The child's process id while it runs, else None."""
        return self._proc.pid if self._proc is not None and self._proc.poll() is None else None

    @property
    def running(self) -> bool:
        """True while the child process is alive."""
        return self._proc is not None and self._proc.poll() is None

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> Self:
        """Start ``redis-server`` and wait until it answers PING.

        Returns:
            self, for chaining.

        Raises:
            RuntimeError: when no binary is found, the process exits early
                (the message includes the tail of the log), or it does not
                answer within about 10 seconds.
            DataDirInUseError: (a RuntimeError) another live process holds
                ``data_dir``'s lock (:mod:`.lock`); its message names that pid.
            DataDirError: (a RuntimeError) ``data_dir`` cannot be made or its
                lock file not opened.
        """
        if self.running:
            raise RuntimeError(f"LocalRedis already running on port {self._port}")
        self.executable = find_redis_server()
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            self._lock.acquire()  # before anything is written there; held until stop()
        except OSError as error:
            raise DataDirError(self.data_dir, error) from error
        _INSTANCES.add(self)
        try:
            self._start_on_a_port()
        except BaseException:
            self._lock.release()
            raise
        return self

    def _start_on_a_port(self) -> None:
        """Spawn on the requested port, or on a free one (tried again when another took it meanwhile)."""
        attempts = _PORT_ATTEMPTS if self._requested_port is None else 1
        for attempt in range(1, attempts + 1):
            if self._port is None or (self._requested_port is None and attempt > 1):
                self._port = free_port(self.host_for_clients)
            try:
                self._spawn_and_wait()
                return
            except _PortInUseError:
                if attempt == attempts:
                    raise RuntimeError(
                        f"redis-server could not bind {self.host}:{self._port} (address in use)\n{self._log_tail()}"
                    ) from None
        raise AssertionError("unreachable")  # pragma: no cover

    def stop(self, timeout: float = _STOP_TIMEOUT_S) -> None:
        """Stop the server: ``SHUTDOWN`` (flushing the AOF), then wait, terminate, kill.

        Safe to call more than once, and a no-op in any process other than the
        one that called :meth:`start`.
        """
        proc = self._proc
        if proc is None:
            return
        if os.getpid() != self._owner_pid:
            # A forked child (gunicorn worker, multiprocessing) must not stop its parent's Redis.
            self._detach()
            return
        try:
            self._stop_owned(proc, timeout)
        finally:
            self._proc = None
            self._lock.release()

    def _stop_owned(self, proc: subprocess.Popen[bytes], timeout: float) -> None:
        """SHUTDOWN, then wait, terminate, kill (in the process that started ``proc``)."""
        if proc.poll() is None:
            with contextlib.suppress(OSError):
                reply = self._send("SHUTDOWN", timeout=timeout)
                if reply.startswith(b"-"):
                    # Refused (e.g. AOF rewrite in progress): SIGTERM also shuts down gracefully.
                    proc.terminate()
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                proc.terminate()
                try:
                    proc.wait(timeout=timeout / 2)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()

    def restart(self) -> Self:
        """Stop and start again on the same port and data directory."""
        self.stop()
        self._requested_port = self._port
        return self.start()

    def _answers_as(self, pid: int) -> bool:
        """True when the server on our port is ready and is the process ``pid``.

        Guards against mistaking another server that already holds the port
        for ours while ours is still failing to bind it. Ready means done
        loading its data too: while it reads its AOF it answers PING and INFO
        but refuses other commands (``LOADING``).
        """
        try:
            reply = self._send("INFO", timeout=0.5)  # its default sections: server and (a data node's) persistence
        except OSError:
            return False
        # "not loading:1" rather than "loading:0": a sentinel's INFO has no persistence section
        return f"process_id:{pid}\r\n".encode() in reply and b"\r\nloading:1\r\n" not in reply

    def __enter__(self) -> Self:
        """Start the server (unless already running) and return it."""
        if not self.running:
            self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Stop the server."""
        self.stop()

    def __repr__(self) -> str:
        """Show the address, data directory and state."""
        state = f"pid={self.pid}" if self.running else "stopped"
        return f"LocalRedis(host={self.host!r}, port={self._port}, data_dir='{self.data_dir}', {state})"

    # ------------------------------------------------------------------ internals

    def command_line(self) -> list[str]:
        """The argument vector used to start the server (binary resolved at :meth:`start`)."""
        return [
            self.executable or "redis-server",
            *([] if self.config_file is None else [str(self.config_file)]),
            *(["--port", str(self.port)] if self.tls is None else tls_server_args(self.tls, self.port)),
            "--bind",
            self.host,
            "--dir",
            str(self.data_dir),
            "--save",
            "",
            "--appendonly",
            "yes" if self.appendonly else "no",
            "--appendfsync",
            "everysec",
            "--daemonize",
            "no",
            "--logfile",
            str(self.log_path),
            *access_args(self.username, self.password),
            *self.extra_args,
        ]

    def _spawn_and_wait(self) -> None:
        """Start the child and wait until it is ready; on any failure leave nothing running."""
        held = self._lock.fileno()
        with contextlib.ExitStack() as stack:
            lock: int | None = None
            if held is not None:  # Redis gets a copy of its own: the fork hook closes the original in the child
                lock = os.dup(held)
                stack.callback(os.close, lock)
            log: IO[bytes] = stack.enter_context(open(self.log_path, "ab"))
            self._log_offset = log.tell()
            # stdout/stderr also go to the log, so errors printed before Redis opens it are kept.
            proc = subprocess.Popen(
                self.command_line(),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                cwd=self.data_dir,
                start_new_session=True,
                preexec_fn=pdeathsig_preexec(),  # None unless this process is single-threaded
                pass_fds=() if lock is None else (lock,),  # Redis holds the data directory's lock while it runs
            )
        self._proc = proc
        self._owner_pid = os.getpid()
        _INSTANCES.add(self)
        try:
            self._wait_ready(proc)
        except BaseException:
            self._kill(proc)
            self._proc = None
            raise

    def _wait_ready(self, proc: subprocess.Popen[bytes]) -> None:
        """Poll with PING until PONG, the process exits, or the start timeout passes."""
        deadline = time.monotonic() + _START_TIMEOUT_S
        delay = 0.01
        while True:
            code = proc.poll()
            if code is not None:
                tail = self._log_tail()
                if "Address already in use" in tail:
                    raise _PortInUseError
                raise RuntimeError(
                    f"redis-server exited with status {code} during startup "
                    f"(port {self._port}, dir {self.data_dir}). Last lines of {self.log_path}:\n{tail}"
                )
            if self._answers_as(proc.pid):
                return
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"redis-server did not answer PING within {_START_TIMEOUT_S:.0f}s "
                    f"(port {self._port}). Last lines of {self.log_path}:\n{self._log_tail()}"
                )
            time.sleep(delay)
            delay = min(delay * 2, 0.1)

    def _detach(self) -> None:
        """Forget the child process and the lock without touching them (called in a forked process).

        Closing this process's copy of the lock leaves it held by the parent (and by Redis).
        """
        if not self._lock.held:
            self._lock.forget()
        proc = self._proc
        if proc is not None and os.getpid() != self._owner_pid:
            if proc.returncode is None:
                proc.returncode = 0  # not ours to wait for; keeps Popen.__del__ quiet
            self._proc = None

    @staticmethod
    def _kill(proc: subprocess.Popen[bytes]) -> None:
        """Kill and reap a child that failed to start."""
        if proc.poll() is None:
            proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)

    def _log_tail(self, lines: int = 20) -> str:
        """The last ``lines`` lines the current run wrote to the log, or a note that there are none."""
        try:
            with open(self.log_path, "rb") as fh:
                fh.seek(self._log_offset)
                text = fh.read().decode("utf-8", errors="replace")
        except OSError:
            return "(no log file)"
        tail = text.splitlines()[-lines:]
        return "\n".join(tail) if tail else "(log is empty)"


class _PortInUseError(Exception):
    """The chosen port was taken between picking it and Redis binding it."""
