"""Ratings: the Plackett–Luce update from places, and applying a rated match's result exactly once (real Redis).

Rules checked: a new player shows 1500 and is provisional for 10 games; the first place gains and the last loses,
shared places move alike; a match's settled result is the first one proposed, whoever proposes later; applying it
to an account from many threads at once moves the rating once, and two matches that end together both count.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from tienlen.local_redis import LocalRedis
from tienlen.service.rating_model import PROVISIONAL_GAMES, START, Rating, rate
from tienlen.store.redis_ratings import RedisRatings


@pytest.fixture
def ratings(redis_server: LocalRedis) -> Iterator[RedisRatings]:
    """The ratings store on the tests' Redis."""
    client = redis.Redis.from_url(redis_server.url)
    yield RedisRatings(client)
    client.close()


def test_a_new_player_shows_the_start_and_is_provisional() -> None:
    fresh = Rating.new()
    assert fresh.shown == START and fresh.provisional
    assert not Rating(fresh.mu, fresh.sigma, PROVISIONAL_GAMES).provisional


def test_first_gains_last_loses_and_a_shared_place_moves_alike() -> None:
    fresh = Rating.new()
    after = rate([(fresh, 1), (fresh, 2), (fresh, 3), (fresh, 4)])
    assert after[0].mu > after[1].mu > after[2].mu > after[3].mu
    assert after[0].shown > START and after[3].mu < fresh.mu
    assert all(r.games == 1 for r in after)
    shared = rate([(fresh, 1), (fresh, 2), (fresh, 2)])
    assert shared[1].mu == pytest.approx(shared[2].mu)


def test_a_stronger_players_win_moves_less_than_an_upset() -> None:
    strong, weak = Rating(35.0, 3.0, 40), Rating(20.0, 3.0, 40)
    expected = rate([(strong, 1), (weak, 2)])
    upset = rate([(weak, 1), (strong, 2)])
    assert expected[0].mu - strong.mu < upset[0].mu - weak.mu


def test_a_rated_result_is_settled_by_the_first_proposal(ratings: RedisRatings) -> None:
    match_id = secrets.token_hex(10)
    assert ratings.settled(match_id) is None
    first = ratings.settle(match_id, {"a": 1})
    assert first == {"a": 1} and ratings.settle(match_id, {"a": 2}) == {"a": 1}


def test_a_result_applied_from_many_threads_at_once_moves_the_rating_once(ratings: RedisRatings) -> None:
    account, match_id = secrets.token_hex(10), secrets.token_hex(10)
    fresh = Rating.new()
    done: list[bool] = []
    start = threading.Barrier(8)

    def apply() -> None:
        start.wait()
        done.append(ratings.apply(account, match_id, 4, (2.5, 0.9), fresh.to_dict()))

    threads = [threading.Thread(target=apply) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert done.count(True) == 1
    kept = Rating.from_dict(ratings.ratings(account)[4])
    assert (
        kept.games == 1 and kept.mu == pytest.approx(fresh.mu + 2.5) and kept.sigma == pytest.approx(fresh.sigma * 0.9)
    )


def test_two_matches_ending_together_both_count(ratings: RedisRatings) -> None:
    account = secrets.token_hex(10)
    fresh = Rating.new()
    assert ratings.apply(account, "m1" + secrets.token_hex(9), 2, (1.0, 1.0), fresh.to_dict())
    assert ratings.apply(account, "m2" + secrets.token_hex(9), 2, (-0.5, 1.0), fresh.to_dict())
    kept = Rating.from_dict(ratings.ratings(account)[2])
    assert kept.games == 2 and kept.mu == pytest.approx(fresh.mu + 0.5)


def test_the_leaderboard_pages_best_first_without_repeats(ratings: RedisRatings) -> None:
    kind = "bot"
    players = 3
    made = {secrets.token_hex(10): score for score in (1600, 1550, 1550, 1550, 1400)}
    for account, score in made.items():
        ratings.rank(players, kind, account, score)
    seen: list[tuple[str, int]] = []
    before = None
    while True:
        page = ratings.board_page(players, kind, before, 2)
        if not page:
            break
        seen += page
        before = (page[-1][1], page[-1][0])
    mine = [entry for entry in seen if entry[0] in made]
    assert [score for _a, score in mine] == sorted(made.values(), reverse=True)
    assert len({a for a, _s in mine}) == len(made)
    for account in made:
        ratings.forget(account)
    assert not [e for e in ratings.board_page(players, kind, None, 100) if e[0] in made]


def test_applied_notes_older_than_a_month_go_as_new_ones_come(ratings: RedisRatings, redis_server: LocalRedis) -> None:
    """Rule: an account's notes of applied matches are kept 30 days (a house bot's stay small) and a settled
    result lives as long; a note still kept still stops a second application."""
    from tienlen.store import redis_ratings as store

    account = secrets.token_hex(10)
    new = Rating.new().to_dict()
    now = 1_800_000_000.0
    ratings.clock = lambda: now
    assert ratings.apply(account, "old-match", 4, (1.0, 1.0), new)
    now += store.APPLIED_KEPT_S - 1
    assert not ratings.apply(account, "old-match", 4, (1.0, 1.0), new)
    now += 2
    assert ratings.apply(account, "new-match", 4, (1.0, 1.0), new)
    client = redis.Redis.from_url(redis_server.url)
    try:
        assert client.zrange(store.applied_key(account), 0, -1) == [b"new-match"]
        match_id = "m" + secrets.token_hex(10)
        ratings.settle(match_id, {"players": 4, "accounts": {}, "seats": {}})
        left: Any = client.ttl(store.result_key(match_id))
        assert 0 < left <= store.APPLIED_KEPT_S
    finally:
        client.close()
    assert ratings.ratings(account)[4]["games"] == 2
