"""Ratings from finishing places: openskill's Plackett–Luce model, one rating per account per table size.

A rating is a belief about a player's skill, ``mu`` with an uncertainty
``sigma``; it is shown as one number, :attr:`Rating.shown`: the ordinal
``mu - 3 sigma`` (a skill the player very probably has) scaled so that a new
player starts at :data:`START` and a place's worth of skill is a few dozen
points. The first :data:`PROVISIONAL_GAMES` games of a table size are
provisional. Only rated matches move ratings; a rated match's players are
ranked by their final places (seats sharing a place share a rank).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from openskill.models import PlackettLuce

START = 1500  # what a new player's rating shows
SCALE = 40  # shown points per unit of openskill's ordinal
PROVISIONAL_GAMES = 10
TABLE_SIZES = (2, 3, 4)


@cache
def _model() -> PlackettLuce:
    return PlackettLuce()


@dataclass(frozen=True, slots=True)
class Rating:
    """One account's rating at one table size: the model's ``mu`` and ``sigma``, and the rated games behind it."""

    mu: float
    sigma: float
    games: int = 0

    @classmethod
    def new(cls) -> Rating:
        """The rating of a player with no rated game yet."""
        model = _model()
        return cls(model.mu, model.sigma, 0)

    @property
    def shown(self) -> int:
        """The rating as one number: the ordinal ``mu - 3 sigma``, scaled, from :data:`START` for a new player."""
        return round(START + SCALE * (self.mu - 3 * self.sigma))

    @property
    def provisional(self) -> bool:
        """Fewer than :data:`PROVISIONAL_GAMES` rated games at this table size."""
        return self.games < PROVISIONAL_GAMES

    def to_dict(self) -> dict[str, float | int]:
        """JSON-able form, as stored."""
        return {"mu": self.mu, "sigma": self.sigma, "games": self.games}

    @classmethod
    def from_dict(cls, data: dict[str, float | int]) -> Rating:
        """Rebuild from :meth:`to_dict`."""
        return cls(float(data["mu"]), float(data["sigma"]), int(data["games"]))


def rate(players: Sequence[tuple[Rating, int]]) -> list[Rating]:
    """The ratings after one rated match, from each player's rating before it and final place (1 = first).

    Players sharing a place share a rank. Each comes out with one more game.
    """
    if len(players) < 2:
        raise ValueError("a rated match has at least two rated players")
    model = _model()
    teams = [[model.rating(mu=rating.mu, sigma=rating.sigma)] for rating, _place in players]
    rated = model.rate(teams, ranks=[float(place) for _rating, place in players])
    return [
        Rating(team[0].mu, team[0].sigma, before.games + 1)
        for team, (before, _place) in zip(rated, players, strict=True)
    ]
