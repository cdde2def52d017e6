"""Challenges: an account challenges named players to a match (for now, only the house bots, which accept at once).

``POST /v1/challenges`` with an account's token seats the challenger at seat 0 (its account bound to the seat)
and the named house bots in the other seats, each seat holding its bot's account, so that a ``rated`` match
moves every rating in it when it ends (:mod:`.rated`). Challenges between accounts are not available yet.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from ..engine import RulesError, resolve_rules
from ..store import MatchRecord, SeatRecord, StoreUnavailableError, new_match_id, new_token, token_digest
from .accounts import authorized
from .base import MAX_ATTEMPTS, ServiceBase
from .errors import InvalidRequest, PlayerNotFound
from .states import Created, SeatToken, match_state


class ChallengeMixin(ServiceBase):
    """Challenging the house bots (mixed into :class:`~.matches.MatchService`)."""

    def challenge(self, body: Mapping[str, Any], token: str | None) -> Created:
        """Start a match of the token's account (scope ``play``) against the house bots named in ``to``.

        ``to`` names 1 to ``players - 1`` house bots for seats 1, 2, ...; the
        last name fills the seats left. An unknown name is
        :class:`PlayerNotFound`; an account that is not a house bot, or more
        names than seats, :class:`InvalidRequest`. The match starts at once.
        """
        challenger = authorized(self.accounts, token, "play")
        players: int = body["players"]
        names: list[str] = list(body["to"])
        if len(names) > players - 1:
            raise InvalidRequest(
                f"a {players}-player match has room for {players - 1} challenged players",
                errors={"to": [f"at most {players - 1} names"]},
            )
        house = self.history.rated.house_bots()
        bots = []
        for name in names:
            level = name.lower()
            if level in house:
                bots.append(house[level])
                continue
            if self.accounts.find(name) is None:
                raise PlayerNotFound(f"no player is named {name!r}")
            raise InvalidRequest(
                f"{name!r} is not a house bot: challenges between accounts are not available yet",
                errors={"to": [f"{name}: not a house bot"]},
            )
        rules_in: dict[str, Any] = {} if body.get("preset") is None else {"preset": body["preset"]}
        try:
            rules = resolve_rules(rules_in, players=players)
        except RulesError as error:
            raise InvalidRequest(str(error), errors={"preset": [str(error)]}) from None
        made = new_token()
        seats = [SeatRecord(name=challenger.name, token_sha256=token_digest(made), account=challenger.account_id)]
        for index in range(1, players):
            bot = bots[min(index - 1, len(bots) - 1)]
            seats.append(SeatRecord(name=bot.name, bot=bot.name, account=bot.account_id))
        for _ in range(MAX_ATTEMPTS):
            record = MatchRecord(
                match_id=new_match_id(),
                version=0,
                seats=[SeatRecord.from_dict(s.to_dict()) for s in seats],
                rules=rules,
                seed=secrets.randbits(63),
                created_at=self.now(),
                takeover=body["takeover"],
                host=challenger.account_id,
                rated=body["rated"],
            )
            if self.add(record):
                return Created(record.match_id, (SeatToken(0, made),), match_state(record))
        raise StoreUnavailableError("could not store the new match")
