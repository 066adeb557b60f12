//! The run of deals every series shares, for the games whose series is more than a scoresheet
//! of one declarer's points (those use [`crate::sheet::Sheet`]): deal after deal from one
//! master seed (deal `k`, from 1, shuffled with the master seed's stream `k − 1`), a row on the
//! scoresheet per finished deal, nothing more once the series is over, and each seat's balance
//! as the running deal moves it.
//!
//! A game's `Series` keeps its rules, its own carry from deal to deal and its view around a
//! [`Run`] (serialised as the fields `dealt`, `deal`, `sheet`, flattened into the series) and,
//! for games played for counters, [`Balances`] (the fields `base`, `balances`).

use serde::{Deserialize, Serialize};

use crate::error::RuleError;
use crate::seed::Seed;
use crate::sheet::rows_from;

/// The current deal, how many were dealt and the scoresheet's rows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Run<D, R> {
    dealt: u32,
    deal: D,
    sheet: Vec<R>,
}

impl<D: Clone, R: Clone> Run<D, R> {
    /// A run whose first deal is `deal`.
    pub(crate) fn new(deal: D) -> Self {
        Run { dealt: 1, deal, sheet: Vec::new() }
    }

    /// The current deal.
    pub(crate) fn deal(&self) -> &D {
        &self.deal
    }

    /// The current deal's number, from 1.
    pub(crate) fn number(&self) -> u32 {
        self.dealt
    }

    /// The rows so far.
    pub(crate) fn rows(&self) -> &[R] {
        &self.sheet
    }

    /// The run with its rows before `first` left out.
    pub(crate) fn with_rows_from(&self, first: usize) -> Self {
        Run { dealt: self.dealt, deal: self.deal.clone(), sheet: rows_from(&self.sheet, first) }
    }

    /// The deal to act in, unless the series is `over`.
    ///
    /// # Errors
    /// [`RuleError::SeriesOver`].
    pub(crate) fn open(&self, over: bool) -> Result<&D, RuleError> {
        if over { Err(RuleError::SeriesOver) } else { Ok(&self.deal) }
    }

    /// [`Run::open`], to change the deal.
    ///
    /// # Errors
    /// [`RuleError::SeriesOver`].
    pub(crate) fn open_mut(&mut self, over: bool) -> Result<&mut D, RuleError> {
        if over { Err(RuleError::SeriesOver) } else { Ok(&mut self.deal) }
    }

    /// Writes `row` on the scoresheet and announces it with the event `scored` makes of it.
    pub(crate) fn score<E>(&mut self, row: R, out: &mut Vec<E>, scored: impl FnOnce(R) -> E) {
        self.sheet.push(row.clone());
        out.push(scored(row));
    }

    /// Deals the next deal once the current one is `finished`: `deal` makes it from its number,
    /// its seed and the deal before it, and what else `deal` returns (its events) is returned.
    ///
    /// # Errors
    /// [`RuleError::SeriesOver`] once the series is `over`, [`RuleError::DealNotOver`] while
    /// the deal is on; the run is then unchanged.
    pub(crate) fn next_deal<T>(
        &mut self,
        over: bool,
        finished: bool,
        master: Seed,
        deal: impl FnOnce(u32, Seed, &D) -> (D, T),
    ) -> Result<T, RuleError> {
        if over {
            return Err(RuleError::SeriesOver);
        }
        if !finished {
            return Err(RuleError::DealNotOver);
        }
        let seed = master.derive(u64::from(self.dealt));
        self.dealt += 1;
        let (next, out) = deal(self.dealt, seed, &self.deal);
        self.deal = next;
        Ok(out)
    }
}

/// Each seat's balance as the current deal began, and now with what the deal has moved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Balances {
    base: Vec<i32>,
    balances: Vec<i32>,
}

impl Balances {
    /// The balances of a series' first deal, which has moved `changes` so far.
    pub(crate) fn new(changes: &[i32]) -> Balances {
        Balances { base: vec![0; changes.len()], balances: changes.to_vec() }
    }

    /// The balances now that the current deal has moved `changes` in all.
    pub(crate) fn update(&mut self, changes: &[i32]) {
        for ((b, base), change) in self.balances.iter_mut().zip(&self.base).zip(changes) {
            *b = base + change;
        }
    }

    /// A new deal begins from the balances now and has moved `changes` so far.
    pub(crate) fn carry(&mut self, changes: &[i32]) {
        self.base.clone_from(&self.balances);
        self.update(changes);
    }

    /// Moves `seat`'s balance by `by`, as a long series might have before the current deal.
    #[cfg(test)]
    pub(crate) fn shift(&mut self, seat: usize, by: i32) {
        self.base[seat] += by;
        self.balances[seat] += by;
    }

    /// Each seat's balance now.
    pub(crate) fn now(&self) -> &[i32] {
        &self.balances
    }
}
