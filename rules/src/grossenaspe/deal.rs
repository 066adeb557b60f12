//! One deal of Großenaspe Fipsen, from the shuffle to the score.

use serde::{Deserialize, Serialize};

use super::auction::{Auction, AuctionStep};
use super::event::{Event, Reveal};
use super::rules::{Bid, Call, Rules};
use crate::card::{Card, CardSet, Pack, Suit};
use crate::error::RuleError;
use crate::options::{FirstLead, KiekerShow};
use crate::seat::{Play, Seat};
use crate::seed::Seed;
use crate::sheet::deal_scores;
use crate::trick::{Follow, Settled, Tricks};

/// Everything a player can do in a deal of Großenaspe Fipsen.
///
/// ```json
/// {"action": "bid", "bid": {"kind": "tricks", "tricks": 2, "gute": true}}
/// {"action": "discard", "cards": ["C7", "S8"]}
/// {"action": "fold"}
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "GrossenaspeAction"))]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    /// Bid in the auction.
    Bid {
        /// The bid.
        bid: Bid,
    },
    /// Hold the challenger's bid (the holder only).
    Hold,
    /// Pass in the auction.
    Pass,
    /// The declarer lays cards away: 2 after taking the skat; a Kieker all but 5.
    Discard {
        /// The cards laid away.
        cards: CardSet,
    },
    /// The declarer names trumps.
    NameTrumps {
        /// The trump suit.
        suit: Suit,
    },
    /// A Kieker, having discarded to five cards, gives up (−5) instead of naming trumps.
    Fold,
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
            Action::Discard { .. } => "discard",
            Action::NameTrumps { .. } => "name_trumps",
            Action::Fold => "fold",
            Action::Play { .. } => "play",
            Action::Stop => "stop",
            Action::GoOn => "go_on",
        }
    }
}

/// What the auction's winner owes: the standing bid, his own or held (the same either way).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "GrossenaspeContract"))]
pub struct Contract {
    /// The bid.
    pub bid: Bid,
    /// Won by holding.
    pub held: bool,
}

/// The game as declared; its value follows from it (§A7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "GrossenaspeGame"))]
pub struct Game {
    /// The contract's bid.
    pub bid: Bid,
    /// The trump suit once named.
    pub trumps: Option<Suit>,
    /// All five tricks to take: played on, or part of a 5, a Kieker or a Fips.
    pub durch: bool,
}

impl Game {
    fn new(bid: Bid) -> Game {
        Game { bid, trumps: None, durch: bid.target() == 5 }
    }

    /// Tricks the declarer must take.
    pub fn target(&self) -> u8 {
        if self.durch { 5 } else { self.bid.target() }
    }

    /// The value: n × g × d for a number bid (g = 2 with clubs trumps, d = 2 for Durch and a 5);
    /// a Kieker 10, a Fips 20.
    pub fn value(&self) -> i32 {
        match self.bid {
            Bid::Kieker => 10,
            Bid::Fips => 20,
            Bid::Tricks { tricks, .. } => {
                let g = if self.trumps == Some(Suit::Clubs) { 2 } else { 1 };
                let d = if self.durch { 2 } else { 1 };
                i32::from(tricks) * g * d
            }
        }
    }
}

/// How a deal ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "GrossenaspeOutcome"))]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum Outcome {
    /// Everybody passed; nobody scores and the same dealer deals again.
    ThrownIn,
    /// A Kieker folded after discarding: −5.
    Folded {
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
    /// The declarer failed: −loss_factor × value.
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
    /// Who scores and how much with this `loss_factor`, or `None` for a thrown-in deal.
    pub fn score(&self, loss_factor: u8) -> Option<(Seat, i32)> {
        match *self {
            Outcome::ThrownIn => None,
            Outcome::Folded { declarer, .. } => Some((declarer, -5)),
            Outcome::Won { declarer, game, .. } => Some((declarer, game.value())),
            Outcome::Lost { declarer, game, .. } => Some((declarer, -i32::from(loss_factor) * game.value())),
        }
    }
}

/// Where a deal stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "GrossenaspePhase"))]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Bidding.
    Auction,
    /// The declarer lays cards away.
    Discard,
    /// The declarer names trumps (a Kieker may fold instead).
    Trumps,
    /// Tricks are played.
    Play,
    /// The declarer has his tricks without a loss: stop, or go on for Durch.
    DurchChoice,
    /// The deal is over.
    Over,
}

/// One deal: the whole truth, hidden cards included.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deal {
    pub(crate) rules: Rules,
    pub(crate) number: u32,
    pub(crate) dealer: Seat,
    pub(crate) seed: Seed,
    pub(crate) dealt: Vec<CardSet>,
    pub(crate) skat: CardSet,
    pub(crate) talon: CardSet,
    pub(crate) hands: Vec<CardSet>,
    pub(crate) skat_taken: bool,
    pub(crate) talon_taken: bool,
    /// A Kieker's dealt hand, laid aside.
    pub(crate) laid_aside: CardSet,
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
    /// The pack: 32 cards.
    pub const PACK: Pack = Pack::P32;

    /// Shuffles with `seed` and deals (§A3). Returns the deal and its first event.
    ///
    /// # Panics
    /// If `rules` has not been validated (`players` outside 3..=5).
    pub fn new(rules: Rules, number: u32, dealer: Seat, seed: Seed) -> (Deal, Event) {
        let pack = seed.shuffle_pack(Deal::PACK);
        Deal::deal_pack(rules, number, dealer, &pack, seed)
    }

    /// Deals a pack in a given order instead of shuffling (for tests). Such a deal reports the
    /// all-zero seed. Returns `None` unless `pack` holds every card of [`Deal::PACK`] once and
    /// the rules are valid.
    pub fn from_pack(rules: Rules, number: u32, dealer: Seat, pack: &[Card]) -> Option<(Deal, Event)> {
        let all: CardSet = pack.iter().copied().collect();
        (pack.len() == 32 && all == Deal::PACK.cards() && rules.validate().is_ok() && dealer.0 < rules.players)
            .then(|| Deal::deal_pack(rules, number, dealer, pack, Seed([0; 32])))
    }

    fn deal_pack(rules: Rules, number: u32, dealer: Seat, pack: &[Card], seed: Seed) -> (Deal, Event) {
        let n = rules.players;
        let players = usize::from(n);
        let forehand = dealer.next(n);
        let mut hands = vec![CardSet::EMPTY; players];
        for i in 0..players {
            let seat = usize::from((forehand.0 + i as u8) % n);
            let first = pack[3 * i..3 * i + 3].iter();
            let second = pack[3 * players + 2 + 2 * i..3 * players + 4 + 2 * i].iter();
            hands[seat] = first.chain(second).copied().collect();
        }
        let skat: CardSet = pack[3 * players..3 * players + 2].iter().copied().collect();
        let talon: CardSet = pack[5 * players + 2..].iter().copied().collect();
        let event = Event::Dealt { number, dealer, forehand, hands: hands.iter().map(|h| Some(*h)).collect() };
        let deal = Deal {
            rules,
            number,
            dealer,
            seed,
            dealt: hands.clone(),
            skat,
            talon,
            hands,
            skat_taken: false,
            talon_taken: false,
            laid_aside: CardSet::EMPTY,
            discards: CardSet::EMPTY,
            phase: Phase::Auction,
            turn: Some(forehand),
            auction: Auction::new(forehand, n),
            declarer: None,
            contract: None,
            game: None,
            kieker_shown_to: None,
            tricks: Tricks::default(),
            outcome: None,
        };
        (deal, event)
    }

    /// The table's rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The number of players.
    pub fn players(&self) -> u8 {
        self.rules.players
    }

    crate::trick::holstein_deal_accessors!();

    /// The deal's number in its series.
    pub fn number(&self) -> u32 {
        self.number
    }

    /// Forehand: the player to the dealer's left, who speaks first.
    pub fn forehand(&self) -> Seat {
        self.dealer.next(self.players())
    }

    /// The skat as dealt.
    pub fn skat(&self) -> CardSet {
        self.skat
    }

    /// The talon as dealt.
    pub fn talon(&self) -> CardSet {
        self.talon
    }

    /// Where every card is: hands, skat and talon while untaken, the Kieker's laid-aside hand,
    /// the discards, the cards played. Always the whole pack, each card once (tested).
    pub fn card_places(&self) -> Vec<CardSet> {
        let mut places = self.hands.clone();
        if !self.skat_taken {
            places.push(self.skat);
        }
        if !self.talon_taken {
            places.push(self.talon);
        }
        places.push(self.laid_aside);
        places.push(self.discards);
        places.push(self.tricks.played_cards());
        places
    }

    fn kieker_eligible(&self, seat: Seat) -> bool {
        !self.dealt[seat.index()].has_court()
    }

    fn is_kieker(&self) -> bool {
        self.contract.is_some_and(|c| c.bid == Bid::Kieker)
    }

    /// The cards `seat` may play now: follow suit if able, otherwise any card (policy `free`).
    pub fn playable(&self, seat: Seat) -> CardSet {
        if self.phase != Phase::Play || self.turn != Some(seat) {
            return CardSet::EMPTY;
        }
        self.tricks.playable(self.hands[seat.index()], self.players(), Follow::FREE)
    }

    /// How many cards the declarer must lay away now.
    fn discard_count(&self) -> usize {
        let held = self.declarer.map_or(0, |d| self.hands[d.index()].len());
        held.saturating_sub(5)
    }

    /// Every action `seat` may take now (nothing out of turn in this game).
    pub fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        let mut out = Vec::new();
        self.legal_actions_into(seat, &mut out);
        out
    }

    /// [`Deal::legal_actions`] into a buffer (cleared first).
    pub fn legal_actions_into(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        if self.outcome.is_some() || self.turn != Some(seat) {
            return;
        }
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
            Phase::Discard => {
                let count = self.discard_count();
                self.hands[seat.index()].for_each_subset(count, &mut |cards| out.push(Action::Discard { cards }));
            }
            Phase::Trumps => {
                out.extend(Suit::ALL.map(|suit| Action::NameTrumps { suit }));
                if self.is_kieker() {
                    out.push(Action::Fold);
                }
            }
            Phase::Play => out.extend(self.playable(seat).iter().map(|card| Action::Play { card })),
            Phase::DurchChoice => out.extend([Action::Stop, Action::GoOn]),
            Phase::Over => {}
        }
    }

    /// Checks an action without applying it: seat, deal over, turn, phase, then the content.
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
            (Phase::Discard, Action::Discard { cards }) => {
                if let Some(card) = cards.difference(hand).lowest() {
                    return Err(RuleError::NotInHand { card });
                }
                let expected = self.discard_count();
                if cards.len() == expected { Ok(()) } else { Err(RuleError::DiscardCount { expected: expected as u8 }) }
            }
            (Phase::Trumps, Action::NameTrumps { .. }) => Ok(()),
            (Phase::Trumps, Action::Fold) => {
                if self.is_kieker() {
                    Ok(())
                } else {
                    Err(RuleError::FoldNotAllowed)
                }
            }
            (_, Action::Fold) => Err(RuleError::FoldNotAllowed),
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
        match action {
            Action::Bid { bid } => self.call(Call::Bid { bid }, out),
            Action::Hold => self.call(Call::Hold, out),
            Action::Pass => self.call(Call::Pass, out),
            Action::Discard { cards } => {
                self.hands[seat.index()] = self.hands[seat.index()].difference(cards);
                self.discards = cards;
                out.push(Event::Discarded { seat, count: cards.len() as u8, cards: Some(cards) });
                match self.contract.map(|c| c.bid) {
                    Some(Bid::Tricks { gute: true, .. }) => self.name_trumps(seat, Suit::Clubs, true, out),
                    _ => self.phase = Phase::Trumps,
                }
            }
            Action::NameTrumps { suit } => self.name_trumps(seat, suit, false, out),
            Action::Fold => {
                out.push(Event::Folded { seat });
                if let Some(game) = self.game {
                    self.finish(Outcome::Folded { declarer: seat, game }, out);
                }
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
        Ok(())
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
                self.game = Some(Game::new(bid));
                self.turn = Some(declarer);
                out.push(Event::AuctionWon { declarer, contract });
                let d = declarer.index();
                match bid {
                    Bid::Fips => self.phase = Phase::Trumps,
                    Bid::Kieker => {
                        let n = self.players();
                        if self.rules.kieker_show == KiekerShow::LeftOpponent {
                            let to = declarer.next(n);
                            self.kieker_shown_to = Some(to);
                            out.push(Event::KiekerShown { seat: declarer, to, hand: Some(self.dealt[d]) });
                        }
                        self.laid_aside = self.hands[d];
                        self.hands[d] = self.skat.union(self.talon);
                        self.skat_taken = true;
                        self.talon_taken = true;
                        out.push(Event::KiekerPickedUp {
                            seat: declarer,
                            count: self.hands[d].len() as u8,
                            skat: Some(self.skat),
                            talon: Some(self.talon),
                        });
                        self.phase = Phase::Discard;
                    }
                    Bid::Tricks { .. } => {
                        self.hands[d] = self.hands[d].union(self.skat);
                        self.skat_taken = true;
                        out.push(Event::SkatTaken { seat: declarer, skat: Some(self.skat) });
                        self.phase = Phase::Discard;
                    }
                }
            }
        }
    }

    fn name_trumps(&mut self, seat: Seat, suit: Suit, forced: bool, out: &mut Vec<Event>) {
        if let Some(game) = &mut self.game {
            game.trumps = Some(suit);
        }
        out.push(Event::TrumpsNamed { seat, suit, forced });
        self.phase = Phase::Play;
        self.turn = match self.rules.first_lead {
            FirstLead::Forehand => Some(self.forehand()),
            FirstLead::Declarer => self.declarer,
        };
    }

    fn play(&mut self, seat: Seat, card: Card, out: &mut Vec<Event>) {
        let n = self.players();
        let trumps = self.game.and_then(|g| g.trumps).unwrap_or(Suit::Clubs);
        let hand = &mut self.hands[seat.index()];
        let (next, trick) = self.tricks.play(Play { seat, card }, hand, n, self.declarer, trumps, out);
        self.turn = Some(next);
        if trick.is_some() {
            self.settle(out);
        }
    }

    /// The Holstein play machine (§0.6): the deal ends as soon as its outcome is settled, or
    /// the declarer who reached a target below 5 without a loss chooses stop or Durch.
    fn settle(&mut self, out: &mut Vec<Event>) {
        let Some(game) = self.game else { return };
        match self.tricks.settled(game.target(), game.durch) {
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
        let scores = deal_scores(self.players(), outcome.score(self.rules.loss_factor));
        out.push(Event::DealOver { outcome, scores, reveal: Box::new(self.reveal()) });
    }

    /// Everything hidden, shown once the deal is over.
    pub fn reveal(&self) -> Reveal {
        Reveal {
            dealt: self.dealt.clone(),
            hands: self.hands.clone(),
            skat: self.skat,
            talon: self.talon,
            discards: self.discards,
            laid_aside: self.laid_aside,
            seed: self.seed,
        }
    }
}

fn phase_hint(phase: Phase) -> &'static str {
    match phase {
        Phase::Auction => "the auction is on: bid, hold or pass",
        Phase::Discard => "the declarer lays away cards now",
        Phase::Trumps => "the declarer names trumps now",
        Phase::Play => "the cards are being played: play a card",
        Phase::DurchChoice => "the declarer chooses to stop or go on for Durch now",
        Phase::Over => "this deal is over",
    }
}
