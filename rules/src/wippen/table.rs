//! The table's piles (§E5): loose cards and buildings.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::expr::{BuildingId, Expr, value};
use crate::card::Card;
use crate::seat::Seat;

/// A building: two or more cards with a declared value, an owner and an id.
///
/// ```json
/// {"building": 1, "value": 6, "owner": 0, "cards": ["H3", "C3"]}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "WippenBuilding"))]
pub struct Building {
    /// The building's id.
    #[serde(rename = "building")]
    pub id: BuildingId,
    /// Its value, 1–13.
    pub value: u8,
    /// The player who built it last.
    pub owner: Seat,
    /// Its cards, in the order they joined it.
    pub cards: Vec<Card>,
}

/// A pile on the table: a loose card or a building.
///
/// ```json
/// {"card": "S3"}
/// {"building": 1, "value": 6, "owner": 0, "cards": ["H3", "C3"]}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "WippenPile"))]
#[serde(untagged)]
pub enum Pile {
    /// A loose card.
    Loose {
        /// The card.
        card: Card,
    },
    /// A building.
    Building(Building),
}

impl Pile {
    /// The pile's value: the card's, or the building's declared value.
    pub fn value(&self) -> u8 {
        match self {
            Pile::Loose { card } => value(*card),
            Pile::Building(b) => b.value,
        }
    }

    /// The pile's name.
    pub fn name(&self) -> PileRef {
        match self {
            Pile::Loose { card } => PileRef::Card(*card),
            Pile::Building(b) => PileRef::Building(b.id),
        }
    }

    /// Every card of the pile.
    pub fn cards(&self) -> Vec<Card> {
        match self {
            Pile::Loose { card } => vec![*card],
            Pile::Building(b) => b.cards.clone(),
        }
    }

    /// The building, if the pile is one.
    pub fn building(&self) -> Option<&Building> {
        match self {
            Pile::Loose { .. } => None,
            Pile::Building(b) => Some(b),
        }
    }
}

/// A pile's name: a loose card by its card, a building by its id. In JSON as a leaf of an
/// expression: `{"card": "S3"}` or `{"building": 1}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PileRef {
    /// A loose card.
    Card(Card),
    /// A building.
    Building(BuildingId),
}

impl PileRef {
    /// The pile as a leaf of an expression.
    pub fn leaf(self) -> Expr {
        match self {
            PileRef::Card(c) => Expr::Card(c),
            PileRef::Building(b) => Expr::Building(b),
        }
    }
}

impl Serialize for PileRef {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.leaf().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for PileRef {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match Expr::deserialize(deserializer)? {
            Expr::Card(c) => Ok(PileRef::Card(c)),
            Expr::Building(b) => Ok(PileRef::Building(b)),
            Expr::Op(..) => Err(serde::de::Error::custom("a pile is {\"card\": …} or {\"building\": …}")),
        }
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for PileRef {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "WippenPileRef".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let card = generator.subschema_for::<Card>();
        let building = generator.subschema_for::<BuildingId>();
        schemars::json_schema!({
            "description": "A table pile's name: a loose card or a building by its id.",
            "oneOf": [
                { "type": "object", "properties": { "card": card }, "required": ["card"], "additionalProperties": false },
                { "type": "object", "properties": { "building": building }, "required": ["building"], "additionalProperties": false }
            ]
        })
    }
}

/// A player's question about his moves: which moves hand card `card` makes with exactly the
/// table piles `piles` (§E9, selections; the engine's query). Nothing changes.
///
/// ```json
/// {"card": "H10", "piles": [{"card": "S3"}, {"card": "D2"}, {"card": "C4"}]}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "WippenSelection"))]
pub struct Selection {
    /// The hand card.
    pub card: Card,
    /// The table piles chosen.
    pub piles: Vec<PileRef>,
}

/// The answer to a [`Selection`]: the question with every legal move that uses exactly those
/// piles, each with one grouping that shows its arithmetic (the discard when `piles` is empty).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "WippenOptions"))]
pub struct Options {
    /// The hand card asked about.
    pub card: Card,
    /// The piles asked about.
    pub piles: Vec<PileRef>,
    /// Every legal move with exactly them (none: no such move).
    pub moves: Vec<super::expr::Move>,
}
