//! The bots of every game of the platform, behind one door: a server asks [`choose`] for a
//! seat's action from that seat's [`GameView`], and [`FinishedDeal::review`] for the review of a finished
//! deal where the game has one. One arm per game here is all a new game's bots need.

use fipsen_rules::{AnyGame, GameAction, GameView, Seat};

use crate::bot::{Bot, Level};
use crate::review::Review;

/// A bot's action for the viewer of `view` (`None`: the view offers nothing it would take).
/// The same level, seed and view always give the same answer.
pub fn choose(level: Level, seed: u64, view: &GameView) -> Option<GameAction> {
    match view {
        GameView::Prisdorf(view) => Bot::new(level, seed).choose_in_series(view).map(GameAction::Prisdorf),
        GameView::Grossenaspe(view) => {
            crate::grossenaspe::Bot::new(level, seed).choose_in_series(view).map(GameAction::Grossenaspe)
        }
        GameView::Anseggerfips(view) => {
            crate::mecklenburg::Bot::new(level, seed).choose_in_series(view).map(GameAction::Anseggerfips)
        }
        GameView::Duttfips(view) => {
            crate::mecklenburg::Bot::new(level, seed).choose_in_series(view).map(GameAction::Duttfips)
        }
        GameView::Thedinghausen(view) => {
            crate::thedinghausen::Bot::new(level, seed).choose_in_series(view).map(GameAction::Thedinghausen)
        }
        GameView::Tippen(view) => crate::tippen::Bot::new(level, seed).choose_in_series(view).map(GameAction::Tippen),
        GameView::Wippen(view) => crate::wippen::Bot::new(level, seed).choose_in_series(view).map(GameAction::Wippen),
    }
}

/// A finished deal, kept for the review of its players' hands.
#[derive(Debug, Clone)]
pub enum FinishedDeal {
    /// A Prisdorf deal.
    Prisdorf(Box<fipsen_rules::Deal>),
}

impl FinishedDeal {
    /// Whether the deals of `game` have a review.
    pub fn reviewed(game: fipsen_rules::GameId) -> bool {
        matches!(game, fipsen_rules::GameId::Prisdorf)
    }

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

#[cfg(test)]
mod tests {
    use super::*;
    use fipsen_rules::{GameId, GameRules, Seed};

    /// Through the one door, every game's bots play whole deals: each answer is legal.
    #[test]
    fn every_games_bots_answer_with_a_legal_action() {
        for &id in GameId::ALL {
            let (mut game, _) = AnyGame::start(&GameRules::default_for(id), Seed([9; 32])).unwrap();
            let mut actions = 0;
            while game.deal_number() < 3 && !game.series_over() && actions < 2_000 {
                if game.deal_over() {
                    game.next_deal().unwrap();
                    continue;
                }
                let seat = game.turn().expect("a deal in progress has a seat to act");
                let view = game.view(Some(seat));
                let action = choose(Level::Normal, actions, &view).expect("a bot answers at its turn");
                assert_eq!(action.game(), id);
                game.apply(seat, &action).unwrap_or_else(|e| panic!("{id:?}: {action:?} refused: {e}"));
                actions += 1;
            }
            // Wippen's default match is two games (two players, one set).
            assert!(game.deal_number() == 3 || game.series_over(), "{id:?} played two deals");
        }
    }
}
