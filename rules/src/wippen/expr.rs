//! Card values, the four operators and the expression trees of a move (§E1, §E6, §E8).

use std::fmt;

use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::card::{Card, Rank};

/// A card's value for arithmetic (§E1): A = 1, 2–10 as printed, J = 11, Q = 12, K = 13.
pub const fn value(card: Card) -> u8 {
    match card.rank() {
        Rank::Ace => 1,
        rank => rank as u8 + 2,
    }
}

/// A building's number, 1, 2, 3, … in order of creation within the game. In JSON a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "WippenBuildingId"))]
#[serde(transparent)]
pub struct BuildingId(pub u16);

impl fmt::Display for BuildingId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// An operator of an expression node. In JSON `"+"`, `"-"`, `"*"` or `"/"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "WippenOp"))]
pub enum Op {
    /// a + b.
    #[serde(rename = "+")]
    Add,
    /// a − b, only if a > b.
    #[serde(rename = "-")]
    Sub,
    /// a × b.
    #[serde(rename = "*")]
    Mul,
    /// a ÷ b, only if b divides a.
    #[serde(rename = "/")]
    Div,
}

impl Op {
    /// The four operators.
    pub const ALL: [Op; 4] = [Op::Add, Op::Sub, Op::Mul, Op::Div];

    /// The operator's symbol as in JSON.
    pub const fn symbol(self) -> char {
        match self {
            Op::Add => '+',
            Op::Sub => '-',
            Op::Mul => '*',
            Op::Div => '/',
        }
    }

    /// The operator's bit in an [`Operators`](super::Operators) mask.
    pub const fn bit(self) -> u8 {
        1 << self as u8
    }

    /// `a ∘ b` when it is a whole number of at least 1 (§E6), else `None`.
    pub const fn apply(self, a: u64, b: u64) -> Option<u64> {
        match self {
            Op::Add => a.checked_add(b),
            Op::Sub => {
                if a > b {
                    Some(a - b)
                } else {
                    None
                }
            }
            Op::Mul => a.checked_mul(b),
            Op::Div => {
                if b != 0 && a.is_multiple_of(b) {
                    Some(a / b)
                } else {
                    None
                }
            }
        }
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.symbol())
    }
}

/// A group of a move: a binary tree whose leaves are table piles (a loose card by its card, a
/// building by its id) or, in a build, the played hand card (§E6, §E8).
///
/// ```json
/// {"op": "+", "l": {"op": "*", "l": {"card": "S3"}, "r": {"card": "D2"}}, "r": {"card": "C4"}}
/// {"building": 1}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Expr {
    /// A loose table card, or in a build the played hand card.
    Card(Card),
    /// A building, worth its value.
    Building(BuildingId),
    /// An operator applied to a left and a right expression.
    Op(Op, Box<Expr>, Box<Expr>),
}

impl Expr {
    /// `l ∘ r`.
    pub fn op(op: Op, l: Expr, r: Expr) -> Expr {
        Expr::Op(op, Box::new(l), Box::new(r))
    }

    /// The leaves, left to right.
    pub fn leaves(&self) -> Vec<&Expr> {
        let mut out = Vec::new();
        self.collect_leaves(&mut out);
        out
    }

    fn collect_leaves<'a>(&'a self, out: &mut Vec<&'a Expr>) {
        match self {
            Expr::Op(_, l, r) => {
                l.collect_leaves(out);
                r.collect_leaves(out);
            }
            leaf => out.push(leaf),
        }
    }

    /// How many leaves, counting no further than `limit + 1`.
    pub fn count_leaves(&self, limit: usize) -> usize {
        match self {
            Expr::Op(_, l, r) => {
                let left = l.count_leaves(limit);
                if left > limit { left } else { left + r.count_leaves(limit - left) }
            }
            _ => 1,
        }
    }
}

impl fmt::Display for Expr {
    /// Written with brackets around every node but the outermost: `(S3 * D2) + C4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn inner(e: &Expr, f: &mut fmt::Formatter<'_>, top: bool) -> fmt::Result {
            match e {
                Expr::Card(card) => write!(f, "{card}"),
                Expr::Building(id) => write!(f, "{id}"),
                Expr::Op(op, l, r) => {
                    if !top {
                        write!(f, "(")?;
                    }
                    inner(l, f, false)?;
                    write!(f, " {op} ")?;
                    inner(r, f, false)?;
                    if !top {
                        write!(f, ")")?;
                    }
                    Ok(())
                }
            }
        }
        inner(self, f, true)
    }
}

impl Serialize for Expr {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Expr::Card(card) => {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry("card", card)?;
                map.end()
            }
            Expr::Building(id) => {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry("building", id)?;
                map.end()
            }
            Expr::Op(op, l, r) => {
                let mut map = serializer.serialize_map(Some(3))?;
                map.serialize_entry("op", op)?;
                map.serialize_entry("l", l)?;
                map.serialize_entry("r", r)?;
                map.end()
            }
        }
    }
}

/// The JSON shapes of an expression.
#[derive(Deserialize)]
#[serde(untagged)]
enum ExprRepr {
    Op { op: Op, l: Box<Expr>, r: Box<Expr> },
    Card { card: Card },
    Building { building: BuildingId },
}

impl<'de> Deserialize<'de> for Expr {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(match ExprRepr::deserialize(deserializer)? {
            ExprRepr::Op { op, l, r } => Expr::Op(op, l, r),
            ExprRepr::Card { card } => Expr::Card(card),
            ExprRepr::Building { building } => Expr::Building(building),
        })
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for Expr {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "WippenExpr".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let card = generator.subschema_for::<Card>();
        let building = generator.subschema_for::<BuildingId>();
        let op = generator.subschema_for::<Op>();
        let this = generator.subschema_for::<Expr>();
        schemars::json_schema!({
            "description": "An expression of a Wippen move: a loose table card or the played hand card, a building by its id, or an operator applied to a left and a right expression.",
            "oneOf": [
                { "type": "object", "properties": { "card": card }, "required": ["card"], "additionalProperties": false },
                { "type": "object", "properties": { "building": building }, "required": ["building"], "additionalProperties": false },
                { "type": "object", "properties": { "op": op, "l": this, "r": this }, "required": ["op", "l", "r"], "additionalProperties": false }
            ]
        })
    }
}

/// A move: one card from the hand, discarded, capturing or building (§E7, §E8).
///
/// ```json
/// {"kind": "discard", "card": "S4"}
/// {"kind": "capture", "card": "S5", "groups": [{"card": "D5"}, {"op": "+", "l": {"card": "S3"}, "r": {"card": "D2"}}]}
/// {"kind": "build", "card": "S2", "value": 6, "groups": [{"op": "*", "l": {"op": "-", "l": {"building": 1}, "r": {"card": "S3"}}, "r": {"card": "S2"}}]}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "WippenMove"))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Move {
    /// The card becomes a loose card on the table.
    Discard {
        /// The hand card.
        card: Card,
    },
    /// The card takes every pile of its groups, each worth the card's value.
    Capture {
        /// The hand card.
        card: Card,
        /// The groups, each worth the card's value.
        groups: Vec<Expr>,
    },
    /// The card and the piles of the groups become one building of `value`.
    Build {
        /// The hand card.
        card: Card,
        /// The building's value.
        value: u8,
        /// The groups, each worth `value`; exactly one holds the hand card.
        groups: Vec<Expr>,
    },
}

impl Move {
    /// The hand card played.
    pub const fn card(&self) -> Card {
        match self {
            Move::Discard { card } | Move::Capture { card, .. } | Move::Build { card, .. } => *card,
        }
    }

    /// `"discard"`, `"capture"` or `"build"`.
    pub const fn kind(&self) -> &'static str {
        match self {
            Move::Discard { .. } => "discard",
            Move::Capture { .. } => "capture",
            Move::Build { .. } => "build",
        }
    }

    /// The groups (none for a discard).
    pub fn groups(&self) -> &[Expr] {
        match self {
            Move::Discard { .. } => &[],
            Move::Capture { groups, .. } | Move::Build { groups, .. } => groups,
        }
    }
}
