"""Puzzles from real endgames: mined from seeded self-play of the house bots, solved exactly.

A puzzle is a position of a 4-seat hand where exactly two seats still hold
cards, so every card the seat on turn has not seen is in the other seat's hand:
perfect information. The seat on turn (the solver) has a choice, cannot go out
at once, and EXACTLY ONE of its actions forces it out before the other seat
whatever that seat does (:class:`~.endgame.ForcedWinSearch`'s question, which
with two seats left is exact, not paranoid). The puzzle keeps the winning line:
the solver's moves (the quickest forced win) and the opponent's best defence
(the reply that puts the solver's going out off longest).

``make puzzles`` (:func:`main`) writes a deterministic bank: the same seed, the
same puzzles in the same order, as masks (bit ``i`` = card ``i`` of
:data:`~tienlen.engine.cards.CARDS`), not card names, to keep the file small.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from ..engine.match import Match
from ..engine.rules import RuleSet, resolve_rules
from ..engine.views import seat_view
from .deal_set import deal_seed
from .driver import bot_rng, choose
from .endgame import ForcedWinSearch, OutOfBudget, State, forced_moves
from .policy import classify_cached

BANK_PATH = Path(__file__).with_name("puzzles.json")
BANK_FORMAT = 1
PLAYERS = 4
PRESETS: tuple[str, ...] = ("standard", "classic")
# The house bots of the self-play, one line-up a deal in turn (no search: fast and reproducible).
LINEUPS: tuple[tuple[str, ...], ...] = (
    ("medium", "medium", "medium", "medium"),
    ("easy", "medium", "easy", "medium"),
    ("medium", "easy", "medium", "easy"),
    ("easy", "easy", "easy", "easy"),
)
NODE_LIMIT = 200_000  # a position the compiled search cannot finish in this many nodes is skipped
LINE_NODE_LIMIT = 200_000
DEFAULT_SEED = 44
DEFAULT_DEALS = 2400


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One puzzle: a perfect-information position, its one winning first move and the winning line.

    ``hands`` holds all four seats' masks (two of them empty: those seats are
    out); ``table`` is the mask on the table (0: the solver leads), ``table_seat``
    its owner (-1: none; it may be a seat already out), ``locked`` the pass locks
    as a bit mask of seats. ``line`` is the solution, ``(seat, mask)`` steps with
    0 for a pass, from the solver's first move to its last card; ``choices`` is
    the number of the solver's legal first actions (a pass counts).
    """

    id: str
    preset: str
    hands: tuple[int, ...]
    turn: int
    table: int
    table_seat: int
    locked: int
    line: tuple[tuple[int, int], ...]
    choices: int

    @property
    def opponent(self) -> int:
        """The other seat still holding cards."""
        return next(s for s, h in enumerate(self.hands) if h and s != self.turn)

    @property
    def difficulty(self) -> int:
        """The solver's moves in the line times the legal first actions: longer lines, more choices, harder."""
        mine = sum(1 for seat, _ in self.line if seat == self.turn)
        return mine * self.choices

    def state(self) -> State:
        """The position as :mod:`.endgame` searches it."""
        table = classify_cached(self.table) if self.table else None
        seat = None if self.table_seat < 0 else self.table_seat
        return self.hands, self.turn, table, seat, self.locked

    def to_json(self) -> dict[str, Any]:
        """The bank's row: short keys, masks as integers."""
        return {
            "id": self.id,
            "preset": self.preset,
            "hands": list(self.hands),
            "turn": self.turn,
            "table": self.table,
            "table_seat": self.table_seat,
            "locked": self.locked,
            "line": [list(step) for step in self.line],
            "choices": self.choices,
        }

    @classmethod
    def from_json(cls, row: dict[str, Any]) -> Puzzle:
        """A puzzle from its bank row."""
        return cls(
            id=str(row["id"]),
            preset=str(row["preset"]),
            hands=tuple(int(h) for h in row["hands"]),
            turn=int(row["turn"]),
            table=int(row["table"]),
            table_seat=int(row["table_seat"]),
            locked=int(row["locked"]),
            line=tuple((int(s), int(m)) for s, m in row["line"]),
            choices=int(row["choices"]),
        )


def position_id(preset: str, hands: Sequence[int], turn: int, table: int, table_seat: int, locked: int) -> str:
    """A digest of the position: the same position always has the same id, and the id reveals no card."""
    text = f"tienlen-puzzle:{preset}:{','.join(map(str, hands))}:{turn}:{table}:{table_seat}:{locked}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def puzzle_rules(preset: str) -> RuleSet:
    """The rule set a puzzle of this preset is played under (one hand, four seats)."""
    return resolve_rules({"preset": preset, "hands": 1}, players=PLAYERS)


class _LineSearch(ForcedWinSearch):
    """The forced-win search with the distance to the win: the quickest win, the longest defence."""

    def __init__(self, me: int, rules: RuleSet) -> None:
        super().__init__(me, rules.bombs, rules.pass_reentry_with_bomb, LINE_NODE_LIMIT)
        self.distance: dict[tuple[Any, ...], int] = {}

    def _key(self, state: State) -> tuple[Any, ...]:
        hands, turn, table, table_seat, locked = state
        return hands, turn, 0 if table is None else table.mask, -1 if table_seat is None else table_seat, locked

    def plies(self, state: State) -> int:
        """Plies until ``me`` goes out from a won position: ``me`` hurries, the opponent delays."""
        key = self._key(state)
        found = self.distance.get(key)
        if found is not None:
            return found
        hand = state[0][state[1]]
        moves = self.moves(state)
        if hand in moves:
            result = 1
        elif state[1] == self.me:
            result = 1 + min(self.plies(self.after(state, m)) for m in moves if self.wins(self.after(state, m)))
        else:
            result = 1 + max(self.plies(self.after(state, m)) for m in moves)
        self.distance[key] = result
        return result

    def line(self, state: State) -> list[tuple[int, int]]:
        """The winning line from a won position with ``me`` on turn: (seat, mask) steps, 0 = pass."""
        steps: list[tuple[int, int]] = []
        while True:
            hand = state[0][state[1]]
            moves = self.moves(state)
            seat = state[1]
            if seat == self.me and hand in moves:
                steps.append((seat, hand))
                return steps
            if seat == self.me:
                winning = [m for m in moves if self.wins(self.after(state, m))]
                move = min(winning, key=lambda m: self.plies(self.after(state, m)))
            else:
                move = max(moves, key=lambda m: self.plies(self.after(state, m)))
            steps.append((seat, move))
            state = self.after(state, move)


def solve(preset: str, state: State) -> Puzzle | None:
    """The puzzle of this position, or None: not exactly one winning first action, trivial, or too big."""
    hands, turn, table, table_seat, locked = state
    rules = puzzle_rules(preset)
    hand = hands[turn]
    try:
        found, _nodes = forced_moves(
            hands, turn, table, table_seat, locked, rules.bombs, rules.pass_reentry_with_bomb, node_limit=NODE_LIMIT
        )
    except OutOfBudget:  # pragma: no cover - forced_moves reports a budget as None
        return None
    if len(found) < 2 or hand in found or any(v is None for v in found.values()):
        return None
    winners = [m for m, won in found.items() if won]
    if len(winners) != 1:
        return None
    search = _LineSearch(turn, rules)
    try:
        line = search.line(state)
    except OutOfBudget:
        return None
    if line[0][1] != winners[0]:  # the exact searches must agree on the one winning move
        raise AssertionError("the line's first move is not the winning move")
    table_mask = 0 if table is None else table.mask
    seat = -1 if table_seat is None else table_seat
    return Puzzle(
        id=position_id(preset, hands, turn, table_mask, seat, locked),
        preset=preset,
        hands=tuple(hands),
        turn=turn,
        table=table_mask,
        table_seat=seat,
        locked=locked,
        line=tuple(line),
        choices=len(found),
    )


def _endgame_state(match: Match) -> State | None:
    """The position if exactly two seats hold cards and the seat on turn has a choice, else None."""
    if match.turn is None or sum(1 for h in match.hands if h) != 2:
        return None
    if len(match.legal_masks()) + (match.table is not None) < 2:
        return None
    return tuple(match.hands), match.turn, match.table, match.table_seat, match.locked


def mine_deal(seed: int, deal: int) -> list[Puzzle]:
    """Every puzzle of one self-play deal of the house bots, in the order they arose."""
    preset = PRESETS[deal % len(PRESETS)]
    lineup = LINEUPS[deal % len(LINEUPS)]
    match, _ = Match.new(puzzle_rules(preset), random.Random(deal_seed(seed, deal)))
    found: list[Puzzle] = []
    while match.outcome is None and match.turn is not None:
        seat = match.turn
        state = _endgame_state(match)
        if state is not None:
            puzzle = solve(preset, state)
            if puzzle is not None:
                found.append(puzzle)
        view, legal = seat_view(match, seat), match.legal_plays()
        action = choose(lineup[seat], view, legal, bot_rng(match, seat))
        if action.is_pass:
            match.pass_turn(seat)
        else:
            match.play(seat, action.mask)
    return found


def _mine_args(args: tuple[int, int]) -> list[Puzzle]:
    return mine_deal(*args)


def mine(seed: int, deals: int, processes: int = 1) -> Iterator[Puzzle]:
    """The puzzles of deals ``0..deals-1`` of the seed, in deal order, each position once."""
    seen: set[str] = set()
    jobs = [(seed, d) for d in range(deals)]
    if processes > 1:
        with Pool(processes) as pool:
            batches = list(pool.imap(_mine_args, jobs, chunksize=8))
    else:
        batches = [mine_deal(*job) for job in jobs]
    for batch in batches:
        for puzzle in batch:
            if puzzle.id not in seen:
                seen.add(puzzle.id)
                yield puzzle


def load_bank(path: Path = BANK_PATH) -> tuple[Puzzle, ...]:
    """The stored bank's puzzles (empty when there is no bank file)."""
    if not path.exists():
        return ()
    data = json.loads(path.read_text())
    return tuple(Puzzle.from_json(row) for row in data["puzzles"])


def bank_document(puzzles: Sequence[Puzzle], seed: int, deals: int) -> dict[str, Any]:
    """The bank file's content: how it was mined, then the puzzles."""
    return {
        "format": BANK_FORMAT,
        "seed": seed,
        "deals": deals,
        "presets": list(PRESETS),
        "lineups": [list(lineup) for lineup in LINEUPS],
        "puzzles": [p.to_json() for p in puzzles],
    }


def main(argv: Sequence[str] | None = None) -> int:
    """``make puzzles``: mine the bank, write it, print a summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--deals", type=int, default=DEFAULT_DEALS)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--out", type=Path, default=BANK_PATH)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    puzzles = list(mine(args.seed, args.deals, args.processes))
    seconds = time.perf_counter() - started
    text = json.dumps(bank_document(puzzles, args.seed, args.deals), separators=(",", ":"))
    args.out.write_text(text + "\n")
    by_preset = {p: sum(1 for z in puzzles if z.preset == p) for p in PRESETS}
    lengths = sorted(len(z.line) for z in puzzles)
    median = lengths[len(lengths) // 2] if lengths else 0
    print(
        f"{len(puzzles)} puzzles from {args.deals} deals (seed {args.seed}) in {seconds:.1f} s "
        f"on {args.processes} processes; by preset {by_preset}; line length median {median}, "
        f"max {lengths[-1] if lengths else 0}; {len(text) // 1024} KiB -> {args.out}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
