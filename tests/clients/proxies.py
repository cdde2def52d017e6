"""A reverse proxy for the client tests: serves a real server under a path prefix, over http or https.

:class:`PrefixProxy` answers only requests whose target starts with its
prefix (anything else is 404 ``outside_the_prefix``), strips the prefix and
forwards the request to the upstream server over ``http.client``; answers with a
length are passed on whole, the others (the event stream) chunk by chunk as they
come. With a TLS context it accepts only TLS connections, as a TLS-terminating
proxy in front of a plain server does. :func:`self_signed_certificate` makes a
certificate for 127.0.0.1 with the ``openssl`` command.
"""

from __future__ import annotations

import contextlib
import http.client
import http.server
import json
import shutil
import socket
import ssl
import subprocess
import threading
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

from tests.support.tools import require_tool

__all__ = ["PrefixProxy", "running", "self_signed_certificate"]

HOP_BY_HOP = frozenset(
    {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "host", "content-length"}
)


def self_signed_certificate(directory: Path) -> tuple[Path, Path]:
    """A self-signed certificate for ``127.0.0.1`` and ``localhost`` (valid 2 days): (cert.pem, key.pem)."""
    require_tool("openssl", shutil.which("openssl") is not None, "apt-get install openssl")
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"),
            *("-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1"),
            *("-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


class PrefixProxy(http.server.ThreadingHTTPServer):
    """``{scheme}://127.0.0.1:{port}{prefix}/…`` → ``upstream/…``; ``targets`` keeps every request target received."""

    daemon_threads = True

    def __init__(self, upstream: str, prefix: str, tls: ssl.SSLContext | None = None) -> None:
        super().__init__(("127.0.0.1", 0), PrefixHandler)
        parsed = urllib.parse.urlsplit(upstream)
        self.upstream = (parsed.hostname or "127.0.0.1", parsed.port or 80)
        self.prefix = prefix
        self.tls = tls
        self.targets: list[str] = []
        self.tls_connections = 0

    @property
    def url(self) -> str:
        """The proxy's base URL, prefix included."""
        scheme = "https" if self.tls is not None else "http"
        return f"{scheme}://127.0.0.1:{self.server_address[1]}{self.prefix}"

    def get_request(self) -> tuple[socket.socket, Any]:
        """Accept a connection; with TLS, wrap it (the handshake happens in the handler's thread)."""
        sock, address = super().get_request()
        if self.tls is not None:
            sock = self.tls.wrap_socket(sock, server_side=True, do_handshake_on_connect=False)
        return sock, address

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Quiet: a client that refuses the certificate or drops its stream is expected here."""


class PrefixHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self) -> None:
        if isinstance(self.request, ssl.SSLSocket):
            self.request.do_handshake()
            cast(PrefixProxy, self.server).tls_connections += 1
        super().setup()

    def forward(self) -> None:
        proxy = cast(PrefixProxy, self.server)
        proxy.targets.append(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        if not self.path.startswith(proxy.prefix + "/"):
            refusal = json.dumps({"reason": "outside_the_prefix", "message": self.path}).encode()
            self.send_response(404)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(refusal)))
            self.end_headers()
            self.wfile.write(refusal)
            return
        headers = {name: value for name, value in self.headers.items() if name.lower() not in HOP_BY_HOP}
        upstream = http.client.HTTPConnection(*proxy.upstream, timeout=60)
        try:
            upstream.request(self.command, self.path[len(proxy.prefix) :], body=body, headers=headers)
            answer = upstream.getresponse()
            self.send_response_only(answer.status)
            for name, value in answer.getheaders():
                if name.lower() not in HOP_BY_HOP:
                    self.send_header(name, value)
            if answer.status in (204, 304):
                self.end_headers()
            elif answer.getheader("Content-Length") is not None:
                data = answer.read()
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            else:  # the event stream: pass each piece on as it comes
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                self.wfile.flush()
                while piece := answer.read1(65536):
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                    self.wfile.flush()
                self.wfile.write(b"0\r\n\r\n")
        finally:
            upstream.close()

    do_GET = forward
    do_POST = forward
    do_DELETE = forward

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""


@contextlib.contextmanager
def running(server: http.server.ThreadingHTTPServer) -> Iterator[None]:
    """Serve ``server`` in a thread for the ``with`` block, then shut it down."""
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
