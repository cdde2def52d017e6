//! The C face of Hard's compiled inner loops (`medium.rs`, `search.rs`, `chains.rs`, `endgame.rs`), used by
//! `tienlen.bots.compiled` through `tienlen.engine.native`. Conventions as in `abi.rs`.

use std::time::{Duration, Instant};

use crate::abi::{
    emit, emit_masks, emit_out, free_handle, guard, new_handle, open, optional, slice, with_out, Handle, OUT_ROOM,
};
use crate::bombs::BombRule;
use crate::chains::{Chain, Table};
use crate::combo::classify;
use crate::endgame::ForcedWin;
use crate::hand::{Event, HandState, MAX_SEATS};
use crate::medium;
use crate::net::Net;
use crate::netplay::{played_masks, NetPolicy, INPUTS};
use crate::search::{self, ActionEvent, OwnPolicy, Position};
use crate::{combo_of as combo, hand_mask, rule, start_card_of};

pub(crate) fn seat_of(seat: usize, players: usize) -> Result<usize, String> {
    if seat >= players {
        return Err(format!("seat {seat} is not one of {players} seats"));
    }
    Ok(seat)
}

fn counts(cards_left: &[u32]) -> Result<[u32; MAX_SEATS], String> {
    if !(2..=MAX_SEATS).contains(&cards_left.len()) {
        return Err(format!("2 to {MAX_SEATS} seats' card counts"));
    }
    let mut out = [0; MAX_SEATS];
    out[..cards_left.len()].copy_from_slice(cards_left);
    Ok(out)
}

/// The cost of the hand's best plan (`planner.plan_cost`) into `out`. 0, or -1.
///
/// # Safety
/// `out` points at one writable number.
#[no_mangle]
pub unsafe extern "C" fn tl_plan_cost(hand: u64, out: *mut f64) -> i32 {
    guard(-1, || {
        *out = medium::plan_cost(hand_mask(hand)?);
        Ok(0)
    })
}

/// The hand's best plan as card masks, weakest first (`planner.plan_masks`): their count, or -1.
///
/// # Safety
/// `out` points at `cap` writable masks.
#[no_mangle]
pub unsafe extern "C" fn tl_plan_masks(hand: u64, out: *mut u64, cap: usize) -> i64 {
    guard(-1, || {
        let mut plan = Vec::new();
        medium::plan_combos(hand_mask(hand)?, &mut plan);
        Ok(emit_masks(out, cap, |masks| masks.extend(plan.iter().map(|c| c.mask))))
    })
}

/// Medium's lead (`policy.policy_lead`; the start card or -1), or -1.
///
/// # Safety
/// `cards_left` points at `players` counts.
#[no_mangle]
pub unsafe extern "C" fn tl_medium_lead(
    hand: u64,
    cards_left: *const u32,
    players: usize,
    seat: usize,
    bombs: u32,
    unseen: u64,
    start_card: i64,
) -> i64 {
    guard(-1, || {
        let cards_left = slice(cards_left, players)?;
        let counts = counts(cards_left)?;
        let seat = seat_of(seat, players)?;
        let start_card = start_card_of(start_card);
        if hand_mask(hand)? == 0 || start_card.is_err() {
            return Err("a lead needs cards in hand (and a start card 0..51)".into());
        }
        let lead = search::policy_lead(
            hand,
            &counts[..players],
            seat,
            rule(bombs)?,
            hand_mask(unseen)?,
            start_card?,
        );
        Ok(lead as i64)
    })
}

/// Medium's answer to the table (its cards; `policy.policy_answer`; 0 = pass), or -1.
///
/// # Safety
/// `cards_left` points at `players` counts.
#[no_mangle]
#[allow(clippy::too_many_arguments)] // the answer's inputs, as Python passes them
pub unsafe extern "C" fn tl_medium_answer(
    hand: u64,
    table: u64,
    table_seat: usize,
    cards_left: *const u32,
    players: usize,
    seat: usize,
    bombs: u32,
    locked: bool,
) -> i64 {
    guard(-1, || {
        let counts = counts(slice(cards_left, players)?)?;
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
        Ok(answer as i64)
    })
}

/// Whether a move forces a first place, as `tl_forced_moves` writes it: 0 no, 1 yes, 2 unknown.
fn forcing_number(forces: Option<bool>) -> u64 {
    forces.map_or(2, u64::from)
}

/// The seat on turn's moves and whether each forces it out first on this deal (unknown: the nodes or the seconds
/// ran out), in the order searched (`endgame.forced_moves`): pairs (move, `forcing_number`) into `out` (room for
/// `cap` pairs), the positions searched into `nodes`. The count of moves, or -1. The table is its cards or -1
/// (its seat then -1); `seconds` counts only with `timed`.
///
/// # Safety
/// `hands` points at `players` masks, `out` at `2 * cap` writable numbers, `nodes` at one.
#[no_mangle]
#[allow(clippy::too_many_arguments)] // the position's parts, as Python passes them
pub unsafe extern "C" fn tl_forced_moves(
    hands: *const u64,
    players: usize,
    turn: usize,
    table: i64,
    table_seat: i64,
    locked: u32,
    bombs: u32,
    reentry_rule: bool,
    node_limit: u32,
    timed: bool,
    seconds: f64,
    out: *mut u64,
    cap: usize,
    nodes: *mut u32,
) -> i64 {
    guard(-1, || {
        if !(2..=MAX_SEATS).contains(&players) {
            return Err(format!("2 to {MAX_SEATS} hands"));
        }
        let mut dealt = [0u64; MAX_SEATS];
        let mut all = 0;
        for (seat, &hand) in slice(hands, players)?.iter().enumerate() {
            dealt[seat] = hand_mask(hand)?;
            if all & hand != 0 {
                return Err("the hands share a card".into());
            }
            all |= hand;
        }
        let turn = seat_of(turn, players)?;
        let table = optional(table).map(combo).transpose()?;
        let table_seat = optional(table_seat).map(|s| seat_of(s as usize, players)).transpose()?;
        let holders = dealt.iter().filter(|&&h| h != 0).count();
        if table.is_some() != table_seat.is_some() || dealt[turn] == 0 || holders < 2 {
            return Err("a table needs its owner, and the seat on turn and another hold cards".into());
        }
        let deadline = match (timed, seconds) {
            (true, s) if s.is_finite() && s >= 0.0 => Some(Instant::now() + Duration::from_secs_f64(s.min(3600.0))),
            (true, _) => return Err("seconds must be a finite number, at least 0".into()),
            (false, _) => None,
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
        let pairs: Vec<u64> = result
            .iter()
            .flat_map(|&(mv, forces)| [mv, forcing_number(forces)])
            .collect();
        emit(&pairs, out, 2 * cap);
        *nodes = search.nodes;
        Ok(result.len() as i64)
    })
}

/// Hard's playouts from one position: a candidate move, then Medium for every seat until one is out.
pub struct Playouts {
    position: Position,
    events: Vec<Event>,
    scratch: Vec<u64>,
    own: Option<OwnPolicy>,
}

impl Playouts {
    /// Refuse a deal (a hand a seat) or moves (masks, 0 = pass) that the position cannot play out.
    fn check(&self, hands: &[u64], moves: &[u64]) -> Result<(), String> {
        let p = &self.position;
        if hands.len() != p.players {
            return Err(format!("a deal is {} hands", p.players));
        }
        let mut holders = 0;
        for &hand in hands {
            holders += (hand_mask(hand)? != 0) as usize;
        }
        let own = hands[p.seat];
        for &mv in moves {
            let fits = if mv == 0 {
                p.table.is_some()
            } else {
                classify(mv).is_some() && mv & !own == 0
            };
            if !fits || own == 0 || holders < 2 {
                return Err(format!("{mv:#x} is not a play or pass of seat {} on this deal", p.seat));
            }
        }
        Ok(())
    }

    /// The points and simulated actions of one move on a deal (checked by [`Playouts::check`]).
    fn value(&mut self, hands: &[u64], mv: u64) -> (f64, u32) {
        let Playouts {
            position,
            events,
            scratch,
            own,
        } = self;
        position.playout_value(hands, mv, events, scratch, own.as_mut())
    }
}

/// Playouts from a position: the searching `seat`, the table (its cards, or -1 on a lead) and its owner (-1), the
/// pass locks, the cards played, the start card (-1), the rule set, and the first place's bonus. A handle, or null.
#[no_mangle]
#[allow(clippy::too_many_arguments)] // the position's parts, as Python passes them
pub extern "C" fn tl_playouts_new(
    seat: usize,
    players: usize,
    table: i64,
    table_seat: i64,
    locked: u32,
    played: u64,
    start_card: i64,
    bombs: u32,
    reentry_rule: bool,
    end_on_first_out: bool,
    first_bonus: f64,
) -> Handle<Playouts> {
    guard(std::ptr::null_mut(), || {
        if !(2..=MAX_SEATS).contains(&players) {
            return Err(format!("players must be 2 to {MAX_SEATS}"));
        }
        let table = optional(table).map(combo).transpose()?;
        let table_seat = optional(table_seat).map(|s| seat_of(s as usize, players)).transpose()?;
        let start_card = start_card_of(start_card);
        if table.is_some() != table_seat.is_some() || start_card.is_err() {
            return Err("a table needs its owner (and a start card is 0..51)".into());
        }
        let position = Position {
            seat: seat_of(seat, players)?,
            players,
            table,
            table_seat,
            locked: locked & ((1 << players) - 1),
            played: hand_mask(played)?,
            start_card: start_card?,
            rule: rule(bombs)?,
            reentry_rule,
            end_on_first_out,
            first_bonus,
        };
        Ok(new_handle(Playouts {
            position,
            events: Vec::with_capacity(8),
            scratch: Vec::with_capacity(32),
            own: None,
        }))
    })
}

/// From now on the searching seat's next `moves` moves in these playouts are the network's pick among Hard's
/// candidates, Medium's after them (`played_by`: the `MAX_SEATS` masks of the cards each seat played this hand before the position; `first_bonus`:
/// the first place's weight in the network's worth). 0, or -1.
///
/// # Safety
/// `playouts` and `net` are live handles; `played_by` points at `MAX_SEATS` masks.
#[no_mangle]
pub unsafe extern "C" fn tl_playouts_use_net(
    playouts: Handle<Playouts>,
    net: Handle<std::sync::Arc<Net>>,
    played_by: *const u64,
    first_bonus: f64,
    moves: u32,
) -> i32 {
    guard(-1, || {
        let mut playouts = open(playouts)?;
        let net = open(net)?.clone();
        if net.inputs() != INPUTS as usize || net.outputs() != 2 {
            return Err(format!(
                "the playouts' network reads {INPUTS} inputs and gives 2 outputs"
            ));
        }
        playouts.own = Some(OwnPolicy {
            net: NetPolicy::new(net, first_bonus),
            played_by: played_masks(slice(played_by, MAX_SEATS)?)?,
            legal: Vec::with_capacity(64),
            moves,
        });
        Ok(0)
    })
}

/// Free playouts.
///
/// # Safety
/// `playouts` came from `tl_playouts_new` and is freed once.
#[no_mangle]
pub unsafe extern "C" fn tl_playouts_free(playouts: Handle<Playouts>) {
    free_handle(playouts)
}

/// For each move (a mask, 0 = pass) on a deal (a hand a seat): its points and its simulated actions, into this
/// thread's output buffer (`tl_out`): the points of every move (`f64`), then their simulated actions. `deal_and_moves`
/// holds the `players` hands, then the `move_count` moves. 0, or -1.
///
/// # Safety
/// `playouts` is a live handle; `deal_and_moves` points at `players + move_count` masks.
#[no_mangle]
pub unsafe extern "C" fn tl_playouts_values(
    playouts: Handle<Playouts>,
    deal_and_moves: *const u64,
    players: usize,
    move_count: usize,
) -> i32 {
    guard(-1, || {
        let mut playouts = open(playouts)?;
        if 2 * move_count > OUT_ROOM {
            return Err(format!("at most {} moves a call", OUT_ROOM / 2));
        }
        let numbers = slice(deal_and_moves, players + move_count)?;
        let (hands, moves) = numbers.split_at(players);
        playouts.check(hands, moves)?;
        with_out(|out| {
            for (i, &mv) in moves.iter().enumerate() {
                let (value, simulated) = playouts.value(hands, mv);
                out[i] = value.to_bits();
                out[move_count + i] = u64::from(simulated);
            }
        });
        Ok(0)
    })
}

/// The numbers an action is written as in `tl_seat_actions_new` and `tl_deal_chains_new`: the seat, the table's
/// cards (-1 on a lead), its owner (-1), locked (0/1), the cards played from then on, the number of seats, every
/// seat's card count then (`MAX_SEATS`, the seats past the last 0), the cards played (0 = pass), the cards seen.
pub const ACTION_WIDTH: usize = 8 + MAX_SEATS;

unsafe fn action_events(actions: *const i64, count: usize) -> Result<Vec<ActionEvent>, String> {
    let numbers = slice(actions, ACTION_WIDTH * count)?;
    let mut events = Vec::with_capacity(count);
    for a in numbers.chunks_exact(ACTION_WIDTH) {
        let mask = |n: i64| hand_mask(n as u64);
        let players = a[5] as usize;
        if !(2..=MAX_SEATS).contains(&players) {
            return Err(format!("2 to {MAX_SEATS} seats' card counts"));
        }
        let cards_left: Vec<u32> = a[6..6 + players].iter().map(|&c| c as u32).collect();
        let (seat, table, table_seat, action) =
            (a[0] as usize, optional(a[1]), optional(a[2]), a[6 + MAX_SEATS] as u64);
        let table = table.map(combo).transpose()?;
        if table.is_some() != table_seat.is_some() || (table.is_none() && action == 0) {
            return Err("an answer needs its table's owner, and a lead is a play".into());
        }
        events.push(ActionEvent {
            seat: seat_of(seat, players)?,
            table,
            table_seat: table_seat.map_or(Ok(0), |s| seat_of(s as usize, players))?,
            locked: a[3] != 0,
            later: mask(a[4])?,
            cards_left: counts(&cards_left)?,
            players,
            action: hand_mask(action)?,
            seen: mask(a[7 + MAX_SEATS])?,
        });
    }
    Ok(events)
}

/// One seat's actions this hand, judged against sampled hands (`sampling.DealChain._misses`).
pub struct SeatActions {
    actions: search::SeatActions,
    rule: &'static BombRule,
    scratch: Vec<u64>,
}

/// One seat's actions (`ACTION_WIDTH` numbers each), in the order they are judged first. A handle, or null.
///
/// # Safety
/// `actions` points at `ACTION_WIDTH * count` numbers.
#[no_mangle]
pub unsafe extern "C" fn tl_seat_actions_new(actions: *const i64, count: usize, bombs: u32) -> Handle<SeatActions> {
    guard(std::ptr::null_mut(), || {
        Ok(new_handle(SeatActions {
            actions: search::SeatActions {
                events: action_events(actions, count)?,
            },
            rule: rule(bombs)?,
            scratch: Vec::with_capacity(16),
        }))
    })
}

/// Free a seat's actions.
///
/// # Safety
/// `actions` came from `tl_seat_actions_new` and is freed once.
#[no_mangle]
pub unsafe extern "C" fn tl_seat_actions_free(actions: Handle<SeatActions>) {
    free_handle(actions)
}

/// Into `out`: the actions Medium would not have chosen holding `hand`, counting stopped once past `limit`;
/// whether the count is complete (0/1); how many actions were judged. 0, or -1.
///
/// # Safety
/// `actions` is a live handle; `out` points at three writable numbers.
#[no_mangle]
pub unsafe extern "C" fn tl_seat_actions_misses(
    actions: Handle<SeatActions>,
    hand: u64,
    limit: u32,
    out: *mut u32,
) -> i32 {
    guard(-1, || {
        let mut judge = open(actions)?;
        let SeatActions { actions, rule, scratch } = &mut *judge;
        let (misses, complete, judged) = actions.misses(hand_mask(hand)?, limit, rule, scratch);
        emit(&[misses, complete as u32, judged], out, 3);
        Ok(0)
    })
}

/// Hard's deal chains (`sampling.DealChains`): independent chains whose deals are handed out in turn.
pub struct DealChains {
    table: Table,
    chains: Vec<Chain>,
    next: usize,
    scratch: Vec<u64>,
}

/// Chains over the unseen cards of `seat` (holding `hand`; every seat's count in `cards_left`), judged by the
/// other seats' `actions` (`ACTION_WIDTH` numbers each), one chain per seed; `threshold` is the likelihood of a
/// miss as a fraction of 2**32, `burn_in` the steps before a chain's first deal and `thinning` the steps between
/// two deals. A handle, or null.
///
/// # Safety
/// `cards_left` points at `players` counts, `actions` at `ACTION_WIDTH * action_count` numbers, `seeds` at
/// `seed_count`.
#[no_mangle]
#[allow(clippy::too_many_arguments)] // the chains' parts, as Python passes them
pub unsafe extern "C" fn tl_deal_chains_new(
    seat: usize,
    hand: u64,
    cards_left: *const u32,
    players: usize,
    unseen: u64,
    actions: *const i64,
    action_count: usize,
    bombs: u32,
    seeds: *const u64,
    seed_count: usize,
    threshold: u64,
    burn_in: u32,
    thinning: u32,
) -> Handle<DealChains> {
    guard(std::ptr::null_mut(), || {
        let counts = counts(slice(cards_left, players)?)?;
        let seat = seat_of(seat, players)?;
        let (hand, unseen) = (hand_mask(hand)?, hand_mask(unseen)?);
        let seeds = slice(seeds, seed_count)?;
        let wanted: u32 = (0..players).filter(|&s| s != seat).map(|s| counts[s]).sum();
        if hand & unseen != 0 || unseen.count_ones() < wanted || seeds.is_empty() || threshold >= 1 << 32 {
            return Err("the unseen cards must fit the other seats' counts (and a chain needs a seed)".into());
        }
        let events = action_events(actions, action_count)?;
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
        Ok(new_handle(DealChains {
            table,
            chains,
            next: 0,
            scratch: Vec::with_capacity(32),
        }))
    })
}

/// Free deal chains.
///
/// # Safety
/// `chains` came from `tl_deal_chains_new` and is freed once.
#[no_mangle]
pub unsafe extern "C" fn tl_deal_chains_free(chains: Handle<DealChains>) {
    free_handle(chains)
}

impl DealChains {
    /// The actions judged by all the chains so far.
    fn work(&self) -> u64 {
        self.chains.iter().map(|c| c.work).sum()
    }

    /// The next chain's next deal (a hand a seat; the seat's own hand as it is).
    fn next_deal(&mut self) -> &[u64] {
        let index = self.next % self.chains.len();
        self.next += 1;
        self.chains[index].next_deal(&mut self.table, &mut self.scratch)
    }
}

/// The next chain's next deal (a hand a seat; the seat's own hand as it is) into this thread's output buffer
/// (`tl_out`), followed by the actions the chains have judged so far (so that a caller needs no second call): the number of hands, or -1.
///
/// # Safety
/// `chains` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn tl_deal_chains_next(chains: Handle<DealChains>) -> i64 {
    guard(-1, || {
        let mut chains = open(chains)?;
        let mut deal = [0u64; MAX_SEATS];
        let hands = chains.next_deal();
        let players = hands.len();
        deal[..players].copy_from_slice(hands);
        let work = chains.work();
        Ok(emit_out(|masks| {
            masks.extend_from_slice(&deal[..players]);
            masks.push(work);
        }) - 1)
    })
}

/// One round of Hard's sequential halving (`hard.compare_candidates`) in one call, with the chains' deals. `state`
/// holds the deals seen so far, the simulated actions so far, the chains' work when the search began, and the budget
/// of simulated actions. Up to `deals` times: once a deal has been seen, stop when the simulated actions plus the
/// work judged since the search began pass the budget, or when the clock passes `seconds` from now (negative: no
/// clock); else draw the chains' next deal, play each move (a mask, 0 = pass) out on it, add each one's points to
/// `totals`, its simulated actions to the count, and count the deal; then the chains' work so far into `state[4]`. 1
/// when the round stopped early, 0 when it drew its deals, or -1.
///
/// # Safety
/// `playouts` and `chains` are live handles; `moves` points at `move_count` masks, `totals` at `move_count`
/// writable numbers and `state` at five.
#[no_mangle]
#[allow(clippy::too_many_arguments)] // the round's parts, as hard.py holds them
pub unsafe extern "C" fn tl_search_round(
    playouts: Handle<Playouts>,
    chains: Handle<DealChains>,
    moves: *const u64,
    move_count: usize,
    totals: *mut f64,
    deals: u32,
    seconds: f64,
    state: *mut i64,
) -> i32 {
    guard(-1, || {
        let (mut playouts, mut chains) = (open(playouts)?, open(chains)?);
        let moves = slice(moves, move_count)?;
        if totals.is_null() || state.is_null() {
            return Err("a null pointer for the totals or the state".into());
        }
        let totals = std::slice::from_raw_parts_mut(totals, move_count);
        let state = std::slice::from_raw_parts_mut(state, 5);
        let (mut seen, mut steps, start_work, budget) = (state[0], state[1], state[2], state[3]);
        let deadline = (seconds >= 0.0).then(|| Instant::now() + Duration::from_secs_f64(seconds.min(1e9)));
        let mut stopped = 0;
        for _ in 0..deals {
            let out_of_time = deadline.map_or(false, |d| Instant::now() > d);
            if seen > 0 && (steps + chains.work() as i64 - start_work > budget || out_of_time) {
                stopped = 1;
                break;
            }
            let hands = chains.next_deal();
            playouts.check(hands, moves)?;
            for (total, &mv) in totals.iter_mut().zip(moves) {
                let (value, simulated) = playouts.value(hands, mv);
                *total += value;
                steps += i64::from(simulated);
            }
            seen += 1;
        }
        state[0] = seen;
        state[1] = steps;
        state[4] = chains.work() as i64;
        Ok(stopped)
    })
}
