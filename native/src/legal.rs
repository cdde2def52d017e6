//! The legal-play generator: every distinct play a hand may make on a table, in the order of `legal.py`.
//!
//! Mirrors `tienlen/engine/legal.py` function for function (same plays, same order: seeded random picks
//! among them agree); the Python engine is the reference and the differential tests hold the two together.

use crate::bombs::BombRule;
use crate::combo::{highest, nibble, Combo, ACE_RANK, FIRST_TWO, FOUR, PAIR, SINGLE, STRAIGHT, TRIPLE};

/// `SUBSETS.0[size][nibble]`: the sub-nibbles of `size` suits of a nibble, in `itertools.combinations` order
/// (`SUBSETS.1` counts them).
const SUBSETS: ([[[u8; 6]; 16]; 5], [[u8; 16]; 5]) = subsets();

const fn subsets() -> ([[[u8; 6]; 16]; 5], [[u8; 16]; 5]) {
    let mut masks = [[[0u8; 6]; 16]; 5];
    let mut counts = [[0u8; 16]; 5];
    let mut nib = 0;
    while nib < 16 {
        let mut suits = [0u8; 4];
        let mut n = 0;
        let mut s = 0;
        while s < 4 {
            if nib >> s & 1 == 1 {
                suits[n] = 1 << s;
                n += 1;
            }
            s += 1;
        }
        // Lexicographic choices of 1, 2, 3 and 4 of the n suits.
        let mut i = 0;
        while i < n {
            masks[1][nib][counts[1][nib] as usize] = suits[i];
            counts[1][nib] += 1;
            let mut j = i + 1;
            while j < n {
                masks[2][nib][counts[2][nib] as usize] = suits[i] | suits[j];
                counts[2][nib] += 1;
                j += 1;
            }
            i += 1;
        }
        let mut i = 0;
        while i < n {
            let mut j = i + 1;
            while j < n {
                let mut k = j + 1;
                while k < n {
                    masks[3][nib][counts[3][nib] as usize] = suits[i] | suits[j] | suits[k];
                    counts[3][nib] += 1;
                    k += 1;
                }
                j += 1;
            }
            i += 1;
        }
        if n == 4 {
            masks[4][nib][0] = 15;
            counts[4][nib] = 1;
        }
        nib += 1;
    }
    (masks, counts)
}

/// The groups of `size` cards of one rank in the hand, as masks, in order.
#[inline]
fn groups(hand: u64, rank: u32, size: usize) -> impl Iterator<Item = u64> {
    let nib = nibble(hand, rank) as usize;
    let count = SUBSETS.1[size][nib] as usize;
    SUBSETS.0[size][nib][..count]
        .iter()
        .map(move |&s| (s as u64) << (4 * rank))
}

/// A bit per rank 3 … A (bit 0 = 3) whose nibble holds at least `least` cards.
#[inline]
fn rank_bits(hand: u64, least: u32) -> u32 {
    let mut bits = 0;
    for rank in 0..=ACE_RANK {
        if nibble(hand, rank).count_ones() >= least {
            bits |= 1 << rank;
        }
    }
    bits
}

/// Every run of `size` cards a rank over the ranks `start..=end`, in Python's product order.
#[inline]
fn runs(hand: u64, start: u32, end: u32, size: usize, partial: &mut Vec<u64>, scratch: &mut Vec<u64>) {
    partial.clear();
    partial.extend(groups(hand, start, size));
    for rank in start + 1..=end {
        extend_run(hand, rank, size, partial, scratch);
    }
}

/// `partial = [p | c for p in partial for c in groups(rank)]`.
#[inline]
fn extend_run(hand: u64, rank: u32, size: usize, partial: &mut Vec<u64>, scratch: &mut Vec<u64>) {
    scratch.clear();
    for &p in partial.iter() {
        scratch.extend(groups(hand, rank, size).map(|c| p | c));
    }
    std::mem::swap(partial, scratch);
}

/// Every run (3+ consecutive ranks below 2) of the ranks in `ranks`, `size` cards a rank (`_all_runs`).
fn all_runs(hand: u64, ranks: u32, size: usize, out: &mut Vec<u64>) {
    let starts = ranks & ranks >> 1 & ranks >> 2;
    let (mut partial, mut scratch) = (Vec::new(), Vec::new());
    for start in 0..=ACE_RANK {
        if starts >> start & 1 == 0 {
            continue;
        }
        partial.clear();
        partial.extend(groups(hand, start, size));
        let mut rank = start + 1;
        while rank <= ACE_RANK && ranks >> rank & 1 == 1 {
            extend_run(hand, rank, size, &mut partial, &mut scratch);
            if rank >= start + 2 {
                out.extend_from_slice(&partial);
            }
            rank += 1;
        }
    }
}

/// Runs of exactly `length` ranks whose top card beats card `above` (None: every run), by top rank (`_runs_of_length`).
fn runs_of_length(hand: u64, ranks: u32, size: usize, length: u32, above: Option<u32>, out: &mut Vec<u64>) {
    if length == 0 || length > ACE_RANK + 1 {
        return;
    }
    let top_rank: i64 = above.map_or(-1, |a| (a >> 2) as i64);
    let window = (1u32 << length) - 1;
    let first = std::cmp::max(length as i64 - 1, top_rank);
    let (mut partial, mut scratch) = (Vec::new(), Vec::new());
    for end in first..=ACE_RANK as i64 {
        let end = end as u32;
        let start = end + 1 - length;
        if ranks >> start & window != window {
            continue;
        }
        runs(hand, start, end, size, &mut partial, &mut scratch);
        match above {
            Some(a) if end as i64 == top_rank => out.extend(partial.iter().filter(|&&p| highest(p) > a)),
            _ => out.extend_from_slice(&partial),
        }
    }
}

/// Same-rank groups of `size` cards whose highest card beats card `above` (`_same_rank_above`).
fn same_rank_above(hand: u64, size: usize, above: u32, out: &mut Vec<u64>) {
    let top_rank = above >> 2;
    out.extend(groups(hand, top_rank, size).filter(|&p| highest(p) > above));
    for rank in top_rank + 1..13 {
        out.extend(groups(hand, rank, size));
    }
}

/// Every four of a kind of the hand, low rank first.
fn all_quads(hand: u64, out: &mut Vec<u64>) {
    for rank in 0..13 {
        if nibble(hand, rank) == 15 {
            out.push(15 << (4 * rank));
        }
    }
}

/// Every combination the hand can lead (`lead_masks`): rank by rank its singles, pairs, triples and four of
/// a kind; then the straights and then the runs of pairs, each by lowest rank and length.
pub fn lead_masks(hand: u64, out: &mut Vec<u64>) {
    for rank in 0..13 {
        if nibble(hand, rank) != 0 {
            for size in 1..=4 {
                out.extend(groups(hand, rank, size));
            }
        }
    }
    let present = rank_bits(hand, 1);
    if present & present >> 1 & present >> 2 != 0 {
        all_runs(hand, present, 1, out);
        let paired = rank_bits(hand, 2);
        if paired & paired >> 1 & paired >> 2 != 0 {
            all_runs(hand, paired, 2, out);
        }
    }
}

/// Each card of the hand above card `top`, as one-card masks, low to high.
pub fn singles_above(hand: u64, top: u32, out: &mut Vec<u64>) {
    let mut rest = hand >> (top + 1) << (top + 1);
    while rest != 0 {
        let low = rest & rest.wrapping_neg();
        out.push(low);
        rest ^= low;
    }
}

/// Plays of the table's kind and length with a higher deciding card (`ordinary_answers`).
pub fn ordinary_answers(hand: u64, table: &Combo, out: &mut Vec<u64>) {
    match table.kind {
        SINGLE => singles_above(hand, table.top, out),
        PAIR => same_rank_above(hand, 2, table.top, out),
        TRIPLE => same_rank_above(hand, 3, table.top, out),
        FOUR => {
            for rank in (table.top >> 2) + 1..13 {
                if nibble(hand, rank) == 15 {
                    out.push(15 << (4 * rank));
                }
            }
        }
        STRAIGHT => runs_of_length(hand, rank_bits(hand, 1), 1, table.length, Some(table.top), out),
        _ => runs_of_length(hand, rank_bits(hand, 2), 2, table.length, Some(table.top), out),
    }
}

/// Plays of another kind or length that bomb the table (`bomb_answers`).
pub fn bomb_answers(hand: u64, table: &Combo, rule: &BombRule, out: &mut Vec<u64>) {
    let targets = rule.targets(table);
    if targets.quads {
        all_quads(hand, out);
    }
    if targets.pair_lengths != 0 {
        let paired = rank_bits(hand, 2);
        if paired & paired >> 1 & paired >> 2 != 0 {
            for length in 0..16 {
                if targets.pair_lengths >> length & 1 == 1 {
                    runs_of_length(hand, paired, 2, length, None, out);
                }
            }
        }
    }
}

/// Every play that beats the table: ordinary answers then bombs (`answer_masks`).
pub fn answer_masks(hand: u64, table: &Combo, rule: &BombRule, out: &mut Vec<u64>) {
    if table.kind == SINGLE && table.top < FIRST_TWO && !rule.single_non_two {
        return singles_above(hand, table.top, out);
    }
    ordinary_answers(hand, table, out);
    if rule.targets(table).any() {
        bomb_answers(hand, table, rule, out);
    }
}

/// Every legal play of the seat on turn (`legal_masks_of`): `table` None on a lead, `locked` after a pass
/// (only bombs), `start_card` the card an opening lead must include.
pub fn legal_masks(
    hand: u64,
    table: Option<&Combo>,
    rule: &BombRule,
    locked: bool,
    start_card: Option<u32>,
    out: &mut Vec<u64>,
) {
    match table {
        None => {
            lead_masks(hand, out);
            if let Some(card) = start_card {
                let bit = 1u64 << card;
                out.retain(|&m| m & bit != 0);
            }
        }
        Some(t) if locked => bomb_answers(hand, t, rule, out),
        Some(t) => answer_masks(hand, t, rule, out),
    }
}
