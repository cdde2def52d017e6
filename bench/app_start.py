"""What making the app costs, and reading its OpenAPI document the first time (``make bench-app``).

Starts a private ``redis-server`` and, in this process, makes ``--apps`` apps
(``create_app``) one after another, each timed alone in CPU seconds
(``time.process_time``), then reads each app's document once (``spec.to_dict``:
an app documents its views on that first read). Prints one JSON object: the
median and the quartiles of each, in milliseconds. Every worker of a server
and about 650 tests make an app; only a request for ``/openapi.json`` (or
CORS's exposed headers) reads the document.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tienlen.api import create_app
from tienlen.api.services import services_of
from tienlen.local_redis import LocalRedis

SETTINGS = {"TIENLEN_LOG_LEVEL": "WARNING", "TIENLEN_RATE_LIMITS": "off"}


def figures(samples_s: list[float]) -> dict[str, float]:
    """Median and quartiles of CPU seconds, in milliseconds."""
    low, median, high = statistics.quantiles(samples_s, n=4)
    return {"median_ms": round(median * 1000, 1), "q1_ms": round(low * 1000, 1), "q3_ms": round(high * 1000, 1)}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--apps", type=int, default=30)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder, LocalRedis(Path(folder)) as redis:
        settings = {"REDIS_URL": redis.url, **SETTINGS}
        create_app(settings)  # the first app pays for imports and caches: not counted
        made: list[float] = []
        apps = []
        for _ in range(args.apps):
            start = time.process_time()
            apps.append(create_app(settings))
            made.append(time.process_time() - start)
        read: list[float] = []
        for app in apps:
            start = time.process_time()
            services_of(app).document.spec.to_dict()
            read.append(time.process_time() - start)
    result: dict[str, Any] = {"apps": args.apps, "create_app": figures(made), "first_document_read": figures(read)}
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
