//! The replay of a finished deal: every step from the deal as dealt to its end, with every hand
//! open (the deal is over, so its cards are no longer secret).

use fipsen_rules::{Card, GameEvent, GameId, GameRules, Seat, Seed};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Format version of [`DealReplay`]; it changes when a field changes meaning.
pub const REPLAY_FORMAT: u32 = 1;

/// A finished deal, step by step.
///
/// ```json
/// {"format": 1, "game": "prisdorf", "deal": 3, "perspective": 0,
///  "steps": [{"seat": null, "action": null, "events": [{"event": "dealt", "…": "…"}],
///             "deal": {"phase": "auction", "…": "…"}, "hands": [["C7", "…"], ["…"], ["…"], ["…"]]},
///            {"seat": 1, "action": {"action": "call", "call": {"call": "pass"}}, "events": ["…"],
///             "deal": {"…": "…"}, "hands": ["…"]}]}
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
    /// The deal as dealt, then one step per action, to the end of the deal.
    pub steps: Vec<ReplayStep>,
}

/// One step of a replay: what was done, what it caused, and the deal after it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ReplayStep {
    /// Who acted (`null` for the deal as dealt).
    pub seat: Option<Seat>,
    /// What he did, as the game's action (`null` for the deal as dealt).
    pub action: Option<serde_json::Value>,
    /// The game's events of this step, unredacted.
    pub events: Vec<GameEvent>,
    /// The deal after this step, as the game's deal view (the `deal` of its series view) seen
    /// from the replay's perspective, without a prompt.
    #[schemars(with = "serde_json::Map<String, serde_json::Value>")]
    pub deal: serde_json::Value,
    /// Every seat's hand after this step.
    pub hands: Vec<Vec<Card>>,
}

/// Format version of [`SeriesRecord`]; it changes when a field changes meaning.
pub const SERIES_FORMAT: u32 = 1;

/// A series as far as its deals are over: what the series page shows and what a player
/// downloads to keep. Nothing in it belongs to a deal still being played: its deals are the
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
///  "rules": {"game": "prisdorf", "players": 4, "deals": 8, "…": "…"},
///  "players": ["Antje", "Hinnerk", "Fiete", "Meike"], "perspective": 1, "over": false,
///  "master_seed": null,
///  "deals": [{"number": 1, "dealer": 0, "seed": "9f2c…",
///             "actions": [{"seat": 1, "action": {"action": "call", "call": {"call": "pass"}}}]}],
///  "sheet": {"game": "prisdorf", "number": 2, "scoresheet": [{"number": 1, "…": "…"}], "totals": [0, 3, 0, 0]}}
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
    /// Every finished deal, in order.
    pub deals: Vec<FinishedDeal>,
    /// The series view as a spectator sees it, without its running deal (`deal` is `null`):
    /// the game's scoresheet, totals and whatever else the game shows of a series.
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
}

/// An action and the seat it was made for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SeatAction {
    /// The seat.
    pub seat: Seat,
    /// The game's action.
    pub action: serde_json::Value,
}
