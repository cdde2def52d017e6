"""Puzzles: positions from real endgames (the bank of :mod:`tienlen.bots.puzzles`), answered move by move.

A puzzle's position is perfect information by construction: only two seats hold cards, so every card the
solver has not seen is in the other seat's hand, and the position shows both hands. The solver answers its
moves one at a time (``step`` counts its moves, from 0); a move that is the line's (or, after the first move,
any other move that still forces the win) is correct, and the opponent replies by the solution; any other
legal move is wrong and ends the attempt, showing the right move. An illegal move is refused with the
engine's reason and changes nothing.

With an account's token (scope ``play``) an account has one rated attempt a puzzle: opened by its answer at
step 0, decided once (solved: won, a wrong move: lost), one openskill game between the account's puzzle rating
and the puzzle's (:mod:`.rating_model`). ``next`` gives an account the unattempted puzzle whose rating is
nearest its own; anonymous callers get a random one and move no rating.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import cache

from ..bots.endgame import forced_moves
from ..bots.puzzles import Puzzle, load_bank, puzzle_rules
from ..engine import Match, classify
from ..store.accounts import AccountRecord
from ..store.base import MatchStore
from .accounts import authorized
from .commands import Action, Pass
from .errors import InvalidRequest, PuzzleNotFound
from .rating_model import Rating, rate

WON, LOST = "won", "lost"
DIFFICULTY_SPREAD = 10.0  # the starting mu of the bank's hardest puzzle over its easiest one
RESULTS = ("correct", "solved", "wrong")
# The exact search of a move off the line: the bank's hardest first moves take 7,698 nodes (40 ms in pure Python);
# past this budget a move counts as not winning (it could not be shown to win).
SEARCH_NODES = 50_000


@dataclass(frozen=True, slots=True)
class PuzzleTable:
    """The battle on the table: the play to beat (a mask) and the seat that played it (it may be out)."""

    cards: int
    seat: int | None


@dataclass(frozen=True, slots=True)
class PuzzlePosition:
    """A puzzle as the solver's seat sees it (everything: perfect information) at the start."""

    id: str
    preset: str
    seat: int
    hand: int
    opponent_seat: int
    opponent: int
    opponent_count: int
    table: PuzzleTable | None
    locked: tuple[int, ...]
    out: tuple[int, ...]
    moves: int
    choices: int
    difficulty: int
    rating: int


@dataclass(frozen=True, slots=True)
class PuzzleAction:
    """A move of the line: ``play`` with its cards (a mask) or ``pass`` (no cards)."""

    type: str
    cards: int

    @classmethod
    def of(cls, mask: int) -> PuzzleAction:
        """The action of a line's mask (0: a pass)."""
        return cls("play" if mask else "pass", mask)


@dataclass(frozen=True, slots=True)
class MoveOutcome:
    """What one answer did: ``correct`` (``replies`` are the opponent's), ``solved`` or ``wrong`` (``answer``)."""

    result: str
    replies: tuple[PuzzleAction, ...]
    answer: PuzzleAction | None
    next_step: int | None
    rating: int | None


@dataclass(frozen=True, slots=True)
class PuzzleStats:
    """An account's puzzle rating and counts."""

    rating: int
    attempts: int
    solved: int
    failed: int
    open: int
    provisional: bool


@cache
def _bank() -> tuple[tuple[Puzzle, ...], dict[str, Puzzle], dict[str, Rating]]:
    """The bank, by id, and each puzzle's starting rating (harder puzzles start higher)."""
    bank = load_bank()
    ordered = sorted(range(len(bank)), key=lambda i: (bank[i].difficulty, i))
    start: dict[str, Rating] = {}
    fresh = Rating.new()
    for rank, i in enumerate(ordered):
        shift = DIFFICULTY_SPREAD * (rank / max(1, len(bank) - 1) - 0.5)
        start[bank[i].id] = Rating(fresh.mu + shift, fresh.sigma, 0)
    return bank, {p.id: p for p in bank}, start


def _rating(text: str | None, default: Rating) -> Rating:
    return default if text is None else Rating.from_dict(json.loads(text))


def puzzle_match(p: Puzzle) -> Match:
    """The engine's match standing at the puzzle's position (the empty seats are out)."""
    return Match(
        rules=puzzle_rules(p.preset),
        deal_seed=0,
        hand_number=1,
        hands=list(p.hands),
        turn=p.turn,
        table=classify(p.table) if p.table else None,
        table_seat=None if p.table_seat < 0 else p.table_seat,
        locked=p.locked,
        places=[s for s, h in enumerate(p.hands) if not h],
        scores=[0] * len(p.hands),
    )


def _apply(m: Match, seat: int, mask: int) -> None:
    if mask:
        m.play(seat, mask)
    else:
        m.pass_turn(seat)


class PuzzleService:
    """The puzzle bank, answered move by move, with puzzle ratings in the store."""

    def __init__(self, store: MatchStore, rng: random.Random | None = None) -> None:
        self.accounts = store.accounts()
        self.puzzles = store.puzzles()
        self.rng = rng or random.SystemRandom()

    def _account(self, token: str | None) -> AccountRecord | None:
        return None if token is None else authorized(self.accounts, token, "play")

    def _puzzle(self, puzzle_id: str) -> Puzzle:
        found = _bank()[1].get(puzzle_id)
        if found is None:
            raise PuzzleNotFound(f"no puzzle has the id {puzzle_id!r}")
        return found

    def _puzzle_rating(self, puzzle_id: str, stored: dict[str, str] | None = None) -> Rating:
        start = _bank()[2][puzzle_id]
        text = (stored if stored is not None else self.puzzles.puzzle_ratings()).get(puzzle_id)
        return _rating(text, start)

    def position(self, p: Puzzle, stored: dict[str, str] | None = None) -> PuzzlePosition:
        """The puzzle's starting position as its solver sees it, with the puzzle's rating."""
        n = len(p.hands)
        return PuzzlePosition(
            id=p.id,
            preset=p.preset,
            seat=p.turn,
            hand=p.hands[p.turn],
            opponent_seat=p.opponent,
            opponent=p.hands[p.opponent],
            opponent_count=p.hands[p.opponent].bit_count(),
            table=PuzzleTable(p.table, None if p.table_seat < 0 else p.table_seat) if p.table else None,
            locked=tuple(s for s in range(n) if p.locked >> s & 1 and p.hands[s]),
            out=tuple(s for s in range(n) if not p.hands[s]),
            moves=sum(1 for seat, _ in p.line if seat == p.turn),
            choices=p.choices,
            difficulty=p.difficulty,
            rating=self._puzzle_rating(p.id, stored).shown,
        )

    def next(self, token: str | None) -> PuzzlePosition:
        """An account's (scope ``play``) next puzzle: unattempted, rating nearest its own; anonymous: a random one."""
        bank, _by_id, _start = _bank()
        if not bank:
            raise PuzzleNotFound("the puzzle bank is empty: run make puzzles")
        account = self._account(token)
        stored = self.puzzles.puzzle_ratings()
        if account is None:
            return self.position(self.rng.choice(bank), stored)
        mine = _rating(self.puzzles.account_rating(account.account_id), Rating.new())
        tried = self.puzzles.attempts(account.account_id)
        fresh = [p for p in bank if p.id not in tried] or list(bank)
        best = min(fresh, key=lambda p: abs(self._puzzle_rating(p.id, stored).mu - mine.mu))
        return self.position(best, stored)

    def move(self, token: str | None, puzzle_id: str, step: int, action: Action) -> MoveOutcome:
        """Answer the solver's move number ``step`` (from 0) of the puzzle with ``action``.

        Refused, changing nothing: an unknown puzzle (:class:`PuzzleNotFound`), a step past the solver's moves
        (:class:`InvalidRequest`), a bad token, and an illegal action (the engine's reason).
        """
        p = self._puzzle(puzzle_id)
        mine = [i for i, (seat, _) in enumerate(p.line) if seat == p.turn]
        if not 0 <= step < len(mine):
            raise InvalidRequest(f"this puzzle's solver has moves 0 to {len(mine) - 1}, not {step}")
        m = puzzle_match(p)
        for seat, mask in p.line[: mine[step]]:
            _apply(m, seat, mask)
        if isinstance(action, Pass):
            m.verify_pass(p.turn)
            played = 0
        else:
            action.refuse()
            played = m.verify_play(p.turn, action.mask)
        account = self._account(token)
        if account is not None and step == 0:
            self.puzzles.open_attempt(account.account_id, p.id)
        index = mine[step]
        expected = p.line[index][1]
        if played != expected and (step == 0 or not self._still_wins(m, played)):
            rating = self._decide(account, p.id, LOST)
            return MoveOutcome("wrong", (), PuzzleAction.of(expected), None, rating)
        if played == m.hands[p.turn] or index == len(p.line) - 1:
            return MoveOutcome("solved", (), None, None, self._decide(account, p.id, WON))
        if played != expected:  # another move that forces the win too: the line cannot answer it; it is solved
            return MoveOutcome("solved", (), None, None, self._decide(account, p.id, WON))
        replies = tuple(PuzzleAction.of(mask) for _seat, mask in p.line[index + 1 : mine[step + 1]])
        return MoveOutcome("correct", replies, None, step + 1, None)

    def _still_wins(self, m: Match, played: int) -> bool:
        """Whether ``played`` (legal, by the seat on turn) keeps a forced win: the exact endgame search."""
        seat = m.turn
        assert seat is not None
        if played == m.hands[seat]:
            return True
        rules = m.rules
        found, _nodes = forced_moves(
            m.hands,
            seat,
            m.table,
            m.table_seat,
            m.locked,
            rules.bombs,
            rules.pass_reentry_with_bomb,
            node_limit=200_000,
        )
        return found.get(played) is True

    def _decide(self, account: AccountRecord | None, puzzle_id: str, result: str) -> int | None:
        """Decide the account's open attempt once and move both ratings.

        Answers the account's rating after (None: anonymous).
        """
        if account is None:
            return None
        before = _rating(self.puzzles.account_rating(account.account_id), Rating.new())
        if not self.puzzles.decide_attempt(account.account_id, puzzle_id, result):
            return before.shown
        puzzle = self._puzzle_rating(puzzle_id)
        won = result == WON
        after, puzzle_after = rate([(before, 1 if won else 2), (puzzle, 2 if won else 1)])
        self.puzzles.set_ratings(
            account.account_id, json.dumps(after.to_dict()), puzzle_id, json.dumps(puzzle_after.to_dict())
        )
        return after.shown

    def stats(self, token: str | None) -> PuzzleStats:
        """The account's (scope ``play``) puzzle rating and its attempts: solved, failed, still open."""
        account = authorized(self.accounts, token, "play")
        rating = _rating(self.puzzles.account_rating(account.account_id), Rating.new())
        results = list(self.puzzles.attempts(account.account_id).values())
        return PuzzleStats(
            rating=rating.shown,
            attempts=len(results),
            solved=results.count(WON),
            failed=results.count(LOST),
            open=len(results) - results.count(WON) - results.count(LOST),
            provisional=rating.provisional,
        )
