//! The replay of a finished deal: every step from the deal as dealt to its end, with every hand
//! open (the deal is over, so its cards are no longer secret).

use fipsen_rules::{Card, GameEvent, GameId, GameRules, Seat, Seed};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::patch::{self, Patch, PatchError};

/// Format version of [`DealReplay`]; it changes when a field changes meaning. Format 2: only the
/// first step carries the deal and the hands whole, every later step what changed
/// ([`ReplayStep::patches`]), so that a replay costs bytes in proportion to its steps.
pub const REPLAY_FORMAT: u32 = 2;

/// A finished deal, step by step.
///
/// ```json
/// {"format": 2, "game": "…", "deal": 3, "perspective": 0,
///  "steps": [{"seat": null, "action": null, "events": [{"event": "dealt", "…": "…"}],
///             "deal": {"phase": "auction", "…": "…"}, "hands": [["C7", "…"], ["…"], ["…"], ["…"]]},
///            {"seat": 1, "action": {"action": "call", "call": {"call": "pass"}}, "events": ["…"],
///             "patches": [{"op": "set", "path": ["deal", "turn"], "value": 2},
///                         {"op": "append", "path": ["deal", "calls"], "values": ["…"]}]}]}
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DealReplay {
    /// [`REPLAY_FORMAT`].
    pub format: u32,
    /// The room's game.
    pub game: GameId,
    /// The deal's number in the series.
    pub deal: u32,
    /// The seat the deal views are seen from (the asker's seat, or `null` for a spectator's
    /// view); every hand is open in `hands` whatever the perspective.
    pub perspective: Option<Seat>,
    /// The deal as dealt, then one step per action, to the end of the deal: the first whole,
    /// the others as what changed ([`DealReplay::shown`] gives each step whole).
    pub steps: Vec<ReplayStep>,
    /// The card-by-card analysis of the deal's play with every hand open, where the game has
    /// one (left out where it has none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub analysis: Option<PlayAnalysis>,
}

/// What the values of a [`PlayAnalysis`] count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AnalysisUnit {
    /// The game's points, from the player's side.
    Points,
    /// Tricks the player's side takes in the deal (those already taken included).
    Tricks,
}

/// How the values of a [`PlayAnalysis`] were found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AnalysisMethod {
    /// Best play of both sides to the end of the deal, every card known.
    Exact,
    /// Best play to the end of the deal, every card known, the other seats playing as one side
    /// against the player (games where each seat plays for himself).
    AgainstAll,
    /// Best play of every seat for a bounded number of moves (each card's `horizon`).
    Bounded,
}

/// How many of a card's better moves a [`CardCost`] carries at most: enough to show a player
/// what he could have done instead, and a replay stays small however many moves tied for the
/// best (a table of the fishing game can offer hundreds).
pub const MAX_BEST_MOVES: usize = 3;

/// The analysis of a finished deal's play: for each card played, the best value its player's
/// side could still reach before it, the value after it, and the cards that kept the best.
///
/// ```json
/// {"unit": "tricks", "method": "exact", "complete": true, "costly": [0, 1, 0, 0],
///  "cards": [{"index": 0, "seat": 1, "card": "HA", "before": 2, "after": 2, "cost": 0, "best": ["HA"]},
///            {"index": 1, "seat": 2, "card": "H7", "before": 3, "after": 2, "cost": 1, "best": ["HK"]}]}
/// ```
///
/// A costly move of a game whose move is more than its card also names the better moves whole:
///
/// ```json
/// {"index": 5, "seat": 1, "card": "S4", "before": 2, "after": 0, "cost": 2, "best": ["S4"],
///  "best_moves": [{"kind": "capture", "card": "S4", "groups": [{"card": "D4"}]}], "horizon": 3}
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PlayAnalysis {
    /// What the values count.
    pub unit: AnalysisUnit,
    /// How they were found.
    pub method: AnalysisMethod,
    /// Whether every card was analysed within the server's budget (cards it had no time for
    /// have no values).
    pub complete: bool,
    /// How many cards of each seat cost something.
    pub costly: Vec<u32>,
    /// Every card played, in order.
    pub cards: Vec<CardCost>,
}

/// One card played, analysed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CardCost {
    /// The card's place in the play of the deal, from 0.
    pub index: u16,
    /// Who played it.
    pub seat: Seat,
    /// The card.
    pub card: Card,
    /// The best value the player's side could reach before the card (`null`: not analysed).
    pub before: Option<i32>,
    /// The value after the card played (`null`: not analysed).
    pub after: Option<i32>,
    /// What the card cost: `before` less `after` (0 for a best card; `null`: not analysed).
    pub cost: Option<i32>,
    /// The cards that keep the best value (the card played among them when it cost nothing).
    /// Where a move is more than its card, one card may be played by a good move and a costly
    /// one: these are the hand cards of `best_moves`, so a costly move's own card can be among
    /// them.
    pub best: Vec<Card>,
    /// Where a move is more than its card (a capture, a build or a discard): the moves that
    /// keep the best value, each whole as the game's action, at most [`MAX_BEST_MOVES`] of them
    /// in the order the rules list them, so that a player is told which move was better and not
    /// only which card. A costly move is never among them. Left out for the trick games, where a
    /// card is the whole move (`best` says it all).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(with = "Vec<fipsen_rules::GameAction>")]
    pub best_moves: Vec<serde_json::Value>,
    /// For a bounded search, the moves searched after this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub horizon: Option<u8>,
}

/// One step of a replay: what was done, what it caused, and the deal after it.
///
/// What a step shows is one document, `{"deal": …, "hands": …}`: the first step carries it whole
/// (`deal` and `hands`), each later step only the [`Patch`]es that turn the step before's
/// document into its own (the ops of an `update` frame, on this document instead of the
/// client's state). A deal view holds the deal's history (its tricks, its moves, what was
/// captured), so whole views at every step would cost bytes growing with the square of the
/// deal's length; patches cost what each step changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ReplayStep {
    /// Who acted (`null` for the deal as dealt).
    pub seat: Option<Seat>,
    /// What he did, as the game's action (`null` for the deal as dealt).
    pub action: Option<serde_json::Value>,
    /// The game's events of this step, unredacted.
    pub events: Vec<GameEvent>,
    /// The first step: the deal as dealt, as the game's deal view (the `deal` of its series
    /// view) seen from the replay's perspective, without a prompt. Left out of later steps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<serde_json::Map<String, serde_json::Value>>")]
    pub deal: Option<serde_json::Value>,
    /// The first step: every seat's hand as dealt. Left out of later steps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hands: Option<Vec<Vec<Card>>>,
    /// A later step: the patches from the step before's `{"deal", "hands"}` to this step's, in
    /// order (left out where nothing changed, and in the first step).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub patches: Vec<Patch>,
}

/// What one step of a replay shows, whole: as the steps of format 1 carried it.
#[derive(Debug, Clone, PartialEq)]
pub struct StepShown {
    /// The deal after the step, seen from the replay's perspective, without a prompt.
    pub deal: serde_json::Value,
    /// Every seat's hand after the step.
    pub hands: Vec<Vec<Card>>,
}

/// Why a replay's steps do not make whole views.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The first step does not carry the deal and the hands whole.
    #[error("the first step of a replay carries no deal or hands")]
    NoStart,
    /// A step's patches do not fit the step before.
    #[error("step {step} of the replay: {source}")]
    Patch {
        /// The step, from 0.
        step: usize,
        /// What did not fit.
        source: PatchError,
    },
    /// A step's patched hands are not lists of cards.
    #[error("step {step} of the replay: its hands are not lists of cards")]
    Hands {
        /// The step, from 0.
        step: usize,
    },
}

impl ReplayStep {
    /// The document a step's patches apply to: `{"deal": …, "hands": …}`.
    pub fn document(deal: serde_json::Value, hands: &[Vec<Card>]) -> serde_json::Value {
        let mut map = serde_json::Map::with_capacity(2);
        map.insert("deal".into(), deal);
        map.insert("hands".into(), serde_json::to_value(hands).unwrap_or(serde_json::Value::Null));
        serde_json::Value::Object(map)
    }
}

impl DealReplay {
    /// Every step whole, in order: the first step's deal and hands, each later step's patches
    /// applied to the step before. A step that carries `deal` and `hands` starts afresh.
    ///
    /// # Errors
    /// The first step is not whole, or a step's patches do not fit the step before.
    pub fn shown(&self) -> Result<Vec<StepShown>, ReplayError> {
        let mut shown = Vec::with_capacity(self.steps.len());
        let mut document: Option<serde_json::Value> = None;
        for (index, step) in self.steps.iter().enumerate() {
            let mut current = match (&step.deal, &step.hands, document.take()) {
                (Some(deal), Some(hands), _) => ReplayStep::document(deal.clone(), hands),
                (_, _, Some(before)) => before,
                _ => return Err(ReplayError::NoStart),
            };
            patch::apply(&mut current, &step.patches).map_err(|source| ReplayError::Patch { step: index, source })?;
            let hands =
                serde_json::from_value(current["hands"].clone()).map_err(|_| ReplayError::Hands { step: index })?;
            shown.push(StepShown { deal: current["deal"].clone(), hands });
            document = Some(current);
        }
        Ok(shown)
    }
}

/// Format version of [`SeriesRecord`]; it changes when a field changes meaning.
pub const SERIES_FORMAT: u32 = 1;

/// A series as far as its deals are over: what the series page shows, one page of finished
/// deals at a time, and what a player downloads to keep (every page joined: all the deals and
/// every scoresheet row). Nothing in it belongs to a deal still being played: its deals are the
/// finished ones, `sheet` is the series without its running deal, and the master seed (from
/// which every later deal would follow) appears only once the series is over.
///
/// Every finished deal can be checked with the rules crate alone: the game's deal built from
/// `rules`, `number`, `dealer` and `seed` and given `actions` in order ends as the scoresheet's
/// row says; and once the series is over, the series started from `rules` and `master_seed`,
/// with each deal's actions and a next deal between deals, gives the whole scoresheet.
///
/// ```json
/// {"format": 1, "room": "k3JX9a2LqP0vWm4Z", "title": "Friday table",
///  "rules": {"players": 4, "deals": 8, "…": "…"},
///  "players": ["Antje", "Hinnerk", "Fiete", "Meike"], "perspective": 1, "over": false,
///  "master_seed": null, "finished": 1, "next": null,
///  "deals": [{"number": 1, "dealer": 0, "seed": "9f2c…",
///             "actions": [{"seat": 1, "action": {"action": "call", "call": {"call": "pass"}}}]}],
///  "sheet": {"game": "…", "number": 2, "scoresheet": [{"number": 1, "…": "…"}], "totals": [0, 3, 0, 0]}}
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SeriesRecord {
    /// [`SERIES_FORMAT`].
    pub format: u32,
    /// The room's invite code.
    pub room: String,
    /// The room's title.
    pub title: String,
    /// The game and its rules.
    pub rules: GameRules,
    /// The name at each seat (the last to sit there).
    pub players: Vec<Option<String>>,
    /// The asker's seat where he asked with his seat token; `null` through a share key.
    pub perspective: Option<Seat>,
    /// Whether the series is over.
    pub over: bool,
    /// The series' master seed, once the series is over (`null` before).
    pub master_seed: Option<Seed>,
    /// How many deals of the series are finished (in every page together).
    #[serde(default)]
    pub finished: u32,
    /// The number of the first deal of the next page, where finished deals follow this page's
    /// (ask `series` again with `from` set to it); `null` on the last page.
    #[serde(default)]
    pub next: Option<u32>,
    /// The finished deals of this page, in order (in a file to keep: every finished deal).
    pub deals: Vec<FinishedDeal>,
    /// The series view as a spectator sees it, without its running deal (`deal` is `null`):
    /// the game's scoresheet (the rows of this page's deals), totals and whatever else the game
    /// shows of a series.
    #[schemars(with = "serde_json::Map<String, serde_json::Value>")]
    pub sheet: serde_json::Value,
}

/// One finished deal: enough to deal it again and replay it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FinishedDeal {
    /// The deal's number in the series.
    pub number: u32,
    /// Who dealt.
    pub dealer: Seat,
    /// The deal's own seed (its cards follow from it).
    pub seed: Seed,
    /// Every action of the deal, in order.
    pub actions: Vec<SeatAction>,
    /// How many cards of each seat cost something in the analysis of the deal's play, where
    /// the game has one (left out where it has none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub costly: Option<Vec<u32>>,
}

/// An action and the seat it was made for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SeatAction {
    /// The seat.
    pub seat: Seat,
    /// The game's action.
    pub action: serde_json::Value,
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn step(
        seat: Option<u8>,
        deal: Option<serde_json::Value>,
        hands: Option<Vec<Vec<Card>>>,
        patches: Vec<Patch>,
    ) -> ReplayStep {
        ReplayStep { seat: seat.map(Seat), action: None, events: Vec::new(), deal, hands, patches }
    }

    fn card(text: &str) -> Card {
        serde_json::from_value(json!(text)).expect("a card")
    }

    #[test]
    fn the_steps_patched_in_order_show_every_step_whole_and_a_misfit_is_named() {
        let first = json!({"turn": 0, "trick": [], "tricks": []});
        let second = json!({"turn": 1, "trick": [{"seat": 0, "card": "HA"}], "tricks": []});
        let third = json!({"turn": 1, "trick": [], "tricks": [{"winner": 1}]});
        let hands = |a: &[&str], b: &[&str]| {
            vec![a.iter().map(|c| card(c)).collect::<Vec<_>>(), b.iter().map(|c| card(c)).collect()]
        };
        let document = |deal: &serde_json::Value, hands: &[Vec<Card>]| ReplayStep::document(deal.clone(), hands);
        let wholes = [
            (first.clone(), hands(&["HA", "S7"], &["HK"])),
            (second.clone(), hands(&["S7"], &["HK"])),
            (third.clone(), hands(&["S7"], &[])),
        ];
        let mut steps = vec![step(None, Some(first.clone()), Some(wholes[0].1.clone()), Vec::new())];
        for pair in wholes.windows(2) {
            let patches = patch::diff(&document(&pair[0].0, &pair[0].1), &document(&pair[1].0, &pair[1].1));
            assert!(!patches.is_empty());
            steps.push(step(Some(0), None, None, patches));
        }
        let mut replay = DealReplay {
            format: REPLAY_FORMAT,
            game: GameId::default(),
            deal: 1,
            perspective: None,
            steps,
            analysis: None,
        };
        let shown = replay.shown().expect("the steps fit");
        let expected: Vec<StepShown> =
            wholes.iter().map(|(deal, hands)| StepShown { deal: deal.clone(), hands: hands.clone() }).collect();
        assert_eq!(shown, expected);
        // Read from the wire, the same.
        let read: DealReplay = serde_json::from_str(&serde_json::to_string(&replay).expect("JSON")).expect("a replay");
        assert_eq!(read.shown().expect("the steps fit"), expected);

        // A patch that leads nowhere names its step; a replay without a whole start, too.
        replay.steps[2]
            .patches
            .push(Patch::Unset { path: vec![patch::Step::Key("hands".into()), patch::Step::Index(7)] });
        assert!(matches!(replay.shown(), Err(ReplayError::Patch { step: 2, .. })));
        replay.steps.remove(0);
        assert_eq!(replay.shown(), Err(ReplayError::NoStart));
    }
}
