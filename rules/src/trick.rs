//! The Holstein play machine, shared by every game of the Holstein family (Prisdorf,
//! Großenaspe, and those to come): the declarer plays alone and the others' tricks count
//! together; follow suit if able, else any card; the highest trump, else the highest card of
//! the suit led, takes the trick; the deal ends as soon as its outcome is settled, and a
//! declarer who reaches a target below 5 without losing a trick chooses stop or Durch.
//!
//! A game's `Deal` keeps its phases, turn and events; it hands the cards played to [`Tricks`]
//! and asks it where the play stands.

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use crate::card::{Card, CardSet, Suit};
use crate::error::RuleError;
use crate::seat::{Play, Seat, trick_winner};

/// A finished trick.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TrickView {
    /// The cards in the order played.
    pub cards: Vec<Play>,
    /// Who took it.
    pub winner: Seat,
}

/// Tricks taken so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TricksTaken {
    /// By the declarer.
    pub declarer: u8,
    /// By the opponents together.
    pub opponents: u8,
}

/// The play as a view shows it: the finished tricks, the trick being played and who is
/// winning it, the tricks taken by each side.
pub(crate) struct PlayView {
    pub(crate) tricks: Vec<TrickView>,
    pub(crate) trick: Vec<Play>,
    pub(crate) winning: Option<Seat>,
    pub(crate) tricks_taken: TricksTaken,
}

/// What a player who holds no card of the suit led must play (§0.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum VoidPolicy {
    /// Any card.
    Free,
    /// A trump if the trick holds no trump yet and he has one; otherwise any card (Tippen 1859).
    TrumpIfUntrumped,
    /// A trump (any trump) if he has one; otherwise any card (Tippen, Meyers).
    MustTrump,
    /// A trump beating every trump in the trick if he has one; otherwise any card (modern
    /// Tippen).
    OvertrumpElseFree,
    /// A trump beating every trump in the trick if he has one; otherwise any trump he has;
    /// otherwise any card.
    OvertrumpElseTrump,
}

/// The follow settings of a deal (§0.4): whether a player following suit must head the trick,
/// what a void player must play, and the trump suit these refer to (`None`: no trumps yet, so
/// only suit is followed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Follow {
    pub(crate) head: bool,
    pub(crate) void: VoidPolicy,
    pub(crate) trumps: Option<Suit>,
}

impl Follow {
    /// Follow suit if able, else any card: the Holstein games.
    pub(crate) const FREE: Follow = Follow { head: false, void: VoidPolicy::Free, trumps: None };

    /// The cards of `hand` that may be added to the non-empty `trick`.
    pub(crate) fn playable(self, trick: &[Play], hand: CardSet) -> CardSet {
        let led = trick[0].card.suit();
        let follow = hand.of_suit(led);
        let Some(trumps) = self.trumps else {
            return if follow.is_empty() { hand } else { follow };
        };
        let trumps_in_trick = trick.iter().map(|p| p.card).filter(|c| c.suit() == trumps);
        let best_trump = trumps_in_trick.max();
        if !follow.is_empty() {
            if !self.head || (best_trump.is_some() && led != trumps) {
                return follow;
            }
            let best = trick.iter().map(|p| p.card).filter(|c| c.suit() == led).max();
            let beating: CardSet = follow.iter().filter(|&c| best.is_none_or(|b| c > b)).collect();
            return if beating.is_empty() { follow } else { beating };
        }
        let held = hand.of_suit(trumps);
        let over: CardSet = held.iter().filter(|&c| best_trump.is_none_or(|b| c > b)).collect();
        match self.void {
            VoidPolicy::Free => hand,
            VoidPolicy::TrumpIfUntrumped if best_trump.is_none() && !held.is_empty() => held,
            VoidPolicy::TrumpIfUntrumped => hand,
            VoidPolicy::MustTrump if !held.is_empty() => held,
            VoidPolicy::MustTrump => hand,
            VoidPolicy::OvertrumpElseFree if !over.is_empty() => over,
            VoidPolicy::OvertrumpElseFree => hand,
            VoidPolicy::OvertrumpElseTrump if !over.is_empty() => over,
            VoidPolicy::OvertrumpElseTrump if !held.is_empty() => held,
            VoidPolicy::OvertrumpElseTrump => hand,
        }
    }
}

impl Follow {
    /// Checks that `card` may be added from `hand` to the non-empty `trick`, naming the duty
    /// broken: follow suit, head the trick, or trump.
    pub(crate) fn check(self, trick: &[Play], hand: CardSet, card: Card) -> Result<(), RuleError> {
        if self.playable(trick, hand).contains(card) {
            return Ok(());
        }
        let led = trick[0].card.suit();
        match self.trumps {
            _ if !hand.of_suit(led).is_empty() && card.suit() != led => Err(RuleError::MustFollowSuit { suit: led }),
            _ if !hand.of_suit(led).is_empty() => Err(RuleError::MustHead),
            Some(trumps) => Err(RuleError::MustTrump { trumps }),
            None => Err(RuleError::MustFollowSuit { suit: led }),
        }
    }
}

/// A lead rule (§D6): what the leader of a trick must lead. The leader may lead any card
/// unless a game's hook says otherwise for this trick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lead {
    /// Any card.
    Any,
    /// A trump of this suit, if he holds one (Tippen 1859: the first lead with three or more
    /// active players).
    Trump(Suit),
    /// This card, if he holds it (Tippen 1859: the Daus rule).
    Card(Card),
}

impl Lead {
    /// The cards of `hand` that may be led.
    pub(crate) fn playable(self, hand: CardSet) -> CardSet {
        match self {
            Lead::Any => hand,
            Lead::Trump(trumps) if !hand.of_suit(trumps).is_empty() => hand.of_suit(trumps),
            Lead::Card(card) if hand.contains(card) => card.set(),
            Lead::Trump(_) | Lead::Card(_) => hand,
        }
    }

    /// Checks that `card` (held) may be led from `hand`.
    pub(crate) fn check(self, hand: CardSet, card: Card) -> Result<(), RuleError> {
        if self.playable(hand).contains(card) {
            return Ok(());
        }
        match self {
            Lead::Trump(trumps) => Err(RuleError::MustLeadTrump { trumps }),
            Lead::Card(daus) => Err(RuleError::MustLeadDaus { card: daus }),
            Lead::Any => Ok(()),
        }
    }
}

/// The events the play machine emits, for a game's own event type.
pub(crate) trait PlayEvents {
    /// A card was played.
    fn card_played(seat: Seat, card: Card) -> Self;
    /// A trick was completed and taken.
    fn trick_taken(seat: Seat) -> Self;
}

/// The tricks of a deal: every card played, the winners of the finished tricks, and the
/// tricks taken by the declarer and by the opponents. Serialises as the four fields
/// `plays`, `trick_winners`, `declarer_tricks`, `opponent_tricks` (flattened into a Deal).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub(crate) struct Tricks {
    pub(crate) plays: ArrayVec<Play, 25>,
    pub(crate) trick_winners: ArrayVec<Seat, 5>,
    pub(crate) declarer_tricks: u8,
    pub(crate) opponent_tricks: u8,
}

/// Where the play stands after a trick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Settled {
    /// Play on.
    Open,
    /// The declarer has made his game.
    Won,
    /// The declarer can no longer make his game.
    Lost,
    /// The declarer has his target, below 5, without a loss: stop, or go on for Durch.
    DurchChoice,
}

impl Tricks {
    /// Every card played, in order.
    #[inline]
    pub(crate) fn plays(&self) -> &[Play] {
        &self.plays
    }

    /// The winners of the finished tricks.
    #[inline]
    pub(crate) fn trick_winners(&self) -> &[Seat] {
        &self.trick_winners
    }

    /// Tricks taken by the declarer and by the opponents.
    #[inline]
    pub(crate) fn taken(&self) -> (u8, u8) {
        (self.declarer_tricks, self.opponent_tricks)
    }

    /// The cards played, as a set.
    pub(crate) fn played_cards(&self) -> CardSet {
        self.plays.iter().map(|p| p.card).collect()
    }

    /// The cards of the trick being played at a table of `players`.
    #[inline]
    pub(crate) fn current_trick(&self, players: u8) -> &[Play] {
        let done = self.trick_winners.len() * usize::from(players);
        &self.plays[done.min(self.plays.len())..]
    }

    /// The finished tricks at a table of `players`: their cards and winners.
    pub(crate) fn finished(&self, players: u8) -> impl Iterator<Item = (&[Play], Seat)> {
        let n = usize::from(players);
        self.trick_winners.iter().enumerate().map(move |(i, &winner)| (&self.plays[i * n..(i + 1) * n], winner))
    }

    /// The cards of `hand` that may be played now under the `follow` settings (§0.4).
    #[inline]
    pub(crate) fn playable(&self, hand: CardSet, players: u8, follow: Follow) -> CardSet {
        match self.current_trick(players) {
            [] => hand,
            trick => follow.playable(trick, hand),
        }
    }

    /// Checks that `card` may be played from `hand` now under the `follow` settings.
    #[inline]
    pub(crate) fn check_play(&self, hand: CardSet, card: Card, players: u8, follow: Follow) -> Result<(), RuleError> {
        if !hand.contains(card) {
            return Err(RuleError::NotInHand { card });
        }
        let trick = self.current_trick(players);
        if trick.is_empty() {
            return Ok(());
        }
        follow.check(trick, hand, card)
    }

    /// Plays a card from the player's `hand`, pushing its events. Returns the seat to play
    /// next: the next seat, or the trick's winner once the trick is complete (then `Some` in
    /// the second place).
    pub(crate) fn play<E: PlayEvents>(
        &mut self,
        play: Play,
        hand: &mut CardSet,
        players: u8,
        declarer: Option<Seat>,
        trumps: Suit,
        out: &mut Vec<E>,
    ) -> (Seat, Option<Seat>) {
        let Play { seat, card } = play;
        hand.remove(card);
        self.plays.push(play);
        out.push(E::card_played(seat, card));
        let trick = self.current_trick(players);
        if trick.len() < usize::from(players) {
            return (seat.next(players), None);
        }
        let winner = trick_winner(trick, trumps);
        self.trick_winners.push(winner);
        if Some(winner) == declarer {
            self.declarer_tricks += 1;
        } else {
            self.opponent_tricks += 1;
        }
        out.push(E::trick_taken(winner));
        (winner, Some(winner))
    }

    /// The play as a view shows it at a table of `players`; who is winning the trick being
    /// played is told once `trumps` are known.
    pub(crate) fn view(&self, players: u8, trumps: Option<Suit>) -> PlayView {
        let tricks =
            self.finished(players).map(|(cards, winner)| TrickView { cards: cards.to_vec(), winner }).collect();
        let trick = self.current_trick(players).to_vec();
        let winning = trumps.filter(|_| !trick.is_empty()).map(|trumps| trick_winner(&trick, trumps));
        let tricks_taken = TricksTaken { declarer: self.declarer_tricks, opponents: self.opponent_tricks };
        PlayView { tricks, trick, winning, tricks_taken }
    }

    /// Whether the outcome is settled for a declarer who must take `target` tricks of 5
    /// (5 when playing Durch): lost as soon as the opponents have too many, won once he has
    /// his target after a loss or in a Durch, the Durch choice when he has it without a loss.
    #[inline]
    pub(crate) fn settled(&self, target: u8, durch: bool) -> Settled {
        let (won, lost) = self.taken();
        if lost > 5 - target {
            Settled::Lost
        } else if won >= target {
            if lost > 0 || durch { Settled::Won } else { Settled::DurchChoice }
        } else {
            Settled::Open
        }
    }
}

/// Dealt hands as `viewer` may see them: his own, and no other (`None`: a spectator sees none).
pub(crate) fn own_hand_only(hands: &[Option<CardSet>], viewer: Option<Seat>) -> Vec<Option<CardSet>> {
    hands.iter().enumerate().map(|(i, h)| h.filter(|_| viewer.is_some_and(|v| v.index() == i))).collect()
}

/// The accessors every Holstein game's `Deal` has alike, for its `impl Deal` block. The deal
/// keeps the fields `dealer`, `seed`, `phase`, `turn`, `auction`, `declarer`, `contract`,
/// `game`, `outcome`, `hands`, `dealt`, `discards` and `tricks`, and the methods `players` and
/// `apply_into`; the types `Phase`, `Auction`, `Contract`, `Game`, `Outcome`, `Action` and
/// `Event` are the game's own, as named where the macro is used. Inherent methods, so that
/// callers need no trait in scope.
macro_rules! holstein_deal_accessors {
    () => {
        /// The dealer.
        pub fn dealer(&self) -> Seat {
            self.dealer
        }

        /// The seed this deal was shuffled with. Never to be shown before the deal is over.
        pub fn seed(&self) -> Seed {
            self.seed
        }

        /// Where the deal stands.
        pub fn phase(&self) -> Phase {
            self.phase
        }

        /// Whose turn it is, if anyone's.
        pub fn turn(&self) -> Option<Seat> {
            self.turn
        }

        /// The auction so far.
        pub fn auction(&self) -> &Auction {
            &self.auction
        }

        /// The declarer, once the auction is won.
        pub fn declarer(&self) -> Option<Seat> {
            self.declarer
        }

        /// What the declarer owes.
        pub fn contract(&self) -> Option<Contract> {
            self.contract
        }

        /// The game as declared so far.
        pub fn game(&self) -> Option<Game> {
            self.game
        }

        /// How the deal ended, once it has.
        pub fn outcome(&self) -> Option<Outcome> {
            self.outcome
        }

        /// Whether the deal is over.
        pub fn is_over(&self) -> bool {
            self.outcome.is_some()
        }

        /// The cards a seat holds now.
        pub fn hand(&self, seat: Seat) -> CardSet {
            self.hands[seat.index()]
        }

        /// The hand a seat was dealt.
        pub fn dealt_hand(&self, seat: Seat) -> CardSet {
            self.dealt[seat.index()]
        }

        /// The declarer's discards.
        pub fn discards(&self) -> CardSet {
            self.discards
        }

        /// Every card played, in order.
        pub fn plays(&self) -> &[Play] {
            self.tricks.plays()
        }

        /// The winners of the finished tricks.
        pub fn trick_winners(&self) -> &[Seat] {
            self.tricks.trick_winners()
        }

        /// Tricks taken by the declarer and by the opponents.
        pub fn tricks_taken(&self) -> (u8, u8) {
            self.tricks.taken()
        }

        /// The cards of the trick being played.
        pub fn current_trick(&self) -> &[Play] {
            self.tricks.current_trick(self.players())
        }

        /// Applies `action` for `seat` and returns the events it caused.
        ///
        /// # Errors
        /// A [`RuleError`] if the action is not legal now; the deal is then unchanged.
        pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, RuleError> {
            let mut out = Vec::with_capacity(4);
            self.apply_into(seat, action, &mut out)?;
            Ok(out)
        }
    };
}

pub(crate) use holstein_deal_accessors;

#[cfg(test)]
mod tests {
    use super::*;

    fn set(codes: &str) -> CardSet {
        codes.split_whitespace().map(|c| c.parse::<Card>().expect("a card")).collect()
    }

    fn trick(codes: &str) -> Vec<Play> {
        codes
            .split_whitespace()
            .enumerate()
            .map(|(i, c)| Play { seat: Seat(i as u8), card: c.parse().expect("a card") })
            .collect()
    }

    const THEDINGHAUSEN: Follow =
        Follow { head: false, void: VoidPolicy::OvertrumpElseTrump, trumps: Some(Suit::Hearts) };
    const HEADING: Follow = Follow { head: true, ..THEDINGHAUSEN };

    #[test]
    fn free_follows_suit_if_able_else_any_card() {
        assert_eq!(Follow::FREE.playable(&trick("C10"), set("C7 HA SK")), set("C7"));
        assert_eq!(Follow::FREE.playable(&trick("C10"), set("HA SK")), set("HA SK"));
    }

    #[test]
    fn overtrump_else_trump_else_any_card() {
        // No trump in the trick yet: every trump beats it.
        assert_eq!(THEDINGHAUSEN.playable(&trick("C10"), set("H7 HQ S8")), set("H7 HQ"));
        assert_eq!(THEDINGHAUSEN.playable(&trick("C10 HJ"), set("HQ H9 S8")), set("HQ"));
        assert_eq!(THEDINGHAUSEN.playable(&trick("C10 HJ"), set("H9 S8")), set("H9"));
        assert_eq!(THEDINGHAUSEN.playable(&trick("C10 HJ"), set("S8 DK")), set("S8 DK"));
        // Following suit is never forced into a trump, nor to head without the option.
        assert_eq!(THEDINGHAUSEN.playable(&trick("C10 HJ"), set("C7 HA")), set("C7"));
    }

    const T1859: Follow = Follow { head: false, void: VoidPolicy::TrumpIfUntrumped, trumps: Some(Suit::Hearts) };
    const MEYERS: Follow = Follow { head: false, void: VoidPolicy::MustTrump, trumps: Some(Suit::Hearts) };
    const MODERN: Follow = Follow { head: true, void: VoidPolicy::OvertrumpElseFree, trumps: Some(Suit::Hearts) };

    #[test]
    fn trump_if_untrumped_only_while_the_trick_holds_no_trump() {
        assert_eq!(T1859.playable(&trick("C10 H7"), set("H9 S8")), set("H9 S8"));
        assert_eq!(T1859.playable(&trick("C10"), set("H9 S8")), set("H9"));
        assert_eq!(T1859.playable(&trick("C10"), set("S8 D9")), set("S8 D9"));
        assert_eq!(T1859.playable(&trick("C10 HA"), set("C7 H9")), set("C7"));
    }

    #[test]
    fn must_trump_any_trump_without_a_duty_to_overtrump() {
        assert_eq!(MEYERS.playable(&trick("C10 H7"), set("H9 S8")), set("H9"));
        assert_eq!(MEYERS.playable(&trick("C10 HA"), set("H9 S8")), set("H9"));
        assert_eq!(MEYERS.playable(&trick("C10"), set("S8 D9")), set("S8 D9"));
    }

    #[test]
    fn overtrump_else_free_with_heading() {
        assert_eq!(MODERN.playable(&trick("C10 HJ"), set("H9 HQ S8")), set("HQ"));
        assert_eq!(MODERN.playable(&trick("C10 HJ"), set("H9 S8")), set("H9 S8"));
        assert_eq!(MODERN.playable(&trick("C10"), set("C7 CK H9")), set("CK"));
        assert_eq!(MODERN.playable(&trick("C10 HJ"), set("C7 CK")), set("C7 CK"));
        assert_eq!(
            MODERN.check(&trick("C10 HJ"), set("H9 HQ S8"), "S8".parse().unwrap()),
            Err(RuleError::MustTrump { trumps: Suit::Hearts })
        );
        assert_eq!(MODERN.check(&trick("C10"), set("C7 CK H9"), "C7".parse().unwrap()), Err(RuleError::MustHead));
    }

    #[test]
    fn lead_rules_bind_only_a_holder() {
        let daus: Card = "HA".parse().unwrap();
        assert_eq!(Lead::Trump(Suit::Hearts).playable(set("H8 CA CK")), set("H8"));
        assert_eq!(Lead::Trump(Suit::Hearts).playable(set("CA CK")), set("CA CK"));
        assert_eq!(Lead::Card(daus).playable(set("HA S9")), set("HA"));
        assert_eq!(Lead::Card(daus).playable(set("HK S9")), set("HK S9"));
        assert_eq!(Lead::Any.playable(set("HK S9")), set("HK S9"));
        assert_eq!(
            Lead::Card(daus).check(set("HA S9"), "S9".parse().unwrap()),
            Err(RuleError::MustLeadDaus { card: daus })
        );
        assert_eq!(
            Lead::Trump(Suit::Hearts).check(set("H8 CA"), "CA".parse().unwrap()),
            Err(RuleError::MustLeadTrump { trumps: Suit::Hearts })
        );
    }

    #[test]
    fn heading_applies_while_the_trick_holds_no_trump_or_when_trumps_were_led() {
        assert_eq!(HEADING.playable(&trick("C10"), set("C7 CJ CA")), set("CJ CA"));
        assert_eq!(HEADING.playable(&trick("CK"), set("C7 CJ")), set("C7 CJ"));
        assert_eq!(HEADING.playable(&trick("C10 HJ"), set("C7 CA")), set("C7 CA"));
        assert_eq!(HEADING.playable(&trick("H10 HJ"), set("H7 HQ HA")), set("HQ HA"));
    }
}
