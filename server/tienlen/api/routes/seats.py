"""What a seat does with its token: its view, its legal plays, actions, hints."""

from __future__ import annotations

from flask.views import MethodView

from ...bots import Hint
from ...engine import REFUSAL_REASONS, LegalPlays
from ...service import ActionOutcome, LeaveOutcome, SeatState
from ...service.commands import Action
from ..errors import REASON_STATUS
from ..schemas import ActionAnswerSchema, ActionSchema, HintSchema, LeaveAnswerSchema, LegalSchema, SeatViewSchema
from .common import (
    AUTH,
    MATCH_ID,
    PER_PLAYER,
    SEAT_REASONS,
    Blueprint,
    bearer_token,
    errors,
    game,
    idempotency_key,
    idempotency_parameter,
    limited,
)

blp = Blueprint(
    "seats",
    __name__,
    url_prefix="/v1/matches",
    description="A seat's own view, legal plays, actions and hints (`Authorization: Bearer <token>`: the seat's "
    "token, or a token with scope `play` of the account that holds the seat)",
)

_RULE_REASONS = ("invalid_request", *(r for r in REFUSAL_REASONS if REASON_STATUS[r] == 422))


@blp.route(f"/{MATCH_ID}/view")
class View(MethodView):
    """A seat's view."""

    @blp.response(200, SeatViewSchema)
    @blp.doc(
        security=AUTH,
        operationId="get_seat_view",
        responses=errors(*SEAT_REASONS, "match_not_found", "store_unavailable"),
    )
    def get(self, match_id: str) -> SeatState:
        """The public state plus the asking seat's own cards, low to high."""
        return game().watching.counted(game().reads.view(match_id, bearer_token()))


@blp.route(f"/{MATCH_ID}/legal")
class Legal(MethodView):
    """A seat's legal plays."""

    @blp.response(200, LegalSchema)
    @blp.doc(
        security=AUTH,
        operationId="get_legal_plays",
        responses=errors(*SEAT_REASONS, "match_not_found", "store_unavailable"),
    )
    def get(self, match_id: str) -> LegalPlays:
        """Every distinct legal play of the asking seat, fewest cards first.

        Empty, with `can_pass: false`, when it is not that seat's turn. Any play
        listed here is accepted by `POST .../actions`.
        """
        return game().reads.legal(match_id, bearer_token())


@blp.route(f"/{MATCH_ID}/actions")
class Actions(MethodView):
    """Plays and passes."""

    @limited("act", PER_PLAYER)
    @blp.arguments(ActionSchema())
    @blp.response(200, ActionAnswerSchema)
    @blp.doc(
        security=AUTH,
        operationId="post_action",
        responses=errors(
            "bad_request",
            *SEAT_REASONS,
            "match_not_found",
            "match_not_playing",
            "not_your_turn",
            "stale_version",
            "payload_too_large",
            "unsupported_media_type",
            *_RULE_REASONS,
            "idempotency_key_reused",
            "store_unavailable",
            "outcome_unknown",
        ),
        parameters=[
            idempotency_parameter(
                "A retry with the same key and body answers again what the first request was answered, and "
                "applies nothing: the same events, with the seat's view as it is now (the first answer itself "
                "while nothing happened since), for each seat's last 8 actions sent with a key, as long as the "
                "match is kept; a refusal the match decided (turn, version, cards) for 24 h. The same key with "
                "another body is refused (422 idempotency_key_reused). Send a new random key (a UUID) with "
                "each new action, and the same one with its retries, e.g. after 503 outcome_unknown"
            )
        ],
    )
    def post(self, action: Action, match_id: str) -> ActionOutcome:
        """Play cards or pass, then let every bot that follows play.

        A body sent as another media type (415 `unsupported_media_type`),
        that is not JSON (400 `bad_request`) or does not match the schema (422
        `invalid_request`) is refused before anything else. Then,
        when several reasons apply, the first of: token, `match_not_playing`,
        `not_your_turn`, `stale_version`, `unknown_card`, `duplicate_cards`,
        `cards_not_in_hand`, `not_a_combination`, `must_include_start_card` /
        `cannot_pass_on_lead`, `locked_bomb_only`, `does_not_beat`. A refused
        action changes nothing. Answers the seat's view after the action, and
        `events`: every event from the action through the bots' replies.
        """
        return game().matches.act(match_id, bearer_token(), action, idempotency_key())


@blp.route(f"/{MATCH_ID}/hint")
class HintResource(MethodView):
    """Advice for the seat on turn."""

    @limited("hint", PER_PLAYER)
    @blp.response(200, HintSchema)
    @blp.doc(
        security=AUTH,
        operationId="get_hint",
        responses=errors(*SEAT_REASONS, "match_not_found", "match_not_playing", "not_your_turn", "store_unavailable"),
    )
    def get(self, match_id: str) -> Hint:
        """The action the strongest bot would take in your seat, and why."""
        return game().reads.hint(match_id, bearer_token())


@blp.route(f"/{MATCH_ID}/leave")
class Leave(MethodView):
    """Leaving a match."""

    @blp.response(200, LeaveAnswerSchema)
    @blp.doc(
        security=AUTH,
        operationId="leave_match",
        responses=errors(*SEAT_REASONS, "match_not_found", "store_unavailable", "outcome_unknown"),
    )
    def post(self, match_id: str) -> LeaveOutcome:
        """Leave the match; your token stops working.

        In a match waiting for players your seat opens again. In play the
        match's takeover bot takes your seat at once (`seat_left`,
        `seat_taken_over`) and plays if it is on turn; when no remote seat is
        left the match ends (`match_abandoned`, status `finished`, no winner).
        Answers the public match and `events`: what leaving set off.

        Not idempotent: once you have left your token answers 401
        `invalid_token`. After 503 `outcome_unknown`, read the match
        (`GET /v1/matches/{match_id}`): your seat shows `left` (in play) or
        `open` (waiting) when the leave was applied.
        """
        return game().lifecycle.leave(match_id, bearer_token())
