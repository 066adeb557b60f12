//! The bots of every game of the platform, behind one door: a server asks [`choose`] for a
//! seat's action from that seat's [`GameView`], and [`review`] for the review of a finished
//! deal where the game has one. One arm per game here is all a new game's bots need.

use fipsen_rules::{AnyGame, GameAction, GameView, Seat};

use crate::bot::{Bot, Level};
use crate::review::Review;

/// A bot's action for the viewer of `view` (`None`: the view offers nothing it would take).
/// The same level, seed and view always give the same answer.
pub fn choose(level: Level, seed: u64, view: &GameView) -> Option<GameAction> {
    match view {
        GameView::Prisdorf(view) => Bot::new(level, seed).choose_in_series(view).map(GameAction::Prisdorf),
        GameView::Grossenaspe(_) => None,
    }
}

/// A finished deal, kept for the review of its players' hands.
#[derive(Debug, Clone)]
pub enum FinishedDeal {
    /// A Prisdorf deal.
    Prisdorf(Box<fipsen_rules::Deal>),
}

impl FinishedDeal {
    /// The current deal of `game` once it is over, if its game has a review.
    pub fn of(game: &AnyGame) -> Option<FinishedDeal> {
        match game {
            AnyGame::Prisdorf(series) if series.deal().is_over() => {
                Some(FinishedDeal::Prisdorf(Box::new(series.deal().clone())))
            }
            _ => None,
        }
    }

    /// The review of `seat`'s hand by a bot of `level` (`None`: it cannot be computed).
    pub fn review(&self, seat: Seat, level: Level, seed: u64) -> Option<Review> {
        match self {
            FinishedDeal::Prisdorf(deal) => crate::review::review(&deal.view(Some(seat)), level, seed),
        }
    }
}
