//! Hard's inner loops in Rust: playouts under Medium's policy and the judging of sampled hands.
//!
//! Mirrors `tienlen/bots/playouts.py` (`playout_value`, `estimated_place`, the loop of
//! `SimHand.run_until_first_out`) and `tienlen/bots/infer.py` (`medium_would`), with the move-to-front
//! of `sampling.DealChain._misses`. The Python bots are the reference; `tests/bots/test_bots_compiled.py`
//! checks both side by side, values, steps and work alike.

use crate::bombs::BombRule;
use crate::combo::{Combo, DECK, FIRST_TWO, SINGLE};
use crate::hand::{Event, HandState, MAX_SEATS};
use crate::legal::{answer_masks, bomb_answers};
use crate::medium::{decide_answer, decide_lead, plan_cost};
use crate::netplay::{NetPolicy, Sight};

/// `SimHand.run_until_first_out`'s bound on simulated actions.
const MAX_PLAYOUT_STEPS: usize = 400;

/// A seat's fewest cards among the others holding cards (99 when none do), as Medium counts it.
fn min_opponent(cards_left: &[u32], seat: usize) -> u32 {
    cards_left
        .iter()
        .enumerate()
        .filter(|&(s, &c)| s != seat && c > 0)
        .map(|(_, &c)| c)
        .min()
        .unwrap_or(99)
}

/// Medium's lead (`policy.policy_lead`): never an empty play while the hand holds cards.
pub fn policy_lead(
    hand: u64,
    cards_left: &[u32],
    seat: usize,
    rule: &BombRule,
    unseen: u64,
    start: Option<u32>,
) -> u64 {
    let lead = decide_lead(hand, unseen, rule, min_opponent(cards_left, seat), start);
    if lead != 0 {
        lead
    } else {
        hand & hand.wrapping_neg()
    }
}

/// Medium's answer to the table (`policy.policy_answer`; 0 = pass); `locked` seats may only bomb.
#[allow(clippy::too_many_arguments)] // the answer's inputs, as Python passes them
pub fn policy_answer(
    hand: u64,
    table: &Combo,
    table_seat: usize,
    cards_left: &[u32],
    seat: usize,
    rule: &BombRule,
    locked: bool,
    scratch: &mut Vec<u64>,
) -> u64 {
    let owner = cards_left[table_seat];
    let urgent = (0 < owner && owner <= 2) || cards_left.iter().enumerate().any(|(s, &c)| c == 1 && s != seat);
    scratch.clear();
    if locked {
        bomb_answers(hand, table, rule, scratch);
    } else {
        answer_masks(hand, table, rule, scratch);
    }
    decide_answer(hand, table, urgent, scratch)
}

/// The position Hard searches from: the table, locks and cards played, and whose place is scored.
pub struct Position {
    pub seat: usize,
    pub players: usize,
    pub table: Option<Combo>,
    pub table_seat: Option<usize>,
    pub locked: u32,
    pub played: u64,
    pub start_card: Option<u32>,
    pub rule: &'static BombRule,
    pub reentry_rule: bool,
    pub end_on_first_out: bool,
    pub first_bonus: f64,
}

impl Position {
    /// `estimated_place`: places so far, then the seats holding cards by plan cost, cards, the seat itself last.
    fn estimated_place(&self, sim: &HandState) -> usize {
        if let Some(place) = sim.places.iter().position(|&s| s == self.seat) {
            return place;
        }
        let mut holding: Vec<(f64, u32, bool, usize)> = (0..self.players)
            .filter(|&s| sim.hands[s] != 0 && !sim.places.contains(&s))
            .map(|s| (plan_cost(sim.hands[s]), sim.hands[s].count_ones(), s != self.seat, s))
            .collect();
        holding.sort_by(|a, b| {
            (a.0, a.1, a.2)
                .partial_cmp(&(b.0, b.1, b.2))
                .expect("plan costs are finite")
        });
        sim.places.len() + holding.iter().position(|h| h.3 == self.seat).unwrap_or(0)
    }

    /// `playout_value`: the seat's points after `mv` (0 = pass) and Medium play until a seat is out, and the
    /// simulated actions it took.
    /// With `own` the searching seat's later moves are its policy's (the network among Hard's candidates), not
    /// Medium's; `own` also holds the cards each seat played this hand before the position.
    pub fn playout_value(
        &self,
        hands: &[u64],
        mv: u64,
        events: &mut Vec<Event>,
        scratch: &mut Vec<u64>,
        mut own: Option<&mut OwnPolicy>,
    ) -> (f64, u32) {
        let mut dealt = [0u64; MAX_SEATS];
        dealt[..self.players].copy_from_slice(&hands[..self.players]);
        let mut sim = HandState {
            hands: dealt,
            players: self.players,
            turn: self.seat,
            table: self.table,
            table_seat: self.table_seat,
            locked: self.locked,
            start_card: self.start_card,
            places: Vec::with_capacity(MAX_SEATS),
            done: false,
            rule: self.rule,
            reentry_rule: self.reentry_rule,
            end_on_first_out: self.end_on_first_out,
        };
        let mut played = self.played;
        let mut played_by = own.as_ref().map_or([0; MAX_SEATS], |o| o.played_by);
        let mut own_moves = own.as_ref().map_or(0, |o| o.moves);
        events.clear();
        if mv == 0 {
            sim.pass_turn(events);
        } else {
            played |= mv;
            played_by[self.seat] |= mv;
            sim.play(mv, events);
        }
        let mut cards_left = [0u32; MAX_SEATS];
        for (count, hand) in cards_left.iter_mut().zip(&sim.hands) {
            *count = hand.count_ones();
        }
        let counts = &mut cards_left[..self.players];
        let mut steps = 0;
        for _ in 0..MAX_PLAYOUT_STEPS {
            if !sim.places.is_empty() || sim.done {
                break;
            }
            let seat = sim.turn;
            let hand = sim.hands[seat];
            let mut mv = match (sim.table, sim.table_seat) {
                (Some(table), Some(owner)) => {
                    let locked = sim.locked >> seat & 1 == 1;
                    policy_answer(hand, &table, owner, counts, seat, self.rule, locked, scratch)
                }
                _ => policy_lead(hand, counts, seat, self.rule, DECK & !hand & !played, sim.start_card),
            };
            if seat == self.seat && own_moves > 0 {
                own_moves -= 1;
                if let Some(policy) = own.as_deref_mut() {
                    let mut legal = std::mem::take(&mut policy.legal);
                    sim.legal(&mut legal);
                    let sight = Sight {
                        seat,
                        players: self.players,
                        hand,
                        played_by: &played_by,
                        cards_left: counts,
                        locked: sim.locked,
                        table: sim.table,
                        table_seat: sim.table_seat,
                        start_card: sim.start_card,
                    };
                    mv = policy.net.choose(&sight, &legal, mv);
                    policy.legal = legal;
                }
            }
            steps += 1;
            events.clear();
            if mv != 0 {
                counts[seat] -= mv.count_ones();
                played |= mv;
                played_by[seat] |= mv;
                sim.play(mv, events);
            } else {
                sim.pass_turn(events);
            }
        }
        let place = self.estimated_place(&sim);
        let points = (self.players - 1 - place) as f64 + if place == 0 { self.first_bonus } else { 0.0 };
        (points, steps)
    }
}

/// The searching seat's own policy in a playout: the network, and the cards each seat played this hand so far.
pub struct OwnPolicy {
    pub net: NetPolicy,
    pub played_by: [u64; MAX_SEATS],
    pub legal: Vec<u64>,
    /// How many of the seat's later moves a playout asks the network for (Medium's after them).
    pub moves: u32,
}

/// One action of another seat and the public state then (`infer.ActionEvent`).
#[derive(Clone, Debug)]
pub struct ActionEvent {
    pub seat: usize,
    pub table: Option<Combo>,
    pub table_seat: usize,
    pub locked: bool,
    pub later: u64,
    pub cards_left: [u32; MAX_SEATS],
    pub players: usize,
    pub action: u64,
    pub seen: u64,
}

impl ActionEvent {
    /// `infer.medium_would`: whether Medium holding `hand` (the seat's hand then) would have done this.
    pub fn medium_would(&self, hand: u64, rule: &BombRule, scratch: &mut Vec<u64>) -> bool {
        let counts = &self.cards_left[..self.players];
        match &self.table {
            None => policy_lead(hand, counts, self.seat, rule, DECK & !hand & !self.seen, None) == self.action,
            Some(table) => {
                if self.action == 0 && table.kind == SINGLE && table.top < FIRST_TWO && hand >> (table.top + 1) == 0 {
                    return true; // nothing to answer with: the pass was forced
                }
                let answer = policy_answer(
                    hand,
                    table,
                    self.table_seat,
                    counts,
                    self.seat,
                    rule,
                    self.locked,
                    scratch,
                );
                answer == self.action
            }
        }
    }
}

/// One seat's actions, judged against sampled hands; the action that refused the last hand comes first.
pub struct SeatActions {
    pub events: Vec<ActionEvent>,
}

impl SeatActions {
    /// `DealChain._misses` without its memo: how many actions Medium would not have chosen holding `hand`
    /// (stopping once past `limit`), whether the count is complete, and how many actions were judged.
    pub fn misses(&mut self, hand: u64, limit: u32, rule: &BombRule, scratch: &mut Vec<u64>) -> (u32, bool, u32) {
        let mut misses = 0;
        let mut work = 0;
        for index in 0..self.events.len() {
            let ev = &self.events[index];
            work += 1;
            if !ev.medium_would(hand | ev.later, rule, scratch) {
                misses += 1;
                if misses > limit {
                    if index > 0 {
                        let refused = self.events.remove(index);
                        self.events.insert(0, refused);
                    }
                    return (misses, false, work);
                }
            }
        }
        (misses, true, work)
    }
}
