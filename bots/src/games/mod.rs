//! The bots of every game of the platform, behind one door and one interface.
//!
//! Every game's bots implement [`GameBot`]: the choice of an action from what a seat sees, the
//! review of a seat's decisions in a finished deal (where the game has one yet), and the
//! card-by-card analysis of a finished deal's play ([`crate::analysis`]). Each game is one
//! module here ([`prisdorf`], [`grossenaspe`], [`mecklenburg`] for Anseggerfips and Duttfips,
//! [`thedinghausen`], [`tippen`], [`wippen`]); a server asks [`choose`] for a seat's action
//! from that seat's [`GameView`], [`FinishedDeal::review`] for a review and
//! [`FinishedDeal::analyse`] for an analysis. One impl of [`GameBot`] and one line in
//! `bots!` here is all a new game's bots need.

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

    /// Whether [`GameBot::analyse`] takes seconds rather than milliseconds a deal at
    /// [`GameBot::analysis_budget`]: a server then analyses a deal only when one viewer asks for
    /// it, never for a page listing many deals.
    const COSTLY_ANALYSIS: bool = false;

    /// The budget a server gives [`GameBot::analyse`] for one deal: by default
    /// [`Budget::DEFAULT`], which keeps the trick games well under 100 ms a deal.
    fn analysis_budget() -> Budget {
        Budget::DEFAULT
    }
}

/// Declares every game's bots: `Variant => bot type, review kind;` with the variant of the
/// rules' registry ([`fipsen_rules::GameId`]) and the kind of its review: `review` (the
/// bidding and play review, [`Review`]), `decisions` (the review of the decisions,
/// [`GameDecisions`], whose variant is the game's) or `none`. [`choose`] and [`FinishedDeal`]
/// are generated from this list: a new game's bots are one line of it.
macro_rules! bots {
    ($( $variant:ident => $bot:ty, $review:ident; )+) => {
        /// A bot's action for the viewer of `view` (`None`: the view offers nothing it would
        /// take). The same level, seed and view always give the same answer.
        pub fn choose(level: Level, seed: u64, view: &GameView) -> Option<GameAction> {
            fn by<B: GameBot>(level: Level, seed: u64, view: &B::View) -> Option<B::Action> {
                B::new(level, seed).choose(view)
            }
            match view {
                $( GameView::$variant(v) => by::<$bot>(level, seed, v).map(GameAction::$variant), )+
            }
        }

        /// A finished deal, kept for the review of its players' decisions and the analysis of
        /// its play.
        #[derive(Debug, Clone)]
        pub enum FinishedDeal {
            $(
                #[doc = concat!("A deal of the game `", stringify!($variant), "`.")]
                $variant(Box<<$bot as GameBot>::Deal>),
            )+
        }

        impl FinishedDeal {
            /// The current deal of `game` once it is over.
            pub fn of(game: &AnyGame) -> Option<FinishedDeal> {
                if !game.deal_over() {
                    return None;
                }
                Some(match game {
                    $( AnyGame::$variant(s) => FinishedDeal::$variant(Box::new(s.deal().clone())), )+
                })
            }

            /// The game of the deal.
            pub fn game(&self) -> GameId {
                match self { $( FinishedDeal::$variant(_) => GameId::$variant, )+ }
            }

            /// Whether the deals of `game` have a review of the bidding and the play
            /// ([`FinishedDeal::review`]).
            pub fn reviewed(game: GameId) -> bool {
                match game { $( GameId::$variant => bots!(@is review $review), )+ }
            }

            /// Whether the deals of `game` have a review of the decisions
            /// ([`FinishedDeal::decisions`]).
            pub fn decisions_reviewed(game: GameId) -> bool {
                match game { $( GameId::$variant => bots!(@is decisions $review), )+ }
            }

            /// The review of `seat`'s hand by a bot of `level` (`None`: it cannot be computed, or
            /// the game has no such review).
            pub fn review(&self, seat: Seat, level: Level, seed: u64) -> Option<Review> {
                match self {
                    $( FinishedDeal::$variant(deal) => bots!(@review $review, $variant, $bot, deal, seat, level, seed), )+
                }
            }

            /// The review of `seat`'s decisions by a bot of `level` (`None`: the deal is not
            /// over, or the game has no such review).
            pub fn decisions(&self, seat: Seat, level: Level, seed: u64) -> Option<GameDecisions> {
                match self {
                    $( FinishedDeal::$variant(deal) => bots!(@decisions $review, $variant, $bot, deal, seat, level, seed), )+
                }
            }

            /// The card-by-card analysis of the deal's play, within `budget`.
            pub fn analyse(&self, budget: Budget) -> Option<Analysis> {
                match self { $( FinishedDeal::$variant(deal) => <$bot as GameBot>::analyse(deal, budget), )+ }
            }

            /// The budget a server gives the analysis of a deal of `game`
            /// ([`GameBot::analysis_budget`]).
            pub fn analysis_budget(game: GameId) -> Budget {
                match game { $( GameId::$variant => <$bot as GameBot>::analysis_budget(), )+ }
            }

            /// Whether the analysis of a deal of `game` is costly (seconds rather than
            /// milliseconds, [`GameBot::COSTLY_ANALYSIS`]): a page listing many deals shows it
            /// only once it is computed for another reason.
            pub fn costly_analysis(game: GameId) -> bool {
                match game { $( GameId::$variant => <$bot as GameBot>::COSTLY_ANALYSIS, )+ }
            }
        }
    };
    (@is $kind:ident $kind2:ident) => { bots!(@same $kind $kind2) };
    (@same review review) => { true };
    (@same decisions decisions) => { true };
    (@same $a:ident $b:ident) => { false };
    (@review review, $variant:ident, $bot:ty, $deal:ident, $seat:ident, $level:ident, $seed:ident) => {
        <$bot as GameBot>::new($level, $seed).review($deal, $seat)
    };
    (@review $other:ident, $variant:ident, $bot:ty, $deal:ident, $seat:ident, $level:ident, $seed:ident) => {{
        let _ = ($deal, $seat, $level, $seed);
        None
    }};
    (@decisions decisions, $variant:ident, $bot:ty, $deal:ident, $seat:ident, $level:ident, $seed:ident) => {
        <$bot as GameBot>::new($level, $seed).review($deal, $seat).map(GameDecisions::$variant)
    };
    (@decisions $other:ident, $variant:ident, $bot:ty, $deal:ident, $seat:ident, $level:ident, $seed:ident) => {{
        let _ = ($deal, $seat, $level, $seed);
        None
    }};
}

bots! {
    Prisdorf => prisdorf::Bot, review;
    Grossenaspe => grossenaspe::Bot, decisions;
    Anseggerfips => mecklenburg::Bot, decisions;
    Duttfips => mecklenburg::Bot, decisions;
    Thedinghausen => thedinghausen::Bot, decisions;
    Tippen => tippen::Bot, decisions;
    Wippen => wippen::Bot, decisions;
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

    /// Each game's deals are reviewed one way at most, and a game whose analysis is costly
    /// gets a smaller budget than the others, which get the default.
    #[test]
    fn each_game_has_one_kind_of_review_and_its_own_analysis_budget() {
        for &id in GameId::ALL {
            assert!(!(FinishedDeal::reviewed(id) && FinishedDeal::decisions_reviewed(id)), "{id:?}");
            let nodes = FinishedDeal::analysis_budget(id).nodes;
            if FinishedDeal::costly_analysis(id) {
                assert!(nodes < Budget::DEFAULT.nodes, "{id:?}: {nodes}");
            } else {
                assert_eq!(nodes, Budget::DEFAULT.nodes, "{id:?}");
            }
        }
        assert!(GameId::ALL.iter().any(|&id| FinishedDeal::reviewed(id)));
        assert!(GameId::ALL.iter().any(|&id| FinishedDeal::costly_analysis(id)));
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
