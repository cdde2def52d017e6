"""Puzzles (``/v1/puzzles``, ``/v1/me/puzzles``): positions from real endgames, answered move by move.

Only two seats hold cards in a puzzle, so the position is perfect information by construction: both hands are
shown. Exactly one first move forces the solver out before the opponent; the opponent replies by the solution.
"""

from __future__ import annotations

from flask.views import MethodView

from ...service.commands import Action
from ...service.puzzles import MoveOutcome, PuzzlePosition, PuzzleService, PuzzleStats
from ..schemas.puzzles import PuzzleMoveAnswerSchema, PuzzleMoveSchema, PuzzleSchema, PuzzleStatsSchema
from ..services import services
from .common import AUTH, OPTIONAL_AUTH, PER_ACCOUNT_OR_ADDRESS, Blueprint, bearer_token, errors, limited

blp = Blueprint("puzzles", __name__, url_prefix="/v1", description="Puzzles from real endgames, with a puzzle rating")

TOKEN_REASONS = ("invalid_token", "scope_missing", "store_unavailable")
CARD_REASONS = (
    "unknown_card",
    "duplicate_cards",
    "cards_not_in_hand",
    "not_a_combination",
    "cannot_pass_on_lead",
    "locked_bomb_only",
    "does_not_beat",
)


def puzzles() -> PuzzleService:
    """The puzzle service of the running app."""
    return services().puzzles


@blp.route("/puzzles/next")
class NextPuzzle(MethodView):
    """The next puzzle."""

    @blp.response(200, PuzzleSchema)
    @blp.doc(operationId="next_puzzle", security=OPTIONAL_AUTH, responses=errors("puzzle_not_found", *TOKEN_REASONS))
    def get(self) -> PuzzlePosition:
        """The next puzzle: with an account's token (scope `play`), the unattempted one whose rating is nearest
        the account's puzzle rating; anonymous, a random one.

        The position shows the solver's hand AND the opponent's cards: only two seats hold cards, so every card
        the solver has not seen is the opponent's (perfect information by construction).
        """
        return puzzles().next(bearer_token())


@blp.route("/puzzles/<string:puzzle_id>/moves")
class PuzzleMoves(MethodView):
    """The solver's moves."""

    @limited("puzzle", PER_ACCOUNT_OR_ADDRESS)
    @blp.arguments(PuzzleMoveSchema())
    @blp.response(200, PuzzleMoveAnswerSchema)
    @blp.doc(
        operationId="post_puzzle_move",
        security=OPTIONAL_AUTH,
        responses=errors(
            "bad_request",
            "invalid_request",
            "puzzle_not_found",
            "payload_too_large",
            "unsupported_media_type",
            *CARD_REASONS,
            *TOKEN_REASONS,
        ),
    )
    def post(self, move: tuple[int, Action], puzzle_id: str) -> MoveOutcome:
        """Answer the solver's move number `step` (from 0).

        `correct`: the opponent's `replies` by the solution, go on at `next_step`; `solved`; `wrong`: the
        attempt is over and `answer` is the right move. After the first move, any move that still forces the
        win solves the puzzle. An illegal move is refused with the engine's reason (422 `does_not_beat`, ...)
        and changes nothing; a step past the solver's moves is 422 `invalid_request`; an unknown id 404
        `puzzle_not_found`. With an account's token (scope `play`) the account's first attempt of each puzzle
        is rated once (solved: a win against the puzzle; wrong: a loss), and `rating` is the account's after.
        """
        step, action = move
        return puzzles().move(bearer_token(), puzzle_id, step, action)


@blp.route("/me/puzzles")
class MyPuzzles(MethodView):
    """An account's puzzle rating."""

    @blp.response(200, PuzzleStatsSchema)
    @blp.doc(operationId="get_my_puzzles", security=AUTH, responses=errors(*TOKEN_REASONS))
    def get(self) -> PuzzleStats:
        """The account's (scope `play`) puzzle rating and its attempts: solved, failed, still open."""
        return puzzles().stats(bearer_token())
