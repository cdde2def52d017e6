"""What a request asks of a match, as typed values: the API's request schemas load into these (``post_load``).

The service never reads a wire dict: a play holds its cards as a mask, a new
match its rules resolved and its deal as masks. What the schema checked (the
shape, the rules, the deal, the seats) is not checked again; what only the
match can say (the turn, the version, whether the cards may be played, who
may host) is the service's.

Every request body that feeds a write loads into one (create, join, play or
pass, challenge, accept, enqueue, change of settings, a chat message, a report); a write without a body
(leave, rematch, cancel, decline, withdraw) has nothing to carry but the
match or challenge and the bearer, which the service takes as they are.

A play's cards that name no card, or a card twice, are refused by the match
in its own order (after the token, the turn and the version), as every other
illegal play: :attr:`Play.refusal` holds that refusal until then.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from .. import wire
from ..engine import DEFAULT_PRESET, IllegalActionError, RuleSet, cards_mask, format_mask
from ..store.records import Clock


@dataclass(frozen=True, slots=True)
class Play:
    """Play the cards of ``mask``; ``version``: refused unless the match is at it (``stale_version``).

    ``refusal`` (``unknown_card``, ``duplicate_cards``): the cards as sent could not be read; the play is refused
    with it once the turn and version are checked.
    """

    mask: int
    version: int | None = None
    refusal: tuple[str, str] | None = None

    @classmethod
    def of(cls, cards: list[str], version: int | None = None) -> Play:
        """The play of cards in wire notation (any case, ``T`` or ``10``, suit symbols)."""
        try:
            return cls(cards_mask(cards), version)
        except IllegalActionError as error:
            return cls(0, version, (error.reason, str(error)))

    def refuse(self) -> None:
        """Raise the refusal of cards that could not be read, if any."""
        if self.refusal is not None:
            raise IllegalActionError(*self.refusal)

    @property
    def digest(self) -> str:
        """The action's digest, as an ``Idempotency-Key`` is bound to it."""
        cards = format_mask(self.mask) if self.refusal is None else [self.refusal[1]]
        return _digest({"type": "play", "cards": cards, "version": self.version})


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass; ``version``: refused unless the match is at it (``stale_version``)."""

    version: int | None = None

    @property
    def digest(self) -> str:
        """The action's digest, as an ``Idempotency-Key`` is bound to it."""
        return _digest({"type": "pass", "version": self.version})


Action = Play | Pass
"""What a seat does on its turn."""


@dataclass(frozen=True, slots=True)
class RemoteSeat:
    """A seat played through the API, answered with a token; ``entropy`` is its part of the fair deal."""

    name: str
    entropy: str = ""


@dataclass(frozen=True, slots=True)
class BotSeat:
    """A seat played by a server bot of level ``bot``."""

    name: str
    bot: str


@dataclass(frozen=True, slots=True)
class OpenSeat:
    """A seat filled later by a join."""


Seat = RemoteSeat | BotSeat | OpenSeat
"""A seat of a new match."""


@dataclass(frozen=True, slots=True)
class Create:
    """A new match: its seats (at least one not a bot), rules (for as many players as seats), an optional fixed
    ``seed`` or first ``deal`` (masks, one a seat), turn ``clock``, ``takeover`` bot, lobby listing, and whether
    others may watch it (``watchable``)."""

    seats: tuple[Seat, ...]
    rules: RuleSet
    seed: int | None = None
    deal: tuple[int, ...] | None = None
    clock: Clock | None = None
    takeover: str = "medium"
    listed: bool = False
    watchable: bool = True

    @property
    def fixed(self) -> bool:
        """Whether the creator fixed the deal (a seed or a deal)."""
        return self.seed is not None or self.deal is not None

    @property
    def joinable(self) -> bool:
        """Whether others may join the match: an open seat, or listed in the lobby."""
        return self.listed or any(isinstance(seat, OpenSeat) for seat in self.seats)

    @property
    def digest(self) -> str:
        """The command's digest, as an ``Idempotency-Key`` is bound to it."""
        canonical: dict[str, object] = {
            "seats": [_seat(seat) for seat in self.seats],
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "deal": None if self.deal is None else list(self.deal),
            "clock": None if self.clock is None else self.clock.to_dict(),
            "takeover": self.takeover,
            "listed": self.listed,
        }
        if not self.watchable:  # only when off: the digests of keys kept before the option stay the same
            canonical["watchable"] = False
        return _digest(canonical)


@dataclass(frozen=True, slots=True)
class Join:
    """Take the lowest open seat under ``name`` (an account's token names it instead), adding ``entropy``."""

    name: str | None = None
    entropy: str = ""


@dataclass(frozen=True, slots=True)
class Challenge:
    """Challenge the players named in ``to`` (accounts, house bots) to a match of ``players`` seats with ``preset``,
    ``rated`` or not; ``takeover`` plays a seat whose player leaves; ``entropy`` is the challenger's part of the
    fair deal. Whether the preset takes that many players is the service's to say."""

    to: tuple[str, ...]
    players: int
    preset: str = DEFAULT_PRESET
    rated: bool = False
    takeover: str = "medium"
    entropy: str = ""


@dataclass(frozen=True, slots=True)
class Accept:
    """Accept a challenge, adding ``entropy`` to its match's fair deal."""

    entropy: str = ""


@dataclass(frozen=True, slots=True)
class Enqueue:
    """Queue for a table of ``players`` with ``preset``, ``rated`` or not, adding ``entropy`` to its fair deal."""

    players: int = 4
    preset: str = DEFAULT_PRESET
    rated: bool = True
    entropy: str = ""


@dataclass(frozen=True, slots=True)
class ChangeSettings:
    """Change which challenges an account takes (``rated``, ``casual``) and whether it hears of the matches of those
    it follows (``friends``); None: as it is."""

    rated: bool | None = None
    casual: bool | None = None
    friends: bool | None = None


@dataclass(frozen=True, slots=True)
class Say:
    """Say something in a match's chat ``room`` (``table`` or ``spectators``): ``text`` (1-200 characters,
    trimmed, no control characters) or a quick ``phrase``'s id (:data:`~.phrases.CHAT_PHRASES`), exactly one."""

    room: str
    text: str | None = None
    phrase: str | None = None


@dataclass(frozen=True, slots=True)
class Report:
    """Report a chat message to the moderators, with an optional ``why`` (up to 200 characters)."""

    why: str | None = None


def _seat(seat: Seat) -> dict[str, str | bool]:
    if isinstance(seat, RemoteSeat):
        return {"name": seat.name, "entropy": seat.entropy}
    if isinstance(seat, BotSeat):
        return {"name": seat.name, "bot": seat.bot}
    return {"open": True}


def _digest(canonical: dict[str, object]) -> str:
    """The SHA-256 of a command's canonical form (keys sorted)."""
    return hashlib.sha256(wire.dumps(dict(sorted(canonical.items())))).hexdigest()
