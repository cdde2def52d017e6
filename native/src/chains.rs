//! Hard's deal chains in Rust: Metropolis chains over deals of the unseen cards.
//!
//! Mirrors `tienlen/bots/sampling.py` (`DealChain`, `DealChains`, `chain_hands`) and its generator
//! `tienlen/bots/chain_rng.py` (SplitMix64): seeded alike, both make the same draws in the same order, so
//! they hand out the same deals and count the same work. `tests/bots/test_bots_compiled.py` checks it.

use crate::bombs::BombRule;
use crate::hand::MAX_SEATS;
use crate::medium::IntMap;
use crate::search::{ActionEvent, SeatActions};

/// SplitMix64, as `chain_rng.ChainRng`.
pub struct ChainRng(u64);

impl ChainRng {
    pub fn new(seed: u64) -> ChainRng {
        ChainRng(seed)
    }

    #[inline]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (n ≥ 1).
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next() as u128 * n as u128) >> 64) as u64
    }

    /// How many draws in a row fall below `threshold / 2**32`.
    #[inline]
    pub fn geometric(&mut self, threshold: u64) -> u32 {
        let mut count = 0;
        while self.next() >> 32 < threshold {
            count += 1;
        }
        count
    }
}

/// What the chains share: the position, its actions, and the judgements of (seat, hand) made so far.
pub struct Table {
    pub seat: usize,
    pub players: usize,
    pub hand: u64,
    pub cards_left: [u32; MAX_SEATS],
    pub unseen: u64,
    pub events: Vec<ActionEvent>,
    pub rule: &'static BombRule,
    pub threshold: u64,
    pub burn_in: u32,
    pub thinning: u32,
    known: IntMap<u64, (u32, bool)>,
}

impl Table {
    #[allow(clippy::too_many_arguments)] // the position's parts
    pub fn new(
        seat: usize,
        players: usize,
        hand: u64,
        cards_left: [u32; MAX_SEATS],
        unseen: u64,
        events: Vec<ActionEvent>,
        rule: &'static BombRule,
        threshold: u64,
        burn_in: u32,
        thinning: u32,
    ) -> Table {
        Table {
            seat,
            players,
            hand,
            cards_left,
            unseen,
            events,
            rule,
            threshold,
            burn_in,
            thinning,
            known: IntMap::default(),
        }
    }

    /// `chain_hands`: the unseen cards shuffled (Fisher–Yates, high end first) and dealt by the counts.
    fn deal(&self, rng: &mut ChainRng) -> Vec<u64> {
        let mut cards: Vec<u32> = (0..52).filter(|&c| self.unseen >> c & 1 == 1).collect();
        for i in (1..cards.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            cards.swap(i, j);
        }
        let mut hands = vec![0u64; self.players];
        let mut pos = 0;
        for (seat, hand) in hands.iter_mut().enumerate() {
            if seat == self.seat {
                *hand = self.hand;
                continue;
            }
            let count = self.cards_left[seat] as usize;
            for &card in cards.iter().skip(pos).take(count) {
                *hand |= 1 << card;
            }
            pos += count;
        }
        hands
    }
}

/// One chain (`sampling.DealChain`): a hand a holder (a pseudo-seat past the last holds the cards out of play).
pub struct Chain {
    rng: ChainRng,
    hands: Vec<u64>,
    holders: Vec<usize>,
    judges: Vec<SeatActions>,
    misses: Vec<u32>,
    started: bool,
    pub work: u64,
}

impl Chain {
    pub fn new(table: &Table, seed: u64) -> Chain {
        let mut rng = ChainRng::new(seed);
        let mut hands = table.deal(&mut rng);
        let mut holders: Vec<usize> = (0..table.players)
            .filter(|&s| s != table.seat && table.cards_left[s] > 0 && hands[s] != 0)
            .collect();
        let mut out_of_play = table.unseen;
        for &s in &holders {
            out_of_play &= !hands[s];
        }
        if out_of_play != 0 {
            hands.push(out_of_play);
            holders.push(hands.len() - 1);
        }
        let judges = (0..hands.len())
            .map(|s| SeatActions {
                events: table
                    .events
                    .iter()
                    .filter(|e| e.seat == s && holders.contains(&s))
                    .cloned()
                    .collect(),
            })
            .collect();
        let misses = vec![0; hands.len()];
        Chain {
            rng,
            hands,
            holders,
            judges,
            misses,
            started: false,
            work: 0,
        }
    }

    /// `DealChain._misses`: judged once per (seat, hand) across the chains, exactly or past a limit.
    fn misses(&mut self, table: &mut Table, seat: usize, hand: u64, limit: u32, scratch: &mut Vec<u64>) -> u32 {
        let key = hand | (seat as u64) << 56;
        if let Some(&(misses, complete)) = table.known.get(&key) {
            if complete || misses > limit {
                return misses;
            }
        }
        let (misses, complete, work) = self.judges[seat].misses(hand, limit, table.rule, scratch);
        self.work += work as u64;
        table.known.insert(key, (misses, complete));
        misses
    }

    /// `DealChain.step`: propose swapping one card between two holders; accept by the Metropolis rule.
    fn step(&mut self, table: &mut Table, scratch: &mut Vec<u64>) {
        let count = self.holders.len() as u64;
        if count < 2 {
            return;
        }
        let first = self.rng.below(count) as usize;
        let second = self.rng.below(count - 1) as usize;
        let (a, b) = (self.holders[first], self.holders[second + (second >= first) as usize]);
        let card_a = nth_card(self.hands[a], self.rng.below(self.hands[a].count_ones() as u64));
        let card_b = nth_card(self.hands[b], self.rng.below(self.hands[b].count_ones() as u64));
        let new_a = self.hands[a] ^ card_a | card_b;
        let new_b = self.hands[b] ^ card_b | card_a;
        let allowed = self.misses[a] + self.misses[b] + self.rng.geometric(table.threshold);
        let miss_a = self.misses(table, a, new_a, allowed, scratch);
        if miss_a > allowed {
            return;
        }
        let miss_b = self.misses(table, b, new_b, allowed - miss_a, scratch);
        if miss_a + miss_b > allowed {
            return;
        }
        self.hands[a] = new_a;
        self.hands[b] = new_b;
        self.misses[a] = miss_a;
        self.misses[b] = miss_b;
    }

    /// `DealChain.next_deal`: after the burn-in (first call) or the thinning steps, the deal.
    pub fn next_deal(&mut self, table: &mut Table, scratch: &mut Vec<u64>) -> &[u64] {
        let steps = if self.started {
            table.thinning
        } else {
            self.started = true;
            for i in 0..self.holders.len() {
                let seat = self.holders[i];
                let limit = self.judges[seat].events.len() as u32;
                self.misses[seat] = self.misses(table, seat, self.hands[seat], limit, scratch);
            }
            table.burn_in
        };
        for _ in 0..steps {
            self.step(table, scratch);
        }
        &self.hands[..table.players]
    }
}

/// The `pick`-th lowest card of a mask, as a one-bit mask.
#[inline]
fn nth_card(mut mask: u64, pick: u64) -> u64 {
    for _ in 0..pick {
        mask &= mask - 1;
    }
    mask & mask.wrapping_neg()
}
