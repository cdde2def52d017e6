//! Hard's exact endgame search in Rust: can the seat force going out first on one known deal?
//!
//! Mirrors `tienlen/bots/endgame.py` (`ForcedWinSearch`): the same moves in the same order, the same memo,
//! the same node count, so the same answers and work whenever the node limit, not the clock, ends it.
//! `tests/bots/test_bots_compiled.py` checks it.

use std::time::Instant;

use crate::bombs::BombRule;
use crate::combo::Combo;
use crate::hand::{Event, HandState, MAX_SEATS};
use crate::legal::{answer_masks, bomb_answers, lead_masks};
use crate::medium::IntMap;

/// `endgame.DEADLINE_CHECK`: the clock is read once every 256 nodes.
const DEADLINE_CHECK: u32 = 255;

/// The search ran out of nodes or time.
struct OutOfBudget;

type Key = ([u64; MAX_SEATS], u64);

/// A paranoid AND-OR search of one perfect-information deal for seat `me` going out first.
pub struct ForcedWin {
    me: usize,
    node_limit: u32,
    deadline: Option<Instant>,
    pub nodes: u32,
    memo: IntMap<Key, bool>,
    events: Vec<Event>,
}

fn key(state: &HandState) -> Key {
    let table = state.table.map_or(0, |t| t.mask);
    let owner = state.table_seat.map_or(0, |s| s as u64 + 1);
    (
        state.hands,
        table | (state.turn as u64) << 52 | owner << 55 | (state.locked as u64) << 58,
    )
}

impl ForcedWin {
    pub fn new(me: usize, node_limit: u32, deadline: Option<Instant>) -> ForcedWin {
        ForcedWin {
            me,
            node_limit,
            deadline,
            nodes: 0,
            memo: IntMap::default(),
            events: Vec::with_capacity(4),
        }
    }

    /// The legal moves of the seat on turn (0 = pass): leads most cards first, answers highest first, a pass last.
    fn moves(state: &HandState) -> Vec<u64> {
        let hand = state.hands[state.turn];
        let mut out = Vec::with_capacity(32);
        match &state.table {
            None => {
                lead_masks(hand, &mut out);
                out.sort_unstable_by_key(|&m| (std::cmp::Reverse(m.count_ones()), std::cmp::Reverse(m)));
            }
            Some(table) => {
                answers(hand, table, state.rule, state.locked >> state.turn & 1 == 1, &mut out);
                out.sort_unstable_by_key(|&m| std::cmp::Reverse(m));
                out.push(0);
            }
        }
        out
    }

    /// The position after the seat on turn makes `mv` (it must not go out with it).
    fn after(&mut self, state: &HandState, mv: u64) -> HandState {
        let mut next = state.clone();
        self.events.clear();
        if mv == 0 {
            next.pass_turn(&mut self.events);
        } else {
            next.play(mv, &mut self.events);
        }
        next
    }

    /// Whether `me` goes out first from this position against every defence.
    fn wins(&mut self, state: &HandState) -> Result<bool, OutOfBudget> {
        let k = key(state);
        if let Some(&found) = self.memo.get(&k) {
            return Ok(found);
        }
        self.nodes += 1;
        if self.nodes > self.node_limit {
            return Err(OutOfBudget);
        }
        if self.nodes & DEADLINE_CHECK == 0 && self.deadline.map_or(false, |d| Instant::now() > d) {
            return Err(OutOfBudget);
        }
        let hand = state.hands[state.turn];
        let moves = ForcedWin::moves(state);
        let mine = state.turn == self.me;
        let result = if moves.contains(&hand) {
            mine
        } else {
            let mut result = !mine; // any() of nothing is false, all() of nothing true
            for &mv in &moves {
                let next = self.after(state, mv);
                if self.wins(&next)? == mine {
                    result = mine;
                    break;
                }
            }
            result
        };
        self.memo.insert(k, result);
        Ok(result)
    }

    /// For each move of `me` (on turn), in the order searched: Some(forces a first place), None when unknown.
    pub fn root(&mut self, state: &HandState) -> Vec<(u64, Option<bool>)> {
        let hand = state.hands[state.turn];
        let mut exhausted = false;
        let mut out = Vec::new();
        for mv in ForcedWin::moves(state) {
            let result = if mv == hand {
                Some(true)
            } else if exhausted {
                None
            } else {
                let next = self.after(state, mv);
                match self.wins(&next) {
                    Ok(wins) => Some(wins),
                    Err(OutOfBudget) => {
                        exhausted = true;
                        None
                    }
                }
            };
            out.push((mv, result));
        }
        out
    }
}

/// `policy.legal_answers`: only bombs for a pass-locked seat.
fn answers(hand: u64, table: &Combo, rule: &BombRule, locked: bool, out: &mut Vec<u64>) {
    if locked {
        bomb_answers(hand, table, rule, out);
    } else {
        answer_masks(hand, table, rule, out);
    }
}
