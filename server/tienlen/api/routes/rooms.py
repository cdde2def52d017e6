"""Room codes: finding a match waiting for players by its code, and joining it."""

from __future__ import annotations

from flask.views import MethodView

from ...service import SeatToken
from ...service.commands import Join
from ...service.states import Room
from ..schemas import JoinSchema
from ..schemas.rooms import RoomSchema, RoomSeatSchema
from .common import (
    JOIN_REASONS,
    OPTIONAL_AUTH,
    PER_ACCOUNT_OR_ADDRESS,
    Blueprint,
    bearer_token,
    client_address,
    errors,
    game,
    idempotency_key,
    idempotency_parameter,
    limited,
    with_retry_after,
)

blp = Blueprint("rooms", __name__, url_prefix="/v1/rooms", description="Find and join a match by its room code")

CODE = "<string:code>"
LOOKUP_REASONS = ("invalid_request", "room_not_found", "rate_limited", "store_unavailable")


@blp.route(f"/{CODE}")
class RoomResource(MethodView):
    """A match by its room code."""

    @blp.response(200, RoomSchema)
    @blp.doc(operationId="get_room", responses=with_retry_after(errors(*LOOKUP_REASONS), "rate_limited"))
    def get(self, code: str) -> Room:
        """The match a room code names: its rules, the seats taken and open, and its host.

        Codes are 6 characters of `23456789ABCDEFGHJKMNPQRSTUVWXYZ` (no 0/O,
        1/I/L), read in any case (422 `invalid_request` for anything else). A
        code is kept while its match waits for players (and as long after each
        join or leave as a waiting match is kept); 404 `room_not_found` when no
        live match has it. After 20 unknown codes in 10 minutes from one client
        address, every lookup and room join from there answers 429
        `rate_limited` (with `Retry-After`) until the window ends.
        """
        return game().rooms.room(code, client_address())


@blp.route(f"/{CODE}/join")
class RoomJoin(MethodView):
    """Taking an open seat by room code."""

    @limited("join", PER_ACCOUNT_OR_ADDRESS)
    @blp.arguments(JoinSchema())
    @blp.response(201, RoomSeatSchema)
    @blp.doc(
        operationId="join_room",
        security=OPTIONAL_AUTH,
        responses=with_retry_after(errors(*JOIN_REASONS, *LOOKUP_REASONS), "rate_limited"),
        parameters=[
            idempotency_parameter(
                "As for `POST /v1/matches/{match_id}/join`: a retry with the same key and body within 24 h takes "
                "no other seat and answers the same `seat` and `token`"
            )
        ],
    )
    def post(self, command: Join, code: str) -> SeatToken:
        """Join the match a room code names: the lowest open seat, its token and the match's id.

        Anyone may join, with an account or not: with an account's token
        (scope `play`) the seat is the account's, under its name (one seat an
        account: 409 `already_seated`); without one, `name` is needed. 409
        `match_full` once no seat is open. Lookups are throttled as for
        `GET /v1/rooms/{code}`.
        """
        return game().rooms.join_room(code, command, idempotency_key(), client_address(), bearer_token())
