//! Table leaves: a position whose material the endgame tables hold is valued by a probe and
//! not searched. Which materials the folder holds is learned by the first probe of each.

use std::collections::{BTreeSet, HashMap};
use std::marker::PhantomData;

use ordo_core::rules::Engine;
use ordo_solve::{Material, Tablebase, Value};

/// The tables the search probes, if any, and what it has learned of them.
pub(crate) struct Leaves<'a, E> {
    tables: Option<&'a Tablebase>,
    held: HashMap<Material, bool>,
    /// The materials of every table value returned.
    pub used: BTreeSet<Material>,
    /// Probes that returned a value.
    pub probes: u64,
    engine: PhantomData<fn() -> E>,
}

impl<'a, E: Engine> Leaves<'a, E> {
    pub fn new(tables: Option<&'a Tablebase>) -> Leaves<'a, E> {
        Leaves {
            tables,
            held: HashMap::new(),
            used: BTreeSet::new(),
            probes: 0,
            engine: PhantomData,
        }
    }

    /// The material of `e`.
    pub fn material(e: &E) -> Material {
        let [w, b] = e.occupancy();
        Material {
            white: w.count_ones(),
            black: b.count_ones(),
        }
    }

    /// The tables' value of `e` (a position not over), if they hold its material.
    pub fn probe(&mut self, e: &E) -> Option<Value> {
        let tables = self.tables?;
        let m = Self::material(e);
        if self.held.get(&m) == Some(&false) {
            return None;
        }
        match tables.value(&e.to_position()) {
            Ok(v) => {
                self.held.insert(m, true);
                self.used.insert(m);
                self.probes += 1;
                Some(v)
            }
            Err(_) => {
                self.held.insert(m, false);
                None
            }
        }
    }
}
