//! One deal of Fipsen, from the shuffle to the score.

use serde::{Deserialize, Serialize};

use super::auction::{Auction, AuctionStep};
use super::bid::{Bid, Call};
use super::event::{Event, Reveal};
use super::ruleset::RuleSet;
use crate::card::{Card, CardSet, Pack, Suit};
use crate::error::RuleError;
use crate::options::{FirstLead, KiekerShow};
use crate::seat::{Play, Seat};
use crate::seed::Seed;
use crate::trick::{Follow, Settled, Tricks};

/// Everything a player can do in a deal.
///
/// ```json
/// {"action": "bid", "bid": {"kind": "tricks", "tricks": 2}}
/// {"action": "play", "card": "H10"}
/// {"action": "discard", "cards": ["C7", "S8"]}
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    /// Bid in the auction.
    Bid {
        /// The bid.
        bid: Bid,
    },
    /// Hold the challenger's bid (the holder only).
    Hold,
    /// Pass in the auction, or decline Kontra / Rekontra.
    Pass,
    /// The declarer picks up the skat.
    TakeSkat,
    /// The declarer plays without the skat (doubles).
    PlayHand,
    /// The declarer lays away 2 cards (5 in a Kieker).
    Discard {
        /// The cards laid away.
        cards: CardSet,
    },
    /// The declarer names trumps; diamonds is Ruten.
    NameTrumps {
        /// The trump suit.
        suit: Suit,
    },
    /// An opponent doubles (only with the `kontra` option).
    Kontra,
    /// The declarer doubles again after a Kontra.
    Rekontra,
    /// A Kieker declarer gives up (−5), whatever the trumps. He may do so at any moment from
    /// taking up skat and stock until the first card is led, out of turn too: while the
    /// opponents consider Kontra and while another player is about to lead.
    GiveUp,
    /// Four sevens and an ace: +30, the deal ends. May be announced out of turn.
    SiebenerFips,
    /// Play a card to the trick.
    Play {
        /// The card.
        card: Card,
    },
    /// Having taken his tricks without losing one, the declarer stops.
    Stop,
    /// Having taken his tricks without losing one, the declarer plays on for Durch.
    GoOn,
}

impl Action {
    /// A short name of the action's kind for logs (`"play"`, `"bid"`), never its cards.
    pub const fn kind(&self) -> &'static str {
        match self {
            Action::Bid { .. } => "bid",
            Action::Hold => "hold",
            Action::Pass => "pass",
            Action::TakeSkat => "take_skat",
            Action::PlayHand => "play_hand",
            Action::Discard { .. } => "discard",
            Action::NameTrumps { .. } => "name_trumps",
            Action::Kontra => "kontra",
            Action::Rekontra => "rekontra",
            Action::GiveUp => "give_up",
            Action::SiebenerFips => "siebener_fips",
            Action::Play { .. } => "play",
            Action::Stop => "stop",
            Action::GoOn => "go_on",
        }
    }
}

/// What the auction's winner owes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Contract {
    /// The standing bid at the end of the auction.
    pub bid: Bid,
    /// Won by holding: a game of equal height is owed, doubles chosen freely. Otherwise the
    /// declarer's own bid, to be honoured in every part.
    pub held: bool,
}

impl Contract {
    /// Tricks to take (a Kieker: all five).
    pub const fn tricks(self) -> u8 {
        match self.bid {
            Bid::Tricks { tricks, .. } => tricks,
            Bid::Kieker => 5,
        }
    }

    /// Whether this is a Kieker.
    pub const fn is_kieker(self) -> bool {
        matches!(self.bid, Bid::Kieker)
    }

    /// Whether a game with these doubles meets the contract.
    pub const fn allows(self, hand: bool, ruten: bool) -> bool {
        match self.bid {
            Bid::Kieker => !hand,
            Bid::Tricks { hand: bid_hand, ruten: bid_ruten, .. } => {
                if self.held {
                    hand as u8 + ruten as u8 >= self.bid.doubles()
                } else {
                    (hand || !bid_hand) && (ruten || !bid_ruten)
                }
            }
        }
    }

    /// Whether the declarer may pick up the skat (some game without Hand meets the contract).
    pub const fn may_take_skat(self) -> bool {
        self.allows(false, true)
    }
}

/// The game as declared: what it is worth is derived from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Game {
    /// Tricks to take: the base value.
    pub tricks: u8,
    /// A Kieker.
    pub kieker: bool,
    /// Played without the skat.
    pub hand: bool,
    /// The trump suit once named; diamonds is Ruten.
    pub trumps: Option<Suit>,
    /// All five tricks to be taken: played on, or part of a 5 or a Kieker.
    pub durch: bool,
    /// An opponent said Kontra.
    pub kontra: bool,
    /// The declarer answered Rekontra.
    pub rekontra: bool,
}

impl Game {
    /// Whether diamonds are trumps.
    pub fn ruten(&self) -> bool {
        self.trumps == Some(Suit::Diamonds)
    }

    /// How many doubles apply: Hand, Ruten, Durch, Kontra, Rekontra.
    pub fn doubles(&self) -> u32 {
        [self.hand, self.ruten(), self.durch, self.kontra, self.rekontra].iter().filter(|d| **d).count() as u32
    }

    /// base × 2^doubles.
    pub fn value(&self) -> i32 {
        i32::from(self.tricks) << self.doubles()
    }
}

/// How a deal ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum Outcome {
    /// Everybody passed; nobody scores and the same dealer deals again.
    ThrownIn,
    /// Four sevens and an ace: +30 to this seat.
    SiebenerFips {
        /// Who announced it.
        seat: Seat,
        /// The five cards he showed: the four sevens and his highest ace.
        cards: CardSet,
    },
    /// A Kieker declarer gave up: −5.
    GivenUp {
        /// The declarer.
        declarer: Seat,
        /// The game as it stood.
        game: Game,
    },
    /// The declarer made his game: +value.
    Won {
        /// The declarer.
        declarer: Seat,
        /// The game played.
        game: Game,
        /// Tricks the declarer took.
        tricks: u8,
    },
    /// The declarer failed: −2 × value.
    Lost {
        /// The declarer.
        declarer: Seat,
        /// The game played.
        game: Game,
        /// Tricks the declarer took.
        tricks: u8,
    },
}

impl Outcome {
    /// Who scores and how much (the other seats score nothing), or `None` for a thrown-in deal.
    pub fn score(&self) -> Option<(Seat, i32)> {
        match *self {
            Outcome::ThrownIn => None,
            Outcome::SiebenerFips { seat, .. } => Some((seat, 30)),
            Outcome::GivenUp { declarer, .. } => Some((declarer, -5)),
            Outcome::Won { declarer, game, .. } => Some((declarer, game.value())),
            Outcome::Lost { declarer, game, .. } => Some((declarer, -2 * game.value())),
        }
    }

    /// Every seat's points at a table of `players`.
    pub fn scores(&self, players: u8) -> Vec<i32> {
        let mut scores = vec![0; usize::from(players)];
        if let Some((seat, points)) = self.score() {
            scores[seat.index()] = points;
        }
        scores
    }
}

/// Where a deal stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Bidding.
    Auction,
    /// The declarer chooses skat or Hand.
    SkatOrHand,
    /// The declarer lays away 2 (or 5) cards.
    Discard,
    /// The declarer names trumps.
    Trumps,
    /// The opponents, in turn, may say Kontra.
    Kontra,
    /// The declarer may answer a Kontra.
    Rekontra,
    /// Tricks are played.
    Play,
    /// The declarer has his tricks without a loss: stop, or go on for Durch.
    DurchChoice,
    /// The deal is over.
    Over,
}

/// One deal: the whole truth, hidden cards included. Only the server holds it; what anyone
/// may see of it is built by [`Deal::view`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deal {
    pub(crate) rules: RuleSet,
    pub(crate) dealer: Seat,
    pub(crate) seed: Seed,
    pub(crate) dealt: [CardSet; 4],
    pub(crate) skat: CardSet,
    pub(crate) stock: CardSet,
    pub(crate) hands: [CardSet; 4],
    pub(crate) skat_taken: bool,
    pub(crate) stock_taken: bool,
    /// A three-player Kieker's dealt hand, thrown away.
    pub(crate) thrown: CardSet,
    pub(crate) discards: CardSet,
    pub(crate) phase: Phase,
    pub(crate) turn: Option<Seat>,
    pub(crate) auction: Auction,
    pub(crate) declarer: Option<Seat>,
    pub(crate) contract: Option<Contract>,
    pub(crate) game: Option<Game>,
    pub(crate) kieker_shown_to: Option<Seat>,
    #[serde(flatten)]
    pub(crate) tricks: Tricks,
    pub(crate) outcome: Option<Outcome>,
}

impl Deal {
    /// The pack a deal of Prisdorf Fipsen is dealt from.
    pub const PACK: Pack = Pack::P25_7;

    /// Shuffles with `seed` and deals: 3 cards to each player from Vorhand on, 2 to the skat,
    /// 2 to each player; the rest is the stock. Returns the deal and its first event.
    /// `number` is the deal's number in its series (from 1).
    pub fn new(rules: RuleSet, number: u32, dealer: Seat, seed: Seed) -> (Deal, Event) {
        Deal::deal_pack(rules, number, dealer, seed.shuffle(), seed)
    }

    /// Deals a pack in a given order instead of shuffling (for tests, puzzles and analysis).
    /// Such a deal reports the all-zero seed. Returns `None` unless `pack` holds every card of
    /// [`Deal::PACK`] once.
    pub fn from_pack(rules: RuleSet, number: u32, dealer: Seat, pack: [Card; 25]) -> Option<(Deal, Event)> {
        let all: CardSet = pack.iter().copied().collect();
        (all == Deal::PACK.cards() && dealer.0 < rules.players.count())
            .then(|| Deal::deal_pack(rules, number, dealer, pack, Seed([0; 32])))
    }

    fn deal_pack(rules: RuleSet, number: u32, dealer: Seat, pack: [Card; 25], seed: Seed) -> (Deal, Event) {
        let n = rules.players.count();
        let vorhand = dealer.next(n);
        let players = usize::from(n);
        // Positions in the pack: 3 cards each from Vorhand on, 2 to the skat, 2 cards each.
        let mut hands = [CardSet::EMPTY; 4];
        for i in 0..players {
            let seat = usize::from((vorhand.0 + i as u8) % n);
            let first = pack[3 * i..3 * i + 3].iter();
            let second = pack[3 * players + 2 + 2 * i..3 * players + 4 + 2 * i].iter();
            hands[seat] = first.chain(second).copied().collect();
        }
        let skat: CardSet = pack[3 * players..3 * players + 2].iter().copied().collect();
        let stock: CardSet = pack[5 * players + 2..].iter().copied().collect();
        let deal = Deal {
            rules,
            dealer,
            seed,
            dealt: hands,
            skat,
            stock,
            hands,
            skat_taken: false,
            stock_taken: false,
            thrown: CardSet::EMPTY,
            discards: CardSet::EMPTY,
            phase: Phase::Auction,
            turn: Some(vorhand),
            auction: Auction::new(vorhand, n),
            declarer: None,
            contract: None,
            game: None,
            kieker_shown_to: None,
            tricks: Tricks::default(),
            outcome: None,
        };
        let event =
            Event::Dealt { number, dealer, vorhand, hands: (0..n).map(|s| Some(hands[usize::from(s)])).collect() };
        (deal, event)
    }

    /// The table's rules.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The pack this deal is dealt from: [`Deal::PACK`].
    pub fn pack(&self) -> Pack {
        Deal::PACK
    }

    /// The number of players.
    pub fn players(&self) -> u8 {
        self.rules.players.count()
    }

    crate::trick::holstein_deal_accessors!();

    /// Vorhand: the player to the dealer's left, who speaks first.
    pub fn vorhand(&self) -> Seat {
        self.dealer.next(self.players())
    }

    /// The skat as dealt.
    pub fn skat(&self) -> CardSet {
        self.skat
    }

    /// The stock as dealt.
    pub fn stock(&self) -> CardSet {
        self.stock
    }

    /// Where every card is. Always the whole pack, each card exactly once (tested).
    pub fn card_places(&self) -> Vec<CardSet> {
        let mut places: Vec<CardSet> = self.hands[..usize::from(self.players())].to_vec();
        if !self.skat_taken {
            places.push(self.skat);
        }
        if !self.stock_taken {
            places.push(self.stock);
        }
        places.push(self.thrown);
        places.push(self.discards);
        places.push(self.tricks.played_cards());
        places
    }

    /// Whether no card has been led yet (and the deal is not over).
    pub fn before_first_lead(&self) -> bool {
        self.outcome.is_none() && self.tricks.plays.is_empty()
    }

    fn kieker_eligible(&self, seat: Seat) -> bool {
        !self.dealt[seat.index()].has_court()
    }

    /// The trump suit the play goes by (diamonds, the ♦7 alone, until trumps are named).
    pub(crate) fn trumps_in_play(&self) -> Suit {
        self.game.and_then(|g| g.trumps).unwrap_or(Suit::Diamonds)
    }

    /// The cards `seat` may play now (empty unless it is his turn to play).
    pub fn playable(&self, seat: Seat) -> CardSet {
        if self.phase != Phase::Play || self.turn != Some(seat) {
            return CardSet::EMPTY;
        }
        self.tricks.playable(self.hands[seat.index()], self.players(), Follow::FREE)
    }

    /// The suits the declarer may name as trumps now.
    fn allowed_trumps(&self) -> impl Iterator<Item = Suit> + '_ {
        let hand = self.game.is_some_and(|g| g.hand);
        Suit::ALL.into_iter().filter(move |&suit| self.contract.is_some_and(|c| c.allows(hand, suit == Suit::Diamonds)))
    }

    /// Whether `seat` may give up now: the Kieker's declarer, from the pick-up until the first
    /// card is led, whoever's turn it is.
    fn may_give_up(&self, seat: Seat) -> bool {
        self.contract.is_some_and(Contract::is_kieker)
            && self.declarer == Some(seat)
            && self.before_first_lead()
            && matches!(self.phase, Phase::Discard | Phase::Trumps | Phase::Kontra | Phase::Rekontra | Phase::Play)
    }

    /// Every action `seat` may take now. Empty when it is not the seat's turn, except for the
    /// two actions allowed out of turn, listed whenever they may be taken: a Kieker's give-up
    /// (for its declarer) and a Siebener Fips.
    pub fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        let mut out = Vec::new();
        self.legal_actions_into(seat, &mut out);
        out
    }

    /// [`Deal::legal_actions`] into a buffer (cleared first).
    pub fn legal_actions_into(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        if self.outcome.is_some() || seat.0 >= self.players() {
            return;
        }
        if self.turn == Some(seat) {
            match self.phase {
                Phase::Auction => {
                    let eligible = self.kieker_eligible(seat);
                    self.auction.legal_calls(self.rules.min_bid, eligible, &mut |call| {
                        out.push(match call {
                            Call::Bid { bid } => Action::Bid { bid },
                            Call::Hold => Action::Hold,
                            Call::Pass => Action::Pass,
                        })
                    });
                }
                Phase::SkatOrHand => {
                    if self.contract.is_some_and(Contract::may_take_skat) {
                        out.push(Action::TakeSkat);
                    }
                    out.push(Action::PlayHand);
                }
                Phase::Discard => {
                    let count = self.discard_count();
                    self.hands[seat.index()].for_each_subset(count, &mut |cards| out.push(Action::Discard { cards }));
                }
                Phase::Trumps => out.extend(self.allowed_trumps().map(|suit| Action::NameTrumps { suit })),
                Phase::Kontra => out.extend([Action::Kontra, Action::Pass]),
                Phase::Rekontra => out.extend([Action::Rekontra, Action::Pass]),
                Phase::Play => out.extend(self.playable(seat).iter().map(|card| Action::Play { card })),
                Phase::DurchChoice => out.extend([Action::Stop, Action::GoOn]),
                Phase::Over => {}
            }
        }
        if self.may_give_up(seat) {
            out.push(Action::GiveUp);
        }
        if self.before_first_lead() && self.hands[seat.index()].has_siebener_fips() {
            out.push(Action::SiebenerFips);
        }
    }

    fn discard_count(&self) -> usize {
        if self.contract.is_some_and(Contract::is_kieker) { 5 } else { 2 }
    }

    /// Checks an action without applying it: phase, seat, turn, then the action's content. The
    /// two actions allowed out of turn, a Siebener Fips and a Kieker's give-up, are judged
    /// before the turn.
    ///
    /// # Errors
    /// The [`RuleError`] that [`Deal::apply`] would return.
    pub fn check(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
        if seat.0 >= self.players() {
            return Err(RuleError::NoSuchSeat(seat));
        }
        if self.outcome.is_some() {
            return Err(RuleError::DealOver);
        }
        if action == Action::SiebenerFips {
            if !self.before_first_lead() {
                return Err(RuleError::SiebenerFipsTooLate);
            }
            if !self.hands[seat.index()].has_siebener_fips() {
                return Err(RuleError::NoSiebenerFips);
            }
            return Ok(());
        }
        if action == Action::GiveUp {
            return if self.may_give_up(seat) { Ok(()) } else { Err(RuleError::GiveUpNotAllowed) };
        }
        if self.turn != Some(seat) {
            return Err(RuleError::NotYourTurn);
        }
        let hand = self.hands[seat.index()];
        match (self.phase, action) {
            (Phase::Auction, Action::Bid { bid }) => {
                self.auction.check_bid(bid, self.rules.min_bid, self.kieker_eligible(seat))
            }
            (Phase::Auction, Action::Hold) => self.auction.check_hold(self.kieker_eligible(seat)),
            (Phase::Auction, Action::Pass) => Ok(()),
            (Phase::SkatOrHand, Action::TakeSkat) => {
                if self.contract.is_some_and(Contract::may_take_skat) {
                    Ok(())
                } else {
                    Err(RuleError::HandRequired)
                }
            }
            (Phase::SkatOrHand, Action::PlayHand) => Ok(()),
            (Phase::Discard, Action::Discard { cards }) => {
                if let Some(card) = cards.difference(hand).lowest() {
                    return Err(RuleError::NotInHand { card });
                }
                let expected = self.discard_count();
                if cards.len() != expected { Err(RuleError::DiscardCount { expected: expected as u8 }) } else { Ok(()) }
            }
            (Phase::Trumps, Action::NameTrumps { suit }) => {
                if self.allowed_trumps().any(|s| s == suit) {
                    Ok(())
                } else {
                    Err(RuleError::RutenRequired)
                }
            }
            (Phase::Kontra, Action::Kontra | Action::Pass) => Ok(()),
            (Phase::Rekontra, Action::Rekontra | Action::Pass) => Ok(()),
            (Phase::Play, Action::Play { card }) => self.tricks.check_play(hand, card, self.players(), Follow::FREE),
            (Phase::DurchChoice, Action::Stop | Action::GoOn) => Ok(()),
            (phase, _) => Err(RuleError::WrongPhase(phase_hint(phase))),
        }
    }

    /// [`Deal::apply`], appending the events to `out`.
    ///
    /// # Errors
    /// As [`Deal::apply`]; `out` is then unchanged too.
    pub fn apply_into(&mut self, seat: Seat, action: Action, out: &mut Vec<Event>) -> Result<(), RuleError> {
        self.check(seat, action)?;
        self.perform(seat, action, out);
        Ok(())
    }

    fn perform(&mut self, seat: Seat, action: Action, out: &mut Vec<Event>) {
        let n = self.players();
        match action {
            Action::Bid { bid } => self.call(Call::Bid { bid }, out),
            Action::Hold => self.call(Call::Hold, out),
            Action::Pass if self.phase == Phase::Auction => self.call(Call::Pass, out),
            Action::Pass if self.phase == Phase::Kontra => {
                out.push(Event::Declined { seat });
                let next = seat.next(n);
                if Some(next) == self.declarer {
                    self.start_play();
                } else {
                    self.turn = Some(next);
                }
            }
            Action::Pass => {
                out.push(Event::Declined { seat });
                self.start_play();
            }
            Action::TakeSkat => {
                self.hands[seat.index()] = self.hands[seat.index()].union(self.skat);
                self.skat_taken = true;
                out.push(Event::SkatTaken { seat, skat: Some(self.skat) });
                self.phase = Phase::Discard;
            }
            Action::PlayHand => {
                self.set_hand(seat, false, out);
                self.trumps_next(seat, out);
            }
            Action::Discard { cards } => {
                self.hands[seat.index()] = self.hands[seat.index()].difference(cards);
                self.discards = cards;
                out.push(Event::Discarded { seat, cards: Some(cards) });
                self.trumps_next(seat, out);
            }
            Action::NameTrumps { suit } => self.name_trumps(seat, suit, false, out),
            Action::Kontra => {
                if let Some(game) = &mut self.game {
                    game.kontra = true;
                }
                out.push(Event::Kontra { seat });
                self.phase = Phase::Rekontra;
                self.turn = self.declarer;
            }
            Action::Rekontra => {
                if let Some(game) = &mut self.game {
                    game.rekontra = true;
                }
                out.push(Event::Rekontra { seat });
                self.start_play();
            }
            Action::GiveUp => {
                out.push(Event::GaveUp { seat });
                let game = self.game.unwrap_or_else(kieker_game);
                self.finish(Outcome::GivenUp { declarer: seat, game }, out);
            }
            Action::SiebenerFips => {
                let hand = self.hands[seat.index()];
                let ace = hand.intersection(CardSet::ACES).highest().map_or(CardSet::EMPTY, Card::set);
                let cards = CardSet::SEVENS.union(ace);
                out.push(Event::SiebenerFips { seat, cards });
                self.finish(Outcome::SiebenerFips { seat, cards }, out);
            }
            Action::Play { card } => self.play(seat, card, out),
            Action::Stop => {
                out.push(Event::Stopped { seat });
                self.settle_won(out);
            }
            Action::GoOn => {
                if let Some(game) = &mut self.game {
                    game.durch = true;
                }
                out.push(Event::WentOn { seat });
                self.phase = Phase::Play;
            }
        }
    }

    fn call(&mut self, call: Call, out: &mut Vec<Event>) {
        let seat = self.auction.turn();
        out.push(Event::Called { seat, call });
        match self.auction.apply(call) {
            AuctionStep::Next(next) => self.turn = Some(next),
            AuctionStep::AllPassed => self.finish(Outcome::ThrownIn, out),
            AuctionStep::Won { declarer, bid, held } => {
                let contract = Contract { bid, held };
                self.declarer = Some(declarer);
                self.contract = Some(contract);
                self.turn = Some(declarer);
                out.push(Event::AuctionWon { declarer, contract });
                if contract.is_kieker() {
                    self.game = Some(kieker_game());
                    self.kieker_pick_up(declarer, out);
                } else {
                    let tricks = contract.tricks();
                    self.game = Some(Game {
                        tricks,
                        kieker: false,
                        hand: false,
                        trumps: None,
                        durch: tricks == 5,
                        kontra: false,
                        rekontra: false,
                    });
                    if contract.may_take_skat() {
                        self.phase = Phase::SkatOrHand;
                    } else {
                        self.set_hand(declarer, true, out);
                        self.trumps_next(declarer, out);
                    }
                }
            }
        }
    }

    fn kieker_pick_up(&mut self, declarer: Seat, out: &mut Vec<Event>) {
        let n = self.players();
        if self.rules.kieker_show == KiekerShow::LeftOpponent {
            let to = declarer.next(n);
            self.kieker_shown_to = Some(to);
            out.push(Event::KiekerShown { seat: declarer, to, hand: Some(self.dealt[declarer.index()]) });
        }
        let taken = self.skat.union(self.stock);
        let d = declarer.index();
        if n == 3 {
            self.thrown = self.hands[d];
            self.hands[d] = taken;
        } else {
            self.hands[d] = self.hands[d].union(taken);
        }
        self.skat_taken = true;
        self.stock_taken = true;
        out.push(Event::KiekerPickedUp {
            seat: declarer,
            skat: Some(self.skat),
            stock: Some(self.stock),
            thrown: (n == 3).then_some(self.thrown),
        });
        self.phase = Phase::Discard;
    }

    fn set_hand(&mut self, seat: Seat, forced: bool, out: &mut Vec<Event>) {
        if let Some(game) = &mut self.game {
            game.hand = true;
        }
        out.push(Event::HandChosen { seat, forced });
    }

    fn trumps_next(&mut self, seat: Seat, out: &mut Vec<Event>) {
        let first_two = {
            let mut allowed = self.allowed_trumps();
            (allowed.next(), allowed.next())
        };
        match first_two {
            (Some(suit), None) => self.name_trumps(seat, suit, true, out),
            _ => {
                self.phase = Phase::Trumps;
                self.turn = Some(seat);
            }
        }
    }

    fn name_trumps(&mut self, seat: Seat, suit: Suit, forced: bool, out: &mut Vec<Event>) {
        if let Some(game) = &mut self.game {
            game.trumps = Some(suit);
        }
        out.push(Event::TrumpsNamed { seat, suit, forced });
        if self.rules.kontra {
            self.phase = Phase::Kontra;
            self.turn = Some(seat.next(self.players()));
        } else {
            self.start_play();
        }
    }

    fn start_play(&mut self) {
        self.phase = Phase::Play;
        self.turn = match self.rules.first_lead {
            FirstLead::Forehand => Some(self.vorhand()),
            FirstLead::Declarer => self.declarer,
        };
    }

    fn play(&mut self, seat: Seat, card: Card, out: &mut Vec<Event>) {
        let (n, trumps) = (self.players(), self.trumps_in_play());
        let hand = &mut self.hands[seat.index()];
        let (next, trick) = self.tricks.play(Play { seat, card }, hand, n, self.declarer, trumps, out);
        self.turn = Some(next);
        if trick.is_some() {
            self.settle(out);
        }
    }

    /// Ends the deal as soon as its outcome is settled, or offers the Durch choice.
    fn settle(&mut self, out: &mut Vec<Event>) {
        let Some(game) = self.game else { return };
        let target = if game.durch { 5 } else { game.tricks };
        match self.tricks.settled(target, game.durch) {
            Settled::Open => {}
            Settled::Won => self.settle_won(out),
            Settled::Lost => self.settle_lost(out),
            Settled::DurchChoice => {
                self.phase = Phase::DurchChoice;
                self.turn = self.declarer;
            }
        }
    }

    fn settle_won(&mut self, out: &mut Vec<Event>) {
        if let (Some(declarer), Some(game)) = (self.declarer, self.game) {
            self.finish(Outcome::Won { declarer, game, tricks: self.tricks.declarer_tricks }, out);
        }
    }

    fn settle_lost(&mut self, out: &mut Vec<Event>) {
        if let (Some(declarer), Some(game)) = (self.declarer, self.game) {
            self.finish(Outcome::Lost { declarer, game, tricks: self.tricks.declarer_tricks }, out);
        }
    }

    fn finish(&mut self, outcome: Outcome, out: &mut Vec<Event>) {
        self.outcome = Some(outcome);
        self.phase = Phase::Over;
        self.turn = None;
        let scores = outcome.scores(self.players());
        out.push(Event::DealOver { outcome, scores, reveal: Box::new(self.reveal()) });
    }

    /// Everything hidden, shown once the deal is over.
    pub fn reveal(&self) -> Reveal {
        let n = usize::from(self.players());
        Reveal {
            dealt: self.dealt[..n].to_vec(),
            hands: self.hands[..n].to_vec(),
            skat: self.skat,
            stock: self.stock,
            discards: self.discards,
            thrown: self.thrown,
            seed: self.seed,
        }
    }
}

fn kieker_game() -> Game {
    Game { tricks: 5, kieker: true, hand: false, trumps: None, durch: true, kontra: false, rekontra: false }
}

fn phase_hint(phase: Phase) -> &'static str {
    match phase {
        Phase::Auction => "the auction is on: bid, hold or pass",
        Phase::SkatOrHand => "the declarer chooses skat or Hand now",
        Phase::Discard => "the declarer lays away cards now",
        Phase::Trumps => "the declarer names trumps now",
        Phase::Kontra => "the opponents may say Kontra or pass now",
        Phase::Rekontra => "the declarer may say Rekontra or pass now",
        Phase::Play => "the cards are being played: play a card",
        Phase::DurchChoice => "the declarer chooses to stop or go on for Durch now",
        Phase::Over => "this deal is over",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prisdorf::ruleset::Players;

    fn codes(cards: CardSet) -> String {
        cards.iter().map(|c| c.code()).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn a_seed_deals_the_same_prisdorf_hands_as_ever() {
        // Written out from the deals of seed 2026 before the card type covered other packs.
        let four = RuleSet::prisdorf();
        let (deal, _) = Deal::new(four, 1, Seat(3), Seed::from_u64(2026));
        let hands: Vec<String> = (0..4).map(|s| codes(deal.hand(Seat(s)))).collect();
        assert_eq!(hands, ["C9 CA S8 H9 HA", "S7 S9 SK HJ D7", "C7 CQ CK S10 SA", "CJ SJ SQ HQ HK"]);
        assert_eq!(codes(deal.skat()), "C8 H7");
        assert_eq!(codes(deal.stock()), "C10 H8 H10");
        assert_eq!(deal.pack(), Pack::P25_7);

        let three = RuleSet { players: Players::Three, ..RuleSet::prisdorf() };
        let (deal, first) = Deal::new(three, 1, Seat(0), Seed::from_u64(2026));
        let hands: Vec<String> = (0..3).map(|s| codes(deal.hand(Seat(s)))).collect();
        assert_eq!(hands, ["C7 CQ S7 S10 HA", "C9 CA H7 H9 HK", "C8 S8 S9 SK D7"]);
        assert_eq!(codes(deal.skat()), "CJ SQ");
        assert_eq!(codes(deal.stock()), "C10 CK SJ SA H8 H10 HJ HQ");
        let json = r#"{"event":"dealt","number":1,"dealer":0,"vorhand":1,"hands":[["C7","CQ","S7","S10","HA"],["C9","CA","H7","H9","HK"],["C8","S8","S9","SK","D7"]]}"#;
        assert_eq!(serde_json::to_string(&first).unwrap(), json);
    }

    #[test]
    fn only_the_whole_prisdorf_pack_can_be_dealt_in_order() {
        let order = *Pack::P25_7.order().first_chunk::<25>().unwrap();
        assert!(Deal::from_pack(RuleSet::prisdorf(), 1, Seat(0), order).is_some());
        let mut with_ace = order;
        with_ace[24] = Card::new(Suit::Diamonds, crate::card::Rank::Ace);
        assert!(Deal::from_pack(RuleSet::prisdorf(), 1, Seat(0), with_ace).is_none());
    }
}
