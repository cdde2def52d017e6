//! Random self-play of whole hands in Rust: the speed of the compiled core without Python in the loop.
//!
//! Each hand is a match's first hand (the start-card rule applies) dealt from this module's own generator
//! (not Python's `random`: these hands are for speed and statistics, not for reproducing a server deal).
//! Each seat picks uniformly among its legal plays and, when there is a table, a pass — as `bench/engine.py`
//! does with the Python engine.

use crate::bombs::BombRule;
use crate::hand::{Event, HandState, MAX_SEATS};

/// A small, fast generator (wyrand).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    #[inline]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0xa076_1d64_78bd_642f);
        let t = (self.0 as u128).wrapping_mul((self.0 ^ 0xe703_7ed1_a0b4_28db) as u128);
        ((t >> 64) ^ t) as u64
    }

    /// A number in `0..n` (n > 0).
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next() as u128 * n as u128) >> 64) as u64
    }
}

/// Thirteen shuffled cards a seat for `players` seats.
pub fn deal(rng: &mut Rng, players: usize) -> [u64; MAX_SEATS] {
    let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
    for i in (1..52).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        deck.swap(i, j);
    }
    let mut hands = [0u64; MAX_SEATS];
    for (seat, hand) in hands.iter_mut().enumerate().take(players) {
        for &card in &deck[13 * seat..13 * seat + 13] {
            *hand |= 1 << card;
        }
    }
    hands
}

/// A match's first hand: the seat holding the lowest card dealt leads, with that card if the rule says so.
pub fn first_hand(
    hands: [u64; MAX_SEATS],
    players: usize,
    rule: &'static BombRule,
    reentry_rule: bool,
    start_card_rule: bool,
    end_on_first_out: bool,
) -> HandState {
    let dealt = hands[..players].iter().fold(0, |a, h| a | h);
    let lowest = dealt.trailing_zeros();
    let leader = (0..players).find(|&s| hands[s] >> lowest & 1 == 1).unwrap_or(0);
    HandState {
        hands,
        players,
        turn: leader,
        table: None,
        table_seat: None,
        locked: 0,
        start_card: if start_card_rule { Some(lowest) } else { None },
        places: Vec::with_capacity(MAX_SEATS),
        done: false,
        rule,
        reentry_rule,
        end_on_first_out,
    }
}

/// Play `count` random hands; return (hands played, actions taken).
pub fn random_hands(
    players: usize,
    rule: &'static BombRule,
    reentry_rule: bool,
    start_card_rule: bool,
    end_on_first_out: bool,
    seed: u64,
    count: u64,
) -> (u64, u64) {
    let mut rng = Rng::new(seed);
    let mut legal = Vec::with_capacity(64);
    let mut events: Vec<Event> = Vec::with_capacity(8);
    let mut actions = 0;
    for _ in 0..count {
        let hands = deal(&mut rng, players);
        let mut hand = first_hand(hands, players, rule, reentry_rule, start_card_rule, end_on_first_out);
        while !hand.done {
            hand.legal(&mut legal);
            let choices = legal.len() as u64 + hand.table.is_some() as u64;
            let pick = rng.below(choices) as usize;
            events.clear();
            if pick < legal.len() {
                hand.play(legal[pick], &mut events);
            } else {
                hand.pass_turn(&mut events);
            }
            actions += 1;
        }
    }
    (count, actions)
}
