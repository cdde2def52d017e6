"""Nothing secret in what a served server writes or counts: no hidden hand, seed, token or digest, in both formats.

Rule checked: a real server (``tienlen serve``, one gevent worker, DEBUG) in
text and in JSON plays matches with bots to the end while every action
refusal the API documents is sent to it; then everything the process wrote
(standard output and error) is scanned for every hand any seat held at any
point (a deal from each replay, less the cards played since, and every hand a
seat's view showed), written as cards (``3S``), as a mask in decimal or in
hex; for every seed (the match's and the one the engine draws from it); for
every token and every token's SHA-256 digest (the moderator's too); for every
chat message's and report's text; so are its metrics. With JSON
every line is one object, and nothing is logged at ERROR (a refusal is no
error). The reprs and what nothing caught: tests/test_log_unhandled.py.
"""

from __future__ import annotations

import json
import random
import re
import secrets
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from tienlen_client.botkit import lowest_play

from tests.support.http import Reply, call
from tests.support.leaks import Secrets
from tests.support.servers import ServerStarter, stop_server
from tienlen.engine import cards_mask
from tienlen.local_redis import LocalRedis, free_port

# Refusals no client request can cause on a healthy server with its limits off.
NOT_SENT = {"store_unavailable", "outcome_unknown", "rate_limited"}
# A table whose first hand reaches every refusal of the rules: seat 2 passes, then may come back only to bomb a 2.
CRAFTED_DEAL = [["3S", "6S", "9C", "JS"], ["5S", "2H", "KD"], ["7C", "7D", "7H", "7S", "9S"], ["3C", "4S"]]


class Server:
    """Calls to a served server, keeping every token it hands out."""

    def __init__(self, port: int, kept: Secrets) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.port = port
        self.kept = kept

    def call(self, method: str, path: str, body: Any = None, token: str | None = None, **headers: str) -> Reply:
        """One call; every token of its answer is kept."""
        reply = call(method, self.base + path, body, token=token, headers=headers or None)
        self._keep_tokens(reply.body)
        return reply

    def _keep_seeds(self, body: Any) -> None:
        """Every seed and secret a replay reveals (none may have been written while the match was played)."""
        if isinstance(body, dict):
            for key, value in body.items():
                if "seed" in key and isinstance(value, int) and not isinstance(value, bool):
                    self.kept.seed(value)
                elif "secret" in key and isinstance(value, str) and len(value) >= 16:
                    self.kept.tokens.add(value)
                else:
                    self._keep_seeds(value)

    def _keep_tokens(self, body: Any) -> None:
        if isinstance(body, dict):
            for key, value in body.items():
                if key == "token" and isinstance(value, str):
                    self.kept.tokens.add(value)
                self._keep_tokens(value)
        elif isinstance(body, list):
            for item in body:
                self._keep_tokens(item)

    def raw(self, path: str, body: bytes, content_type: str, token: str) -> Reply:
        """A POST of raw bytes as ``content_type``."""
        request = urllib.request.Request(self.base + path, data=body, method="POST")
        request.add_header("Content-Type", content_type)
        request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return Reply(response.status, json.loads(response.read() or b"null"))
        except urllib.error.HTTPError as error:
            return Reply(error.code, json.loads(error.read() or b"null"))

    def view(self, match_id: str, token: str) -> dict[str, Any]:
        """A seat's view (its hand kept as a secret)."""
        reply = self.call("GET", f"/v1/matches/{match_id}/view", token=token)
        assert reply.status == 200, reply.body
        view: dict[str, Any] = reply.body
        self.kept.hand(view["cards"])
        return view

    def act(self, match_id: str, token: str, body: Any, **headers: str) -> Reply:
        """POST an action."""
        return self.call("POST", f"/v1/matches/{match_id}/actions", body, token, **headers)

    def create(self, body: dict[str, Any]) -> tuple[str, dict[int, str]]:
        """A new match: its id and its seats' tokens."""
        reply = self.call("POST", "/v1/matches", body)
        assert reply.status == 201, reply.body
        return reply.body["match_id"], {entry["seat"]: entry["token"] for entry in reply.body["tokens"]}

    def keep_replay(self, match_id: str) -> None:
        """Every hand every seat held in the finished match, from its replay."""
        reply = self.call("GET", f"/v1/matches/{match_id}/replay")
        assert reply.status == 200, reply.body
        self._keep_seeds(reply.body)
        for played in reply.body["hands"]:
            held = [set(cards) for cards in played["deal"]]
            for held_now in held:
                self.kept.hand(held_now)
            for action in played["actions"]:
                held[action["seat"]] -= set(action["cards"])
                self.kept.hand(held[action["seat"]])


def _lowest(view: dict[str, Any]) -> dict[str, Any]:
    cards = lowest_play(view)
    return {"type": "pass"} if cards is None else {"type": "play", "cards": cards}


def _refuse_what_the_view_allows(server: Server, match_id: str, token: str, view: dict[str, Any]) -> None:
    """Send the refusals of the rules that this seat's turn allows (each checked for its reason)."""
    kept, hand, act = server.kept, view["cards"], server.act
    kept.refused(act(match_id, token, {"type": "play", "cards": ["XX"]}), "unknown_card")
    kept.refused(act(match_id, token, {"type": "play", "cards": [hand[0], hand[0]]}), "duplicate_cards")
    elsewhere = next(card for card in _deck() if card not in hand)
    kept.refused(act(match_id, token, {"type": "play", "cards": [elsewhere]}), "cards_not_in_hand")
    key = {"Idempotency-Key": secrets.token_hex(8)}
    kept.refused(act(match_id, token, {"type": "play", "cards": ["XX"]}, **key), "unknown_card")
    kept.refused(act(match_id, token, {"type": "pass"}, **key), "idempotency_key_reused")
    stale = view["version"] - 1
    kept.refused(act(match_id, token, {"type": "pass", "version": stale}), "stale_version")
    if view["leading"]:
        kept.refused(act(match_id, token, {"type": "pass"}), "cannot_pass_on_lead")
    other_rank = next((card for card in hand if card[:-1] != hand[0][:-1]), None)
    if other_rank is not None:  # two cards of two ranks are no combination
        kept.refused(act(match_id, token, {"type": "play", "cards": [hand[0], other_rank]}), "not_a_combination")


def _deck() -> list[str]:
    return [
        f"{rank}{suit}"
        for rank in ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
        for suit in "SCDH"
    ]


def _play_out(server: Server, match_id: str, tokens: dict[int, str], refusals: bool) -> None:
    """Every seat of the test plays its lowest play until the match ends, sending refusals first when asked."""
    while True:
        public = server.call("GET", f"/v1/matches/{match_id}").body
        if public["status"] != "playing":
            return
        token = tokens[public["turn"]]
        view = server.view(match_id, token)
        if refusals:
            _refuse_what_the_view_allows(server, match_id, token, view)
            if view["table"] and not view["reentry"]:
                single = view["cards"][0]
                kind = view["table"]["kind"]
                if kind != "single" or cards_mask([single]) < cards_mask(view["table"]["cards"]):
                    server.kept.refused(
                        server.act(match_id, token, {"type": "play", "cards": [single]}), "does_not_beat"
                    )
        others = [t for seat, t in tokens.items() if seat != public["turn"]]
        if others:
            server.kept.refused(server.act(match_id, others[0], {"type": "pass"}), "not_your_turn")
        reply = server.act(match_id, token, _lowest(view))
        assert reply.status == 200, reply.body


def _crafted_match(server: Server) -> None:
    """Three seats of the test and a bot: the opening's refusals, then seat 2 passes and may only bomb a 2."""
    body = {
        "seats": [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cy"}, {"name": "Bot", "bot": "easy"}],
        "rules": {"preset": "standard", "hands": 1},
        "deal": CRAFTED_DEAL,
    }
    match_id, tokens = server.create(body)
    kept, act = server.kept, server.act
    view = server.view(match_id, tokens[0])
    assert view["start_card"] is not None and view["turn"] == 0
    kept.refused(act(match_id, tokens[0], {"type": "play", "cards": ["6S"]}), "must_include_start_card")
    kept.refused(act(match_id, tokens[0], {"type": "pass"}), "cannot_pass_on_lead")
    kept.refused(act(match_id, tokens[0], {"type": "play", "cards": ["3S", "6S"]}), "not_a_combination")
    for seat, play in ((0, ["3S"]), (1, ["5S"])):
        assert act(match_id, tokens[seat], {"type": "play", "cards": play}).status == 200
    kept.refused(act(match_id, tokens[2], {"type": "play", "cards": ["7C", "7D"]}), "does_not_beat")
    assert act(match_id, tokens[2], {"type": "pass"}).status == 200  # the bot cannot beat 5S and passes too
    for seat, play in ((0, ["6S"]), (1, ["2H"])):
        assert act(match_id, tokens[seat], {"type": "play", "cards": play}).status == 200
    assert server.view(match_id, tokens[2])["reentry"]
    kept.refused(act(match_id, tokens[2], {"type": "play", "cards": ["9S"]}), "locked_bomb_only")
    _play_out(server, match_id, tokens, refusals=False)
    server.keep_replay(match_id)


def _requests_refused_before_the_match(server: Server, match_id: str, token: str) -> None:
    """The refusals of the HTTP layer, the tokens and the accounts."""
    kept, path = server.kept, f"/v1/matches/{match_id}/actions"
    kept.refused(server.raw(path, b"{not json", "application/json", token), "bad_request")
    kept.refused(server.raw(path, b"type=pass", "text/plain", token), "unsupported_media_type")
    kept.refused(server.raw(path, b"[" + b'"3S",' * 20000 + b"]", "application/json", token), "payload_too_large")
    for wrong in ({"type": "play", "cards": "3S"}, {"type": "dance"}, {"type": "play", "cards": [3]}, [1], None):
        kept.refused(server.act(match_id, token, wrong), "invalid_request")
    kept.refused(server.act(match_id, token, {"type": "pass", "version": "one"}), "invalid_request")
    made_up = secrets.token_urlsafe(24)
    kept.tokens.add(made_up)
    for bearer in (None, made_up, token + "x"):
        kept.refused(server.act(match_id, bearer, {"type": "pass"}), "invalid_token")  # type: ignore[arg-type]
    kept.tokens.add(token + "x")
    kept.refused(server.act("abcdefghijklmnopqrst", token, {"type": "pass"}), "match_not_found")
    name = f"log{secrets.token_hex(4)}"
    account = server.call("POST", "/v1/accounts", {"name": name, "password": "a long password", "kind": "human"})
    assert account.status == 201, account.body
    kept.refused(server.act(match_id, account.body["token"], {"type": "pass"}), "not_seated")
    personal = server.call("POST", "/v1/me/tokens", {"label": "x", "scopes": ["account"]}, account.body["token"])
    assert personal.status == 201, personal.body
    kept.refused(server.act(match_id, personal.body["token"], {"type": "pass"}), "scope_missing")
    kept.refused(server.act(match_id, token, {"type": "pass"}, **{"X-Long": "x" * 9000}), "headers_too_large")
    kept.refused(server.call("POST", path + "?" + "x" * 5000, {"type": "pass"}, token), "uri_too_long")


MODERATOR = secrets.token_urlsafe(32)


def _chat(server: Server, match_id: str, token: str) -> None:
    """Chat at the table and in the spectators' room, a report, a mute and a block, and the moderators' acts:
    each message's text is kept as a secret (never in a log line), and so is the moderator's token."""
    kept = server.kept
    kept.tokens.add(MODERATOR)
    names = [f"chat{secrets.token_hex(4)}" for _ in range(3)]
    accounts = [server.call("POST", "/v1/accounts", {"name": n, "password": "a long password", "kind": "human"})
                for n in names]  # fmt: skip
    watcher, other, reporter = (a.body["token"] for a in accounts)
    texts = [f"chat-{secrets.token_hex(8)}" for _ in range(3)]
    kept.tokens.update(texts)
    said = server.call("POST", f"/v1/matches/{match_id}/chat", {"room": "table", "text": texts[0]}, token)
    assert said.status == 201, said.body
    spoken = server.call("POST", f"/v1/matches/{match_id}/chat", {"room": "spectators", "text": texts[1]}, watcher)
    server.call("POST", f"/v1/matches/{match_id}/chat", {"room": "spectators", "phrase": "good_luck"}, other)
    server.call("POST", f"/v1/matches/{match_id}/chat/{said.body['seq']}/report", {"why": texts[2]}, token)
    server.call("PUT", f"/v1/me/muted/{names[1]}", None, watcher)
    server.call("PUT", f"/v1/me/blocked/{names[1]}", None, watcher)
    server.call("GET", f"/v1/matches/{match_id}/events", None, watcher)
    reported = server.call(
        "POST", f"/v1/matches/{match_id}/chat/{spoken.body['seq']}/report", {"why": texts[2]}, reporter
    )
    assert reported.status == 201, reported.body
    listed = server.call("GET", "/v1/moderation/reports?limit=100", None, MODERATOR).body["reports"]
    dismissed = next(r["id"] for r in listed if r["message"]["seq"] == spoken.body["seq"] and r["match_id"] == match_id)
    assert server.call("DELETE", f"/v1/moderation/reports/{dismissed}", None, MODERATOR).status == 204
    server.call("PUT", f"/v1/moderation/muted/{names[0]}", {"minutes": 5}, MODERATOR)
    kept.refused(
        server.call("POST", f"/v1/matches/{match_id}/chat", {"room": "spectators", "text": "x"}, watcher), "chat_muted"
    )
    assert server.call("DELETE", f"/v1/matches/{match_id}/chat/{said.body['seq']}", None, MODERATOR).status == 204
    server.call("POST", f"/v1/moderation/closed/{names[1]}", None, MODERATOR)
    server.call("GET", "/v1/moderation/audit", None, MODERATOR)


def _documented_reasons(server: Server) -> set[str]:
    """Every reason the API document gives for ``POST /v1/matches/{match_id}/actions``."""
    document = server.call("GET", "/openapi.json").body
    answers = document["paths"]["/v1/matches/{match_id}/actions"]["post"]["responses"]
    listed = [re.match(r"Reasons: ([^(]*)", answer.get("description", "")) for answer in answers.values()]
    return {reason for found in listed if found for reason in re.findall(r"`(\w+)`", found[1])}


@pytest.mark.parametrize("form", ["text", "json"])
def test_no_hand_seed_token_or_digest_in_anything_a_server_writes(
    form: str, redis_server: LocalRedis, tmp_path: Path, server_starter: ServerStarter
) -> None:
    """Rule: at DEBUG, in either format, a served server's output names no hidden card, seed, token or digest."""
    port, log = free_port(), tmp_path / "server.log"
    env = {"TIENLEN_LOG_FORMAT": form, "TIENLEN_LOG_LEVEL": "DEBUG", "TIENLEN_MODERATOR_TOKEN": MODERATOR}
    process = server_starter(redis_server.url, port, log, env=env)
    kept = Secrets()
    server = Server(port, kept)
    try:
        documented = _documented_reasons(server)
        seeded = [
            ([{"name": "Ann"}, {"name": "Bo", "bot": "easy"}], {"preset": "standard", "hands": 2}),
            ([{"name": "Ann"}, {"name": "Bo", "bot": "medium"}, {"name": "Cy", "bot": "hard"}], {"hands": 1}),
            ([{"name": "Ann"}, *({"name": f"B{i}", "bot": "easy"} for i in range(3))], {"hands": 1}),
            # fair-dealt (no seed): its secret, revealed in the replay, must not have been written before
            ([{"name": "Ann", "entropy": "ann"}, {"name": "Bo", "bot": "hard"}], {"hands": 2}),
        ]
        for seats, rules in seeded:
            body: dict[str, Any] = {"seats": seats, "rules": rules}
            if not any("entropy" in seat for seat in seats):
                body["seed"] = random.getrandbits(63)
                kept.seed(body["seed"])
            match_id, tokens = server.create(body)
            if not kept.reasons:
                _requests_refused_before_the_match(server, match_id, tokens[0])
                _chat(server, match_id, tokens[0])
            _play_out(server, match_id, tokens, refusals=True)
            server.keep_replay(match_id)
            kept.refused(server.act(match_id, tokens[0], {"type": "pass"}), "match_not_playing")
        _crafted_match(server)
        metrics = server.call("GET", "/metrics")
        assert metrics.status == 200 and isinstance(metrics.body, str)
    finally:
        stop_server(process)
    missing = documented - NOT_SENT - kept.reasons
    assert not missing, f"refusals never sent: {missing}"
    text = log.read_text()
    leaks = kept.leaks(text)
    assert not leaks, f"the server's output holds {sorted(set(leaks))}"
    leaks = kept.leaks(metrics.body)
    assert not leaks, f"the server's metrics hold {sorted(set(leaks))}"
    assert any(len(hand) == 13 for hand in kept.hands)
    if form == "json":
        records = [json.loads(line) for line in text.splitlines()]
        assert all(isinstance(record, dict) for record in records)
        levels = {record["level"] for record in records}
    else:
        levels = {line.split()[1] for line in text.splitlines()}
    assert not levels & {"ERROR", "CRITICAL"}, "a refusal is no error: nothing is logged as one"
