//! The Python face of Hard's compiled inner loops (`medium.rs`, `search.rs`), used by `tienlen.bots.compiled`.

use std::time::{Duration, Instant};

use pyo3::prelude::*;

use crate::bombs::BombRule;
use crate::chains::{Chain, Table};
use crate::combo::classify;
use crate::endgame::ForcedWin;
use crate::hand::{Event, HandState, MAX_SEATS};
use crate::medium;
use crate::search::{self, ActionEvent, Position};
use crate::{combo_of as combo, error, hand_mask, rule};

fn seat_of(seat: usize, players: usize) -> PyResult<usize> {
    if seat >= players {
        return Err(error(format!("seat {seat} is not one of {players} seats")));
    }
    Ok(seat)
}

fn counts(cards_left: &[u32]) -> PyResult<[u32; MAX_SEATS]> {
    if !(2..=MAX_SEATS).contains(&cards_left.len()) {
        return Err(error(format!("2 to {MAX_SEATS} seats' card counts")));
    }
    let mut out = [0; MAX_SEATS];
    out[..cards_left.len()].copy_from_slice(cards_left);
    Ok(out)
}

/// The cost of the hand's best plan (`planner.plan_cost`).
#[pyfunction]
pub fn plan_cost(hand: u64) -> PyResult<f64> {
    Ok(medium::plan_cost(hand_mask(hand)?))
}

/// The hand's best plan as card masks, weakest first (`planner.plan_masks`).
#[pyfunction]
pub fn plan_masks(hand: u64) -> PyResult<Vec<u64>> {
    let mut out = Vec::new();
    medium::plan_combos(hand_mask(hand)?, &mut out);
    Ok(out.iter().map(|c| c.mask).collect())
}

/// Medium's lead (`policy.policy_lead`).
#[pyfunction]
pub fn medium_lead(
    hand: u64,
    cards_left: Vec<u32>,
    seat: usize,
    bombs: &str,
    unseen: u64,
    start_card: Option<u32>,
) -> PyResult<u64> {
    let counts = counts(&cards_left)?;
    let seat = seat_of(seat, cards_left.len())?;
    if hand_mask(hand)? == 0 || start_card.map_or(false, |c| c >= 52) {
        return Err(error("a lead needs cards in hand (and a start card 0..51)".into()));
    }
    let lead = search::policy_lead(
        hand,
        &counts[..cards_left.len()],
        seat,
        rule(bombs)?,
        hand_mask(unseen)?,
        start_card,
    );
    Ok(lead)
}

/// Medium's answer to the table (`policy.policy_answer`; 0 = pass).
#[pyfunction]
pub fn medium_answer(
    hand: u64,
    table: u64,
    table_seat: usize,
    cards_left: Vec<u32>,
    seat: usize,
    bombs: &str,
    locked: bool,
) -> PyResult<u64> {
    let counts = counts(&cards_left)?;
    let players = cards_left.len();
    let (seat, owner) = (seat_of(seat, players)?, seat_of(table_seat, players)?);
    let mut scratch = Vec::with_capacity(16);
    let answer = search::policy_answer(
        hand_mask(hand)?,
        &combo(table)?,
        owner,
        &counts[..players],
        seat,
        rule(bombs)?,
        locked,
        &mut scratch,
    );
    Ok(answer)
}

/// A move and whether it forces a first place (None: unknown).
type Forcing = (u64, Option<bool>);

/// The seat on turn's moves and whether each forces it out first on this deal (None: unknown, the nodes or
/// the seconds ran out), in the order searched; also the positions searched (`endgame.forced_moves`).
#[pyfunction]
#[allow(clippy::too_many_arguments)] // the position's parts, as Python passes them
pub fn forced_moves(
    hands: Vec<u64>,
    turn: usize,
    table: Option<u64>,
    table_seat: Option<usize>,
    locked: u32,
    bombs: &str,
    reentry_rule: bool,
    node_limit: u32,
    seconds: Option<f64>,
) -> PyResult<(Vec<Forcing>, u32)> {
    let players = hands.len();
    if !(2..=MAX_SEATS).contains(&players) {
        return Err(error(format!("2 to {MAX_SEATS} hands")));
    }
    let mut dealt = [0u64; MAX_SEATS];
    let mut all = 0;
    for (seat, &hand) in hands.iter().enumerate() {
        dealt[seat] = hand_mask(hand)?;
        if all & hand != 0 {
            return Err(error("the hands share a card".into()));
        }
        all |= hand;
    }
    let turn = seat_of(turn, players)?;
    let table = table.map(combo).transpose()?;
    let table_seat = table_seat.map(|s| seat_of(s, players)).transpose()?;
    let holders = dealt.iter().filter(|&&h| h != 0).count();
    if table.is_some() != table_seat.is_some() || dealt[turn] == 0 || holders < 2 {
        return Err(error(
            "a table needs its owner, and the seat on turn and another hold cards".into(),
        ));
    }
    let deadline = match seconds {
        Some(s) if s.is_finite() && s >= 0.0 => Some(Instant::now() + Duration::from_secs_f64(s.min(3600.0))),
        Some(_) => return Err(error("seconds must be a finite number, at least 0".into())),
        None => None,
    };
    let state = HandState {
        hands: dealt,
        players,
        turn,
        table,
        table_seat,
        locked: locked & ((1 << players) - 1),
        start_card: None,
        places: Vec::new(),
        done: false,
        rule: rule(bombs)?,
        reentry_rule,
        end_on_first_out: false,
    };
    let mut search = ForcedWin::new(turn, node_limit, deadline);
    let result = search.root(&state);
    Ok((result, search.nodes))
}

/// Hard's playouts from one position: a candidate move, then Medium for every seat until one is out.
#[pyclass(module = "tienlen_native")]
pub struct Playouts {
    position: Position,
    events: Vec<Event>,
    scratch: Vec<u64>,
}

#[pymethods]
impl Playouts {
    /// The position: the searching `seat`, the table (its cards, or None on a lead) and its owner, the
    /// pass locks, the cards played, the start card, the rule set, and the first place's bonus.
    #[new]
    #[allow(clippy::too_many_arguments)] // the position's parts, as Python passes them
    fn new(
        seat: usize,
        players: usize,
        table: Option<u64>,
        table_seat: Option<usize>,
        locked: u32,
        played: u64,
        start_card: Option<u32>,
        bombs: &str,
        reentry_rule: bool,
        end_on_first_out: bool,
        first_bonus: f64,
    ) -> PyResult<Playouts> {
        if !(2..=MAX_SEATS).contains(&players) {
            return Err(error(format!("players must be 2 to {MAX_SEATS}")));
        }
        let table = table.map(combo).transpose()?;
        let table_seat = table_seat.map(|s| seat_of(s, players)).transpose()?;
        if table.is_some() != table_seat.is_some() || start_card.map_or(false, |c| c >= 52) {
            return Err(error("a table needs its owner (and a start card is 0..51)".into()));
        }
        let position = Position {
            seat: seat_of(seat, players)?,
            players,
            table,
            table_seat,
            locked: locked & ((1 << players) - 1),
            played: hand_mask(played)?,
            start_card,
            rule: rule(bombs)?,
            reentry_rule,
            end_on_first_out,
            first_bonus,
        };
        Ok(Playouts {
            position,
            events: Vec::with_capacity(8),
            scratch: Vec::with_capacity(32),
        })
    }

    /// For each move (a mask, 0 = pass) on this deal (a hand a seat): (points, simulated actions).
    fn values(&mut self, hands: Vec<u64>, moves: Vec<u64>) -> PyResult<Vec<(f64, u32)>> {
        let p = &self.position;
        if hands.len() != p.players {
            return Err(error(format!("a deal is {} hands", p.players)));
        }
        let mut holders = 0;
        for &hand in &hands {
            holders += (hand_mask(hand)? != 0) as usize;
        }
        let own = hands[p.seat];
        for &mv in &moves {
            let fits = if mv == 0 {
                p.table.is_some()
            } else {
                classify(mv).is_some() && mv & !own == 0
            };
            if !fits || own == 0 || holders < 2 {
                return Err(error(format!(
                    "{mv:#x} is not a play or pass of seat {} on this deal",
                    p.seat
                )));
            }
        }
        let (events, scratch) = (&mut self.events, &mut self.scratch);
        Ok(moves
            .iter()
            .map(|&mv| self.position.playout_value(&hands, mv, events, scratch))
            .collect())
    }
}

/// One seat's actions this hand, judged against sampled hands (`sampling.DealChain._misses`).
#[pyclass(module = "tienlen_native")]
pub struct SeatActions {
    actions: search::SeatActions,
    rule: &'static BombRule,
    scratch: Vec<u64>,
}

/// An action as Python passes it: (seat, table cards or None, table owner or None, locked, cards played
/// from then on, every seat's card count then, the cards played (0 = pass), the cards seen before it).
type ActionTuple = (usize, Option<u64>, Option<usize>, bool, u64, Vec<u32>, u64, u64);

fn action_events(actions: Vec<ActionTuple>) -> PyResult<Vec<ActionEvent>> {
    let mut events = Vec::with_capacity(actions.len());
    for (seat, table, table_seat, locked, later, cards_left, action, seen) in actions {
        let players = cards_left.len();
        let table = table.map(combo).transpose()?;
        if table.is_some() != table_seat.is_some() || (table.is_none() && action == 0) {
            return Err(error("an answer needs its table's owner, and a lead is a play".into()));
        }
        events.push(ActionEvent {
            seat: seat_of(seat, players)?,
            table,
            table_seat: table_seat.map_or(Ok(0), |s| seat_of(s, players))?,
            locked,
            later: hand_mask(later)?,
            cards_left: counts(&cards_left)?,
            players,
            action: hand_mask(action)?,
            seen: hand_mask(seen)?,
        });
    }
    Ok(events)
}

#[pymethods]
impl SeatActions {
    /// The actions, in the order they are judged first.
    #[new]
    fn new(actions: Vec<ActionTuple>, bombs: &str) -> PyResult<SeatActions> {
        Ok(SeatActions {
            actions: search::SeatActions {
                events: action_events(actions)?,
            },
            rule: rule(bombs)?,
            scratch: Vec::with_capacity(16),
        })
    }

    /// (actions Medium would not have chosen holding `hand`, counting stopped once past `limit`; whether the
    /// count is complete; how many actions were judged).
    fn misses(&mut self, hand: u64, limit: u32) -> PyResult<(u32, bool, u32)> {
        Ok(self
            .actions
            .misses(hand_mask(hand)?, limit, self.rule, &mut self.scratch))
    }
}

/// Hard's deal chains (`sampling.DealChains`): independent chains whose deals are handed out in turn.
#[pyclass(module = "tienlen_native")]
pub struct DealChains {
    table: Table,
    chains: Vec<Chain>,
    next: usize,
    scratch: Vec<u64>,
}

#[pymethods]
impl DealChains {
    /// Chains over the unseen cards of `seat` (holding `hand`; every seat's count in `cards_left`), judged by
    /// the other seats' `actions`, one chain per seed; `threshold` is the likelihood of a miss as a fraction
    /// of 2**32, `burn_in` the steps before a chain's first deal and `thinning` the steps between two deals.
    #[new]
    #[allow(clippy::too_many_arguments)] // the chains' parts, as Python passes them
    fn new(
        seat: usize,
        hand: u64,
        cards_left: Vec<u32>,
        unseen: u64,
        actions: Vec<ActionTuple>,
        bombs: &str,
        seeds: Vec<u64>,
        threshold: u64,
        burn_in: u32,
        thinning: u32,
    ) -> PyResult<DealChains> {
        let players = cards_left.len();
        let counts = counts(&cards_left)?;
        let seat = seat_of(seat, players)?;
        let (hand, unseen) = (hand_mask(hand)?, hand_mask(unseen)?);
        let wanted: u32 = (0..players).filter(|&s| s != seat).map(|s| counts[s]).sum();
        if hand & unseen != 0 || unseen.count_ones() < wanted || seeds.is_empty() || threshold >= 1 << 32 {
            return Err(error(
                "the unseen cards must fit the other seats' counts (and a chain needs a seed)".into(),
            ));
        }
        let events = action_events(actions)?;
        let table = Table::new(
            seat,
            players,
            hand,
            counts,
            unseen,
            events,
            rule(bombs)?,
            threshold,
            burn_in,
            thinning,
        );
        let chains = seeds.iter().map(|&seed| Chain::new(&table, seed)).collect();
        Ok(DealChains {
            table,
            chains,
            next: 0,
            scratch: Vec::with_capacity(32),
        })
    }

    /// The actions judged by all the chains so far.
    #[getter]
    fn work(&self) -> u64 {
        self.chains.iter().map(|c| c.work).sum()
    }

    /// The next chain's next deal (a hand a seat; the seat's own hand as it is).
    fn next_deal(&mut self) -> Vec<u64> {
        let index = self.next % self.chains.len();
        self.next += 1;
        self.chains[index]
            .next_deal(&mut self.table, &mut self.scratch)
            .to_vec()
    }
}
