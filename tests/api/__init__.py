"""Tests of the HTTP API through Flask's test client and a real server: matches, the contract, concurrency."""
