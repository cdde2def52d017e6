"""Friends (``/v1/me/following``): the accounts an account follows, with who of them plays, is online or away.

Following is private and one-way: the followed account is not told, and a profile shows only how many follow it.
"""

from __future__ import annotations

from flask.views import MethodView

from ...service.friends import Friend, FriendsService
from ..schemas.friends import FollowingListSchema
from ..services import services
from .common import AUTH, PER_ACCOUNT, Blueprint, bearer_token, errors, limited

blp = Blueprint(
    "friends",
    __name__,
    url_prefix="/v1/me/following",
    description="The accounts an account follows: who of them plays (with their matches to watch), is online or away",
)

TOKEN_REASONS = ("invalid_token", "scope_missing", "store_unavailable")


def friends() -> FriendsService:
    """The friends service of the running app."""
    return services().friends


@blp.route("")
class Following(MethodView):
    """The accounts followed."""

    @blp.response(200, FollowingListSchema)
    @blp.doc(operationId="list_following", security=AUTH, responses=errors(*TOKEN_REASONS))
    def get(self) -> dict[str, list[Friend]]:
        """The accounts the account follows (scope `play`), playing first, then online, then away, each by name.

        *Playing*: seated in a match that is dealt and not over (its live
        matches listed, for a Watch link); *online*: listened to its inbox in
        the last minute; *away*: neither. `last_seen` is when it last listened
        to its inbox (null after a day).
        """
        return {"following": friends().following(bearer_token())}


@blp.route("/<string:name>")
class Followed(MethodView):
    """One account followed."""

    @limited("follow", PER_ACCOUNT)
    @blp.response(204)
    @blp.doc(
        operationId="follow",
        security=AUTH,
        responses=errors("player_not_found", "invalid_request", "too_many_followed", *TOKEN_REASONS),
    )
    def put(self, name: str) -> None:
        """Follow the account named `name` (any case; scope `play`); following again changes nothing.

        The followed account is not told. Refused: an unknown name (404
        `player_not_found`), the account itself or a house bot (422
        `invalid_request`), and a follow past the cap (an account
        follows at most 500 others: 409 `too_many_followed`).
        """
        friends().follow(bearer_token(), name)

    @limited("follow", PER_ACCOUNT)
    @blp.response(204)
    @blp.doc(operationId="unfollow", security=AUTH, responses=errors("player_not_found", *TOKEN_REASONS))
    def delete(self, name: str) -> None:
        """Follow the account named `name` no more (scope `play`); nothing when it was not followed.

        An unknown name answers 404 `player_not_found`.
        """
        friends().unfollow(bearer_token(), name)
