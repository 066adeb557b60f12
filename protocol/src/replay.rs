//! The replay of a finished deal: every step from the deal as dealt to its end, with every hand
//! open (the deal is over, so its cards are no longer secret).

use fipsen_rules::{Card, GameEvent, GameId, Seat};
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
