"""Challenges (``/v1/challenges``): an account challenges accounts and house bots to a match.

The challenged accounts hear of it on their inbox (``challenge_received``),
accept or decline it; its sender may withdraw it; it expires after
``TIENLEN_CHALLENGE_EXPIRY_S`` (60 s by default). When all accepted the match
is dealt and everyone hears ``challenge_started`` and ``match_started``. The
house bots accept at once: a challenge of house bots alone starts at once.
"""

from __future__ import annotations

from flask import Response, g
from flask.views import MethodView

from ...service import commands
from ...service.challenge_states import Challenge
from ..schemas.challenges import AcceptChallengeSchema, ChallengeSchema, NewChallengeSchema
from .common import AUTH, PER_ACCOUNT, Blueprint, bearer_token, errors, game, limited

blp = Blueprint(
    "challenges",
    __name__,
    url_prefix="/v1/challenges",
    description="Challenging players and bots to a match (`Authorization: Bearer <token>` of an account, scope `play`)",
)

CHALLENGE_ID = "<string:challenge_id>"
TOKEN_REASONS = ("invalid_token", "scope_missing")
# What an answer to a challenge (accept, decline) may be refused with.
ANSWER_REASONS = (
    *TOKEN_REASONS,
    "not_challenged",
    "challenge_not_found",
    "challenge_closed",
    "stale_version",
    "challenge_expired",
    "store_unavailable",
    "outcome_unknown",
)


@blp.route("")
class Challenges(MethodView):
    """Sending a challenge."""

    @limited("create", PER_ACCOUNT)
    @blp.arguments(NewChallengeSchema())
    @blp.response(201, ChallengeSchema)
    @blp.doc(
        operationId="create_challenge",
        security=AUTH,
        responses=errors(
            "bad_request",
            *TOKEN_REASONS,
            "player_not_found",
            "player_offline",
            "challenge_refused",
            "payload_too_large",
            "unsupported_media_type",
            "invalid_request",
            "store_unavailable",
            "outcome_unknown",
        ),
    )
    def post(self, command: commands.Challenge) -> Challenge:
        """Challenge players to a match, `rated` or not: accounts and house bots.

        The account of the token sits at seat 0, the players named in `to` at
        seats 1, 2, ... (the last name fills the seats left: a house bot, as an
        account holds one seat). Each challenged account must be online
        (listening to `GET /v1/me/events` in the last minute; 409
        `player_offline` otherwise) and take challenges of the kind (its
        settings, `PUT /v1/me/settings`; 409 `challenge_refused` otherwise); it
        hears `challenge_received` and accepts or declines. The house bots
        (`easy`, `medium`, `hard`) accept at once, so a challenge of house bots
        alone answers `started`, its `match` already dealt and the
        challenger's seat token in `tokens` (the account's token acts for the
        seat too). An unknown name is 404 `player_not_found`; yourself, an
        account named twice, or an account left to fill several seats 422
        `invalid_request`. Each seat holds its account, so a rated match moves
        every rating in it when it ends, once; a player who leaves is scored last.
        """
        made = game().challenges.send(command, bearer_token())
        g.match_id = made.match_id  # for the request log line (None until it started)
        return made


@blp.route(f"/{CHALLENGE_ID}")
class OneChallenge(MethodView):
    """A challenge."""

    @blp.response(200, ChallengeSchema)
    @blp.doc(
        operationId="get_challenge",
        security=AUTH,
        responses=errors(*TOKEN_REASONS, "challenge_not_found", "store_unavailable", "outcome_unknown"),
    )
    def get(self, challenge_id: str) -> Challenge:
        """The challenge, for its sender and the challenged accounts (404 `challenge_not_found` for anyone else).

        A closed challenge is kept an hour after it closed. A pending one read
        after its time is expired now (everyone hears `challenge_cancelled`).
        """
        return game().challenges.status(challenge_id, bearer_token())

    @blp.response(204)
    @blp.doc(
        operationId="withdraw_challenge",
        security=AUTH,
        responses=errors(
            *TOKEN_REASONS,
            "not_challenger",
            "challenge_not_found",
            "challenge_closed",
            "stale_version",
            "store_unavailable",
            "outcome_unknown",
        ),
    )
    def delete(self, challenge_id: str) -> Response:
        """Withdraw a pending challenge (its sender only: 403 `not_challenger`).

        The challenged accounts hear `challenge_cancelled` (cause `withdrawn`).
        A challenge no longer pending (started, declined, withdrawn, expired) is
        409 `challenge_closed`.
        """
        game().challenges.withdraw(challenge_id, bearer_token())
        return Response(status=204)


@blp.route(f"/{CHALLENGE_ID}/accept")
class Accept(MethodView):
    """Accepting a challenge."""

    @blp.arguments(AcceptChallengeSchema(), required=False)
    @blp.response(200, ChallengeSchema)
    @blp.doc(
        operationId="accept_challenge",
        security=AUTH,
        responses=errors(*ANSWER_REASONS, "payload_too_large", "unsupported_media_type", "invalid_request"),
    )
    def post(self, command: commands.Accept | None, challenge_id: str) -> Challenge:
        """Accept a challenge sent to the token's account (403 `not_challenged` for anyone else).

        When it is the last acceptance the match is dealt: the answer is
        `started` with `match_id` and `match`, and everyone hears
        `challenge_started` and `match_started`; the account's token acts for
        its seat. Accepting again (a retry) answers the challenge as it is, also
        once started. After its time, 410 `challenge_expired`; once it closed
        otherwise, 409 `challenge_closed`. The optional body's `entropy` is the
        account's part of the match's fair deal (its seat's `fair_deal.entropy`).
        """
        made = game().challenges.accept(challenge_id, bearer_token(), command or commands.Accept())
        g.match_id = made.match_id
        return made


@blp.route(f"/{CHALLENGE_ID}/decline")
class Decline(MethodView):
    """Declining a challenge."""

    @blp.response(200, ChallengeSchema)
    @blp.doc(operationId="decline_challenge", security=AUTH, responses=errors(*ANSWER_REASONS))
    def post(self, challenge_id: str) -> Challenge:
        """Decline a challenge sent to the token's account (403 `not_challenged` for anyone else).

        The answer is `declined`, with `declined_by`; the sender and the other
        challenged accounts hear `challenge_cancelled` (cause `declined`, `by`
        the account's name). After its time, 410 `challenge_expired`; once it
        closed otherwise, 409 `challenge_closed`.
        """
        return game().challenges.decline(challenge_id, bearer_token())
