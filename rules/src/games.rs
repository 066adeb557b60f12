//! The registry of the platform's games: one line per game in [`registry!`] gives the server,
//! the storage and the protocol everything they need of it, without naming the game anywhere
//! else.
//!
//! * [`GameId`] names the games (`"game": "prisdorf"` in a room's rules and in every view).
//! * [`GameRules`] is a room's rule set: the game and its options, read from JSON in which a
//!   missing `game` means Prisdorf.
//! * [`GameAction`], [`GameEvent`] and [`GameView`] hold one game's action, event and view.
//!   An action is read knowing the room's game ([`GameAction::from_json`]); events serialise
//!   as the game's own event (the room's rules say which game it is); views carry the game's
//!   name first.
//! * [`AnyGame`] is a table's series of whichever game, with every method of [`GameEngine`];
//!   [`GameQuery`] and [`GameAnswer`] hold a game's read-only question about a player's moves
//!   and its answer, [`GameRules::prepare`] what a room of some rules needs computed first.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::engine::{GameEngine, Prepared};
use crate::error::RuleError;
use crate::options::RuleSetError;
use crate::seat::Seat;
use crate::seed::Seed;

/// Declares the games: `Variant => series type, "code", "English name"` (the variant's name is
/// the code in UpperCamelCase). Everything below is generated from this list.
macro_rules! registry {
    ($( $(#[$doc:meta])* $variant:ident => $series:ty, $code:literal, $name:literal; )+) => {
        /// Which game a table plays, as its rules name it (`"game": "prisdorf"`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[serde(rename_all = "snake_case")]
        pub enum GameId {
            $( $(#[$doc])* $variant, )+
        }

        impl GameId {
            /// Every game, in the order a client lists them.
            pub const ALL: &'static [GameId] = &[$( GameId::$variant ),+];

            /// The name in a rule set and in the protocol.
            pub const fn code(self) -> &'static str {
                match self { $( GameId::$variant => $code, )+ }
            }

            /// The game's name in English, for logs and documents.
            pub const fn name(self) -> &'static str {
                match self { $( GameId::$variant => $name, )+ }
            }

            /// The game of a code.
            pub fn from_code(code: &str) -> Option<GameId> {
                GameId::ALL.iter().copied().find(|g| g.code() == code)
            }

            /// The path of the game's series type (`fipsen_rules::<module>::Series`): its
            /// modules are the game's own (or its family's).
            pub fn series_type(self) -> &'static str {
                match self { $( GameId::$variant => std::any::type_name::<$series>(), )+ }
            }
        }

        /// A room's rules: the game and its table options.
        ///
        /// In JSON the game's own options with its name in `game`; a missing `game` is Prisdorf
        /// (so the rule sets written before there were other games still read).
        ///
        /// ```json
        /// {"game": "grossenaspe", "players": 4, "min_bid": 1, "deals": 12}
        /// ```
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum GameRules {
            $( $(#[$doc])* $variant(<$series as GameEngine>::Rules), )+
        }

        impl GameRules {
            /// The game.
            pub const fn game(&self) -> GameId {
                match self { $( GameRules::$variant(_) => GameId::$variant, )+ }
            }

            /// The game's default options.
            pub fn default_for(game: GameId) -> GameRules {
                match game { $( GameId::$variant => GameRules::$variant(Default::default()), )+ }
            }

            /// The options of `game` from a JSON object without its `game` field.
            fn from_options(game: GameId, options: serde_json::Value) -> Result<GameRules, serde_json::Error> {
                Ok(match game { $( GameId::$variant => GameRules::$variant(serde_json::from_value(options)?), )+ })
            }

            /// Checks the options that their types alone cannot.
            ///
            /// # Errors
            /// An option is out of range.
            pub fn validate(&self) -> Result<(), RuleSetError> {
                match self { $( GameRules::$variant(rules) => <$series as GameEngine>::validate(rules), )+ }
            }

            /// The number of seats these rules set.
            pub fn seats(&self) -> usize {
                match self { $( GameRules::$variant(rules) => <$series as GameEngine>::seats_of(rules), )+ }
            }

            /// How many deals the series lasts (`None`: open-ended).
            pub fn deals(&self) -> Option<u32> {
                match self { $( GameRules::$variant(rules) => <$series as GameEngine>::deals_of(rules), )+ }
            }

            /// What a room of these rules needs computed before it opens (see
            /// [`GameEngine::prepare`]); costly for some rules, so called off any event loop.
            pub fn prepare(&self) -> Prepared {
                match self { $( GameRules::$variant(rules) => <$series as GameEngine>::prepare(rules), )+ }
            }

            /// Whether a room of these rules has anything prepared ([`GameEngine::PREPARES`]).
            pub fn prepares(&self) -> bool {
                match self { $( GameRules::$variant(_) => <$series as GameEngine>::PREPARES, )+ }
            }
        }

        impl Serialize for GameRules {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                match self {
                    $( GameRules::$variant(rules) => Tagged { game: GameId::$variant, rest: rules }.serialize(serializer), )+
                }
            }
        }

        #[cfg(feature = "schema")]
        impl schemars::JsonSchema for GameRules {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                "GameRules".into()
            }

            fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
                let variants = vec![$( rules_schema::<<$series as GameEngine>::Rules>(generator, GameId::$variant), )+];
                schemars::json_schema!({
                    "description": "A room's rules: the game (`game`, default `prisdorf`) and its options.",
                    "oneOf": variants,
                })
            }
        }

        /// One game's action.
        ///
        /// In JSON the game's own action; it is read knowing the game ([`GameAction::from_json`]).
        #[derive(Debug, Clone, PartialEq, Eq, Serialize)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[serde(untagged)]
        pub enum GameAction {
            $( $(#[$doc])* $variant(<$series as GameEngine>::Action), )+
        }

        impl GameAction {
            /// The game.
            pub const fn game(&self) -> GameId {
                match self { $( GameAction::$variant(_) => GameId::$variant, )+ }
            }

            /// Reads an action of `game` from JSON.
            ///
            /// # Errors
            /// The JSON is not an action of that game.
            pub fn from_json(game: GameId, value: serde_json::Value) -> Result<GameAction, serde_json::Error> {
                Ok(match game { $( GameId::$variant => GameAction::$variant(serde_json::from_value(value)?), )+ })
            }

            /// A short name of the action's kind for logs (`"play"`, `"bid"`), never its cards.
            pub fn kind(&self) -> &'static str {
                match self { $( GameAction::$variant(action) => <$series as GameEngine>::action_kind(action), )+ }
            }
        }

        /// A read-only question of one game's player about his moves ([`GameEngine::query`]).
        ///
        /// In JSON the game's own question; it is read knowing the game ([`GameQuery::from_json`]).
        #[derive(Debug, Clone, PartialEq, Eq, Serialize)]
        #[serde(untagged)]
        pub enum GameQuery {
            $( $(#[$doc])* $variant(<$series as GameEngine>::Query), )+
        }

        impl GameQuery {
            /// Reads a question of `game` from JSON.
            ///
            /// # Errors
            /// The JSON is not a question of that game (always, for a game that takes none).
            pub fn from_json(game: GameId, value: serde_json::Value) -> Result<GameQuery, serde_json::Error> {
                Ok(match game { $( GameId::$variant => GameQuery::$variant(serde_json::from_value(value)?), )+ })
            }
        }

        /// The answer to a [`GameQuery`], in JSON the game's own answer.
        #[derive(Debug, Clone, PartialEq, Eq, Serialize)]
        #[serde(untagged)]
        pub enum GameAnswer {
            $( $(#[$doc])* $variant(<$series as GameEngine>::Answer), )+
        }

        #[cfg(feature = "schema")]
        impl schemars::JsonSchema for GameQuery {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                "GameQuery".into()
            }

            fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
                let games = vec![$( generator.subschema_for::<<$series as GameEngine>::Query>(), )+];
                crate::query_schema::one_of(games, "A player's question about his moves: the question of the room's game, one shape per game that takes questions.")
            }
        }

        #[cfg(feature = "schema")]
        impl schemars::JsonSchema for GameAnswer {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                "GameAnswer".into()
            }

            fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
                let games = vec![$( generator.subschema_for::<<$series as GameEngine>::Answer>(), )+];
                crate::query_schema::one_of(games, "The answer to a `GameQuery`: the answer of the room's game.")
            }
        }

        /// One game's event.
        ///
        /// In JSON the game's own event (the room's rules name the game). Read back from JSON,
        /// it is taken as the first game in the registry whose event has that shape: a reader
        /// that knows the game uses [`GameEvent::from_json`].
        #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[serde(untagged)]
        pub enum GameEvent {
            $( $(#[$doc])* $variant(<$series as GameEngine>::Event), )+
        }

        impl GameEvent {
            /// Reads an event of `game` from JSON.
            ///
            /// # Errors
            /// The JSON is not an event of that game.
            pub fn from_json(game: GameId, value: serde_json::Value) -> Result<GameEvent, serde_json::Error> {
                Ok(match game { $( GameId::$variant => GameEvent::$variant(serde_json::from_value(value)?), )+ })
            }

            /// The event as `viewer` may see it (see [`GameEngine::redact`]).
            #[must_use]
            pub fn for_viewer(&self, viewer: Option<Seat>) -> GameEvent {
                match self { $( GameEvent::$variant(event) => GameEvent::$variant(<$series as GameEngine>::redact(event, viewer)), )+ }
            }
        }

        /// What one viewer may see of a series, with the prompt of what he may do now: the
        /// game's own view with the game's name in `game`.
        #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[serde(tag = "game", rename_all = "snake_case")]
        #[allow(clippy::large_enum_variant)]
        pub enum GameView {
            $( $(#[$doc])* $variant(<$series as GameEngine>::View), )+
        }

        impl GameView {
            /// The game.
            pub const fn game(&self) -> GameId {
                match self { $( GameView::$variant(_) => GameId::$variant, )+ }
            }

            /// Takes every action off the view's prompt (a bot acts for the viewer meanwhile).
            pub fn clear_prompt(&mut self) {
                match self { $( GameView::$variant(view) => <$series as GameEngine>::clear_prompt(view), )+ }
            }
        }

        /// The events one step of a game caused, in the game's own list: each is read as a
        /// [`GameEvent`] by iterating, so that nothing is converted on the way.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum GameEvents {
            $( $(#[$doc])* $variant(Vec<<$series as GameEngine>::Event>), )+
        }

        impl GameEvents {
            /// How many events.
            pub fn len(&self) -> usize {
                match self { $( GameEvents::$variant(list) => list.len(), )+ }
            }

            /// Whether there are none.
            pub fn is_empty(&self) -> bool {
                self.len() == 0
            }
        }

        /// The events of [`GameEvents`], one [`GameEvent`] at a time.
        #[derive(Debug)]
        pub enum GameEventsIter {
            $( $(#[$doc])* $variant(std::vec::IntoIter<<$series as GameEngine>::Event>), )+
        }

        impl Iterator for GameEventsIter {
            type Item = GameEvent;

            fn next(&mut self) -> Option<GameEvent> {
                match self { $( GameEventsIter::$variant(it) => it.next().map(GameEvent::$variant), )+ }
            }

            fn size_hint(&self) -> (usize, Option<usize>) {
                match self { $( GameEventsIter::$variant(it) => it.size_hint(), )+ }
            }
        }

        impl ExactSizeIterator for GameEventsIter {}

        impl IntoIterator for GameEvents {
            type Item = GameEvent;
            type IntoIter = GameEventsIter;

            fn into_iter(self) -> GameEventsIter {
                match self { $( GameEvents::$variant(list) => GameEventsIter::$variant(list.into_iter()), )+ }
            }
        }

        /// The actions a seat may take, in the game's own list: each is read as a
        /// [`GameAction`], so that listing converts nothing.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum GameActions {
            $( $(#[$doc])* $variant(Vec<<$series as GameEngine>::Action>), )+
        }

        impl GameActions {
            /// How many actions.
            pub fn len(&self) -> usize {
                match self { $( GameActions::$variant(list) => list.len(), )+ }
            }

            /// Whether there are none.
            pub fn is_empty(&self) -> bool {
                self.len() == 0
            }

            /// The action at `index`.
            pub fn get(&self, index: usize) -> Option<GameAction> {
                match self { $( GameActions::$variant(list) => list.get(index).cloned().map(GameAction::$variant), )+ }
            }

            /// The first action.
            pub fn first(&self) -> Option<GameAction> {
                self.get(0)
            }

            /// Whether `action` is among them.
            pub fn contains(&self, action: &GameAction) -> bool {
                match (self, action) {
                    $( (GameActions::$variant(list), GameAction::$variant(action)) => list.contains(action), )+
                    #[allow(unreachable_patterns)]
                    _ => false,
                }
            }

            /// Every action, in order.
            pub fn iter(&self) -> impl Iterator<Item = GameAction> + '_ {
                (0..self.len()).filter_map(|i| self.get(i))
            }
        }

        /// A table's series of whichever game it plays.
        #[derive(Debug, Clone)]
        #[allow(clippy::large_enum_variant)]
        pub enum AnyGame {
            $( $(#[$doc])* $variant($series), )+
        }

        /// Runs `$body` with `$g` bound to the series inside `$self`, and `$G` to its type.
        macro_rules! dispatch {
            ($self_:expr, $g:ident => $body:expr) => {
                match $self_ { $( AnyGame::$variant($g) => $body, )+ }
            };
        }

        impl AnyGame {
            /// Starts a series of the rules' game: its first deal is dealt at once.
            ///
            /// # Errors
            /// An option is out of range.
            pub fn start(rules: &GameRules, master: Seed) -> Result<(AnyGame, GameEvents), RuleSetError> {
                match rules {
                    $( GameRules::$variant(rules) => {
                        let (series, events) = <$series as GameEngine>::start(rules.clone(), master)?;
                        Ok((AnyGame::$variant(series), GameEvents::$variant(events)))
                    } )+
                }
            }

            /// The game.
            pub const fn game(&self) -> GameId {
                match self { $( AnyGame::$variant(_) => GameId::$variant, )+ }
            }

            /// Every action `seat` may take now, in the game's own list (nothing is converted until
            /// an action is read from it).
            pub fn legal_actions(&self, seat: Seat) -> GameActions {
                match self { $( AnyGame::$variant(g) => GameActions::$variant(g.legal_actions(seat)), )+ }
            }

            /// Whether `seat` has any action now (cheaper than [`AnyGame::legal_actions`]).
            pub fn can_act(&self, seat: Seat) -> bool { dispatch!(self, g => g.can_act(seat)) }

            /// Whether `seat` may take `action` now, without taking it.
            ///
            /// # Errors
            /// The error [`AnyGame::apply`] would return.
            pub fn check(&self, seat: Seat, action: &GameAction) -> Result<(), RuleError> {
                match (self, action) {
                    $( (AnyGame::$variant(g), GameAction::$variant(action)) => GameEngine::check(g, seat, action.clone()), )+
                    #[allow(unreachable_patterns)]
                    _ => Err(RuleError::WrongGame),
                }
            }

            /// Takes `seat`'s action and returns the events it caused.
            ///
            /// # Errors
            /// The action is not allowed now (or is another game's); the state is then exactly
            /// as before.
            pub fn apply(&mut self, seat: Seat, action: &GameAction) -> Result<GameEvents, RuleError> {
                match (self, action) {
                    $( (AnyGame::$variant(g), GameAction::$variant(action)) => {
                        Ok(GameEvents::$variant(GameEngine::apply(g, seat, action.clone())?))
                    } )+
                    #[allow(unreachable_patterns)]
                    _ => Err(RuleError::WrongGame),
                }
            }

            /// Answers a read-only question `seat` asks about his moves (see
            /// [`GameEngine::query`]); nothing changes.
            ///
            /// # Errors
            /// The rules refuse the question, the game takes none, or it is another game's
            /// ([`RuleError::WrongGame`]).
            pub fn query(&self, seat: Seat, query: &GameQuery) -> Result<GameAnswer, RuleError> {
                match (self, query) {
                    $( (AnyGame::$variant(g), GameQuery::$variant(query)) => Ok(GameAnswer::$variant(g.query(seat, query)?)), )+
                    #[allow(unreachable_patterns)]
                    _ => Err(RuleError::WrongGame),
                }
            }

            /// Deals the next deal once the current one is over.
            ///
            /// # Errors
            /// The deal is not over, or the series is.
            pub fn next_deal(&mut self) -> Result<GameEvents, RuleError> {
                match self { $( AnyGame::$variant(g) => Ok(GameEvents::$variant(g.next_deal()?)), )+ }
            }

            /// What `viewer` may see (`None`: a spectator).
            pub fn view(&self, viewer: Option<Seat>) -> GameView {
                match self { $( AnyGame::$variant(g) => GameView::$variant(g.view(viewer)), )+ }
            }

            /// [`AnyGame::view`] with the scoresheet's rows from row `first` on (see
            /// [`GameEngine::view_from_row`]).
            pub fn view_from_row(&self, viewer: Option<Seat>, first: usize) -> GameView {
                match self { $( AnyGame::$variant(g) => GameView::$variant(g.view_from_row(viewer, first)), )+ }
            }

            /// [`AnyGame::view`] with its scoresheet left empty (see
            /// [`GameEngine::view_without_rows`]).
            pub fn view_without_rows(&self, viewer: Option<Seat>) -> GameView {
                match self { $( AnyGame::$variant(g) => GameView::$variant(g.view_without_rows(viewer)), )+ }
            }

            /// [`AnyGame::view_without_rows`] with at least the deal's fields that differ from
            /// viewer to viewer filled in (see [`GameEngine::own_view`]).
            pub fn own_view(&self, viewer: Option<Seat>) -> GameView {
                match self { $( AnyGame::$variant(g) => GameView::$variant(g.own_view(viewer)), )+ }
            }

            /// Reads an action of this table's game from JSON.
            ///
            /// # Errors
            /// The JSON is not an action of this game.
            pub fn action_from_json(&self, value: serde_json::Value) -> Result<GameAction, serde_json::Error> {
                GameAction::from_json(self.game(), value)
            }
        }

        impl AnyGame {
            /// The number of seats at the table.
            pub fn seats(&self) -> usize { dispatch!(self, g => g.seats()) }
            /// The current deal's number, from 1.
            pub fn deal_number(&self) -> u32 { dispatch!(self, g => g.deal_number()) }
            /// The deals finished that count towards the series' length (see [`GameEngine::counted`]).
            pub fn counted(&self) -> u32 { dispatch!(self, g => g.counted()) }
            /// Takes the seeds of the deals still to come as `seeds` says (see
            /// [`GameEngine::set_deal_seeds`]).
            pub fn set_deal_seeds(&mut self, seeds: crate::DealSeeds) { dispatch!(self, g => g.set_deal_seeds(seeds)) }
            /// The seat expected to act now, if any.
            pub fn turn(&self) -> Option<Seat> { dispatch!(self, g => g.turn()) }
            /// Whether a trick is being played (some of its cards are on the table).
            pub fn trick_in_progress(&self) -> bool { dispatch!(self, g => g.trick_in_progress()) }
            /// Whether the next card leads to a new trick.
            pub fn leading(&self) -> bool { dispatch!(self, g => g.leading()) }
            /// Whether the current deal is over.
            pub fn deal_over(&self) -> bool { dispatch!(self, g => g.deal_over()) }
            /// Whether the series has played its last deal.
            pub fn series_over(&self) -> bool { dispatch!(self, g => g.series_over()) }
            /// Each seat's running total.
            pub fn totals(&self) -> &[i32] { dispatch!(self, g => g.totals()) }
            /// Whether a computer player at `seat` is to be asked for an action although it is
            /// not his turn (see [`GameEngine::bot_out_of_turn`]).
            pub fn bot_out_of_turn(&self, seat: Seat) -> bool { dispatch!(self, g => g.bot_out_of_turn(seat)) }
            /// The number of rows on the scoresheet.
            pub fn rows(&self) -> usize { dispatch!(self, g => g.rows()) }

            /// The series with its scoresheet's rows before `first` left out
            /// ([`GameEngine::with_rows_from`]).
            pub fn with_rows_from(&self, first: usize) -> AnyGame {
                match self { $( AnyGame::$variant(g) => AnyGame::$variant(g.with_rows_from(first)), )+ }
            }

            /// The whole state of the series as JSON, secret master seed and hidden hands
            /// included: for the server's own storage, never for a viewer.
            pub fn state_json(&self) -> serde_json::Value {
                dispatch!(self, g => serde_json::to_value(g).unwrap_or(serde_json::Value::Null))
            }

            /// A series of `game` from its [`AnyGame::state_json`].
            ///
            /// # Errors
            /// The JSON is not a series of that game.
            pub fn from_state_json(game: GameId, value: serde_json::Value) -> Result<AnyGame, serde_json::Error> {
                match game {
                    $( GameId::$variant => serde_json::from_value(value).map(AnyGame::$variant), )+
                }
            }
            /// The JSON of the scoresheet's row `index` (from 0) as the view shows it.
            pub fn row_json(&self, index: usize) -> Option<String> { dispatch!(self, g => g.row_json(index)) }
        }
    };
}

registry! {
    /// Prisdorf Fipsen: the 25-card pack with the ♦7, duels, Hand and Ruten, Kieker, Siebener Fips.
    Prisdorf => crate::prisdorf::Series, "prisdorf", "Prisdorf Fipsen";
    /// Großenaspe Fipsen: the 32-card pack, clubs as "Gute", bids from 1, Fips, the Kieker with
    /// skat and talon.
    Grossenaspe => crate::grossenaspe::Series, "grossenaspe", "Großenaspe Fipsen";
    /// Anseggerfips (Mecklenburg): the 25-card pack with the ♦A, bids 2 to 4, Ruten, Fips and
    /// Rutenfips in a single round, the Dutt unused.
    Anseggerfips => crate::mecklenburg::Anseggerfips, "anseggerfips", "Anseggerfips";
    /// Duttfips (Mecklenburg): forehand's compulsory contract of Dutt, Ruten oewer, Fips or
    /// Rutenfips; the declarer takes the Dutt.
    Duttfips => crate::mecklenburg::Duttfips, "duttfips", "Duttfips";
    /// Thedinghausen Fipsen: five players, the 32-card pack, a turned-up trump card, the duty
    /// to trump and overtrump, fipsen announced, and a race to ten tricks over several deals.
    Thedinghausen => crate::thedinghausen::Series, "thedinghausen", "Thedinghausen Fipsen";
    /// Tippen / Dreiblatt: a pot of play-money counters, three to six cards a hand, a trump card
    /// turned up, play or pass; seven historical rule sets as presets, for 2 to 10 players.
    Tippen => crate::tippen::Series, "tippen", "Tippen";
    /// Wippen: a fishing game for 2 to 4 players with the 52-card pack; a hand card captures
    /// or builds table piles by arithmetic (+ − × ÷); games, sets and a match.
    Wippen => crate::wippen::Series, "wippen", "Wippen";
}

impl Default for GameId {
    /// Prisdorf Fipsen, the game of rule sets that name none.
    fn default() -> Self {
        GameId::Prisdorf
    }
}

impl GameId {
    /// The fields of the game's deal view that differ from viewer to viewer: the viewer, his
    /// hand, what he may do, and the cards shown to some seats only; in the order the view
    /// writes them. [`AnyGame::own_view`] fills in at least these.
    pub const fn own_fields(self) -> &'static [&'static str] {
        match self {
            GameId::Prisdorf => &["viewer", "hand", "skat", "stock", "discards", "kieker_hand", "prompt"],
            GameId::Grossenaspe => &["viewer", "hand", "skat", "talon", "discards", "kieker_hand", "prompt"],
            GameId::Anseggerfips | GameId::Duttfips => &["viewer", "hand", "dutt", "discards", "prompt"],
            GameId::Thedinghausen | GameId::Wippen => &["viewer", "hand", "prompt"],
            GameId::Tippen => &["viewer", "hand", "trump_card", "discards", "prompt"],
        }
    }
}

impl Default for GameRules {
    fn default() -> Self {
        GameRules::default_for(GameId::default())
    }
}

impl<'de> Deserialize<'de> for GameRules {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<GameRules, D::Error> {
        let mut object = serde_json::Map::deserialize(deserializer)?;
        let game = match object.remove("game") {
            None => GameId::default(),
            Some(serde_json::Value::String(code)) => GameId::from_code(&code).ok_or_else(|| {
                let known: Vec<&str> = GameId::ALL.iter().map(|g| g.code()).collect();
                let shown: String = code.chars().take(32).collect();
                D::Error::custom(format!("unknown game `{shown}`; this server plays {}", known.join(", ")))
            })?,
            Some(_) => return Err(D::Error::custom("`game` is the name of a game, a string")),
        };
        GameRules::from_options(game, serde_json::Value::Object(object)).map_err(D::Error::custom)
    }
}

/// A game's options with its name first.
#[derive(Serialize)]
struct Tagged<'a, R> {
    game: GameId,
    #[serde(flatten)]
    rest: &'a R,
}

/// A game's options schema with its `game` property (required but for the default game).
#[cfg(feature = "schema")]
fn rules_schema<R: schemars::JsonSchema>(generator: &mut schemars::SchemaGenerator, game: GameId) -> schemars::Schema {
    let mut schema = R::json_schema(generator);
    if let Some(object) = schema.as_object_mut() {
        let property = serde_json::json!({ "const": game.code(), "description": game.name() });
        if let Some(serde_json::Value::Object(properties)) = object.get_mut("properties") {
            properties.insert("game".into(), property);
        }
        if game != GameId::default() {
            let required = object.entry("required").or_insert_with(|| serde_json::Value::Array(Vec::new()));
            if let serde_json::Value::Array(required) = required {
                required.insert(0, serde_json::Value::String("game".into()));
            }
        }
    }
    schema
}

impl AnyGame {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prisdorf::{Players, RuleSet};

    #[test]
    fn rules_name_their_game_and_a_missing_game_is_prisdorf() {
        let old: GameRules = serde_json::from_str(r#"{"players":3}"#).unwrap();
        assert_eq!(old, GameRules::Prisdorf(RuleSet { players: Players::Three, ..RuleSet::prisdorf() }));
        let json = serde_json::to_string(&old).unwrap();
        assert!(json.starts_with(r#"{"game":"prisdorf","players":3,"#), "{json}");
        assert_eq!(serde_json::from_str::<GameRules>(&json).unwrap(), old);
        let g: GameRules = serde_json::from_str(r#"{"game":"grossenaspe","players":5}"#).unwrap();
        assert_eq!(g.game(), GameId::Grossenaspe);
        assert_eq!(g.seats(), 5);
        let err = serde_json::from_str::<GameRules>(r#"{"game":"skat"}"#).unwrap_err().to_string();
        assert!(err.contains("unknown game `skat`") && err.contains("grossenaspe"), "{err}");
        // An option of another game is refused, not ignored.
        assert!(serde_json::from_str::<GameRules>(r#"{"game":"grossenaspe","kontra":true}"#).is_err());
        assert!(serde_json::from_str::<GameRules>(r#"{"game":7}"#).is_err());
    }

    #[test]
    fn codes_round_trip() {
        for &game in GameId::ALL {
            assert_eq!(GameId::from_code(game.code()), Some(game));
            let json = serde_json::to_string(&game).unwrap();
            assert_eq!(json, format!("\"{}\"", game.code()));
            assert_eq!(GameRules::default_for(game).game(), game);
        }
    }

    #[test]
    fn an_action_is_read_as_its_games_and_another_games_action_is_refused() {
        let rules = GameRules::default_for(GameId::Grossenaspe);
        let (mut game, _) = AnyGame::start(&rules, Seed([3; 32])).unwrap();
        let seat = game.turn().unwrap();
        let legal = game.legal_actions(seat);
        let first = legal.first().unwrap();
        assert!(legal.contains(&first) && legal.iter().count() == legal.len());
        let json = serde_json::to_value(&first).unwrap();
        let parsed = game.action_from_json(json.clone()).unwrap();
        assert_eq!(parsed, first);
        assert!(!legal.contains(&GameAction::Prisdorf(crate::prisdorf::Action::Pass)), "another game's action");
        let prisdorf = GameAction::from_json(GameId::Prisdorf, serde_json::json!({"action": "pass"})).unwrap();
        assert_eq!(game.check(seat, &prisdorf), Err(RuleError::WrongGame));
        assert!(game.apply(seat, &prisdorf).is_err());
        assert_eq!(game.legal_actions(seat), legal, "a refused action changes nothing");
    }

    /// At every step of a short series of every game, for every viewer, the view of the
    /// viewer's own fields holds the deal's fields that differ from viewer to viewer as the whole
    /// view has them, and the same series-level values.
    #[test]
    fn own_views_hold_the_viewers_own_fields_as_the_whole_view() {
        for &id in GameId::ALL {
            let mut options = serde_json::to_value(GameRules::default_for(id)).unwrap();
            if options.get("rounds").is_some() {
                options["rounds"] = 1.into();
            } else {
                options["deals"] = 2.into();
            }
            let rules: GameRules = serde_json::from_value(options).unwrap();
            let (mut game, _) = AnyGame::start(&rules, Seed::from_u64(11)).unwrap();
            let viewers: Vec<Option<Seat>> =
                std::iter::once(None).chain((0..game.seats() as u8).map(|s| Some(Seat(s)))).collect();
            let mut steps = 0;
            for step in 0..3000usize {
                for &viewer in &viewers {
                    let whole = serde_json::to_value(game.view_without_rows(viewer)).unwrap();
                    let own = serde_json::to_value(game.own_view(viewer)).unwrap();
                    for field in id.own_fields() {
                        let (a, b) = (&whole["deal"][*field], &own["deal"][*field]);
                        assert!(whole["deal"].get(*field).is_some(), "{id:?}: the view has no `{field}`");
                        assert_eq!(a, b, "{id:?}, step {step}, viewer {viewer:?}: `{field}`");
                    }
                    assert_eq!(whole["game"], own["game"]);
                }
                steps += 1;
                if game.series_over() {
                    break;
                }
                if game.deal_over() {
                    game.next_deal().unwrap();
                } else {
                    let seat = game.turn().unwrap();
                    let legal = game.legal_actions(seat);
                    game.apply(seat, &legal.get(step % legal.len()).unwrap()).unwrap();
                }
            }
            assert!(game.series_over() && steps > 20, "{id:?}: the series was played to its end ({steps} steps)");
        }
    }

    #[test]
    fn only_wippen_prepares_and_takes_questions_through_the_hooks() {
        for &id in GameId::ALL {
            let rules = GameRules::default_for(id);
            let prepared = rules.prepare();
            assert_eq!(prepared.is_nothing(), id != GameId::Wippen, "{id:?}: {prepared:?}");
            assert_eq!(rules.prepares(), !prepared.is_nothing(), "{id:?}: says whether it prepares");
            let (game, _) = AnyGame::start(&rules, Seed([5; 32])).unwrap();
            let seat = game.turn().unwrap_or(Seat(0));
            let selection = serde_json::json!({"card": "H10", "piles": []});
            let query = GameQuery::from_json(id, selection.clone());
            if id == GameId::Wippen {
                assert!(prepared.get::<crate::wippen::ReachTable>().is_some_and(|t| t.bytes() > 0));
                let query = query.unwrap();
                // Every hand card's discard question is answered as the series itself answers.
                let view = serde_json::to_value(game.view(Some(seat))).unwrap();
                for card in view["deal"]["hand"].as_array().unwrap() {
                    let card: crate::card::Card = serde_json::from_value(card.clone()).unwrap();
                    let query = GameQuery::Wippen(crate::wippen::Selection { card, piles: Vec::new() });
                    // The other games' answers have no values: Wippen's is the only one there is.
                    let GameAnswer::Wippen(answer) = game.query(seat, &query).unwrap();
                    let AnyGame::Wippen(series) = &game else { unreachable!("a Wippen table") };
                    assert_eq!(answer.moves, series.options(seat, card, &[]).unwrap());
                    assert_eq!(answer.card, card);
                }
                let other = Seat((seat.0 + 1) % game.seats() as u8);
                assert_eq!(game.query(other, &query), Err(RuleError::NotYourTurn));
            } else {
                assert!(query.is_err(), "{id:?} takes no questions, so none reads");
            }
        }
        // A question of another game is refused.
        let (prisdorf, _) = AnyGame::start(&GameRules::default(), Seed([5; 32])).unwrap();
        let wippen = GameQuery::Wippen(crate::wippen::Selection { card: "H10".parse().unwrap(), piles: Vec::new() });
        assert_eq!(prisdorf.query(Seat(0), &wippen), Err(RuleError::WrongGame));
    }

    /// A series kept without its earlier rows and read back from its JSON at the end of a deal
    /// goes on exactly as the whole one: the same next deals, events and views (but the rows
    /// left out), for every game but Wippen, whose listing of moves takes minutes without its
    /// prepared table in a debug build (the server's series tests keep a Wippen series so).
    #[test]
    fn a_series_kept_without_its_earlier_rows_goes_on_as_the_whole_one() {
        for &game in GameId::ALL.iter().filter(|&&g| g != GameId::Wippen) {
            let (mut whole, _) = AnyGame::start(&GameRules::default_for(game), Seed([9; 32])).unwrap();
            let mut kept: Option<AnyGame> = None;
            let mut steps = 0;
            while whole.deal_number() <= 3 && !whole.series_over() && steps < 5_000 {
                steps += 1;
                if whole.deal_over() {
                    let json = whole.with_rows_from(whole.rows().saturating_sub(1)).state_json();
                    let mut again = AnyGame::from_state_json(game, json).unwrap();
                    assert_eq!(again.rows(), whole.rows().min(1), "{game:?}: the deal's last row is kept");
                    assert_eq!(again.totals(), whole.totals(), "{game:?}");
                    let (a, b) = (whole.next_deal().unwrap(), again.next_deal().unwrap());
                    assert_eq!(a, b, "{game:?}: the next deal is dealt the same");
                    kept = Some(again);
                    continue;
                }
                let seat = (0..whole.seats()).map(|s| Seat(s as u8)).find(|&s| whole.can_act(s)).unwrap();
                let action = whole.legal_actions(seat).first().unwrap();
                let events = whole.apply(seat, &action).unwrap();
                if let Some(kept) = kept.as_mut() {
                    assert_eq!(kept.apply(seat, &action).unwrap(), events, "{game:?}: the same events");
                    if whole.deal_over() {
                        assert_eq!(
                            kept.view_without_rows(None),
                            whole.view_without_rows(None),
                            "{game:?}: the same view"
                        );
                    }
                }
            }
            assert!(kept.is_some(), "{game:?}: a deal was finished");
        }
    }
}
