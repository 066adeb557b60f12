//! Why an action was refused. Every error has a stable code (for programs) and a sentence (for
//! people); neither ever names a card the player who sent the action could not see.

use crate::card::{Card, Suit};
use crate::prisdorf::Bid;
use crate::seat::Seat;
use crate::{grossenaspe, mecklenburg};

/// An action the rules refuse. The state is left exactly as it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// The seat does not exist at this table.
    #[error("there is no seat {0} at this table")]
    NoSuchSeat(Seat),
    /// The deal is over; nothing more can be done in it.
    #[error("this deal is over")]
    DealOver,
    /// The series has reached its last deal.
    #[error("the series is over")]
    SeriesOver,
    /// An action of another game than the table's.
    #[error("that is an action of another game than this table's")]
    WrongGame,
    /// A new deal was asked for while one is still being played.
    #[error("the current deal is not over yet")]
    DealNotOver,
    /// Another seat is to act.
    #[error("it is not your turn")]
    NotYourTurn,
    /// The action has no place at this moment of the deal.
    #[error("{0}")]
    WrongPhase(&'static str),
    /// A bid of fewer than 2 or more than 5 tricks.
    #[error("a bid names 2 to 5 tricks")]
    BidInvalid,
    /// A bid below the table's minimum.
    #[error("the lowest bid at this table is {min} tricks")]
    BidBelowMinimum {
        /// The table's `min_bid`.
        min: u8,
    },
    /// A bid that does not beat the standing bid.
    #[error("you must bid higher than {standing}")]
    BidTooLow {
        /// The bid to beat.
        standing: Bid,
    },
    /// A Kieker bid or hold with a court card in the dealt hand.
    #[error("a Kieker may only be bid or held with no king, queen or jack in the dealt hand")]
    KiekerNotAllowed,
    /// A hold by anyone but the holder answering a challenge.
    #[error("only the earlier bidder may hold, and only after a challenge")]
    HoldNotAllowed,
    /// The contract requires Hand: the skat stays untouched.
    #[error("your contract requires Hand: you may not take the skat")]
    HandRequired,
    /// A Kieker takes the skat; it cannot be played Hand.
    #[error("a Kieker is never played Hand")]
    KiekerNoHand,
    /// The wrong number of cards discarded.
    #[error("discard exactly {expected} cards")]
    DiscardCount {
        /// 2, or 5 in a Kieker.
        expected: u8,
    },
    /// A card that is not in the player's hand.
    #[error("{card} is not in your hand")]
    NotInHand {
        /// The card named.
        card: Card,
    },
    /// Trumps other than diamonds where the contract owes Ruten.
    #[error("your contract requires Ruten: diamonds must be trumps")]
    RutenRequired,
    /// A card that does not follow the suit led although the hand can.
    #[error("you must follow suit ({suit:?})")]
    MustFollowSuit {
        /// The suit led.
        suit: Suit,
    },
    /// Following suit, a card that does not head the trick although one in the hand does
    /// (option `head_the_trick`).
    #[error("you must beat the best card of the suit led if you can")]
    MustHead,
    /// Void in the suit led, a card that is not a trump although the hand holds one, or a
    /// trump that does not beat the trick's trumps although one in the hand does.
    #[error("you have none of the suit led: you must trump ({trumps:?}), and beat every trump in the trick if you can")]
    MustTrump {
        /// The trump suit.
        trumps: Suit,
    },
    /// Siebener Fips announced without all four sevens and an ace.
    #[error("a Siebener Fips needs all four sevens and an ace in your hand")]
    NoSiebenerFips,
    /// Siebener Fips announced after the first card was led.
    #[error("a Siebener Fips may only be announced before the first card is led")]
    SiebenerFipsTooLate,
    /// Giving up is for a Kieker declarer, before the first card is led.
    #[error("only a Kieker declarer may give up, before the first card is led")]
    GiveUpNotAllowed,
    /// Großenaspe: a bid of fewer than 1 or more than 5 tricks.
    #[error("a bid names 1 to 5 tricks, a Kieker or a Fips")]
    NoSuchBid,
    /// Großenaspe: a bid that does not beat the standing bid (no two bids are equal there).
    #[error("you must bid higher than {standing}")]
    BidNotHigher {
        /// The bid to beat.
        standing: grossenaspe::Bid,
    },
    /// Großenaspe: folding is for a Kieker declarer, after discarding and before naming trumps.
    #[error("only a Kieker may fold, after discarding and before naming trumps")]
    FoldNotAllowed,
    /// Anseggerfips, Duttfips: a bid the game does not have (a number outside 1 to 4, or the
    /// other game's contract).
    #[error("this game has no such bid")]
    UnknownBid,
    /// Anseggerfips, Duttfips: a bid that does not beat the standing bid.
    #[error("you must bid higher than {standing}")]
    MustBidHigher {
        /// The bid to beat.
        standing: mecklenburg::Bid,
    },
    /// Anseggerfips, Duttfips (option `ruten_needs_rutenas`): Ruten bid or named without the
    /// Rutenas (♦A) in hand.
    #[error("only the holder of the Rutenas (the ace of diamonds) may bid or name Ruten")]
    RutenasRequired,
    /// Anseggerfips, Duttfips (option `ruten_unbid` off): Ruten named for a suit contract.
    #[error("at this table Ruten must be bid: name clubs, spades or hearts")]
    RutenMustBeBid,
    /// Duttfips: forehand passed instead of naming a contract.
    #[error("forehand may not pass: name a contract")]
    ForehandMustBid,
    /// Tippen (1859, Vierblatt): the first lead with three or more players in the deal is a
    /// trump, if the leader holds one.
    #[error("the first card led must be a trump ({trumps:?}) when you hold one")]
    MustLeadTrump {
        /// The trump suit.
        trumps: Suit,
    },
    /// Tippen (1859, Vierblatt): the winner of the first trick who holds the Daus of trumps
    /// must lead it to the second trick.
    #[error("you hold the Daus of trumps ({card}): you must lead it to the second trick")]
    MustLeadDaus {
        /// The Daus, in the leader's own hand.
        card: Card,
    },
    /// Tippen: more cards exchanged than the table allows or the talon holds.
    #[error("you may exchange at most {max} cards")]
    ExchangeTooMany {
        /// The most allowed now.
        max: u8,
    },
    /// Tippen: robbing without the seven of trumps, or where the table or the deal does not
    /// allow it.
    #[error("you cannot rob the trump card: robbing needs the seven of trumps, at a table that allows it")]
    RobNotAllowed,
    /// Tippen: a shove by the last seat of a full circle, or at a table without shoving.
    #[error("you cannot pass the deal on: deal")]
    ShoveNotAllowed,
    /// Tippen: passing where everyone must play, or by a dealer who sniffed (he plays or drops
    /// out).
    #[error("you may not pass in this deal")]
    PassNotAllowed,
    /// Tippen: dropping out is only for a dealer who sniffed the trump card (alvensleben).
    #[error("only a dealer who sniffed the trump card may drop out")]
    DropOutNotAllowed,
    /// Wippen: more groups than table piles, or more leaves than table piles and the hand card.
    #[error("the move names more piles than there are on the table")]
    MoveTooLarge,
    /// Wippen: a capture or build without any group.
    #[error("a capture or build needs at least one group")]
    NoGroup,
    /// Wippen: a leaf names no pile on the table (nor, in a build, the card played).
    #[error("the move names a pile that is not on the table")]
    UnknownPile,
    /// Wippen: a table pile used twice in one move.
    #[error("each pile may be used only once in a move")]
    PileUsedTwice,
    /// Wippen: a question about a selection of table piles with too many ways to split it into
    /// groups to be answered (`options`); a move is still checked whatever its size.
    #[error("this selection has too many ways to be split into groups to be checked; choose fewer piles")]
    SelectionTooLarge,
    /// Wippen: the hand card inside a capture group, or not in exactly one build group.
    #[error("the card played is the target of a capture, and sits in exactly one group of a build")]
    HandCardMisplaced,
    /// Wippen: a group of more table piles than the table allows.
    #[error("a group may hold at most {max} table piles")]
    GroupTooLarge {
        /// The table's `max_group_piles`.
        max: u8,
        /// The group, from 0.
        group: u8,
    },
    /// Wippen: a build that uses no table pile.
    #[error("a build must use at least one pile from the table")]
    NoTablePile,
    /// Wippen: an operator the table does not allow.
    #[error("the operator {op} is not allowed at this table")]
    OperatorNotAllowed {
        /// The operator.
        op: char,
    },
    /// Wippen: a node whose value is not a whole number of at least 1.
    #[error("{left} {op} {right} in group {} is not a whole number of at least 1", *group as u16 + 1)]
    InvalidArithmetic {
        /// The group, from 0.
        group: u8,
        /// The operator.
        op: char,
        /// The left operand's value.
        left: u64,
        /// The right operand's value.
        right: u64,
    },
    /// Wippen: a group not worth the move's target.
    #[error("group {} is worth {value}, not {target}", *group as u16 + 1)]
    WrongValue {
        /// The group, from 0.
        group: u8,
        /// Its value.
        value: u64,
        /// The card's value (capture) or the value built.
        target: u8,
    },
    /// Wippen: a build to a value outside 1–13 or without another card of that value in hand.
    #[error("you may only build to {value} while holding another card of that value")]
    NoCardForValue {
        /// The value built.
        value: u8,
    },
    /// Wippen: a player's own building used in a build to another value.
    #[error("you may not change the value of your own building")]
    OwnBuildingValueChange,
    /// Wippen (`keep_promise`): the move would leave you owning a building of a value you no
    /// longer hold.
    #[error("you must keep a card of value {value} while you own a building of that value")]
    BrokenPromise {
        /// The value promised.
        value: u8,
    },
}

impl RuleError {
    /// The stable code, e.g. `turn/not_yours`.
    pub const fn code(&self) -> &'static str {
        match self {
            RuleError::NoSuchSeat(_) => "seat/unknown",
            RuleError::DealOver => "deal/over",
            RuleError::SeriesOver => "series/over",
            RuleError::WrongGame => "action/wrong_game",
            RuleError::DealNotOver => "deal/not_over",
            RuleError::NotYourTurn => "turn/not_yours",
            RuleError::WrongPhase(_) => "phase/wrong",
            RuleError::BidInvalid => "bid/invalid",
            RuleError::BidBelowMinimum { .. } => "bid/below_minimum",
            RuleError::BidTooLow { .. } => "bid/too_low",
            RuleError::KiekerNotAllowed => "bid/kieker_not_allowed",
            RuleError::HoldNotAllowed => "bid/hold_not_allowed",
            RuleError::HandRequired => "skat/hand_required",
            RuleError::KiekerNoHand => "skat/kieker_no_hand",
            RuleError::DiscardCount { .. } => "discard/wrong_count",
            RuleError::NotInHand { .. } => "card/not_in_hand",
            RuleError::RutenRequired => "trumps/ruten_required",
            RuleError::MustFollowSuit { .. } => "play/must_follow_suit",
            RuleError::MustHead => "play/must_head",
            RuleError::MustTrump { .. } => "play/must_trump",
            RuleError::NoSiebenerFips => "fips/not_held",
            RuleError::SiebenerFipsTooLate => "fips/too_late",
            RuleError::GiveUpNotAllowed => "kieker/give_up_not_allowed",
            RuleError::NoSuchBid => "bid/no_such_bid",
            RuleError::BidNotHigher { .. } => "bid/not_higher",
            RuleError::FoldNotAllowed => "kieker/fold_not_allowed",
            RuleError::UnknownBid => "bid/unknown",
            RuleError::MustBidHigher { .. } => "bid/must_bid_higher",
            RuleError::RutenasRequired => "ruten/rutenas_required",
            RuleError::RutenMustBeBid => "trumps/ruten_must_be_bid",
            RuleError::ForehandMustBid => "bid/forehand_must_bid",
            RuleError::MustLeadTrump { .. } => "play/must_lead_trump",
            RuleError::MustLeadDaus { .. } => "play/must_lead_daus",
            RuleError::ExchangeTooMany { .. } => "exchange/too_many",
            RuleError::RobNotAllowed => "rob/not_allowed",
            RuleError::ShoveNotAllowed => "shove/not_allowed",
            RuleError::PassNotAllowed => "decide/pass_not_allowed",
            RuleError::DropOutNotAllowed => "decide/drop_out_not_allowed",
            RuleError::MoveTooLarge => "move/too_large",
            RuleError::NoGroup => "move/no_group",
            RuleError::UnknownPile => "move/unknown_pile",
            RuleError::PileUsedTwice => "move/pile_used_twice",
            RuleError::SelectionTooLarge => "move/selection_too_large",
            RuleError::HandCardMisplaced => "move/hand_card_misplaced",
            RuleError::GroupTooLarge { .. } => "move/group_too_large",
            RuleError::NoTablePile => "build/no_table_pile",
            RuleError::OperatorNotAllowed { .. } => "move/operator_not_allowed",
            RuleError::InvalidArithmetic { .. } => "move/invalid_arithmetic",
            RuleError::WrongValue { .. } => "move/wrong_value",
            RuleError::NoCardForValue { .. } => "build/no_card_for_value",
            RuleError::OwnBuildingValueChange => "build/own_building_value_change",
            RuleError::BrokenPromise { .. } => "move/broken_promise",
        }
    }
}
