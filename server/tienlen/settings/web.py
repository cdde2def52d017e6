"""The browser's settings: where the web table's files are (``TIENLEN_WEB_DIR``, else the checkout's) and which
origins' pages may call the API (``TIENLEN_CORS_ORIGINS``)."""

from __future__ import annotations

import functools
import re
from pathlib import Path

from .values import SettingsError

# The browser table's files in a checkout of the project (see checkout_web_dir).
CHECKOUT_WEB_FILES = Path("clients", "web", "public")
_ORIGIN = re.compile(r"^https?://[A-Za-z0-9.\-\[\]:]+$")


@functools.cache
def checkout_web_dir() -> Path | None:
    """The browser table's files of the checkout this package runs from, or None when there is none.

    Looks in each folder above the ``tienlen`` package for
    ``clients/web/public/index.html``: a checkout (an editable install,
    ``make serve``) has it, wherever the package sits in it; an installed
    package (a wheel, the Docker image) has not, and is given
    ``TIENLEN_WEB_DIR`` instead. Looked up once a process.
    """
    for folder in Path(__file__).resolve().parents:
        if (folder / CHECKOUT_WEB_FILES / "index.html").is_file():
            return folder / CHECKOUT_WEB_FILES
    return None


def web_dir(text: str | None) -> Path | None:
    """``TIENLEN_WEB_DIR``: a directory; unset or empty, the checkout's (:func:`checkout_web_dir`)."""
    if text is None:
        return checkout_web_dir()
    path = Path(text).expanduser()
    if not path.is_dir():
        raise SettingsError(f"TIENLEN_WEB_DIR must be a directory, not {text!r}")
    return path


def origins(text: str) -> tuple[str, ...]:
    """``TIENLEN_CORS_ORIGINS``: ``*`` or ``http(s)://host[:port]`` origins, comma separated (none when empty)."""
    found = tuple(o.strip().rstrip("/") for o in text.split(",") if o.strip())
    for origin in found:
        if origin != "*" and not _ORIGIN.match(origin):
            raise SettingsError(
                f"TIENLEN_CORS_ORIGINS: {origin!r} is not '*' or an origin such as https://example.com:8443"
            )
    return found
