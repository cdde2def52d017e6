//! Combinations (docs/rules.md §2) over 52-bit hand masks: card number = rank * 4 + suit, 3S = 0 … 2H = 51.
//!
//! Mirrors `tienlen/engine/cards.py` and `combos.py` (`_classify`); the Python engine is the reference.

/// Kind codes, in the order of the Python `Kind` enum.
pub const SINGLE: u8 = 0;
pub const PAIR: u8 = 1;
pub const TRIPLE: u8 = 2;
pub const FOUR: u8 = 3;
pub const STRAIGHT: u8 = 4;
pub const PAIRS: u8 = 5;
pub const KINDS: usize = 6;

/// Every card of the deck, one bit a card.
pub const DECK: u64 = (1 << 52) - 1;

pub const ACE_RANK: u32 = 11;
pub const TWO_RANK: u32 = 12;
/// The number of the weakest 2 (2S): a card is a 2 exactly when its number is at least this.
pub const FIRST_TWO: u32 = 4 * TWO_RANK;

/// A classified play: kind, length (pairs for consecutive pairs), deciding card number, cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Combo {
    pub kind: u8,
    pub length: u32,
    pub top: u32,
    pub mask: u64,
}

impl Combo {
    /// The deciding card is a 2 (what the bomb table calls a table of 2s).
    #[inline]
    pub fn twos(&self) -> bool {
        self.top >> 2 == TWO_RANK
    }
}

/// The suits of one rank present in a hand, as a 4-bit nibble.
#[inline]
pub fn nibble(hand: u64, rank: u32) -> u64 {
    (hand >> (4 * rank)) & 15
}

/// The highest card number of a non-empty mask.
#[inline]
pub fn highest(mask: u64) -> u32 {
    63 - mask.leading_zeros()
}

/// The combination these cards form, or None (the empty mask forms none).
pub fn classify(mask: u64) -> Option<Combo> {
    let count = mask.count_ones();
    if count == 0 {
        return None;
    }
    let top = highest(mask);
    if count == 1 {
        return Some(Combo {
            kind: SINGLE,
            length: 1,
            top,
            mask,
        });
    }
    let top_rank = top >> 2;
    let low_rank = mask.trailing_zeros() >> 2;
    if low_rank == top_rank {
        // at most four cards share a rank's nibble
        let kind = [SINGLE, SINGLE, PAIR, TRIPLE, FOUR][count as usize];
        return Some(Combo {
            kind,
            length: count,
            top,
            mask,
        });
    }
    if top_rank == TWO_RANK {
        return None;
    }
    let span = top_rank - low_rank + 1;
    if span < 3 {
        return None;
    }
    let per_rank = if count == span {
        1
    } else if count == 2 * span {
        2
    } else {
        return None;
    };
    for rank in low_rank..=top_rank {
        if nibble(mask, rank).count_ones() != per_rank {
            return None;
        }
    }
    if per_rank == 1 {
        Some(Combo {
            kind: STRAIGHT,
            length: count,
            top,
            mask,
        })
    } else {
        Some(Combo {
            kind: PAIRS,
            length: span,
            top,
            mask,
        })
    }
}

/// Same kind, same length, higher deciding card (docs/rules.md §3).
#[inline]
pub fn beats_ordinarily(play: &Combo, table: &Combo) -> bool {
    play.kind == table.kind && play.length == table.length && play.top > table.top
}
