"""The public events a feed (a match's, an account's inbox) hands out, and the last one a deleted match has."""

from __future__ import annotations

from typing import Any

from ..events import MatchCancelled

Event = dict[str, Any]  # one public event as the store keeps it (JSON: ``seq``, ``type`` and the event's fields)
DELETED_EVENT = MatchCancelled.type  # the type of the last event a deleted match's followers get (MatchStore.delete)
