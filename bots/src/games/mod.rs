//! The bots of every game of the platform, behind one door and one interface.
//!
//! Every game's bots implement [`GameBot`]: the choice of an action from what a seat sees, the
//! review of a seat's decisions in a finished deal (where the game has one yet), and the
//! card-by-card analysis of a finished deal's play ([`crate::analysis`]). Each game is one
//! module here ([`prisdorf`], [`grossenaspe`], [`mecklenburg`] for Anseggerfips and Duttfips,
//! [`thedinghausen`], [`tippen`], [`wippen`]); a server asks [`choose`] for a seat's action
//! from that seat's [`GameView`], [`FinishedDeal::review`] for a review and
//! [`FinishedDeal::analyse`] for an analysis. One impl of [`GameBot`] and one arm per game
//! here is all a new game's bots need.

pub mod decisions;
pub mod grossenaspe;
pub mod mecklenburg;
pub mod prisdorf;
pub mod thedinghausen;
pub mod tippen;
pub mod wippen;

use fipsen_rules::{AnyGame, GameAction, GameId, GameView, Seat};

use crate::analysis::{Analysis, Budget};
use crate::level::Level;
use crate::review::Review;
use decisions::GameDecisions;

/// One game's bots: what every game's bot module provides.
pub trait GameBot {
    /// What a seat sees of a series of the game.
    type View;
    /// An action of the game.
    type Action;
    /// A deal of the game, as kept once it is over.
    type Deal;
    /// The review of a seat's decisions in a finished deal.
    type Review;

    /// A bot of `level` whose choices follow from `seed` and what it is shown.
    fn new(level: Level, seed: u64) -> Self;

    /// The bot's action for the viewer of `view` (`None`: the view offers nothing it would
    /// take). The same level, seed and view always give the same answer.
    fn choose(&mut self, view: &Self::View) -> Option<Self::Action>;

    /// The review of `seat`'s decisions in the finished `deal`, judged by this bot from what
    /// the seat knew at each (`None`: the game has no review, or the deal is not over).
    fn review(&mut self, deal: &Self::Deal, seat: Seat) -> Option<Self::Review>;

    /// The card-by-card analysis of the finished `deal`'s play with every card open, within
    /// `budget` (`None`: nothing was played, or the deal is not one this game can read).
    fn analyse(deal: &Self::Deal, budget: Budget) -> Option<Analysis>;
}

/// A bot's action for the viewer of `view` (`None`: the view offers nothing it would take).
/// The same level, seed and view always give the same answer.
pub fn choose(level: Level, seed: u64, view: &GameView) -> Option<GameAction> {
    fn by<B: GameBot>(level: Level, seed: u64, view: &B::View) -> Option<B::Action> {
        B::new(level, seed).choose(view)
    }
    match view {
        GameView::Prisdorf(v) => by::<prisdorf::Bot>(level, seed, v).map(GameAction::Prisdorf),
        GameView::Grossenaspe(v) => by::<grossenaspe::Bot>(level, seed, v).map(GameAction::Grossenaspe),
        GameView::Anseggerfips(v) => by::<mecklenburg::Bot>(level, seed, v).map(GameAction::Anseggerfips),
        GameView::Duttfips(v) => by::<mecklenburg::Bot>(level, seed, v).map(GameAction::Duttfips),
        GameView::Thedinghausen(v) => by::<thedinghausen::Bot>(level, seed, v).map(GameAction::Thedinghausen),
        GameView::Tippen(v) => by::<tippen::Bot>(level, seed, v).map(GameAction::Tippen),
        GameView::Wippen(v) => by::<wippen::Bot>(level, seed, v).map(GameAction::Wippen),
    }
}

/// A finished deal, kept for the review of its players' decisions and the analysis of its
/// play.
#[derive(Debug, Clone)]
pub enum FinishedDeal {
    /// A Prisdorf deal.
    Prisdorf(Box<fipsen_rules::Deal>),
    /// A Großenaspe deal.
    Grossenaspe(Box<fipsen_rules::grossenaspe::Deal>),
    /// An Anseggerfips deal.
    Anseggerfips(Box<fipsen_rules::mecklenburg::Deal>),
    /// A Duttfips deal.
    Duttfips(Box<fipsen_rules::mecklenburg::Deal>),
    /// A Thedinghausen deal.
    Thedinghausen(Box<fipsen_rules::thedinghausen::Deal>),
    /// A Tippen deal.
    Tippen(Box<fipsen_rules::tippen::Deal>),
    /// A Wippen deal (one game of the match).
    Wippen(Box<fipsen_rules::wippen::Deal>),
}

impl FinishedDeal {
    /// Whether the deals of `game` have a review.
    pub fn reviewed(game: GameId) -> bool {
        matches!(game, GameId::Prisdorf)
    }

    /// The current deal of `game` once it is over.
    pub fn of(game: &AnyGame) -> Option<FinishedDeal> {
        if !game.deal_over() {
            return None;
        }
        Some(match game {
            AnyGame::Prisdorf(s) => FinishedDeal::Prisdorf(Box::new(s.deal().clone())),
            AnyGame::Grossenaspe(s) => FinishedDeal::Grossenaspe(Box::new(s.deal().clone())),
            AnyGame::Anseggerfips(s) => FinishedDeal::Anseggerfips(Box::new(s.deal().clone())),
            AnyGame::Duttfips(s) => FinishedDeal::Duttfips(Box::new(s.deal().clone())),
            AnyGame::Thedinghausen(s) => FinishedDeal::Thedinghausen(Box::new(s.deal().clone())),
            AnyGame::Tippen(s) => FinishedDeal::Tippen(Box::new(s.deal().clone())),
            AnyGame::Wippen(s) => FinishedDeal::Wippen(Box::new(s.deal().clone())),
        })
    }

    /// The game of the deal.
    pub fn game(&self) -> GameId {
        match self {
            FinishedDeal::Prisdorf(_) => GameId::Prisdorf,
            FinishedDeal::Grossenaspe(_) => GameId::Grossenaspe,
            FinishedDeal::Anseggerfips(_) => GameId::Anseggerfips,
            FinishedDeal::Duttfips(_) => GameId::Duttfips,
            FinishedDeal::Thedinghausen(_) => GameId::Thedinghausen,
            FinishedDeal::Tippen(_) => GameId::Tippen,
            FinishedDeal::Wippen(_) => GameId::Wippen,
        }
    }

    /// The review of `seat`'s hand by a bot of `level` (`None`: it cannot be computed, or the
    /// game has no review).
    pub fn review(&self, seat: Seat, level: Level, seed: u64) -> Option<Review> {
        match self {
            FinishedDeal::Prisdorf(deal) => prisdorf::Bot::new(level, seed).review(deal, seat),
            _ => None,
        }
    }

    /// Whether the deals of `game` have a review of the decisions before the play
    /// ([`FinishedDeal::decisions`]).
    pub fn decisions_reviewed(game: GameId) -> bool {
        matches!(
            game,
            GameId::Grossenaspe
                | GameId::Anseggerfips
                | GameId::Duttfips
                | GameId::Thedinghausen
                | GameId::Tippen
                | GameId::Wippen
        )
    }

    /// The review of `seat`'s decisions before the play by a bot of `level` (`None`: the deal
    /// is not over, or the game has no such review).
    pub fn decisions(&self, seat: Seat, level: Level, seed: u64) -> Option<GameDecisions> {
        match self {
            FinishedDeal::Grossenaspe(d) => {
                grossenaspe::Bot::new(level, seed).review(d, seat).map(GameDecisions::Grossenaspe)
            }
            FinishedDeal::Anseggerfips(d) => {
                mecklenburg::Bot::new(level, seed).review(d, seat).map(GameDecisions::Anseggerfips)
            }
            FinishedDeal::Duttfips(d) => {
                mecklenburg::Bot::new(level, seed).review(d, seat).map(GameDecisions::Duttfips)
            }
            FinishedDeal::Thedinghausen(d) => {
                thedinghausen::Bot::new(level, seed).review(d, seat).map(GameDecisions::Thedinghausen)
            }
            FinishedDeal::Tippen(d) => tippen::Bot::new(level, seed).review(d, seat).map(GameDecisions::Tippen),
            FinishedDeal::Wippen(d) => wippen::Bot::new(level, seed).review(d, seat).map(GameDecisions::Wippen),
            _ => None,
        }
    }

    /// The card-by-card analysis of the deal's play, within `budget`.
    pub fn analyse(&self, budget: Budget) -> Option<Analysis> {
        match self {
            FinishedDeal::Prisdorf(d) => <prisdorf::Bot as GameBot>::analyse(d, budget),
            FinishedDeal::Grossenaspe(d) => <grossenaspe::Bot as GameBot>::analyse(d, budget),
            FinishedDeal::Anseggerfips(d) | FinishedDeal::Duttfips(d) => {
                <mecklenburg::Bot as GameBot>::analyse(d, budget)
            }
            FinishedDeal::Thedinghausen(d) => <thedinghausen::Bot as GameBot>::analyse(d, budget),
            FinishedDeal::Tippen(d) => <tippen::Bot as GameBot>::analyse(d, budget),
            FinishedDeal::Wippen(d) => <wippen::Bot as GameBot>::analyse(d, budget),
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

    /// Every game said to have a review of its decisions gives one, for each seat, once a deal
    /// is over, and only then.
    #[test]
    fn every_game_with_decisions_reviewed_reviews_each_seat() {
        for &id in GameId::ALL.iter().filter(|&&id| FinishedDeal::decisions_reviewed(id)) {
            let (mut game, _) = AnyGame::start(&GameRules::default_for(id), Seed([5; 32])).unwrap();
            let mut actions = 0;
            while !game.deal_over() {
                let seat = game.turn().expect("a deal in progress has a seat to act");
                let action = choose(Level::Normal, actions, &game.view(Some(seat))).unwrap();
                game.apply(seat, &action).unwrap();
                actions += 1;
                assert!(actions < 2_000, "{id:?}: the deal ends");
            }
            let finished = FinishedDeal::of(&game).expect("the deal is over");
            let seats = game.seats();
            assert!(seats >= 2, "{id:?} has seats");
            for s in 0..seats {
                let review = finished
                    .decisions(Seat(s as u8), Level::Normal, 1)
                    .unwrap_or_else(|| panic!("{id:?}: seat {s} gets a review"));
                assert_eq!(review.seat(), Seat(s as u8));
            }
        }
    }
}
