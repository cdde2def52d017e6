//! The bomb table (docs/rules.md §4), received from Python's `rules.BOMB_TABLE` at import: it is declared once.
//!
//! Mirrors the derived tables of `combos.py` (`_BOMBINGS`, `_BOMBABLE_TWOS`) and `legal.py` (`_BOMB_TARGETS`).

use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering};

use crate::combo::{Combo, FIRST_TWO, FOUR, KINDS, PAIR, PAIRS, SINGLE, TRIPLE};

/// What may bomb one kind of table: four of a kind, and which lengths of consecutive pairs (bit per length).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Targets {
    pub quads: bool,
    pub pair_lengths: u16,
}

impl Targets {
    #[inline]
    pub fn any(&self) -> bool {
        self.quads || self.pair_lengths != 0
    }
}

const MAX_LENGTH: usize = 14;

/// One value of the `bombs` rule: for each table (kind, length, is 2s) what bombs it.
#[derive(Clone, Copy, Debug)]
pub struct BombRule {
    targets: [[[Targets; 2]; MAX_LENGTH]; KINDS],
    /// Some bomb beats a single below the 2s (`legal.BOMBS_SINGLE_NON_TWO`).
    pub single_non_two: bool,
}

/// One row of Python's bomb table: (shape kind, shape length, target kind, target length, target must be 2s).
pub type Row = (u8, u32, u8, u32, bool);

impl BombRule {
    /// Build a rule from its rows; refuse shapes the generator does not know (only four of a kind and runs of pairs bomb).
    pub fn from_rows(rows: &[Row]) -> Result<BombRule, String> {
        let mut targets = [[[Targets::default(); 2]; MAX_LENGTH]; KINDS];
        for &(shape_kind, shape_length, kind, length, twos_only) in rows {
            if kind as usize >= KINDS || length as usize >= MAX_LENGTH {
                return Err(format!("bomb target ({kind}, {length}) out of range"));
            }
            for twos in [true, false] {
                if twos_only && !twos {
                    continue;
                }
                let entry = &mut targets[kind as usize][length as usize][twos as usize];
                match (shape_kind, shape_length) {
                    (FOUR, 4) => entry.quads = true,
                    (PAIRS, 3..=13) => entry.pair_lengths |= 1 << shape_length,
                    _ => {
                        return Err(format!(
                            "bomb shape ({shape_kind}, {shape_length}) is not four of a kind or a run of pairs"
                        ))
                    }
                }
            }
        }
        let single_non_two = targets[SINGLE as usize][1][0].any();
        Ok(BombRule {
            targets,
            single_non_two,
        })
    }

    /// What may bomb this table (`legal.bomb_targets`).
    #[inline]
    pub fn targets(&self, table: &Combo) -> Targets {
        let length = table.length as usize;
        if length >= MAX_LENGTH {
            return Targets::default();
        }
        self.targets[table.kind as usize][length][table.twos() as usize]
    }

    /// Whether `play` beats `table` through a row of the bomb table (`combos.bomb_beats`).
    #[inline]
    pub fn bomb_beats(&self, play: &Combo, table: &Combo) -> bool {
        let targets = self.targets(table);
        match play.kind {
            FOUR => targets.quads && play.length == 4,
            PAIRS => play.length < 16 && targets.pair_lengths >> play.length & 1 == 1,
            _ => false,
        }
    }

    /// Whether pass-locked seats get a bomb re-entry turn on this table (`combos.may_reenter`).
    #[inline]
    pub fn may_reenter(&self, table: Option<&Combo>, reentry_rule: bool) -> bool {
        match table {
            Some(t) => {
                t.top >= FIRST_TWO
                    && reentry_rule
                    && matches!(t.kind, SINGLE | PAIR | TRIPLE)
                    && (t.length as usize) < MAX_LENGTH
                    && self.targets[t.kind as usize][t.length as usize][1].any()
            }
            None => false,
        }
    }
}

/// Each `bombs` value: its name, the rows it was built from, the rule.
type Installed = Vec<(String, Vec<Row>, BombRule)>;

/// The installed table, set once (a one-time cell of std's atomics: Debian's rustc 1.63 has no `OnceLock`).
static RULES: AtomicPtr<Installed> = AtomicPtr::new(ptr::null_mut());

/// The installed table, if any.
fn installed() -> Option<&'static Installed> {
    // SAFETY: RULES is null or a leaked Box that is never freed nor changed.
    unsafe { RULES.load(Ordering::Acquire).as_ref() }
}

/// Install `built` unless a table is installed already; the installed table.
fn install_once(built: Installed) -> &'static Installed {
    let fresh = Box::into_raw(Box::new(built));
    match RULES.compare_exchange(ptr::null_mut(), fresh, Ordering::AcqRel, Ordering::Acquire) {
        // SAFETY: `fresh` is now the installed table, leaked for the life of the process.
        Ok(_) => unsafe { &*fresh },
        Err(existing) => {
            // SAFETY: `fresh` was not published; `existing` is the installed table, never freed.
            unsafe {
                drop(Box::from_raw(fresh));
                &*existing
            }
        }
    }
}

/// Install the bomb table once; a second call must give the same rows (it is one fact).
pub fn install(table: Vec<(String, Vec<Row>)>) -> Result<(), String> {
    let mut built: Installed = Vec::with_capacity(table.len());
    for (name, rows) in table {
        let rule = BombRule::from_rows(&rows)?;
        built.push((name, rows, rule));
    }
    let same =
        |a: &Installed, b: &Installed| a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.0 == y.0 && x.1 == y.1);
    let installed = install_once(built.clone());
    if same(installed, &built) {
        Ok(())
    } else {
        Err("the bomb table is already installed with other rows".into())
    }
}

/// The rule of the `bombs` value at this place in the installed table (the order it was installed in).
#[inline]
pub fn rule_at(index: u32) -> Result<&'static BombRule, String> {
    let rules = installed().ok_or("the bomb table is not installed (tienlen.engine.accel installs it)")?;
    rules
        .get(index as usize)
        .map(|(_, _, r)| r)
        .ok_or_else(|| format!("no bombs rule number {index}"))
}
