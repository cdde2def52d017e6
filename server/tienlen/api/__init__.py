"""HTTP API v1: the Flask app factory and the OpenAPI document."""

from .app import create_app, openapi_document

__all__ = ["create_app", "openapi_document"]
