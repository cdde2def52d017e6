//! Master's network choosing a seat's moves inside the core: its inputs read from a hand in play, and its pick.
//!
//! Mirrors `tienlen/bots/master_features.py` (`situation_inputs`, `action_inputs`, `read`) and Hard's
//! `candidates` (`tienlen/bots/hard.py`), on the state a playout keeps: the seat's hand, the cards each seat played
//! this hand, the counts, pass locks, the table and its owner. The Python features are the reference
//! (`tests/bots/test_master_compiled.py` compares them). A playout may ask [`NetPolicy::choose`] for the searching
//! seat's moves instead of Medium's: the network values Hard's candidates and the best is played.

use crate::abi::{emit, guard, optional, slice};
use crate::bots::seat_of;
use crate::combo::{classify, Combo, DECK, KINDS, TWO_RANK};
use crate::hand::MAX_SEATS;
use crate::medium::{answer_score, plan_combos, plan_cost, plan_pieces, Piece};
use crate::net::Net;
use crate::{combo_of as combo, hand_mask, start_card_of};

const CARDS: u32 = 52;
const MAX_COUNT: u32 = 13;
const OTHER_SEATS: u32 = MAX_SEATS as u32 - 1;
/// Hard's `MAX_CANDIDATES`.
pub const MAX_CANDIDATES: usize = 5;

const HAND_AFTER: u32 = 0;
const ACTION_CARDS: u32 = HAND_AFTER + CARDS;
const UNSEEN: u32 = ACTION_CARDS + CARDS;
const TABLE: u32 = UNSEEN + CARDS;
const SEATS: u32 = TABLE + CARDS;
const SEAT_PLAYED: u32 = 0;
const SEAT_COUNT: u32 = SEAT_PLAYED + CARDS;
const SEAT_LOCKED: u32 = SEAT_COUNT + MAX_COUNT + 1;
const SEAT_OUT: u32 = SEAT_LOCKED + 1;
const SEAT_OWNS_TABLE: u32 = SEAT_OUT + 1;
const SEAT_BLOCK: u32 = SEAT_OWNS_TABLE + 1;
const ACTION_KIND: u32 = SEATS + OTHER_SEATS * SEAT_BLOCK;
const COUNT_AFTER: u32 = ACTION_KIND + 1 + KINDS as u32;
const LEADING: u32 = COUNT_AFTER + MAX_COUNT + 1;
const REENTRY: u32 = LEADING + 1;
const PLAYERS: u32 = REENTRY + 1;
const CANDIDATE: u32 = PLAYERS + MAX_SEATS as u32 - 1;
const PLAN_SIZE: u32 = CANDIDATE + MAX_CANDIDATES as u32 + 1;
const PLAN_COST: u32 = PLAN_SIZE + MAX_COUNT + 1;
const CONTROL: u32 = PLAN_COST + MAX_COUNT + 1;
const TWOS: u32 = CONTROL + 5;
/// The network's inputs (`master_features.INPUTS`).
pub const INPUTS: u32 = TWOS + 5;

/// The `MAX_SEATS` cards-played masks of a seat's sight, refused unless each is a hand mask.
pub fn played_masks(masks: &[u64]) -> Result<[u64; MAX_SEATS], String> {
    let mut by = [0u64; MAX_SEATS];
    for (seat, &mask) in masks.iter().take(MAX_SEATS).enumerate() {
        by[seat] = crate::hand_mask(mask)?;
    }
    Ok(by)
}

fn bits(mut mask: u64, offset: u32, out: &mut Vec<u32>) {
    while mask != 0 {
        out.push(offset + mask.trailing_zeros());
        mask &= mask - 1;
    }
}

/// Python's `round` (halves to even), as the reference rounds the plan's cost.
fn round_half_even(x: f64) -> f64 {
    let r = x.round();
    if (x - x.trunc()).abs() == 0.5 {
        2.0 * (x / 2.0).round()
    } else {
        r
    }
}

/// What the seat on turn sees of a hand in play.
pub struct Sight<'a> {
    pub seat: usize,
    pub players: usize,
    pub hand: u64,
    /// The cards each seat played this hand.
    pub played_by: &'a [u64; MAX_SEATS],
    pub cards_left: &'a [u32],
    pub locked: u32,
    pub table: Option<Combo>,
    pub table_seat: Option<usize>,
    pub start_card: Option<u32>,
}

impl Sight<'_> {
    fn played(&self) -> u64 {
        self.played_by.iter().fold(0, |all, &m| all | m)
    }

    /// The cards neither in the seat's hand nor played.
    pub fn unseen(&self) -> u64 {
        DECK & !self.hand & !self.played()
    }

    /// `master_features.situation_inputs`, into `out` (cleared first).
    pub fn situation_inputs(&self, out: &mut Vec<u32>) {
        out.clear();
        bits(self.unseen(), UNSEEN, out);
        if let Some(table) = &self.table {
            bits(table.mask, TABLE, out);
        }
        for step in 1..self.players {
            let seat = (self.seat + step) % self.players;
            let base = SEATS + (step as u32 - 1) * SEAT_BLOCK;
            bits(self.played_by[seat], base + SEAT_PLAYED, out);
            out.push(base + SEAT_COUNT + self.cards_left[seat].min(MAX_COUNT));
            if self.locked >> seat & 1 == 1 {
                out.push(base + SEAT_LOCKED);
            }
            if self.cards_left[seat] == 0 {
                out.push(base + SEAT_OUT);
            }
            if self.table.is_some() && self.table_seat == Some(seat) {
                out.push(base + SEAT_OWNS_TABLE);
            }
        }
        if self.table.is_none() {
            out.push(LEADING);
        }
        if self.locked >> self.seat & 1 == 1 {
            out.push(REENTRY);
        }
        out.push(PLAYERS + self.players.clamp(2, MAX_SEATS) as u32 - 2);
    }

    /// Hard's candidates (`hard.candidates`): Medium's choice first, then the plan's plays on a lead (or the plays
    /// with the start card, most cards first; else the plays of three cards or more with the lowest card), or the
    /// answers by Medium's score with a pass second; at most [`MAX_CANDIDATES`], into `out`.
    pub fn candidates(&self, legal: &[u64], medium: u64, out: &mut Vec<u64>) {
        out.clear();
        out.push(medium);
        let mut pool: Vec<u64> = Vec::with_capacity(legal.len() + 1);
        match &self.table {
            None => {
                let mut plan = Vec::with_capacity(13);
                plan_combos(self.hand, &mut plan);
                pool.extend(plan.iter().map(|c| c.mask).filter(|m| legal.contains(m)));
                if let Some(start) = self.start_card {
                    let mut with: Vec<u64> = legal.iter().copied().filter(|m| m >> start & 1 == 1).collect();
                    with.sort_by_key(|m| std::cmp::Reverse(m.count_ones())); // stable, as Python's sort
                    pool.extend(with);
                } else {
                    let lowest = self.hand & self.hand.wrapping_neg();
                    pool.extend(legal.iter().copied().filter(|m| m.count_ones() >= 3 && m & lowest != 0));
                }
            }
            Some(table) => {
                let cost = plan_cost(self.hand);
                let mut scored: Vec<(f64, u64)> = legal
                    .iter()
                    .map(|&m| (answer_score(self.hand, cost, m, table, true), m))
                    .collect();
                scored.sort_by(|a, b| b.0.partial_cmp(&a.0).expect("scores are finite"));
                pool.extend(scored.iter().map(|s| s.1));
                pool.insert(1.min(pool.len()), 0);
            }
        }
        for m in pool {
            if out.len() >= MAX_CANDIDATES {
                break;
            }
            if !out.contains(&m) {
                out.push(m);
            }
        }
    }

    /// `master_features.action_inputs` for the action `mask` (0 = a pass), into `out` (cleared first).
    pub fn action_inputs(&self, candidates: &[u64], top_unseen: i32, mask: u64, out: &mut Vec<u32>) {
        out.clear();
        let after = self.hand & !mask;
        bits(after, HAND_AFTER, out);
        if mask == 0 {
            out.push(ACTION_KIND);
        } else {
            bits(mask, ACTION_CARDS, out);
            let kind = classify(mask).map_or(0, |c| c.kind);
            out.push(ACTION_KIND + 1 + u32::from(kind));
        }
        out.push(COUNT_AFTER + after.count_ones().min(MAX_COUNT));
        let rank = candidates.iter().position(|&c| c == mask).unwrap_or(MAX_CANDIDATES);
        out.push(CANDIDATE + rank.min(MAX_CANDIDATES) as u32);
        if after == 0 {
            out.push(PLAN_SIZE);
            out.push(PLAN_COST);
        } else {
            let mut pieces: Vec<Piece> = Vec::with_capacity(13);
            plan_pieces(after, &mut pieces);
            out.push(PLAN_SIZE + (pieces.len() as u32).min(MAX_COUNT));
            out.push(PLAN_COST + (round_half_even(plan_cost(after)) as u32).min(MAX_COUNT));
        }
        out.push(CONTROL + (after >> (top_unseen + 1) as u32).count_ones().min(4));
        out.push(TWOS + (after >> (4 * TWO_RANK)).count_ones());
    }
}

/// The network as a seat's policy, with its scratch lists.
pub struct NetPolicy {
    pub net: std::sync::Arc<Net>,
    pub first_bonus: f64,
    shared: Vec<u32>,
    own: Vec<u32>,
    cands: Vec<u64>,
    situation: Vec<f32>,
    layer: Vec<f32>,
}

impl NetPolicy {
    pub fn new(net: std::sync::Arc<Net>, first_bonus: f64) -> NetPolicy {
        NetPolicy {
            net,
            first_bonus,
            shared: Vec::with_capacity(128),
            own: Vec::with_capacity(64),
            cands: Vec::with_capacity(MAX_CANDIDATES),
            situation: Vec::with_capacity(256),
            layer: Vec::with_capacity(256),
        }
    }

    /// The candidate the network values most (`master.worth`: place points plus the first-place bonus times the
    /// chance of first place; the lanes' pass, [`Net::blocked_logits`]); Medium's choice when it is the only one.
    pub fn choose(&mut self, sight: &Sight, legal: &[u64], medium: u64) -> u64 {
        let mut cands = std::mem::take(&mut self.cands);
        sight.candidates(legal, medium, &mut cands);
        if cands.len() < 2 {
            self.cands = cands;
            return medium;
        }
        sight.situation_inputs(&mut self.shared);
        self.net.situation32(&self.shared, &mut self.situation);
        let unseen = sight.unseen();
        let top_unseen = if unseen == 0 {
            -1
        } else {
            63 - unseen.leading_zeros() as i32
        };
        let (mut best, mut best_worth) = (medium, f64::NEG_INFINITY);
        let mut logits = [0.0f32; 2];
        for &mask in &cands {
            sight.action_inputs(&cands, top_unseen, mask, &mut self.own);
            self.net
                .blocked_logits(&self.situation, &self.own, &mut self.layer, &mut logits);
            let (first, points) = (f64::from(logits[0]), f64::from(logits[1]));
            let worth = (sight.players - 1) as f64 * sigmoid(points) + self.first_bonus * sigmoid(first);
            if worth > best_worth {
                best = mask;
                best_worth = worth;
            }
        }
        self.cands = cands;
        best
    }
}

fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        x.exp() / (1.0 + x.exp())
    }
}

/// Hard's candidates, then the inputs that are 1 for the seat's situation and for each of `actions`, into `out`:
/// the candidates' count and each as two halves (low 32 bits, then high), the situation's count and inputs, then
/// each action's count and inputs. For the differential tests (`tl_net_features`).
pub fn features(sight: &Sight, legal: &[u64], medium: u64, actions: &[u64], out: &mut Vec<u32>) {
    let mut cands = Vec::with_capacity(MAX_CANDIDATES);
    sight.candidates(legal, medium, &mut cands);
    out.clear();
    out.push(cands.len() as u32);
    for &c in &cands {
        out.push(c as u32);
        out.push((c >> 32) as u32);
    }
    let mut scratch = Vec::with_capacity(128);
    sight.situation_inputs(&mut scratch);
    out.push(scratch.len() as u32);
    out.extend(&scratch);
    let unseen = sight.unseen();
    let top_unseen = if unseen == 0 {
        -1
    } else {
        63 - unseen.leading_zeros() as i32
    };
    for &mask in actions {
        sight.action_inputs(&cands, top_unseen, mask, &mut scratch);
        out.push(scratch.len() as u32);
        out.extend(&scratch);
    }
}

/// Master's network's inputs as the core reads them (`netplay::features`) for the seat on turn: its hand, the cards
/// each seat played this hand (`MAX_SEATS` masks), the counts, the locks, the table (-1 on a lead) and its owner
/// (-1), the start card (-1), its legal plays, Medium's choice (0 = pass), and the actions to read; into `out` (at
/// most `cap`), their count; -1 when refused.
///
/// # Safety
/// `played_by` points at `MAX_SEATS` masks, `cards_left` at `players` counts, `legal` at `n_legal` masks,
/// `actions` at `n_actions`, `out` at `cap` writable numbers.
#[no_mangle]
#[allow(clippy::too_many_arguments)] // a seat's sight, as Python passes it
pub unsafe extern "C" fn tl_net_features(
    seat: usize,
    players: usize,
    hand: u64,
    played_by: *const u64,
    cards_left: *const u32,
    locked: u32,
    table: i64,
    table_seat: i64,
    start_card: i64,
    legal: *const u64,
    n_legal: usize,
    medium: u64,
    actions: *const u64,
    n_actions: usize,
    out: *mut u32,
    cap: usize,
) -> i64 {
    guard(-1, || {
        if !(2..=MAX_SEATS).contains(&players) {
            return Err(format!("players must be 2 to {MAX_SEATS}"));
        }
        let played_by = played_masks(slice(played_by, MAX_SEATS)?)?;
        let table = optional(table).map(combo).transpose()?;
        let table_seat = optional(table_seat).map(|s| seat_of(s as usize, players)).transpose()?;
        let sight = Sight {
            seat: seat_of(seat, players)?,
            players,
            hand: hand_mask(hand)?,
            played_by: &played_by,
            cards_left: slice(cards_left, players)?,
            locked,
            table,
            table_seat,
            start_card: start_card_of(start_card)?,
        };
        let mut found = Vec::with_capacity(256);
        features(
            &sight,
            slice(legal, n_legal)?,
            medium,
            slice(actions, n_actions)?,
            &mut found,
        );
        Ok(emit(&found, out, cap))
    })
}
