"""Quick play (``/v1/queue``): an account asks for a table and is seated when one forms."""

from __future__ import annotations

from typing import Any

from flask import g
from flask.views import MethodView

from ...service.commands import Enqueue
from ...service.queue import TicketState
from ..schemas.queue import QueueSchema, QueueTicketSchema, TicketQuerySchema
from .common import AUTH, PER_ACCOUNT, Blueprint, bearer_token, errors, game, limited, with_retry_after

blp = Blueprint("queue", __name__, url_prefix="/v1/queue", description="Quick play: a table found for you")

TOKEN_REASONS = ("invalid_token", "scope_missing", "store_unavailable")
TICKET = "<string(length=16):ticket>"


@blp.route("")
class Queue(MethodView):
    """Queueing for a table."""

    @limited("create", PER_ACCOUNT)
    @blp.arguments(QueueSchema())
    @blp.response(202, QueueTicketSchema)
    @blp.doc(
        operationId="enqueue",
        security=AUTH,
        responses=errors(
            "bad_request",
            "payload_too_large",
            "unsupported_media_type",
            "invalid_request",
            "already_queued",
            *TOKEN_REASONS,
        ),
    )
    def post(self, command: Enqueue) -> TicketState:
        """Queue the token's account (scope `play`) for a table of `players` (2 to 4) with `preset`, `rated` or not.

        The answer is a ticket, `waiting` or already `matched`. Tables are
        made of players of close ratings, the window widening the longer they
        wait; after `TIENLEN_QUEUE_FILL_S` (15 s by default) house bots of about
        the players' strength take the seats left. Follow the ticket with
        `GET /v1/queue/{ticket}?wait=` or the account's inbox (`queue_matched`).
        Once matched, the account's token acts for its seat. One ticket an
        account at a time (409 `already_queued`).
        """
        ticket = game().queue.enqueue(command, bearer_token())
        if ticket.match_id is not None:
            g.match_id = ticket.match_id  # for the request log line
        return ticket

    @blp.response(200, QueueTicketSchema)
    @blp.doc(operationId="get_my_ticket", security=AUTH, responses=errors("ticket_not_found", *TOKEN_REASONS))
    def get(self) -> TicketState:
        """The token's account's open ticket (scope `play`): the one `already_queued` is about, from any client.

        404 `ticket_not_found` when it holds none (never queued, left, or seated already).
        """
        return game().queue.my_ticket(bearer_token())


@blp.route(f"/{TICKET}")
class Ticket(MethodView):
    """One ticket of the token's account."""

    @limited("wait", PER_ACCOUNT)
    @blp.arguments(TicketQuerySchema(), location="query")
    @blp.response(200, QueueTicketSchema)
    @blp.doc(
        operationId="get_ticket",
        security=AUTH,
        responses=with_retry_after(
            with_retry_after(
                errors("ticket_not_found", "invalid_request", *TOKEN_REASONS, "too_many_waiters", "too_many_waits"),
                "too_many_waiters",
            ),
            "too_many_waits",
        ),
    )
    def get(self, query: dict[str, Any], ticket: str) -> TicketState:
        """The ticket; with `wait` (seconds, up to 30) the answer comes as soon as it is matched.

        Another account's ticket answers 404 `ticket_not_found`, as an unknown one does.
        """
        return game().queue.ticket(ticket, bearer_token(), query["wait"])

    @blp.response(204)
    @blp.doc(
        operationId="leave_queue",
        security=AUTH,
        responses=errors("ticket_not_found", "already_matched", *TOKEN_REASONS),
    )
    def delete(self, ticket: str) -> None:
        """Leave the queue: the ticket stops waiting (409 `already_matched` once it found its table)."""
        game().queue.leave(ticket, bearer_token())
