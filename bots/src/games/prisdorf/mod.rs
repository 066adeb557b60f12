//! Prisdorf Fipsen's bots: [`Bot`] (every decision, from what a seat sees), the review of a
//! seat's deal ([`review`]) and, through [`GameBot`], the analysis of a deal's play with the
//! exact solver (the declarer against the defenders, in the game's points).

pub mod bot;
pub mod review;

pub use bot::Bot;

use fipsen_rules::{Action, Deal, Game, Seat, SeriesView};

use super::GameBot;
use crate::analysis::holstein::{self, OpenPlay};
use crate::analysis::{Analysis, Budget};
use crate::cards::trump_mask;
use crate::level::Level;
use crate::solver::Stakes;
use review::Review;

impl GameBot for Bot {
    type View = SeriesView;
    type Action = Action;
    type Deal = Deal;
    type Review = Review;

    fn new(level: Level, seed: u64) -> Bot {
        Bot::new(level, seed)
    }

    fn choose(&mut self, view: &SeriesView) -> Option<Action> {
        self.choose_in_series(view)
    }

    fn review(&mut self, deal: &Deal, seat: Seat) -> Option<Review> {
        review::review(&deal.view(Some(seat)), self.level(), self.seed())
    }

    fn analyse(deal: &Deal, budget: Budget) -> Option<Analysis> {
        let view = deal.view(None);
        let (reveal, game, declarer) = (view.reveal.as_ref()?, view.game?, view.declarer?);
        let trumps = game.trumps?;
        let mut open = OpenPlay::from_tricks(
            view.rules.players.count(),
            declarer.0,
            trump_mask(trumps),
            &view.tricks,
            &view.trick,
            &reveal.hands,
        );
        open.target = game.tricks;
        open.durch_from_start = game.tricks >= 5;
        open.went_on = game.durch && game.tricks < 5;
        let base = Game { durch: false, ..game };
        let stakes =
            |on: bool, won, lost| Stakes::from_game(&Game { durch: on || game.tricks >= 5, ..base }, won, lost);
        holstein::analyse(&open, stakes, budget)
    }
}
