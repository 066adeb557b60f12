//! The series family: a series' page and replays by its key, in or out of any room.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A message of the series family. Its JSON form is that of [`super::ClientMessage`]: one
/// object with a `type` field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SeriesMessage {
    /// Asks for a series as far as its deals are over (the series page, and the file to keep),
    /// one page of finished deals at a time, in or out of any room. `key` is a seat token of
    /// the room (the asker's seat is then the perspective) or the room's share key (from
    /// `share_link`). Answered with `series`, or `series/not_found` for a wrong room or key
    /// alike. A page holds at most 50 deals from deal `from` (and fewer where their actions
    /// are long); its `next` names where the following page begins.
    ///
    /// ```json
    /// {"type": "series", "room": "k3JX9a2LqP0vWm4Z", "key": "Vq3m2b7YxkR0aL9cTdPz1w", "from": 51, "count": 50}
    /// ```
    Series {
        /// The room's invite code.
        room: String,
        /// A seat token of the room or its share key.
        key: String,
        /// The number of the first finished deal wanted; 1 (the first page) when left out.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<u32>,
        /// How many deals at most, up to 50 (the default).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        count: Option<u32>,
    },
    /// Asks for the replay of a finished deal of a series by its key, as `series` does
    /// (in or out of any room). Answered with `replay`; a deal still being played is
    /// `replay/unavailable`.
    ///
    /// ```json
    /// {"type": "series_replay", "room": "k3JX9a2LqP0vWm4Z", "key": "Vq3m2b7YxkR0aL9cTdPz1w", "deal": 2}
    /// ```
    SeriesReplay {
        /// The room's invite code.
        room: String,
        /// A seat token of the room or its share key.
        key: String,
        /// The deal's number in the series.
        deal: u32,
    },
}

impl SeriesMessage {
    /// Every `type` of this family.
    pub const TYPES: [&'static str; 2] = ["series", "series_replay"];
}
