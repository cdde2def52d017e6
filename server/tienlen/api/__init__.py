"""HTTP API v1: the Flask app factory and the OpenAPI document."""

from .app import create_app, openapi_document, refusal, shutdown, start_sweeper
from .runtime import gevent_patched

__all__ = ["create_app", "gevent_patched", "openapi_document", "refusal", "shutdown", "start_sweeper"]
