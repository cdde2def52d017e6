//! `tienlen_native`: the compiled core of the Tiến Lên rules engine (optional), a plain C ABI.
//!
//! The hot paths of `server/tienlen/engine` over 52-bit hand masks (card number = rank * 4 + suit,
//! 3S = 0 … 2H = 51): classification, legal plays, the flow of a hand, random playouts; Hard's inner
//! loops (`bots.rs`) and Master's network (`net.rs`). The Python engine is the reference. The library has no
//! dependency but Rust's standard library, so `cargo build --release --offline` alone builds it; Python loads it with `ctypes`
//! (`tienlen.engine.native`, which declares every function below and turns an error code into a
//! `ValueError`). The conventions of the ABI (error codes, optional numbers, output buffers, handles) are in
//! `abi.rs`. Bombs rules are named by their place in the installed bomb table (`tl_install_bomb_table`).

mod abi;
mod bombs;
mod bots;
mod chains;
mod combo;
mod endgame;
mod hand;
mod legal;
mod medium;
mod net;
mod netplay;
mod playout;
mod search;

use std::os::raw::c_char;

use crate::abi::{
    emit, emit_masks, emit_out, free_handle, guard, joined, new_handle, open, optional, slice, Handle, LOCKED_BIT,
    NONE, PLAIN_RULES, RULE_SHIFT, START_SHIFT,
};
use crate::bombs::{BombRule, Row};
use crate::combo::{classify as classify_mask, Combo, DECK};
use crate::hand::{Event, HandState, MAX_SEATS};

/// The rule of a `bombs` value, by its place in the bomb table.
pub(crate) fn rule(bombs: u32) -> Result<&'static BombRule, String> {
    bombs::rule_at(bombs)
}

/// The hand, refused unless it is a 52-bit mask.
pub(crate) fn hand_mask(hand: u64) -> Result<u64, String> {
    if hand & !DECK != 0 {
        return Err(format!("{hand:#x} is not a hand mask (52 bits)"));
    }
    Ok(hand)
}

/// The combination these cards form, refused unless they form one.
pub(crate) fn combo_of(mask: u64) -> Result<Combo, String> {
    classify_mask(mask & DECK)
        .filter(|_| mask & !DECK == 0)
        .ok_or_else(|| format!("{mask:#x} is not a combination"))
}

/// The start card, refused unless it is a card number.
pub(crate) fn start_card_of(start_card: i64) -> Result<Option<u32>, String> {
    match optional(start_card) {
        Some(c) if c >= 52 => Err("the start card is a card number 0..51".into()),
        card => Ok(card.map(|c| c as u32)),
    }
}

/// Install the bomb table: `names` holds the `bombs` values, each ended by a NUL byte; `rows` holds six numbers a
/// row (the value's place among the names, shape kind, shape length, target kind, target length, target must be
/// 2s), kinds numbered in the order of `Kind`. Once per process (again only with the same rows). 0, or -1.
///
/// # Safety
/// `names` points at `names_len` bytes and `rows` at `6 * row_count` numbers.
#[no_mangle]
pub unsafe extern "C" fn tl_install_bomb_table(
    names: *const c_char,
    names_len: usize,
    rows: *const u32,
    row_count: usize,
) -> i32 {
    guard(-1, || {
        let names = slice(names as *const u8, names_len)?;
        let names = std::str::from_utf8(names).map_err(|_| "the bombs values are not UTF-8".to_string())?;
        let mut table: Vec<(String, Vec<Row>)> = names
            .split_terminator('\0')
            .map(|name| (name.to_string(), Vec::new()))
            .collect();
        if table.len() > PLAIN_RULES {
            return Err(format!("at most {PLAIN_RULES} bombs values"));
        }
        for row in slice(rows, 6 * row_count)?.chunks_exact(6) {
            let rule = table
                .get_mut(row[0] as usize)
                .ok_or("a bomb row names no bombs value")?;
            let kind = |k: u32| u8::try_from(k).map_err(|_| format!("kind number {k} out of range"));
            rule.1.push((kind(row[1])?, row[2], kind(row[3])?, row[4], row[5] != 0));
        }
        bombs::install(table)?;
        Ok(0)
    })
}

/// The combination these cards form as `kind number << 16 | length << 8 | top`, or -1 for none (a plain call: the
/// mask in two halves).
#[no_mangle]
pub extern "C" fn tl_classify(low: u32, high: u32) -> i32 {
    let mask = u64::from(low) | u64::from(high) << 32;
    if mask & !DECK != 0 {
        return -1;
    }
    classify_mask(mask).map_or(-1, |c| (c.kind as i32) << 16 | (c.length as i32) << 8 | c.top as i32)
}

/// Every combination the hand can lead, in the order of `legal.lead_masks`: their count, or -1.
///
/// # Safety
/// `out` points at `cap` writable masks.
#[no_mangle]
pub unsafe extern "C" fn tl_lead_masks(hand: u64, out: *mut u64, cap: usize) -> i64 {
    guard(-1, || {
        let hand = hand_mask(hand)?;
        Ok(emit_masks(out, cap, |masks| legal::lead_masks(hand, masks)))
    })
}

/// Every play that beats the table (its cards), ordinary answers then bombs: their count, or -1.
///
/// # Safety
/// `out` points at `cap` writable masks.
#[no_mangle]
pub unsafe extern "C" fn tl_answer_masks(hand: u64, table: u64, bombs: u32, out: *mut u64, cap: usize) -> i64 {
    guard(-1, || {
        let (hand, table, rule) = (hand_mask(hand)?, combo_of(table)?, rule(bombs)?);
        Ok(emit_masks(out, cap, |masks| {
            legal::answer_masks(hand, &table, rule, masks)
        }))
    })
}

/// Plays of another kind or length that bomb the table (its cards): their count, or -1.
///
/// # Safety
/// `out` points at `cap` writable masks.
#[no_mangle]
pub unsafe extern "C" fn tl_bomb_answers(hand: u64, table: u64, bombs: u32, out: *mut u64, cap: usize) -> i64 {
    guard(-1, || {
        let (hand, table, rule) = (hand_mask(hand)?, combo_of(table)?, rule(bombs)?);
        Ok(emit_masks(out, cap, |masks| {
            legal::bomb_answers(hand, &table, rule, masks)
        }))
    })
}

/// Every legal play of the seat on turn (`legal.legal_masks_of`; the table's cards or -1 on a lead, the start
/// card or -1): their count, or -1.
///
/// # Safety
/// `out` points at `cap` writable masks.
#[no_mangle]
pub unsafe extern "C" fn tl_legal_masks(
    hand: u64,
    table: i64,
    bombs: u32,
    locked: bool,
    start_card: i64,
    out: *mut u64,
    cap: usize,
) -> i64 {
    guard(-1, || {
        let table = optional(table).map(combo_of).transpose()?;
        let start_card = start_card_of(start_card)?;
        let (hand, rule) = (hand_mask(hand)?, rule(bombs)?);
        Ok(emit_masks(out, cap, |masks| {
            legal::legal_masks(hand, table.as_ref(), rule, locked, start_card, masks)
        }))
    })
}

/// The bombs rule a plain call's high half names (bits 20-23).
fn plain_rule(high: u32) -> Result<&'static BombRule, String> {
    rule(high >> RULE_SHIFT & 0xf)
}

/// The table of a plain call (its cards in two halves; 0 for none, on a lead).
fn plain_table(low: u32, high: u32) -> Result<Option<Combo>, String> {
    let mask = joined(low, high, false)?;
    (mask != 0).then(|| combo_of(mask)).transpose()
}

/// `tl_lead_masks` into this thread's output buffer (`tl_out`), a plain call (the hand in two halves): the count of
/// leads, or -1.
#[no_mangle]
pub extern "C" fn tl_lead(low: u32, high: u32) -> i32 {
    guard(-1, || {
        let hand = joined(low, high, false)?;
        Ok(emit_out(|masks| legal::lead_masks(hand, masks)) as i32)
    })
}

/// `tl_answer_masks` into this thread's output buffer (`tl_out`), a plain call: the hand in two halves, the bombs
/// rule's number in the high half (bits 20-23), the table's cards in two halves. The count of answers, or -1.
#[no_mangle]
pub extern "C" fn tl_answers(low: u32, high: u32, table_low: u32, table_high: u32) -> i32 {
    guard(-1, || {
        let (hand, rule) = (joined(low, high, true)?, plain_rule(high)?);
        let table = combo_of(joined(table_low, table_high, false)?)?;
        Ok(emit_out(|masks| legal::answer_masks(hand, &table, rule, masks)) as i32)
    })
}

/// `tl_bomb_answers` into this thread's output buffer (`tl_out`), a plain call as `tl_answers`: the count of bombs,
/// or -1.
#[no_mangle]
pub extern "C" fn tl_bombs(low: u32, high: u32, table_low: u32, table_high: u32) -> i32 {
    guard(-1, || {
        let (hand, rule) = (joined(low, high, true)?, plain_rule(high)?);
        let table = combo_of(joined(table_low, table_high, false)?)?;
        Ok(emit_out(|masks| legal::bomb_answers(hand, &table, rule, masks)) as i32)
    })
}

/// `tl_legal_masks` into this thread's output buffer (`tl_out`), a plain call: the hand in two halves, its high half
/// also carrying the bombs rule's number (bits 20-23), locked (bit 24) and the start card plus one (bits 25-30; 0 for
/// none); the table's cards in two halves (0 on a lead). The count, or -1.
#[no_mangle]
pub extern "C" fn tl_legal(low: u32, high: u32, table_low: u32, table_high: u32) -> i32 {
    guard(-1, || {
        let (hand, rule, locked) = (joined(low, high, true)?, plain_rule(high)?, high & LOCKED_BIT != 0);
        let start_card = start_card_of(i64::from(high >> START_SHIFT) - 1)?;
        let table = plain_table(table_low, table_high)?;
        Ok(emit_out(|masks| legal::legal_masks(hand, table.as_ref(), rule, locked, start_card, masks)) as i32)
    })
}

/// Play `count` random hands of `players` seats in Rust; (hands, actions) into `out`. 0, or -1.
///
/// # Safety
/// `out` points at two writable numbers.
#[no_mangle]
#[allow(clippy::too_many_arguments)] // the rule set's flags, as Python passes them
pub unsafe extern "C" fn tl_random_hands(
    players: usize,
    bombs: u32,
    reentry_rule: bool,
    start_card_rule: bool,
    end_on_first_out: bool,
    seed: u64,
    count: u64,
    out: *mut u64,
) -> i32 {
    guard(-1, || {
        if !(2..=MAX_SEATS).contains(&players) {
            return Err(format!("players must be 2 to {MAX_SEATS}"));
        }
        let rule = rule(bombs)?;
        let (hands, actions) = playout::random_hands(
            players,
            rule,
            reentry_rule,
            start_card_rule,
            end_on_first_out,
            seed,
            count,
        );
        emit(&[hands, actions], out, 2);
        Ok(0)
    })
}

/// Numbers a compiled hand's event is written as: a tag (0 played, 1 passed, 2 table cleared, 3 went out) and up to
/// three numbers: (seat, mask, kind number | bomb << 8), (seat), (leader), (seat, place).
pub const EVENT_WIDTH: usize = 4;

fn event_numbers(event: &Event) -> [u64; EVENT_WIDTH] {
    match *event {
        Event::Played { seat, mask, kind, bomb } => [0, seat as u64, mask, kind as u64 | (bomb as u64) << 8],
        Event::Passed { seat } => [1, seat as u64, 0, 0],
        Event::TableCleared { leader } => [2, leader as u64, 0, 0],
        Event::WentOut { seat, place } => [3, seat as u64, place as u64, 0],
    }
}

/// One hand in play, in Rust: the seat on turn's legal plays, plays and passes with their events.
pub struct Hand {
    state: HandState,
    legal: Vec<u64>,
    fresh: bool,
    events: Vec<Event>,
}

impl Hand {
    fn legal_now(&mut self) -> &[u64] {
        if !self.fresh {
            self.state.legal(&mut self.legal);
            self.fresh = true;
        }
        &self.legal
    }

    /// The events of the action just taken into the caller's buffer (`EVENT_WIDTH` numbers each): their count.
    unsafe fn emit_events(&mut self, out: *mut u64, cap: usize) -> Result<i64, String> {
        self.fresh = false;
        if self.events.len() > cap {
            return Err(format!("{} events do not fit a buffer of {cap}", self.events.len()));
        }
        for (i, event) in self.events.iter().enumerate() {
            std::ptr::copy_nonoverlapping(event_numbers(event).as_ptr(), out.add(i * EVENT_WIDTH), EVENT_WIDTH);
        }
        Ok(self.events.len() as i64)
    }
}

/// A hand with these cards a seat, `turn` on turn, an empty table, `start_card` (or -1) for a match's opening
/// lead: its handle, or null.
///
/// # Safety
/// `hands` points at `players` masks.
#[no_mangle]
pub unsafe extern "C" fn tl_hand_new(
    hands: *const u64,
    players: usize,
    turn: usize,
    bombs: u32,
    reentry_rule: bool,
    end_on_first_out: bool,
    start_card: i64,
) -> Handle<Hand> {
    guard(std::ptr::null_mut(), || {
        if !(2..=MAX_SEATS).contains(&players) || turn >= players {
            return Err(format!("2 to {MAX_SEATS} hands and a seat on turn among them"));
        }
        let mut masks = [0u64; MAX_SEATS];
        for (seat, &hand) in slice(hands, players)?.iter().enumerate() {
            masks[seat] = hand_mask(hand)?;
        }
        let state = HandState {
            hands: masks,
            players,
            turn,
            table: None,
            table_seat: None,
            locked: 0,
            start_card: start_card_of(start_card)?,
            places: Vec::with_capacity(MAX_SEATS),
            done: false,
            rule: rule(bombs)?,
            reentry_rule,
            end_on_first_out,
        };
        Ok(new_handle(Hand {
            state,
            legal: Vec::new(),
            fresh: false,
            events: Vec::with_capacity(8),
        }))
    })
}

/// Free a hand.
///
/// # Safety
/// `hand` came from `tl_hand_new` and is freed once.
#[no_mangle]
pub unsafe extern "C" fn tl_hand_free(hand: Handle<Hand>) {
    free_handle(hand)
}

/// The hand's state into `out` (`5 + 2 * MAX_SEATS` numbers): the seat on turn (-1 once over), the table's cards
/// (-1 on a lead), its seat (-1), the pass-lock bits, done (0/1), then every seat's cards (`MAX_SEATS`, the seats
/// past the last 0) and the places (`MAX_SEATS`, -1 past the last placed). The number of seats, or -1.
///
/// # Safety
/// `hand` is a live handle; `out` points at `5 + 2 * MAX_SEATS` writable numbers.
#[no_mangle]
pub unsafe extern "C" fn tl_hand_state(hand: Handle<Hand>, out: *mut i64) -> i64 {
    guard(-1, || {
        let hand = open(hand)?;
        let s = &hand.state;
        let mut numbers = [NONE; 5 + 2 * MAX_SEATS];
        numbers[0] = if s.done { NONE } else { s.turn as i64 };
        numbers[1] = s.table.map_or(NONE, |t| t.mask as i64);
        numbers[2] = s.table_seat.map_or(NONE, |seat| seat as i64);
        numbers[3] = s.locked as i64;
        numbers[4] = s.done as i64;
        for seat in 0..MAX_SEATS {
            numbers[5 + seat] = s.hands[seat] as i64;
        }
        for (i, &seat) in s.places.iter().take(MAX_SEATS).enumerate() {
            numbers[5 + MAX_SEATS + i] = seat as i64;
        }
        emit(&numbers, out, numbers.len());
        Ok(s.players as i64)
    })
}

/// The legal plays of the seat on turn (none once the hand is over): their count, or -1.
///
/// # Safety
/// `hand` is a live handle; `out` points at `cap` writable masks.
#[no_mangle]
pub unsafe extern "C" fn tl_hand_legal(hand: Handle<Hand>, out: *mut u64, cap: usize) -> i64 {
    guard(-1, || {
        let mut hand = open(hand)?;
        Ok(emit(hand.legal_now(), out, cap))
    })
}

/// The seat on turn plays these cards: the count of its events, written to `out` (room for `cap` events), or -1.
/// A play not among the legal ones is refused.
///
/// # Safety
/// `hand` is a live handle; `out` points at `EVENT_WIDTH * cap` writable numbers.
#[no_mangle]
pub unsafe extern "C" fn tl_hand_play(hand: Handle<Hand>, mask: u64, out: *mut u64, cap: usize) -> i64 {
    guard(-1, || {
        let mut hand = open(hand)?;
        if hand.state.done || !hand.legal_now().contains(&mask) {
            return Err(format!("{mask:#x} is not a legal play here"));
        }
        let Hand { state, events, .. } = &mut *hand;
        events.clear();
        state.play(mask, events);
        hand.emit_events(out, cap)
    })
}

/// The seat on turn passes: the count of its events, written to `out` as by `tl_hand_play`, or -1 (on a lead).
///
/// # Safety
/// As `tl_hand_play`.
#[no_mangle]
pub unsafe extern "C" fn tl_hand_pass(hand: Handle<Hand>, out: *mut u64, cap: usize) -> i64 {
    guard(-1, || {
        let mut hand = open(hand)?;
        if hand.state.done || hand.state.table.is_none() {
            return Err("no table to pass on".into());
        }
        let Hand { state, events, .. } = &mut *hand;
        events.clear();
        state.pass_turn(events);
        hand.emit_events(out, cap)
    })
}

/// The number of seats a hand may have at most (the width of `tl_hand_state`'s lists).
#[no_mangle]
pub extern "C" fn tl_max_seats() -> usize {
    MAX_SEATS
}

/// The version of this ABI: the loader refuses a library whose version it does not know (a stale build).
pub const ABI_VERSION: u32 = 3;

/// [`ABI_VERSION`].
#[no_mangle]
pub extern "C" fn tl_abi_version() -> u32 {
    ABI_VERSION
}
