"""Refusals of the match service, in the game's own terms.

Each carries a machine-readable ``reason``; the HTTP layer maps every reason
to its status in one place. The engine's own refusals
(:class:`~tienlen.engine.IllegalActionError`) carry a ``reason`` the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ..wire import rfc3339


class ServiceError(Exception):
    """A refused request; nothing was changed. ``errors`` details which fields were wrong."""

    reason: ClassVar[str] = "invalid_request"

    def __init__(self, message: str, *, errors: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.errors = None if errors is None else dict(errors)


class InvalidRequest(ServiceError):
    """The request is well formed but not acceptable (rules, deal, seats)."""

    reason = "invalid_request"


class FixedDealNotPrivate(ServiceError):
    """A ``seed`` or ``deal`` for a match others can join (an open seat, listed): nobody chooses a public deal."""

    reason = "fixed_deal_not_private"


class InvalidToken(ServiceError):
    """No bearer token of a seat of this match was sent."""

    reason = "invalid_token"


class MatchNotFound(ServiceError):
    """No such match (never created, or expired)."""

    reason = "match_not_found"


class MatchFull(ServiceError):
    """No seat of the match is open."""

    reason = "match_full"


class MatchNotPlaying(ServiceError):
    """The match is waiting for seats or already over."""

    reason = "match_not_playing"


class StaleVersion(ServiceError):
    """The match is not at the version the request named, or kept changing under it."""

    reason = "stale_version"


class MatchNotWaiting(ServiceError):
    """Only a match still waiting for seats can be cancelled."""

    reason = "match_not_waiting"


class MatchNotFinished(ServiceError):
    """Rematches and replays are for finished matches."""

    reason = "match_not_finished"


class RematchCancelled(ServiceError):
    """The finished match's rematch was cancelled (or expired before its seats were claimed): it stays gone."""

    reason = "rematch_cancelled"


class IdempotencyKeyReused(ServiceError):
    """An ``Idempotency-Key`` already answered a request with another body."""

    reason = "idempotency_key_reused"


class NameTaken(ServiceError):
    """An account of that name (ignoring case) exists or existed, or the name is a house bot's."""

    reason = "name_taken"


class InvalidCredentials(ServiceError):
    """No account has that name and password (which of the two is wrong is not told)."""

    reason = "invalid_credentials"


class ScopeMissing(ServiceError):
    """The token is good but was not given the scope this call needs."""

    reason = "scope_missing"


class TokenNotFound(ServiceError):
    """The account has no personal token of that id (never made, or revoked)."""

    reason = "token_not_found"


class TooManyTokens(ServiceError):
    """The account holds as many personal tokens as ``TIENLEN_MAX_TOKENS`` allows: revoke one first."""

    reason = "too_many_tokens"


class Throttled(ServiceError):
    """A throttle refused the attempt (too many failures counted for the client): wait ``retry_after_s`` seconds.

    One answer for every throttle: 429 ``rate_limited`` with ``Retry-After``.
    """

    reason = "rate_limited"

    def __init__(self, message: str, *, retry_after_s: int) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


class LoginThrottled(Throttled):
    """Too many failed logins for the name or from the client's address: wait ``retry_after_s`` seconds."""


class AccountRequired(ServiceError):
    """This needs an account's token (hosting a match with open seats, on a server that asks for one)."""

    reason = "account_required"


class NotSeated(ServiceError):
    """The account's token is good, but the account holds no seat of this match."""

    reason = "not_seated"


class AlreadySeated(ServiceError):
    """The account already holds a seat of this match (one account, one seat)."""

    reason = "already_seated"


class RoomNotFound(ServiceError):
    """No live match has that room code."""

    reason = "room_not_found"


class PlayerNotFound(ServiceError):
    """No account has that name (never made, or deleted)."""

    reason = "player_not_found"


class LookupsThrottled(Throttled):
    """Too many lookups of unknown room codes from the client's address: wait ``retry_after_s`` seconds."""


class AlreadyQueued(ServiceError):
    """The account holds a quick-play ticket already (one at a time)."""

    reason = "already_queued"


class TicketNotFound(ServiceError):
    """No quick-play ticket of the token's account has that id (or it is long done)."""

    reason = "ticket_not_found"


class AlreadyMatched(ServiceError):
    """The quick-play ticket found its table already: it cannot leave the queue."""

    reason = "already_matched"


class ChallengeNotFound(ServiceError):
    """No such challenge (never made, closed long ago), or the asking account neither sent nor received it."""

    reason = "challenge_not_found"


class NotChallenged(ServiceError):
    """Only a challenged account accepts or declines a challenge."""

    reason = "not_challenged"


class NotHost(ServiceError):
    """Only the match's host (the account that made it; seat 0 when no account did) cancels it: others leave."""

    reason = "not_host"


class NotWatchable(ServiceError):
    """The match's host turned watching off: only its seats (their tokens, or their accounts') read it."""

    reason = "not_watchable"


class NotModerator(ServiceError):
    """The act is a moderator's: the request must carry the server's moderator token (``TIENLEN_MODERATOR_TOKEN``)."""

    reason = "not_moderator"


class NotChallenger(ServiceError):
    """Only the account that sent a challenge withdraws it."""

    reason = "not_challenger"


class ChallengeClosed(ServiceError):
    """The challenge is no longer pending: it started, or was declined, withdrawn or expired."""

    reason = "challenge_closed"


class ChallengeExpired(ServiceError):
    """The challenge was not accepted by everyone in time (``TIENLEN_CHALLENGE_EXPIRY_S``)."""

    reason = "challenge_expired"


class PlayerOffline(ServiceError):
    """A challenged account is not listening to its inbox (it has not in the last minute)."""

    reason = "player_offline"


class TooManyChallenges(ServiceError):
    """The sender, or a challenged account, has as many pending challenges as it may (``TIENLEN_MAX_CHALLENGES_*``)."""

    reason = "too_many_challenges"


class ChallengeRefused(ServiceError):
    """A challenged account does not take challenges of this kind (rated or casual: its settings)."""

    reason = "challenge_refused"


class TooManyFollowed(ServiceError):
    """The account follows as many others as it may (:data:`~tienlen.service.friends.MAX_FOLLOWED`)."""

    reason = "too_many_followed"


class NotSpectator(ServiceError):
    """A seat writes in its table's room, not in the spectators' (it reads both)."""

    reason = "not_spectator"


class ChatMuted(ServiceError):
    """A moderator muted the account's chat until ``until`` (epoch seconds)."""

    reason = "chat_muted"

    def __init__(self, message: str, *, until: float) -> None:
        super().__init__(message, errors={"until": rfc3339(until)})
        self.until = until


class Blocked(ServiceError):
    """One of the two accounts blocks the other: no challenge between them."""

    reason = "blocked"


class MessageNotFound(ServiceError):
    """No chat message of that number in the match (or it was removed, or the caller may not read it)."""

    reason = "message_not_found"


class ReportNotFound(ServiceError):
    """No open report has that id (never made, dismissed, or closed with its removed message)."""

    reason = "report_not_found"


class AlreadyReported(ServiceError):
    """The account reported this message already (one report per account and message)."""

    reason = "already_reported"


class BadTerms(ServiceError):
    """A tournament's terms are out of bounds or inconsistent (the message names the field)."""

    reason = "bad_terms"


class TournamentNotFound(ServiceError):
    """No such tournament (never created, or long over)."""

    reason = "tournament_not_found"


class TooManyTournaments(ServiceError):
    """The account has as many open tournaments as it may create (3): cancel one or wait for one to start."""

    reason = "too_many_tournaments"


class TournamentFull(ServiceError):
    """The tournament has ``max_entrants`` entrants."""

    reason = "tournament_full"


class TournamentNotOpen(ServiceError):
    """The tournament started (or is over): entries, withdrawals and cancelling are closed."""

    reason = "tournament_not_open"


class NotEntered(ServiceError):
    """The account did not enter the tournament (or withdrew already)."""

    reason = "not_entered"


class BotsNotAdmitted(ServiceError):
    """A bot account may not enter a tournament whose terms do not admit bots."""

    reason = "bots_not_admitted"


class NotCreator(ServiceError):
    """Only its creator cancels a tournament."""

    reason = "not_creator"


class PuzzleNotFound(ServiceError):
    """No puzzle of the bank has this id."""

    reason = "puzzle_not_found"
