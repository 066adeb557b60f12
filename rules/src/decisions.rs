//! The review of a seat's decisions in a finished deal, as data, in one shape for every game
//! that has decisions before the play: for each decision, every option the seat had with its
//! expected result over sampled deals of the cards he could not see (drawn only from what he
//! knew), the margin of that estimate, the sample size, what the strong bot would have chosen
//! and what the seat chose. Wippen, which has no decisions before the play, gets each of the
//! seat's moves against the moves the bot preferred ([`MoveReview`]). The bots crate computes
//! them; the protocol sends them (Prisdorf's own review is [`crate::review::Review`]).
//!
//! ```json
//! {"seat": 2, "decisions": [{"decision": "call", "samples": 96,
//!   "options": [{"action": {"action": "pass"}, "value": 0.0, "margin": 0.0},
//!               {"action": {"action": "bid", "bid": {"kind": "tricks", "tricks": 2, "gute": false}},
//!                "value": 1.4, "margin": 0.6}],
//!   "bot": {"action": "bid", "bid": {"kind": "tricks", "tricks": 2, "gute": false}},
//!   "chosen": {"action": "pass"}}]}
//! ```

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::seat::Seat;

/// What kind of decision was taken.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DecisionKind {
    /// A call in the auction: a bid (with its Gute, Fips, Kieker, Dutt…), a hold or a pass.
    Call,
    /// An announcement before the play (Thedinghausen's fipsen, or a pass).
    Announcement,
    /// The declarer's cards laid away (after the skat, a Kieker's or a Dutt's).
    Discard,
    /// The declarer names trumps (or a Kieker gives up).
    Trumps,
    /// Tippen: the dealer shoves the deal on or keeps it.
    Shove,
    /// Tippen: the dealer knocks (takes the trump card unseen) or not.
    Knock,
    /// Tippen: the dealer sniffs (takes the trump card after seeing his hand) or not.
    Sniff,
    /// Tippen: play this deal, rob the trump card, pass (or, having sniffed, drop out).
    Entry,
    /// Tippen: the cards exchanged with the talon (or none).
    Exchange,
}

/// One option of a decision, with its expected result for the seat.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Choice<A> {
    /// The action.
    pub action: A,
    /// Its expected score for the seat over the sampled deals (Thedinghausen: its expected
    /// gain in chips over passing).
    pub value: f64,
    /// The margin of that estimate: 1.96 standard errors of a mean of as many deals as the
    /// sample is worth ([`Decision::effective`] where the deals were weighted), or for a chance
    /// measured over the deals (Thedinghausen's sweep) the reach of its 95% Wilson interval,
    /// which stays above 0 when every deal agreed; 0 for a result without chance, such as a
    /// pass.
    pub margin: f64,
}

/// One decision of the seat.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Decision<A> {
    /// What kind of decision.
    pub decision: DecisionKind,
    /// How many deals of the unseen cards were sampled.
    pub samples: u32,
    /// Where the sampled deals were weighted by what the auction had told (a call), how many
    /// equally weighted deals they are worth (Kish's effective sample size, (Σw)²/Σw²): the
    /// size the margins are those of. Absent where every deal counted the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effective: Option<f64>,
    /// Every option he had, with its expected result.
    pub options: Vec<Choice<A>>,
    /// What the bot would have chosen in his place.
    pub bot: A,
    /// What he chose.
    pub chosen: A,
}

impl<A: PartialEq> Decision<A> {
    /// The option chosen, if it was among those valued.
    pub fn chosen_option(&self) -> Option<&Choice<A>> {
        self.options.iter().find(|c| c.action == self.chosen)
    }

    /// The option with the best expected value.
    pub fn best_option(&self) -> Option<&Choice<A>> {
        self.options.iter().max_by(|a, b| a.value.total_cmp(&b.value))
    }
}

/// A seat's decisions before the play in one finished deal.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DecisionReview<A> {
    /// The seat reviewed.
    pub seat: Seat,
    /// His decisions, in the order taken.
    pub decisions: Vec<Decision<A>>,
}

/// One Wippen move the seat could have made, with what it does and what the bot expected of it.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MoveOption {
    /// The move.
    pub action: crate::wippen::Move,
    /// Its expected result for the seat over sampled deals of the unseen cards: the points
    /// (as the bot counts them) he takes over the rest of the round less those the others take.
    pub value: f64,
    /// The margin of that estimate: 1.96 standard errors.
    pub margin: f64,
    /// The cards the move takes at once (the hand card first; empty for a discard or a build).
    pub taken: Vec<Card>,
    /// The worth of those cards as the bot counts them (♦10, ♠2, aces, spades, a sweep…).
    pub worth: i32,
    /// Whether the move sweeps the table.
    pub sweep: bool,
    /// The loose cards and the cards of the buildings on the table after the move.
    pub left: Vec<Card>,
}

/// One Wippen move of the seat, against the moves the strong bot preferred.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MoveDecision {
    /// The move's index among all the deal's moves (0 is the first move of the deal).
    pub at: u32,
    /// How many deals of the unseen cards were sampled (0: the move was forced or obvious and
    /// was valued without sampling).
    pub samples: u32,
    /// The moves the bot weighed, best first; the seat's move is among them.
    pub options: Vec<MoveOption>,
    /// What the bot would have played.
    pub bot: crate::wippen::Move,
    /// What the seat played.
    pub chosen: crate::wippen::Move,
}

/// A seat's moves in one finished Wippen deal, each against the bot's preferred moves.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MoveReview {
    /// The seat reviewed.
    pub seat: Seat,
    /// His moves, in the order made.
    pub moves: Vec<MoveDecision>,
}

/// The review of a seat's decisions in a deal of any game that has one, tagged with its game
/// (Prisdorf's review is [`crate::review::Review`]).
///
/// ```json
/// {"game": "grossenaspe", "review": {"seat": 0, "decisions": []}}
/// ```
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "game", content = "review", rename_all = "snake_case")]
pub enum GameDecisions {
    /// A Großenaspe deal.
    Grossenaspe(DecisionReview<crate::grossenaspe::Action>),
    /// An Anseggerfips deal.
    Anseggerfips(DecisionReview<crate::mecklenburg::Action>),
    /// A Duttfips deal.
    Duttfips(DecisionReview<crate::mecklenburg::Action>),
    /// A Thedinghausen deal.
    Thedinghausen(DecisionReview<crate::thedinghausen::Action>),
    /// A Tippen deal.
    Tippen(DecisionReview<crate::tippen::Action>),
    /// A Wippen deal: the seat's moves.
    Wippen(MoveReview),
}

impl GameDecisions {
    /// The seat reviewed.
    pub fn seat(&self) -> Seat {
        match self {
            GameDecisions::Grossenaspe(r) => r.seat,
            GameDecisions::Anseggerfips(r) | GameDecisions::Duttfips(r) => r.seat,
            GameDecisions::Thedinghausen(r) => r.seat,
            GameDecisions::Tippen(r) => r.seat,
            GameDecisions::Wippen(r) => r.seat,
        }
    }

    /// The sample size of each decision, in order.
    pub fn samples(&self) -> Vec<u32> {
        fn of<A>(r: &DecisionReview<A>) -> Vec<u32> {
            r.decisions.iter().map(|d| d.samples).collect()
        }
        match self {
            GameDecisions::Grossenaspe(r) => of(r),
            GameDecisions::Anseggerfips(r) | GameDecisions::Duttfips(r) => of(r),
            GameDecisions::Thedinghausen(r) => of(r),
            GameDecisions::Tippen(r) => of(r),
            GameDecisions::Wippen(r) => r.moves.iter().map(|m| m.samples).collect(),
        }
    }
}
