# Tiến Lên game server: gunicorn (gevent workers) serving the Flask API.
# Match state lives in Redis: set REDIS_URL (compose.yaml does). Without it the
# server would try to start a private redis-server, which this image does not ship.
#
# Both stages are Debian 12 (bookworm): its cargo and rustc (1.63) build native/, which needs nothing else.

# The compiled core (native/, docs/engine.md) is built in a stage of its own with the command `make native` runs:
# cargo alone, offline (the core has no dependencies: no crates to fetch). The image keeps only the library.
FROM python:3.11-slim-bookworm AS core
RUN apt-get update \
    && apt-get install -y --no-install-recommends cargo rustc \
    && rm -rf /var/lib/apt/lists/*
COPY native /src/native
RUN cd /src/native && cargo build --release --offline --quiet

FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# The locked dependencies first (pinned and hashed by `make lock`), so code changes reuse this layer.
COPY requirements.lock ./
RUN pip install --require-hashes -r requirements.lock
# Then the package itself, without resolving anything again (pyproject names README.md as the readme
# and LICENSE as the license file, so the build needs both).
COPY pyproject.toml README.md LICENSE ./
COPY server ./server
# The Python client and the tournament are part of the distribution too (tienlen-tournament plays outside
# bots through the client).
COPY clients/python/tienlen_client ./clients/python/tienlen_client
COPY clients/python/tienlen_tournament ./clients/python/tienlen_tournament
RUN pip install --no-deps . \
    && useradd --create-home --uid 10001 --shell /usr/sbin/nologin tienlen
# The compiled core: the engine and the bots use it (TIENLEN_ENGINE), so Hard plays at the measured strength;
# TIENLEN_CORE_LIB says where it is (tienlen/engine/native.py). The build fails here rather than ship an image
# whose bots would quietly run pure Python.
COPY --from=core /src/native/target/release/libtienlen_native.so /usr/local/lib/tienlen/libtienlen_native.so
ENV TIENLEN_CORE_LIB=/usr/local/lib/tienlen/libtienlen_native.so
RUN python -c "from tienlen.bots import compiled; assert compiled.CORE is not None, 'the compiled core did not load'"
# The browser table at / (static files; an installed package does not find them in the repository).
COPY clients/web/public ./web
ENV TIENLEN_WEB_DIR=/app/web

USER tienlen
WORKDIR /home/tienlen

EXPOSE 8000

HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status != 200)"]

# Exec form: `tienlen` is PID 1, so `docker stop` (SIGTERM) reaches gunicorn's
# master, which stops the workers gracefully within 5 s.
CMD ["tienlen", "serve", "--host", "0.0.0.0", "--port", "8000"]
