//! The flow of one hand (docs/rules.md §5): plays, passes, pass locks, bomb re-entry, battles won, going out.
//!
//! Mirrors `Match.play` / `Match.pass_turn` / `Match._advance` of `match.py` and `turns.py`; the match's
//! scoring and hands after the first stay in Python.

use crate::bombs::BombRule;
use crate::combo::{beats_ordinarily, classify, Combo};
use crate::legal::legal_masks;

pub const MAX_SEATS: usize = 4;

/// What an accepted action did, in order (the engine's in-hand events).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    Played {
        seat: usize,
        mask: u64,
        kind: u8,
        bomb: bool,
    },
    Passed {
        seat: usize,
    },
    TableCleared {
        leader: usize,
    },
    WentOut {
        seat: usize,
        place: usize,
    },
}

/// The state of one hand in play.
#[derive(Clone, Debug)]
pub struct HandState {
    pub hands: [u64; MAX_SEATS],
    pub players: usize,
    /// The seat on turn; meaningless once `done`.
    pub turn: usize,
    pub table: Option<Combo>,
    pub table_seat: Option<usize>,
    /// A bit per pass-locked seat.
    pub locked: u32,
    pub start_card: Option<u32>,
    pub places: Vec<usize>,
    pub done: bool,
    pub rule: &'static BombRule,
    pub reentry_rule: bool,
    pub end_on_first_out: bool,
}

impl HandState {
    /// The legal plays of the seat on turn, into `out` (cleared first).
    #[inline]
    pub fn legal(&self, out: &mut Vec<u64>) {
        out.clear();
        if self.done {
            return;
        }
        let locked = self.locked >> self.turn & 1 == 1;
        legal_masks(
            self.hands[self.turn],
            self.table.as_ref(),
            self.rule,
            locked,
            self.start_card,
            out,
        );
    }

    /// The seat on turn plays these cards (assumed legal: callers check against [`HandState::legal`]).
    pub fn play(&mut self, mask: u64, events: &mut Vec<Event>) {
        let seat = self.turn;
        let combo = classify(mask).expect("a legal play is a combination");
        let bomb = match &self.table {
            Some(table) => !beats_ordinarily(&combo, table) && self.rule.bomb_beats(&combo, table),
            None => false,
        };
        self.hands[seat] ^= mask;
        self.locked &= !(1 << seat);
        self.table = Some(combo);
        self.table_seat = Some(seat);
        self.start_card = None;
        events.push(Event::Played {
            seat,
            mask,
            kind: combo.kind,
            bomb,
        });
        if self.hands[seat] == 0 {
            self.places.push(seat);
            events.push(Event::WentOut {
                seat,
                place: self.places.len(),
            });
            if self.place_rest(seat, events) {
                return;
            }
        }
        self.advance(seat, events);
    }

    /// The seat on turn passes and is locked out of the battle (assumed allowed: a table to pass on).
    pub fn pass_turn(&mut self, events: &mut Vec<Event>) {
        let seat = self.turn;
        self.locked |= 1 << seat;
        events.push(Event::Passed { seat });
        self.advance(seat, events);
    }

    /// `places_after_going_out`: place the rest at once when the hand ends; whether it ended.
    fn place_rest(&mut self, seat: usize, events: &mut Vec<Event>) -> bool {
        let n = self.players;
        let mut holding: Vec<usize> = (0..n).filter(|&s| self.hands[s] != 0).collect();
        if self.end_on_first_out {
            let hands = self.hands;
            holding.sort_by_key(|&s| (hands[s].count_ones(), (s + n - seat) % n));
        } else if holding.len() != 1 {
            return false;
        }
        for s in holding {
            self.places.push(s);
            events.push(Event::WentOut {
                seat: s,
                place: self.places.len(),
            });
        }
        self.done = true;
        self.table = None;
        self.table_seat = None;
        self.locked = 0;
        true
    }

    /// Pass the turn clockwise from `seat` (`next_to_act`); a battle won clears the table.
    fn advance(&mut self, seat: usize, events: &mut Vec<Event>) {
        let n = self.players;
        let mut reentry: Option<bool> = None;
        for step in 1..=n {
            let mut next = (seat + step) % n;
            if Some(next) == self.table_seat {
                while self.hands[next] == 0 {
                    next = (next + 1) % n;
                }
                self.turn = next;
                self.table = None;
                self.table_seat = None;
                self.locked = 0;
                events.push(Event::TableCleared { leader: next });
                return;
            }
            if self.hands[next] == 0 {
                continue;
            }
            if self.locked >> next & 1 == 1 {
                let may = *reentry.get_or_insert_with(|| self.rule.may_reenter(self.table.as_ref(), self.reentry_rule));
                if !may {
                    continue;
                }
            }
            self.turn = next;
            return;
        }
        panic!("the turn went round without reaching the table's owner");
    }
}
