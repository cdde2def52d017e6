"""Tournaments' pure core: terms, seating, results, standings and progress (stdlib and the engine only)."""

from .progress import arena_open, finished, round_over
from .results import HandScore, Sitter, TableResult
from .seating import Entrant, Table, arena_tables, duplicate_entrants, duplicate_schedule, swiss_round
from .standings import Standing, standings
from .terms import FORMATS, Format, FormatSpec, Terms, TermsError, verify_terms

__all__ = [
    "FORMATS",
    "Entrant",
    "Format",
    "FormatSpec",
    "HandScore",
    "Sitter",
    "Standing",
    "Table",
    "TableResult",
    "Terms",
    "TermsError",
    "arena_open",
    "arena_tables",
    "duplicate_entrants",
    "duplicate_schedule",
    "finished",
    "round_over",
    "standings",
    "swiss_round",
    "verify_terms",
]
