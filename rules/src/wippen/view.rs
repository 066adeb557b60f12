//! What one viewer — a seat or a spectator — may see of a game of Wippen (§E12).
//!
//! The visibility table, which both the view and [`Event::for_viewer`](super::Event::for_viewer)
//! follow:
//!
//! | zone | who sees it |
//! |---|---|
//! | a hand | its owner (everyone else its size) |
//! | the stock | nobody (everyone its size) |
//! | the table's piles, the moves, the captured cards, sweeps, the last capturer, scores | all |

use serde::{Deserialize, Serialize};

use super::deal::{Deal, MoveRecord, Outcome, Phase};
use super::expr::{BuildingId, Expr, Move, value};
use super::listing::{Position, RawCard};
use super::rules::Rules;
use super::table::Pile;
use crate::card::{Card, CardSet};
use crate::fields::is_false;
use crate::seat::Seat;
use crate::seed::Seed;

/// The most pile sets a prompt lists for one hand card (its capture groups, build cores and
/// extras together), the sets of fewest piles first; beyond, `truncated` is set, `usable` still names every pile some set uses, and the client says that
/// more moves are found by choosing piles ([`Deal::options`]).
pub const PROMPT_SETS_PER_CARD: usize = 200;

/// The most whole moves, each with its arithmetic, a prompt offers for one hand card
/// (`ready`): those that take the fewest table piles, fewest first (a capture before a build
/// of as many), with a capture among them whenever the card can capture.
pub const PROMPT_READY_PER_CARD: usize = 6;

/// The most sets of table piles a prompt's listing looks at. Tables met in play have a few
/// thousand; a table of 45 loose cards with groups of up to six piles has about ten million,
/// which would hold the room for seconds on every prompt (BENCHMARKS.md, Wippen). The rest can
/// still be found by selection.
pub const PROMPT_PILE_SETS: u64 = 500_000;

/// The builds of one hand card to one value, as sets of indices into the view's `table`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "WippenBuildPrompt"))]
pub struct BuildPrompt {
    /// The value built.
    pub value: u8,
    /// Sets that make the value with the hand card (an empty set: the hand card alone makes
    /// it, and is built on with extras).
    pub cores: Vec<Vec<u8>>,
    /// Sets that make the value on their own.
    pub extras: Vec<Vec<u8>>,
}

/// What the viewer may do with one hand card: the listing of §E9 without witness trees, pile
/// sets given as indices into the view's `table`.
///
/// ```json
/// {"card": "H10", "discard": true, "capture": [[0, 1, 2], [1, 3]], "must_include": [],
///  "builds": [{"value": 8, "cores": [], "extras": [[0, 3]]}]}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "WippenCardPrompt"))]
pub struct CardPrompt {
    /// The hand card.
    pub card: Card,
    /// Whether it may be discarded.
    pub discard: bool,
    /// The sets it can capture as one group.
    pub capture: Vec<Vec<u8>>,
    /// The buildings every capture with it must take, by id (each alone is a group worth the
    /// card: capturing them all is always legal).
    pub must_include: Vec<BuildingId>,
    /// The builds, by value.
    pub builds: Vec<BuildPrompt>,
    /// Some sets were left out (more than [`PROMPT_SETS_PER_CARD`] in all, or the listing was
    /// cut short): the listed ones are those of fewest piles, captures, cores and extras alike.
    #[serde(default, skip_serializing_if = "is_false")]
    pub truncated: bool,
    /// Every pile (index into the view's `table`) that some capture group, build core or extra
    /// of this card uses, whether or not its set is listed: all of them where the listing
    /// itself was cut short.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub usable: Vec<u8>,
    /// A few whole moves with this card, each with its arithmetic, ready to be sent as they
    /// are (at most [`PROMPT_READY_PER_CARD`]): those taking the fewest table piles, fewest
    /// first, a capture before a build of as many piles, and a capture among them whenever the
    /// card can capture.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ready: Vec<Move>,
}

/// What the viewer may do now: for the player to move, one entry per hand card.
///
/// ```json
/// {"moves": [{"card": "S5", "discard": true, "capture": [[3]], "must_include": [], "builds": []}]}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "WippenPrompt"))]
pub struct Prompt {
    /// The hand cards and what each may do.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<CardPrompt>,
}

impl Prompt {
    /// Whether nothing may be done.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The prompt of a raw listing, bounded per card; where the listing is not `complete`
    /// (it stopped at [`PROMPT_PILE_SETS`]), every card is marked truncated.
    pub fn from_raw(raw: &[RawCard], table: &[Pile], complete: bool) -> Prompt {
        fn indices(mask: u64) -> Vec<u8> {
            (0..64u8).filter(|i| mask & (1 << i) != 0).collect()
        }
        let cards = raw
            .iter()
            .map(|rc| {
                // Every set of the card, in one list: the capture groups, then each build
                // value's cores and extras. The cut keeps the sets of fewest piles among all of
                // them (a build's core with the card alone counts none), in that order within
                // a size, so that a move of few piles is never dropped for one of more.
                let lists: Vec<&[u64]> = std::iter::once(rc.capture.as_slice())
                    .chain(rc.builds.iter().flat_map(|b| [b.cores.as_slice(), b.extras.as_slice()]))
                    .collect();
                let mut all: Vec<(u32, usize, usize)> = lists
                    .iter()
                    .enumerate()
                    .flat_map(|(l, sets)| sets.iter().enumerate().map(move |(i, m)| (m.count_ones(), l, i)))
                    .collect();
                all.sort_unstable();
                let truncated = !complete || all.len() > PROMPT_SETS_PER_CARD;
                all.truncate(PROMPT_SETS_PER_CARD);
                let mut kept: Vec<Vec<Vec<u8>>> = vec![Vec::new(); lists.len()];
                for &(_, l, i) in &all {
                    kept[l].push(indices(lists[l][i]));
                }
                let mut kept = kept.into_iter();
                let capture = kept.next().unwrap_or_default();
                let builds = rc
                    .builds
                    .iter()
                    .map(|b| BuildPrompt {
                        value: b.value,
                        cores: kept.next().unwrap_or_default(),
                        extras: kept.next().unwrap_or_default(),
                    })
                    .collect();
                let all_sets = lists.iter().flat_map(|sets| sets.iter());
                let used = if complete { all_sets.fold(0, |u, &m| u | m) } else { (1u64 << table.len().min(63)) - 1 };
                CardPrompt {
                    card: rc.card,
                    discard: rc.discard,
                    capture,
                    must_include: indices(rc.must_include)
                        .into_iter()
                        .filter_map(|i| table.get(usize::from(i)).and_then(Pile::building).map(|b| b.id))
                        .collect(),
                    builds,
                    truncated,
                    usable: indices(used),
                    ready: Vec::new(),
                }
            })
            .collect();
        Prompt { moves: cards }
    }

    /// The prompt of the player to move in `pos`: [`Prompt::from_raw`] with, for each hand card,
    /// a few whole moves ready to be sent, written out with their arithmetic.
    pub fn of(pos: &Position, raw: &[RawCard], complete: bool) -> Prompt {
        let mut prompt = Prompt::from_raw(raw, pos.table, complete);
        for (cp, rc) in prompt.moves.iter_mut().zip(raw) {
            cp.ready = ready_moves(pos, rc);
        }
        prompt
    }
}

/// Up to [`PROMPT_READY_PER_CARD`] whole moves with one hand card, those that take the fewest
/// table piles, fewest first (a capture before a build that takes as many), a capture among
/// them whenever the card can capture (the last, if it takes more piles): the captures of
/// one group (the promised buildings added as groups of their own, and counted), the builds of
/// one core (the card alone with one extra where it makes the value by itself).
fn ready_moves(pos: &Position, rc: &RawCard) -> Vec<Move> {
    let card = rc.card;
    let w = value(card);
    // (piles taken, kind: 0 capture / 1 build, the order found, build value, core, extra)
    let mut found: Vec<(u32, u8, usize, u8, u64, u64)> = Vec::new();
    for (i, &m) in rc.capture.iter().enumerate() {
        found.push(((m | rc.must_include).count_ones(), 0, i, w, m, 0));
    }
    for b in &rc.builds {
        let alone = b.cores.contains(&0);
        let cores = b.cores.iter().filter(|&&c| c != 0).map(|&c| (c, 0));
        let extras = alone.then_some(&b.extras).into_iter().flatten().map(|&e| (0, e));
        for (core, extra) in cores.chain(extras) {
            found.push(((core | extra).count_ones(), 1, found.len(), b.value, core, extra));
        }
    }
    found.sort_unstable();
    // A capture among them where the card can capture: the capture of fewest piles takes the
    // last place (it takes at least as many piles as every move before it).
    if found.len() > PROMPT_READY_PER_CARD
        && !found[..PROMPT_READY_PER_CARD].iter().any(|f| f.1 == 0)
        && let Some(at) = found.iter().position(|f| f.1 == 0)
    {
        let capture = found.remove(at);
        found.insert(PROMPT_READY_PER_CARD - 1, capture);
    }
    let leaves = |mask: u64| -> Vec<Expr> {
        (0..pos.table.len()).filter(|i| mask & (1 << i) != 0).map(|i| pos.table[i].name().leaf()).collect()
    };
    let mut out = Vec::new();
    for (_, kind, _, v, core, extra) in found {
        if out.len() == PROMPT_READY_PER_CARD {
            break;
        }
        let mv = match (kind, core) {
            (0, m) => pos.witness(m, None, w).map(|group| {
                let mut groups = vec![group];
                groups.extend(leaves(rc.must_include & !m));
                Move::Capture { card, groups }
            }),
            (_, 0) => {
                pos.witness(extra, None, v).map(|e| Move::Build { card, value: v, groups: vec![Expr::Card(card), e] })
            }
            _ => pos.witness(core, Some(card), v).map(|e| Move::Build { card, value: v, groups: vec![e] }),
        };
        out.extend(mv);
    }
    out
}

/// What was hidden during a game, shown to all once it is over.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "WippenReveal"))]
pub struct Reveal {
    /// The seed the game was shuffled with.
    pub seed: Seed,
    /// Every card dealt to each seat during the game.
    pub dealt: Vec<CardSet>,
}

// Also built, with its viewer's own fields alone, by `Deal::own_view` (said here, not in the
// doc comment, which is the protocol schema's description).
/// A game as one viewer sees it. Built only by [`Deal::view`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "WippenDealView"))]
pub struct DealView {
    /// The seat this view is for; `null` for a spectator.
    pub viewer: Option<Seat>,
    /// The table's rules.
    pub rules: Rules,
    /// The game's number in the match, from 1.
    pub number: u32,
    /// The dealer.
    pub dealer: Seat,
    /// The seat to the dealer's left, who plays first after each deal.
    pub forehand: Seat,
    /// Where the game stands.
    pub phase: Phase,
    /// Whose turn it is.
    pub turn: Option<Seat>,
    /// Deals of hand cards made in this game.
    pub round: u8,
    /// Deals of hand cards still to come.
    pub deals_left: u8,
    /// The viewer's own hand (a seat only).
    pub hand: Option<CardSet>,
    /// How many cards each seat holds.
    pub hand_sizes: Vec<u8>,
    /// Cards left in the stock.
    pub stock: u8,
    /// The piles on the table, in order; prompts name them by index.
    pub table: Vec<Pile>,
    /// Each seat's captured cards.
    pub captured: Vec<CardSet>,
    /// Each seat's sweeps.
    pub sweeps: Vec<u8>,
    /// Who captured last.
    pub last_capturer: Option<Seat>,
    /// The moves of this game.
    pub moves: Vec<MoveRecord>,
    /// How the game was scored, once over.
    pub outcome: Option<Outcome>,
    /// Each seat's points for this game (0 until it is scored).
    pub scores: Vec<i32>,
    /// What was hidden, once the game is over.
    pub reveal: Option<Reveal>,
    /// What the viewer may do now.
    pub prompt: Prompt,
}

impl Deal {
    /// What `viewer` may see (`None`: a spectator).
    pub fn view(&self, viewer: Option<Seat>) -> DealView {
        DealView {
            viewer,
            rules: *self.rules(),
            number: self.number(),
            dealer: self.dealer(),
            forehand: self.forehand(),
            phase: self.phase(),
            turn: self.turn(),
            round: self.round(),
            deals_left: self.deals_left(),
            hand: self.hand_of(viewer),
            hand_sizes: self.hands().iter().map(|h| h.len() as u8).collect(),
            stock: self.stock().len() as u8,
            table: self.table().to_vec(),
            captured: self.captured().to_vec(),
            sweeps: self.sweeps().to_vec(),
            last_capturer: self.last_capturer(),
            moves: self.moves().to_vec(),
            outcome: self.outcome().cloned(),
            scores: self.outcome().map_or_else(|| vec![0; self.hands().len()], |o| o.points.clone()),
            reveal: self.is_over().then(|| Reveal { seed: self.seed(), dealt: self.dealt().to_vec() }),
            prompt: self.prompt_of(viewer),
        }
    }

    /// [`Deal::view`] with only the fields that differ from viewer to viewer filled in as the
    /// view has them (`viewer`, `hand`, `prompt`); the others are left empty.
    pub fn own_view(&self, viewer: Option<Seat>) -> DealView {
        DealView {
            viewer,
            rules: *self.rules(),
            number: self.number(),
            dealer: self.dealer(),
            forehand: self.forehand(),
            phase: self.phase(),
            turn: self.turn(),
            round: self.round(),
            deals_left: self.deals_left(),
            hand: self.hand_of(viewer),
            hand_sizes: Vec::new(),
            stock: 0,
            table: Vec::new(),
            captured: Vec::new(),
            sweeps: Vec::new(),
            last_capturer: None,
            moves: Vec::new(),
            outcome: None,
            scores: Vec::new(),
            reveal: None,
            prompt: self.prompt_of(viewer),
        }
    }

    /// The viewer's hand (a seat only).
    fn hand_of(&self, viewer: Option<Seat>) -> Option<CardSet> {
        viewer.filter(|s| s.index() < self.hands().len()).map(|s| self.hand(s))
    }

    /// What the viewer may do now: the player to move's moves, nothing for anyone else.
    fn prompt_of(&self, viewer: Option<Seat>) -> Prompt {
        match viewer {
            Some(seat) if self.turn() == Some(seat) && !self.is_over() => {
                let pos = self.position(seat);
                let (raw, complete) = pos.raw_within(PROMPT_PILE_SETS);
                Prompt::of(&pos, &raw, complete)
            }
            _ => Prompt::default(),
        }
    }
}
