"""The wire JSON of every event is what the API sent before the vocabulary: a table written from that output.

Match events are sent as stored (``GET .../events``, the stream), written by the API's derived event schemas;
inbox events by the one inbox schema (times in RFC 3339). The bytes are compared, key order included.
"""

from __future__ import annotations

import pytest

from tienlen import wire
from tienlen.api.schemas import EventSchema
from tienlen.api.schemas.inbox import InboxEventSchema
from tienlen.engine.events import played_event
from tienlen.events import (
    INBOX_EVENTS,
    MATCH_EVENTS,
    STORE,
    WIRE,
    ChallengeCancelled,
    ChallengeReceived,
    ChallengeStarted,
    ChatRemoved,
    ChatSaid,
    Event,
    FriendStarted,
    HandEnded,
    HandShown,
    HandStarted,
    MatchAbandoned,
    MatchCancelled,
    MatchEnded,
    MatchFinished,
    MatchStarted,
    Notice,
    Numbered,
    Passed,
    QueueLeft,
    QueueMatched,
    Rematch,
    SeatJoined,
    SeatLeft,
    SeatTakenOver,
    TableCleared,
    TimedOut,
    TournamentCancelled,
    TournamentFinished,
    TournamentStarted,
    TournamentTableReady,
    WentOut,
    YourTurn,
)

MATCH_CASES: list[tuple[Event, bytes]] = [
    (SeatJoined(0, "ann"), b'{"seq":5,"type":"seat_joined","seat":0,"name":"ann"}'),
    (HandStarted(1, 2), b'{"seq":5,"type":"hand_started","hand_number":1,"leader":2}'),
    (
        played_event(1, 0b111, "triple", False),
        b'{"seq":5,"type":"played","seat":1,"cards":["3S","3C","3D"],"kind":"triple","bomb":false}',
    ),
    (
        played_event(3, (1 << 51) | (1 << 50), "pair", True),
        b'{"seq":5,"type":"played","seat":3,"cards":["2D","2H"],"kind":"pair","bomb":true}',
    ),
    (Passed(2), b'{"seq":5,"type":"passed","seat":2}'),
    (TableCleared(1), b'{"seq":5,"type":"table_cleared","leader":1}'),
    (WentOut(1, 1), b'{"seq":5,"type":"went_out","seat":1,"place":1}'),
    (
        HandEnded(1, (1, 0, 2), (3, -1, -2)),
        b'{"seq":5,"type":"hand_ended","hand_number":1,"places":[1,0,2],"points":[3,-1,-2]}',
    ),
    (
        HandShown(2, (0b11, 1 << 51, 0)),
        b'{"seq":5,"type":"hand_shown","hand_number":2,"hands":[["3S","3C"],["2H"],[]]}',
    ),
    (
        MatchEnded(None, (0, 1), (3, 3)),
        b'{"seq":5,"type":"match_ended","winner":null,"winners":[0,1],"scores":[3,3]}',
    ),
    (MatchEnded(2, (2,), (3, 3, 9)), b'{"seq":5,"type":"match_ended","winner":2,"winners":[2],"scores":[3,3,9]}'),
    (TimedOut(2, 0), b'{"seq":5,"type":"timed_out","seat":2,"action":{"type":"pass","cards":[]}}'),
    (TimedOut(2, 0b10001), b'{"seq":5,"type":"timed_out","seat":2,"action":{"type":"play","cards":["3S","4S"]}}'),
    (SeatTakenOver(1, "hard"), b'{"seq":5,"type":"seat_taken_over","seat":1,"bot":"hard"}'),
    (SeatLeft(3), b'{"seq":5,"type":"seat_left","seat":3}'),
    (MatchAbandoned(), b'{"seq":5,"type":"match_abandoned"}'),
    (MatchCancelled(), b'{"seq":5,"type":"match_cancelled"}'),
    (Rematch("abc"), b'{"seq":5,"type":"rematch","next_match_id":"abc"}'),
    (
        ChatSaid("table", "ann", 0, "ann", "xin chào", None, 1700000000.25),
        b'{"seq":5,"type":"chat_said","room":"table","name":"ann","from_seat":0,"account":"ann",'
        b'"text":"xin ch\xc3\xa0o","phrase":null,"said_at":"2023-11-14T22:13:20.250Z"}',
    ),
    (
        ChatSaid("spectators", "bob", None, "bob", "Good game", "good_game", 5.5),
        b'{"seq":5,"type":"chat_said","room":"spectators","name":"bob","from_seat":null,"account":"bob",'
        b'"text":"Good game","phrase":"good_game","said_at":"1970-01-01T00:00:05.500Z"}',
    ),
    (ChatRemoved(4), b'{"seq":5,"type":"chat_removed","message_seq":4}'),
]

INBOX_CASES: list[tuple[Notice, bytes]] = [
    (
        Notice(1, 1700000000.25, MatchStarted("m1", 2, 4, True)),
        b'{"seq":1,"type":"match_started","at":"2023-11-14T22:13:20.250Z","match_id":"m1","seat":2,"players":4,'
        b'"rated":true}',
    ),
    (
        Notice(2, 1700000001.0, YourTurn("m1", 2, 7)),
        b'{"seq":2,"type":"your_turn","at":"2023-11-14T22:13:21.000Z","match_id":"m1","seat":2,"version":7}',
    ),
    (
        Notice(3, 5.5, MatchFinished("m1", 2, None, None, None)),
        b'{"seq":3,"type":"match_finished","at":"1970-01-01T00:00:05.500Z","match_id":"m1","seat":2,"place":null,'
        b'"rating_before":null,"rating_after":null}',
    ),
    (
        Notice(4, 6.0, MatchFinished("m1", 2, 1, 1500, 1516)),
        b'{"seq":4,"type":"match_finished","at":"1970-01-01T00:00:06.000Z","match_id":"m1","seat":2,"place":1,'
        b'"rating_before":1500,"rating_after":1516}',
    ),
    (
        Notice(5, 7.0, ChallengeReceived("c1", "bob", ("ann", "cy"), 3, "standard", False, 1700000100.5)),
        b'{"seq":5,"type":"challenge_received","at":"1970-01-01T00:00:07.000Z","players":3,"rated":false,'
        b'"challenge_id":"c1","from":"bob","to":["ann","cy"],"preset":"standard",'
        b'"expires_at":"2023-11-14T22:15:00.500Z"}',
    ),
    (
        Notice(6, 8.0, ChallengeCancelled("c1", "declined", "cy")),
        b'{"seq":6,"type":"challenge_cancelled","at":"1970-01-01T00:00:08.000Z","challenge_id":"c1",'
        b'"cause":"declined","by":"cy"}',
    ),
    (
        Notice(7, 8.0, ChallengeCancelled("c1", "expired", None)),
        b'{"seq":7,"type":"challenge_cancelled","at":"1970-01-01T00:00:08.000Z","challenge_id":"c1",'
        b'"cause":"expired","by":null}',
    ),
    (
        Notice(8, 9.0, ChallengeStarted("c1", "m2", 1)),
        b'{"seq":8,"type":"challenge_started","at":"1970-01-01T00:00:09.000Z","match_id":"m2","seat":1,'
        b'"challenge_id":"c1"}',
    ),
    (
        Notice(9, 10.0, QueueMatched("t1", "m3", 0)),
        b'{"seq":9,"type":"queue_matched","at":"1970-01-01T00:00:10.000Z","match_id":"m3","seat":0,"ticket":"t1"}',
    ),
    (
        Notice(10, 11.0, QueueLeft("t2")),
        b'{"seq":10,"type":"queue_left","at":"1970-01-01T00:00:11.000Z","ticket":"t2"}',
    ),
    (
        Notice(11, 12.0, FriendStarted("ann", "m4", True, 4, False)),
        b'{"seq":11,"type":"friend_started","at":"1970-01-01T00:00:12.000Z","match_id":"m4","players":4,'
        b'"rated":false,"name":"ann","watchable":true}',
    ),
    (
        Notice(12, 13.0, TournamentStarted("t1")),
        b'{"seq":12,"type":"tournament_started","at":"1970-01-01T00:00:13.000Z","tournament_id":"t1"}',
    ),
    (
        Notice(13, 14.0, TournamentTableReady("t1", 2, "m5", 3, 7)),
        b'{"seq":13,"type":"tournament_table_ready","at":"1970-01-01T00:00:14.000Z","match_id":"m5","seat":3,'
        b'"tournament_id":"t1","round":2,"table":7}',
    ),
    (
        Notice(14, 15.0, TournamentFinished("t1", 1)),
        b'{"seq":14,"type":"tournament_finished","at":"1970-01-01T00:00:15.000Z","place":1,"tournament_id":"t1"}',
    ),
    (
        Notice(15, 16.0, TournamentCancelled("t2", "too_few_entrants")),
        b'{"seq":15,"type":"tournament_cancelled","at":"1970-01-01T00:00:16.000Z","tournament_id":"t2",'
        b'"why":"too_few_entrants"}',
    ),
]


def test_the_tables_cover_every_event() -> None:
    """Rule: every kind of event has a row of today's output (a new event needs one)."""
    assert {type(event) for event, _ in MATCH_CASES} == set(MATCH_EVENTS)
    assert {type(notice.event) for notice, _ in INBOX_CASES} == set(INBOX_EVENTS)


@pytest.mark.parametrize(("event", "sent"), MATCH_CASES, ids=[e.type for e, _ in MATCH_CASES])
def test_a_match_event_is_sent_as_before(event: Event, sent: bytes) -> None:
    """Rule: the API writes a stored match event as before, byte for byte, and the wire codec writes the same."""
    numbered = Numbered(5, event)
    assert wire.dumps(EventSchema().dump(STORE.dump(numbered))) == sent
    assert wire.dumps(WIRE.dump(numbered)) == sent
    assert WIRE.load(wire.loads(sent)) == numbered


@pytest.mark.parametrize(("notice", "sent"), INBOX_CASES, ids=[n.event.type for n, _ in INBOX_CASES])
def test_an_inbox_event_is_sent_as_before(notice: Notice, sent: bytes) -> None:
    """Rule: the API writes a stored inbox event as before, byte for byte; the wire codec writes the same JSON."""
    assert wire.dumps(InboxEventSchema().dump(STORE.dump_notice(notice))) == sent
    assert WIRE.dump_notice(notice) == wire.loads(sent)
    assert WIRE.load_notice(wire.loads(sent)) == notice
