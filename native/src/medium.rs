//! Medium's policy in Rust, for Hard's playouts: the planner and Medium's lead and answer.
//!
//! Mirrors `tienlen/bots/planner.py` (`packed_plan_cost`, `best_plan`, `plan_masks`, `is_boss`, `is_control`)
//! and `tienlen/bots/medium.py` (`decide_lead`, `answer_score`, `decide`). The Python bots are the reference:
//! the same recursion adds the same numbers in the same order, so plan costs are the same floats, and every
//! tie is broken as Python's `min`/`max` break it (the first best). `tests/bots/test_bots_compiled.py`
//! checks both side by side.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::bombs::BombRule;
use crate::combo::{classify, Combo, ACE_RANK, FOUR, PAIR, PAIRS, SINGLE, TWO_RANK};
use crate::legal::answer_masks;

/// `medium.PLAY_THRESHOLD`: answer unless it costs the plan more than this.
const PLAY_THRESHOLD: f64 = -2.5;
/// `medium.SINGLE_LEAD_DELAY`.
const SINGLE_LEAD_DELAY: u32 = 7;
/// Caches empty themselves past this many entries (`memo.DEFAULT_LIMIT`).
const CACHE_LIMIT: usize = 1 << 18;

/// A fast hasher for the planner's integer keys (std's SipHash is several times slower here).
#[derive(Default)]
pub struct IntHasher(u64);

impl Hasher for IntHasher {
    #[inline]
    fn finish(&self) -> u64 {
        // the table indexes by the low bits, which a product alone leaves unmixed
        let z = self.0 ^ self.0 >> 33;
        z.wrapping_mul(0xff51_afd7_ed55_8ccd) ^ z >> 29
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

pub type IntMap<K, V> = HashMap<K, V, BuildHasherDefault<IntHasher>>;

/// A piece of a plan: (start rank, length, cards per rank), as in `planner.Piece`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub start: u32,
    pub length: u32,
    pub per: u32,
}

/// `planner.piece_cost`: about 10 a piece, less for controls, more for low singles.
fn piece_cost(start: u32, length: u32, per: u32) -> f64 {
    let top = start + length - 1;
    if length == 1 && per == 4 {
        return 4.0;
    }
    if length >= 3 && per == 2 {
        return if length >= 4 { 4.0 } else { 5.0 };
    }
    if top == TWO_RANK {
        return 6.0;
    }
    if length == 1 {
        let low = 8u32.saturating_sub(top) as f64;
        let weight = match per {
            1 => 0.45,
            2 => 0.3,
            _ => 0.1,
        };
        return 10.0 + weight * low;
    }
    10.0 - 0.2 * length as f64
}

/// Rank counts packed one per nibble (`planner.packed_counts`).
#[inline]
pub fn packed_counts(hand: u64) -> u64 {
    let pairs = hand - (hand >> 1 & 0x0005_5555_5555_5555);
    (pairs & 0x0003_3333_3333_3333) + (pairs >> 2 & 0x0003_3333_3333_3333)
}

thread_local! {
    /// Packed rank counts → (best plan's cost, its first piece).
    static PLANS: RefCell<IntMap<u64, (f64, Piece)>> = RefCell::new(IntMap::default());
}

/// The cheapest plan of these packed counts: its cost and first piece (the rest is the plan of what is left).
fn best_plan(plans: &mut IntMap<u64, (f64, Piece)>, counts: u64) -> (f64, Piece) {
    if let Some(&found) = plans.get(&counts) {
        return found;
    }
    let rank = counts.trailing_zeros() >> 2;
    let shift = 4 * rank;
    let c = (counts >> shift & 15) as u32;
    let group = Piece {
        start: rank,
        length: 1,
        per: c,
    };
    let mut best_cost = plan_cost_of(plans, counts & !(15 << shift)) + piece_cost(rank, 1, c);
    let mut best_piece = group;
    for per in 1..=2u32 {
        if c < per {
            break;
        }
        let mut work = counts;
        let mut end = rank;
        while end <= ACE_RANK && (counts >> (4 * end) & 15) as u32 >= per {
            work -= (per as u64) << (4 * end);
            if end - rank >= 2 {
                let total = plan_cost_of(plans, work) + piece_cost(rank, end - rank + 1, per);
                if total < best_cost {
                    best_cost = total;
                    best_piece = Piece {
                        start: rank,
                        length: end - rank + 1,
                        per,
                    };
                }
            }
            end += 1;
        }
    }
    if plans.len() >= CACHE_LIMIT {
        plans.clear();
    }
    plans.insert(counts, (best_cost, best_piece));
    (best_cost, best_piece)
}

fn plan_cost_of(plans: &mut IntMap<u64, (f64, Piece)>, counts: u64) -> f64 {
    if counts == 0 {
        0.0
    } else {
        best_plan(plans, counts).0
    }
}

/// The packed counts a piece takes from a hand.
fn piece_counts(piece: Piece) -> u64 {
    let mut out = 0;
    for r in piece.start..piece.start + piece.length {
        out += (piece.per as u64) << (4 * r);
    }
    out
}

/// The cost of the hand's best plan (`planner.plan_cost`; lower is better).
pub fn plan_cost(hand: u64) -> f64 {
    PLANS.with(|plans| plan_cost_of(&mut plans.borrow_mut(), packed_counts(hand)))
}

/// The hand's best plan as pieces, in the order of `planner.best_plan`.
pub fn plan_pieces(hand: u64, out: &mut Vec<Piece>) {
    out.clear();
    PLANS.with(|plans| {
        let plans = &mut plans.borrow_mut();
        let mut counts = packed_counts(hand);
        while counts != 0 {
            let piece = best_plan(plans, counts).1;
            out.push(piece);
            counts -= piece_counts(piece);
        }
    });
}

/// The hand's best plan as classified combinations, weakest (lowest top card) first (`planner.plan_masks`).
pub fn plan_combos(hand: u64, out: &mut Vec<Combo>) {
    let mut pieces = Vec::with_capacity(13);
    plan_pieces(hand, &mut pieces);
    // The suits still free at each rank, lowest first; runs take the lowest, groups the highest.
    let mut avail: [u64; 13] = std::array::from_fn(|r| hand >> (4 * r) & 15);
    let mut masks: Vec<u64> = Vec::with_capacity(pieces.len());
    for p in pieces.iter().filter(|p| p.length > 1) {
        let mut mask = 0;
        for r in p.start..p.start + p.length {
            for _ in 0..p.per {
                let low = avail[r as usize] & avail[r as usize].wrapping_neg();
                avail[r as usize] ^= low;
                mask |= low << (4 * r);
            }
        }
        masks.push(mask);
    }
    for p in pieces.iter().filter(|p| p.length == 1) {
        let mut mask = 0;
        for _ in 0..p.per {
            let high = 1u64 << (63 - avail[p.start as usize].leading_zeros());
            avail[p.start as usize] ^= high;
            mask |= high << (4 * p.start);
        }
        masks.push(mask);
    }
    masks.sort_by_key(|m| 64 - m.leading_zeros()); // stable, as Python's sort by bit_length
    out.clear();
    out.extend(masks.into_iter().filter_map(classify));
}

/// Whether no unseen cards could beat this play (`planner.is_boss`).
pub fn is_boss(combo: &Combo, unseen: u64, rule: &BombRule, scratch: &mut Vec<u64>) -> bool {
    if combo.kind == SINGLE && !rule.targets(combo).any() {
        return unseen >> (combo.top + 1) == 0;
    }
    scratch.clear();
    answer_masks(unseen, combo, rule, scratch);
    scratch.is_empty()
}

/// A 2 or a bomb-shaped piece, kept to win back the lead (`planner.is_control`).
pub fn is_control(combo: &Combo) -> bool {
    combo.top >> 2 == TWO_RANK || combo.kind == FOUR || (combo.kind == PAIRS && combo.length >= 3)
}

/// `medium._lead_key`: controls last, then lowest rank (singles later), then more cards.
fn lead_key(combo: &Combo) -> (bool, u32, i32) {
    let low_rank = combo.mask.trailing_zeros() >> 2;
    let size = combo.mask.count_ones();
    let delay = if size == 1 { SINGLE_LEAD_DELAY } else { 0 };
    (is_control(combo), low_rank + delay, -(size as i32))
}

/// The first piece with the least key (Python's `min`).
fn first_min<K: PartialOrd>(pieces: impl Iterator<Item = Combo>, key: impl Fn(&Combo) -> K) -> Option<Combo> {
    let mut best: Option<(K, Combo)> = None;
    for p in pieces {
        let k = key(&p);
        if best.as_ref().map_or(true, |(b, _)| k < *b) {
            best = Some((k, p));
        }
    }
    best.map(|(_, p)| p)
}

/// The first piece with the greatest key (Python's `max`).
fn first_max<K: PartialOrd>(pieces: impl Iterator<Item = Combo>, key: impl Fn(&Combo) -> K) -> Option<Combo> {
    let mut best: Option<(K, Combo)> = None;
    for p in pieces {
        let k = key(&p);
        if best.as_ref().map_or(true, |(b, _)| k > *b) {
            best = Some((k, p));
        }
    }
    best.map(|(_, p)| p)
}

/// The piece Medium leads (`medium.decide_lead`), or 0 for an empty hand.
pub fn decide_lead(hand: u64, unseen: u64, rule: &BombRule, min_opp: u32, start_card: Option<u32>) -> u64 {
    let mut pieces = Vec::with_capacity(13);
    plan_combos(hand, &mut pieces);
    if let Some(card) = start_card {
        return pieces
            .iter()
            .find(|p| p.mask >> card & 1 == 1)
            .map_or(1 << card, |p| p.mask);
    }
    if pieces.is_empty() {
        return 0;
    }
    if pieces.len() == 1 {
        return pieces[0].mask;
    }
    let all = || pieces.iter().copied();
    if pieces.len() <= 4 {
        let mut scratch = Vec::with_capacity(16);
        let bosses: Vec<Combo> = all().filter(|p| is_boss(p, unseen, rule, &mut scratch)).collect();
        if !bosses.is_empty() && pieces.len() - bosses.len() <= 1 {
            return first_max(bosses.into_iter(), |p| p.mask.count_ones()).map_or(0, |p| p.mask);
        }
    }
    let highest = || first_max(all(), |p| p.top).map_or(0, |p| p.mask);
    if min_opp == 1 {
        return first_min(all().filter(|p| p.mask.count_ones() > 1), lead_key).map_or_else(highest, |p| p.mask);
    }
    if min_opp == 2 {
        return first_min(all().filter(|p| p.kind != PAIR), lead_key).map_or_else(highest, |p| p.mask);
    }
    first_min(all(), lead_key).map_or(0, |p| p.mask)
}

/// How much Medium likes answering `table` with the legal answer `mask` (`medium.answer_score`).
pub fn answer_score(hand: u64, hand_cost: f64, mask: u64, table: &Combo, urgent: bool) -> f64 {
    let rest = hand & !mask;
    if rest == 0 {
        return 1000.0;
    }
    let top = 63 - mask.leading_zeros();
    let score = hand_cost - plan_cost(rest) - 0.05 * (top >> 2) as f64;
    if mask.count_ones() != table.mask.count_ones() {
        return score + 6.0;
    }
    let twos = mask >> (4 * TWO_RANK) & 15;
    if twos == 0 || urgent {
        return score;
    }
    let table_rank = table.top >> 2;
    let mut penalty = if table_rank < 10 {
        6.0
    } else if table_rank < 12 {
        4.5
    } else {
        3.0
    };
    if rest.count_ones() <= 4 {
        penalty -= 3.0;
    }
    score - penalty * twos.count_ones() as f64
}

/// Medium's answer among the legal `answers` (0 = pass), as `medium.decide` chooses on a table.
pub fn decide_answer(hand: u64, table: &Combo, urgent: bool, answers: &[u64]) -> u64 {
    if answers.is_empty() {
        return 0;
    }
    let hand_cost = plan_cost(hand);
    let (mut best, mut best_score) = (0, if urgent { -1e9 } else { PLAY_THRESHOLD });
    for &mask in answers {
        let score = answer_score(hand, hand_cost, mask, table, urgent);
        if score > best_score {
            best = mask;
            best_score = score;
        }
    }
    best
}
