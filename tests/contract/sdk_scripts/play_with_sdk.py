"""Plays a whole match through the SDK that openapi-python-client generates (checked with mypy --strict first).

Usage: python play_with_sdk.py BASE_URL  (the generated ``tienlen_sdk`` package on the path)
"""

from __future__ import annotations

import sys
import uuid

from tienlen_sdk import AuthenticatedClient, Client
from tienlen_sdk.api.accounts import create_account
from tienlen_sdk.api.events import get_events
from tienlen_sdk.api.matches import create_match
from tienlen_sdk.api.rooms import get_room
from tienlen_sdk.api.seats import get_legal_plays, get_seat_view, post_action
from tienlen_sdk.models import (
    AccountKind,
    ActionAnswer,
    BotLevel,
    BotSeatRequest,
    BotSeatRequestType,
    CreateAccount,
    CreatedMatch,
    CreateMatch,
    Error,
    ErrorReason,
    EventPage,
    Legal,
    MatchEndedEvent,
    MatchStatus,
    OpenSeatRequest,
    OpenSeatRequestType,
    PassAction,
    PassActionType,
    PlayAction,
    PlayActionType,
    PlayedEvent,
    Preset,
    Registered,
    RemoteSeatRequest,
    RemoteSeatRequestType,
    Room,
    RulesRequest,
    SeatView,
)


def main(base_url: str) -> int:
    """Sign up, create a match against a bot, play the lowest legal play (or pass) until it ends; print a summary.

    Creating takes an optional account token, so the generated call takes an authenticated client: the account's.
    """
    client = Client(base_url=base_url)
    name = "sdk" + uuid.uuid4().hex[:12]
    sign_up = CreateAccount(kind=AccountKind.BOT, name=name, password="x" * 12)
    signed_up = create_account.sync(client=client, body=sign_up)
    assert isinstance(signed_up, Registered), signed_up
    account = AuthenticatedClient(base_url=base_url, token=signed_up.token)
    body = CreateMatch(
        seats=[
            RemoteSeatRequest(name="Ann", type_=RemoteSeatRequestType.REMOTE),
            BotSeatRequest(name="Bo", bot=BotLevel.EASY, type_=BotSeatRequestType.BOT),
        ],
        rules=RulesRequest(preset=Preset.LADDER),
        seed=11,
    )
    created = create_match.sync(client=account, body=body)
    assert isinstance(created, CreatedMatch), created
    # Each kind of seat, saying its type (what a generated client tells them apart by), and no optional field.
    typed: list[RemoteSeatRequest | BotSeatRequest | OpenSeatRequest] = [
        RemoteSeatRequest(name="Ann", type_=RemoteSeatRequestType.REMOTE),
        BotSeatRequest(name="Bo", bot=BotLevel.HARD, type_=BotSeatRequestType.BOT),
        OpenSeatRequest(open_=True, type_=OpenSeatRequestType.OPEN),
    ]
    waiting = create_match.sync(client=account, body=CreateMatch(seats=typed))
    assert isinstance(waiting, CreatedMatch), waiting
    shown = [(seat.name, seat.bot, seat.open_, seat.account) for seat in waiting.match.seats]
    assert shown == [(name, None, False, True), ("Bo", BotLevel.HARD, False, False), (None, None, True, False)], shown
    assert isinstance(waiting.match.room_code, str)
    room = get_room.sync(waiting.match.room_code.lower(), client=client)
    assert isinstance(room, Room) and room.host == name and room.match_id == waiting.match_id, room
    seat = AuthenticatedClient(base_url=base_url, token=created.tokens[0].token)
    match_id = created.match_id
    refused = post_action.sync(match_id, client=seat, body=PlayAction(cards=["ZZ"], type_=PlayActionType.PLAY))
    assert isinstance(refused, Error) and refused.reason in (ErrorReason.UNKNOWN_CARD, ErrorReason.NOT_YOUR_TURN)
    actions = 0
    for _ in range(200):
        view = get_seat_view.sync(match_id, client=seat)
        assert isinstance(view, SeatView), view
        if view.status != MatchStatus.PLAYING:
            break
        legal = get_legal_plays.sync(match_id, client=seat)
        assert isinstance(legal, Legal), legal
        move: PlayAction | PassAction
        if legal.plays:
            move = PlayAction(cards=legal.plays[0].cards, type_=PlayActionType.PLAY)
        else:
            move = PassAction(type_=PassActionType.PASS)
        answer = post_action.sync(match_id, client=seat, body=move, idempotency_key=str(uuid.uuid4()))
        assert isinstance(answer, ActionAnswer), answer
        actions += 1
    page = get_events.sync(match_id, client=client, after=0)
    assert isinstance(page, EventPage), page
    played = [e for e in page.events if isinstance(e, PlayedEvent)]
    ended = [e for e in page.events if isinstance(e, MatchEndedEvent)]
    assert played and len(ended) == 1, [type(e).__name__ for e in page.events]
    print(f"finished after {actions} actions: {len(page.events)} events, winner {ended[0].winner}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
