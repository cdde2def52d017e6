"""Matches: the lobby, create, read, cancel, join, rematch and replay."""

from __future__ import annotations

from typing import Any

from flask import Response, g
from flask.views import MethodView

from ...service import Created, LobbyPage, MatchState, SeatToken, commands
from ..schemas import (
    CreatedMatchSchema,
    CreateMatchSchema,
    JoinSchema,
    LobbyQuerySchema,
    LobbySchema,
    MatchSchema,
    RematchSchema,
    ReplaySchema,
    SeatTokenSchema,
)
from .common import (
    AUTH,
    JOIN_REASONS,
    MATCH_ID,
    OPTIONAL_AUTH,
    PER_ACCOUNT_OR_ADDRESS,
    SEAT_REASONS,
    Blueprint,
    bearer_token,
    client_address,
    errors,
    game,
    idempotency_key,
    idempotency_parameter,
    limited,
)

blp = Blueprint("matches", __name__, url_prefix="/v1/matches", description="Create, find, read, join and end matches")


@blp.route("")
class Matches(MethodView):
    """The collection of matches."""

    @blp.arguments(LobbyQuerySchema(), location="query")
    @blp.response(200, LobbySchema)
    @blp.doc(operationId="list_matches", responses=errors("invalid_request", "store_unavailable"))
    def get(self, query: dict[str, Any]) -> LobbyPage:
        """The lobby: listed matches waiting for players that have an open seat, newest first.

        Filter by `players` and `preset`; page with `limit` and the answer's
        `next_cursor`. A match leaves the list once it is full, cancelled or
        expired.
        """
        return game().lobby.lobby(
            players=query.get("players"), preset=query.get("preset"), limit=query["limit"], cursor=query.get("cursor")
        )

    @limited("create", PER_ACCOUNT_OR_ADDRESS)
    @blp.arguments(CreateMatchSchema())
    @blp.response(201, CreatedMatchSchema)
    @blp.doc(
        operationId="create_match",
        security=OPTIONAL_AUTH,
        responses=errors(
            "bad_request",
            "account_required",
            "invalid_token",
            "scope_missing",
            "match_not_found",
            "payload_too_large",
            "unsupported_media_type",
            "invalid_request",
            "idempotency_key_reused",
            "fixed_deal_not_private",
            "store_unavailable",
            "outcome_unknown",
        ),
        parameters=[
            idempotency_parameter(
                "A retry with the same key and body within 24 h creates nothing and answers 201 again with the "
                "same `match_id` and `tokens` (and the match as it is now; 404 `match_not_found` once it was "
                "cancelled or expired). The same key with another body is refused (422 "
                "`idempotency_key_reused`). A key is bound to its caller (the account of the token sent, else "
                "the client's address): sent by anyone else it is refused (422 `idempotency_key_reused`) and "
                "answers nothing of the first answer. Send a new random key (a UUID) with each new match, "
                "and the same one with its retries, e.g. after 503 `outcome_unknown`"
            )
        ],
    )
    def post(self, command: commands.Create) -> Created:
        """Create a match.

        Seats are remote (`{"name"}`, answered with a token), server bots
        (`{"name", "bot"}`) or open (`{"open": true}`, filled by joins). The
        first hand is dealt at once unless a seat is open; bots that are on
        turn play before the answer. At least one seat must not be a bot.
        Optional: a turn `clock`, the `takeover` bot's level, `listed` in the lobby.

        Nobody chooses a public deal: `seed` and `deal` are for a private
        match (every seat remote or a bot), and refused with 422
        `fixed_deal_not_private` for one with an open seat or `listed`. Every
        other match is dealt by `tienlen-deal/1` (`fair_deal`: a commitment
        now, the secret once finished); a remote seat may add its `entropy`.

        With an account's token (`Authorization: Bearer`, scope `play`) the
        account hosts the match and holds its first remote seat, under the
        account's name; the account's token then acts for that seat too.
        A match with open seats gets a `room_code` to join it by, and hosting
        one takes an account (401 `account_required` without a token, unless
        the server sets `TIENLEN_ANONYMOUS_HOSTING`). Matches against bots
        alone need no account.
        """
        created = game().matches.create(command, idempotency_key(), client_address(), bearer_token())
        g.match_id = created.match_id  # for the request log line
        return created


@blp.route(f"/{MATCH_ID}")
class MatchResource(MethodView):
    """One match, public."""

    @blp.response(200, MatchSchema)
    @blp.doc(
        operationId="get_match",
        responses=errors("match_not_found", "not_watchable", "store_unavailable"),
    )
    def get(self, match_id: str) -> MatchState:
        """The public state of a match: no card of a hand in play (a hand's deal once it is over), and how many
        watch it (`spectators`).

        No token is needed, unless the host turned watching off (`watchable`
        false): then only a seat's token, or a `play` token of an account
        seated in it, reads it (403 `not_watchable` for anyone else).
        """
        return game().watching.public(match_id, bearer_token())

    @blp.response(204)
    @blp.doc(
        security=AUTH,
        operationId="cancel_match",
        responses=errors(
            *SEAT_REASONS, "not_host", "match_not_found", "match_not_waiting", "store_unavailable", "outcome_unknown"
        ),
    )
    def delete(self, match_id: str) -> Response:
        """Cancel a match that is still waiting for players (its host's token).

        Only the host cancels: the account that made the match (its token or
        its seat's), or seat 0 of a match no account made; any other seat is
        refused (403 `not_host`) and leaves instead (`POST .../leave`).

        The match is gone at once (404 afterwards); those following its events
        get `match_cancelled`. A match being played or finished cannot be
        cancelled (409 `match_not_waiting`): leave it instead.

        Not idempotent: a retry of a cancel that was applied answers 404
        `match_not_found`. After 503 `outcome_unknown`, read the match: 404
        means it was cancelled.
        """
        game().lifecycle.cancel(match_id, bearer_token())
        return Response(status=204)


@blp.route(f"/{MATCH_ID}/join")
class Join(MethodView):
    """Taking an open seat."""

    @limited("join", PER_ACCOUNT_OR_ADDRESS)
    @blp.arguments(JoinSchema())
    @blp.response(201, SeatTokenSchema)
    @blp.doc(
        operationId="join_match",
        security=OPTIONAL_AUTH,
        responses=errors(*JOIN_REASONS, "match_not_found"),
        parameters=[
            idempotency_parameter(
                "A retry with the same key and body within 24 h takes no other seat and answers 201 again with "
                "the same `seat` and `token`, also once the match is full. The same key with another body is "
                "refused (422 `idempotency_key_reused`), as is the same key sent by another caller (a key is "
                "bound to the account of the token sent, else to the client's address). Send a new "
                "random key (a UUID) with each new join, and the same one with its retries, e.g. after 503 "
                "`outcome_unknown`"
            )
        ],
    )
    def post(self, command: commands.Join, match_id: str) -> SeatToken:
        """Join a match: fills the lowest open seat and answers its token.

        The first hand is dealt when the last open seat fills. The optional
        `entropy` is the seat's part of the fair deal (shown in `fair_deal`). With an
        account's token (scope `play`) the seat is the account's, under its
        name, and the account's token acts for it too; an account holds one
        seat of a match (409 `already_seated`). Without one, `name` is needed.
        """
        return game().matches.join(match_id, command, idempotency_key(), client_address(), bearer_token())


@blp.route(f"/{MATCH_ID}/rematch")
class Rematch(MethodView):
    """Playing again."""

    @blp.response(201, RematchSchema)
    @blp.doc(
        security=AUTH,
        operationId="rematch",
        responses=errors(
            *SEAT_REASONS,
            "match_not_found",
            "match_not_finished",
            "rematch_cancelled",
            "store_unavailable",
            "outcome_unknown",
        ),
    )
    def post(self, match_id: str) -> SeatToken:
        """Your seat in the rematch of a finished match, and your token there.

        The first call makes the next match: the same seats in the same
        places, the same rules and clock; bots stay bots. Each other remote
        seat gets its own place and token by calling this too (the place is
        kept for it), and the same call again answers the same. A seat whose
        player left the finished match is open in the rematch, for anyone to
        join (listed in the lobby when the match was listed). The next match
        deals once all its remote seats are claimed and its open seats
        joined; the finished match shows `next_match_id` and its followers
        get a `rematch` event.

        A rematch that was cancelled (`DELETE` while it waited) stays gone:
        every later call, by any seat, is refused with 409
        `rematch_cancelled` (so is one whose rematch expired unclaimed), and
        `next_match_id` keeps naming it (404). Create a new match to play again.

        Idempotent without a key: after 503 `outcome_unknown` call it again
        (or read the finished match's `next_match_id`).
        """
        return game().lifecycle.rematch(match_id, bearer_token())


@blp.route(f"/{MATCH_ID}/replay")
class Replay(MethodView):
    """A finished match, to watch again or check."""

    @blp.response(200, ReplaySchema)
    @blp.doc(
        operationId="get_replay",
        responses=errors("match_not_found", "match_not_finished", "not_watchable", "store_unavailable"),
    )
    def get(self, match_id: str) -> dict[str, Any]:
        """The rules, seed, seats, every hand's deal and actions, and the result (`tienlen-replay/1`).

        Only once the match is finished: no deal is ever shown while it is
        played. `tienlen replay FILE` referees a replay again with the engine.
        A match whose host turned watching off answers only its seats (a
        seat's token, or a `play` token of an account seated in it; 403
        `not_watchable` for anyone else).
        """
        return game().lobby.replay(match_id, bearer_token())
