"""Tests of the clients: the hand-written Python client, its example bot, and a generated SDK."""
