//! `tienlen_native`: the compiled core of the Tiến Lên rules engine (optional).
//!
//! The hot paths of `server/tienlen/engine` over 52-bit hand masks (card number = rank * 4 + suit,
//! 3S = 0 … 2H = 51): classification, legal plays, the flow of a hand, random playouts. The Python
//! engine is the reference; `tienlen.engine.accel` installs the bomb table from `rules.BOMB_TABLE` and
//! puts these functions behind the engine's own names. The Python-facing API is typed in
//! `tienlen_native.pyi`.

mod bombs;
mod bots;
mod chains;
mod combo;
mod endgame;
mod hand;
mod legal;
mod medium;
mod playout;
mod search;

use pyo3::exceptions::PyValueError;
use pyo3::once_cell::GILOnceCell;
use pyo3::prelude::*;
use pyo3::{ffi, intern, AsPyPointer};

use crate::bombs::{BombRule, Row};
use crate::combo::{classify as classify_mask, Combo, DECK};
use crate::hand::{Event, HandState, MAX_SEATS};

/// A `ValueError` with this message: every refusal of bad input from Python.
pub(crate) fn error(message: String) -> PyErr {
    PyValueError::new_err(message)
}

/// The rule of a `bombs` value.
pub(crate) fn rule(bombs: &str) -> PyResult<&'static BombRule> {
    bombs::rule(bombs).map_err(error)
}

/// The hand, refused unless it is a 52-bit mask.
pub(crate) fn hand_mask(hand: u64) -> PyResult<u64> {
    if hand & !DECK != 0 {
        return Err(error(format!("{hand:#x} is not a hand mask (52 bits)")));
    }
    Ok(hand)
}

/// The combination these cards form, refused unless they form one.
pub(crate) fn combo_of(mask: u64) -> PyResult<Combo> {
    classify_mask(mask & DECK)
        .filter(|_| mask & !DECK == 0)
        .ok_or_else(|| error(format!("{mask:#x} is not a combination")))
}

/// The table a Python `Combination` stands for, from its cards (its `mask`).
fn table_of(table: &PyAny) -> PyResult<Combo> {
    combo_of(table.getattr(intern!(table.py(), "mask"))?.extract()?)
}

/// The Python ints of every same-rank group (a rank's nibble at its place), made once: singles, pairs,
/// triples and fours are most plays, and sharing their ints spares allocating one per play per call.
static GROUP_INTS: GILOnceCell<Vec<PyObject>> = GILOnceCell::new();

/// The index of a same-rank group in `GROUP_INTS`, or None for plays across ranks.
#[inline]
fn group_index(mask: u64) -> Option<usize> {
    if mask == 0 || mask & !DECK != 0 {
        return None;
    }
    let rank = mask.trailing_zeros() / 4;
    let nibble = mask >> (4 * rank);
    (nibble < 16).then_some(16 * rank as usize + nibble as usize)
}

/// The masks as a Python list of ints (the engine's own type for plays).
fn int_list(py: Python<'_>, masks: &[u64]) -> PyResult<PyObject> {
    let shared = GROUP_INTS.get_or_init(py, || {
        (0..13 * 16)
            .map(|i| ((i as u64 % 16) << (4 * (i / 16))).into_py(py))
            .collect()
    });
    // SAFETY: a new list of exactly masks.len() slots, each set once to a new (or newly referenced) int.
    unsafe {
        let list = ffi::PyList_New(masks.len() as ffi::Py_ssize_t);
        if list.is_null() {
            return Err(PyErr::fetch(py));
        }
        for (i, &mask) in masks.iter().enumerate() {
            let item = match group_index(mask) {
                Some(index) => {
                    let int = shared[index].as_ptr();
                    ffi::Py_INCREF(int);
                    int
                }
                None => ffi::PyLong_FromUnsignedLongLong(mask),
            };
            if item.is_null() {
                ffi::Py_DECREF(list);
                return Err(PyErr::fetch(py));
            }
            ffi::PyList_SET_ITEM(list, i as ffi::Py_ssize_t, item);
        }
        Ok(PyObject::from_owned_ptr(py, list))
    }
}

/// Install the bomb table: for each `bombs` value its rows (shape kind, shape length, target kind,
/// target length, target must be 2s), kinds numbered in the order of `Kind`. Once per process.
#[pyfunction]
fn install_bomb_table(table: Vec<(String, Vec<Row>)>) -> PyResult<()> {
    bombs::install(table).map_err(error)
}

/// `(kind number, length, top)` of the combination these cards form, or None.
#[pyfunction]
fn classify(mask: u64) -> Option<(u8, u32, u32)> {
    if mask & !DECK != 0 {
        return None;
    }
    classify_mask(mask).map(|c| (c.kind, c.length, c.top))
}

/// Every combination the hand can lead, in the order of `legal.lead_masks`.
#[pyfunction]
fn lead_masks(py: Python<'_>, hand: u64) -> PyResult<PyObject> {
    let mut out = Vec::with_capacity(64);
    legal::lead_masks(hand_mask(hand)?, &mut out);
    int_list(py, &out)
}

/// Every play that beats the table (a `Combination`), ordinary answers then bombs.
#[pyfunction]
fn answer_masks(py: Python<'_>, hand: u64, table: &PyAny, bombs: &str) -> PyResult<PyObject> {
    let mut out = Vec::with_capacity(16);
    legal::answer_masks(hand_mask(hand)?, &table_of(table)?, rule(bombs)?, &mut out);
    int_list(py, &out)
}

/// Plays of another kind or length that bomb the table.
#[pyfunction]
fn bomb_answers(py: Python<'_>, hand: u64, table: &PyAny, bombs: &str) -> PyResult<PyObject> {
    let mut out = Vec::new();
    legal::bomb_answers(hand_mask(hand)?, &table_of(table)?, rule(bombs)?, &mut out);
    int_list(py, &out)
}

/// Every legal play of the seat on turn (`legal.legal_masks_of`).
#[pyfunction]
fn legal_masks(
    py: Python<'_>,
    hand: u64,
    table: Option<&PyAny>,
    bombs: &str,
    locked: bool,
    start_card: Option<u32>,
) -> PyResult<PyObject> {
    let mut out = Vec::with_capacity(64);
    let table = table.map(table_of).transpose()?;
    if start_card.map_or(false, |c| c >= 52) {
        return Err(error("the start card is a card number 0..51".into()));
    }
    legal::legal_masks(
        hand_mask(hand)?,
        table.as_ref(),
        rule(bombs)?,
        locked,
        start_card,
        &mut out,
    );
    int_list(py, &out)
}

/// Play `count` random hands of `players` seats in Rust; return (hands, actions).
#[allow(clippy::too_many_arguments)] // the rule set's flags, as Python passes them
#[pyfunction]
fn random_hands(
    py: Python<'_>,
    players: usize,
    bombs: &str,
    reentry_rule: bool,
    start_card_rule: bool,
    end_on_first_out: bool,
    seed: u64,
    count: u64,
) -> PyResult<(u64, u64)> {
    if !(2..=MAX_SEATS).contains(&players) {
        return Err(error(format!("players must be 2 to {MAX_SEATS}")));
    }
    let rule = rule(bombs)?;
    Ok(py.allow_threads(|| {
        playout::random_hands(
            players,
            rule,
            reentry_rule,
            start_card_rule,
            end_on_first_out,
            seed,
            count,
        )
    }))
}

fn event_object(py: Python<'_>, event: &Event) -> PyObject {
    match *event {
        Event::Played { seat, mask, kind, bomb } => ("played", seat, mask, kind, bomb).into_py(py),
        Event::Passed { seat } => ("passed", seat).into_py(py),
        Event::TableCleared { leader } => ("table_cleared", leader).into_py(py),
        Event::WentOut { seat, place } => ("went_out", seat, place).into_py(py),
    }
}

/// One hand in play, in Rust: the seat on turn's legal plays, plays and passes with their events.
///
/// Events are tuples: `("played", seat, mask, kind number, bomb)`, `("passed", seat)`,
/// `("table_cleared", leader)`, `("went_out", seat, place)`.
#[pyclass(module = "tienlen_native")]
struct Hand {
    state: HandState,
    legal: Vec<u64>,
    fresh: bool,
}

impl Hand {
    fn legal_now(&mut self) -> &[u64] {
        if !self.fresh {
            self.state.legal(&mut self.legal);
            self.fresh = true;
        }
        &self.legal
    }

    fn events(&mut self, py: Python<'_>, events: &[Event]) -> Vec<PyObject> {
        self.fresh = false;
        events.iter().map(|e| event_object(py, e)).collect()
    }
}

#[pymethods]
impl Hand {
    /// A hand with these cards a seat, `turn` on turn, an empty table; `start_card` for a match's opening lead.
    #[new]
    fn new(
        hands: Vec<u64>,
        turn: usize,
        bombs: &str,
        reentry_rule: bool,
        end_on_first_out: bool,
        start_card: Option<u32>,
    ) -> PyResult<Hand> {
        let players = hands.len();
        if !(2..=MAX_SEATS).contains(&players) || turn >= players {
            return Err(error(format!("2 to {MAX_SEATS} hands and a seat on turn among them")));
        }
        let mut masks = [0u64; MAX_SEATS];
        for (seat, &hand) in hands.iter().enumerate() {
            masks[seat] = hand_mask(hand)?;
        }
        let state = HandState {
            hands: masks,
            players,
            turn,
            table: None,
            table_seat: None,
            locked: 0,
            start_card,
            places: Vec::with_capacity(MAX_SEATS),
            done: false,
            rule: rule(bombs)?,
            reentry_rule,
            end_on_first_out,
        };
        Ok(Hand {
            state,
            legal: Vec::new(),
            fresh: false,
        })
    }

    /// The seat on turn (None once the hand is over).
    #[getter]
    fn turn(&self) -> Option<usize> {
        (!self.state.done).then_some(self.state.turn)
    }

    /// Every seat's cards.
    #[getter]
    fn hands(&self) -> Vec<u64> {
        self.state.hands[..self.state.players].to_vec()
    }

    /// The cards to beat (None on a lead).
    #[getter]
    fn table(&self) -> Option<u64> {
        self.state.table.map(|t| t.mask)
    }

    /// The seat whose play is on the table.
    #[getter]
    fn table_seat(&self) -> Option<usize> {
        self.state.table_seat
    }

    /// A bit per pass-locked seat.
    #[getter]
    fn locked(&self) -> u32 {
        self.state.locked
    }

    /// Seats placed so far, first place first.
    #[getter]
    fn places(&self) -> Vec<usize> {
        self.state.places.clone()
    }

    /// Whether the hand is over.
    #[getter]
    fn done(&self) -> bool {
        self.state.done
    }

    /// The legal plays of the seat on turn (empty once the hand is over).
    fn legal(&mut self, py: Python<'_>) -> PyResult<PyObject> {
        self.legal_now();
        int_list(py, &self.legal)
    }

    /// The seat on turn plays these cards; the events. A play not among the legal ones is refused.
    fn play(&mut self, py: Python<'_>, mask: u64) -> PyResult<Vec<PyObject>> {
        if self.state.done || !self.legal_now().contains(&mask) {
            return Err(error(format!("{mask:#x} is not a legal play here")));
        }
        let mut events = Vec::with_capacity(4);
        self.state.play(mask, &mut events);
        Ok(self.events(py, &events))
    }

    /// The seat on turn passes; the events. Refused on a lead.
    fn pass_turn(&mut self, py: Python<'_>) -> PyResult<Vec<PyObject>> {
        if self.state.done || self.state.table.is_none() {
            return Err(error("no table to pass on".into()));
        }
        let mut events = Vec::with_capacity(4);
        self.state.pass_turn(&mut events);
        Ok(self.events(py, &events))
    }
}

/// The compiled core of the Tiến Lên rules engine.
#[pymodule]
fn tienlen_native(_py: Python<'_>, m: &PyModule) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(install_bomb_table, m)?)?;
    m.add_function(wrap_pyfunction!(classify, m)?)?;
    m.add_function(wrap_pyfunction!(lead_masks, m)?)?;
    m.add_function(wrap_pyfunction!(answer_masks, m)?)?;
    m.add_function(wrap_pyfunction!(bomb_answers, m)?)?;
    m.add_function(wrap_pyfunction!(legal_masks, m)?)?;
    m.add_function(wrap_pyfunction!(random_hands, m)?)?;
    m.add_class::<Hand>()?;
    m.add_function(wrap_pyfunction!(bots::plan_cost, m)?)?;
    m.add_function(wrap_pyfunction!(bots::plan_masks, m)?)?;
    m.add_function(wrap_pyfunction!(bots::medium_lead, m)?)?;
    m.add_function(wrap_pyfunction!(bots::medium_answer, m)?)?;
    m.add_class::<bots::Playouts>()?;
    m.add_class::<bots::SeatActions>()?;
    m.add_class::<bots::DealChains>()?;
    m.add_function(wrap_pyfunction!(bots::forced_moves, m)?)?;
    Ok(())
}
