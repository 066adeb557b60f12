//! A tournament table: the deals that counted, and what the tournament is told of them.

use fipsen_tournament::DealResult;

use super::Core;
use crate::room::table::TableReport;

impl Core {
    /// A tournament table has played every deal it plays in its round.
    pub(super) fn table_done(&self) -> bool {
        self.tournament.as_ref().is_some_and(|link| self.counted.len() >= link.deals as usize)
    }

    /// A tournament table: notes the end of the current deal, once: a deal that counted (its
    /// running totals and which dealing it was), or one more thrown-in deal.
    pub(super) fn note_deal_end(&mut self) {
        if self.tournament.is_none() {
            return;
        }
        let Some(series) = &self.series else { return };
        if !series.deal_over() || series.deal_number() == self.noted_deal {
            return;
        }
        self.noted_deal = series.deal_number();
        if series.counted() as usize > self.counted.len() {
            self.counted.push((series.totals().to_vec(), self.thrown_in));
            self.thrown_in = 0;
        } else {
            self.thrown_in += 1;
        }
    }

    /// The number of deals that counted so far at a tournament table.
    pub fn counted_deals(&self) -> usize {
        self.counted.len()
    }

    /// A tournament table: every deal that counted so far, for its tournament (which records
    /// each once; sending them all again after a restart loses nothing and doubles nothing).
    pub fn table_report(&self) -> Option<TableReport> {
        let link = self.tournament.as_ref()?;
        if self.counted.is_empty() {
            return None;
        }
        let totals: Vec<Vec<i32>> = self.counted.iter().map(|(totals, _)| totals.clone()).collect();
        let mut results = DealResult::from_running_totals(link.table, &totals);
        for (result, (_, redeal)) in results.iter_mut().zip(&self.counted) {
            result.redeal = *redeal;
        }
        results.truncate(link.deals as usize);
        Some(TableReport { tournament: link.tournament.clone(), results })
    }
}
