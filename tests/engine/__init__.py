"""Tests of the rules engine: cards, combinations, rules, refusals, worked cases and properties."""
