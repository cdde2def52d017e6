"""Tests of the bots: legality, determinism, hidden information, hints, inference, search and the arena."""
