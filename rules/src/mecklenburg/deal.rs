//! One deal of Anseggerfips or Duttfips, from the shuffle to the score.

use serde::{Deserialize, Serialize};

use super::auction::{Auction, AuctionStep, Speaker};
use super::event::{Event, Reveal};
use super::rules::{Bid, Call, DuttUse, Rules, Variant};
use crate::card::{Card, CardSet, Pack, Rank, Suit};
use crate::error::RuleError;
use crate::options::FirstLead;
use crate::seat::{Play, Seat};
use crate::seed::Seed;
use crate::sheet::deal_scores;
use crate::trick::{Follow, Settled, Tricks};

/// The Rutenas: the ace of diamonds, the only diamond of the pack.
pub const RUTENAS: Card = Card::new(Suit::Diamonds, Rank::Ace);

/// Everything a player can do in a Mecklenburg deal.
///
/// ```json
/// {"action": "bid", "bid": {"kind": "tricks", "tricks": 3, "ruten": true}}
/// {"action": "bid", "bid": {"kind": "dutt"}}
/// {"action": "discard", "cards": ["C7", "S8", "S9", "H7", "H8"]}
/// {"action": "name_trumps", "suit": "diamonds"}
/// {"action": "play", "card": "DA"}
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "MecklenburgAction"))]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    /// Bid in the auction.
    Bid {
        /// The bid.
        bid: Bid,
    },
    /// Hold the challenger's bid (Anseggerfips with the duels; the holder only).
    Hold,
    /// Pass in the auction (not forehand in Duttfips).
    Pass,
    /// The declarer who took the Dutt lays away five cards.
    Discard {
        /// The cards laid away.
        cards: CardSet,
    },
    /// The declarer of a suit contract names trumps: clubs, spades or hearts, or diamonds for
    /// Ruten where the table allows it.
    NameTrumps {
        /// The trump suit.
        suit: Suit,
    },
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
            Action::Play { .. } => "play",
            Action::Stop => "stop",
            Action::GoOn => "go_on",
        }
    }
}

/// What the auction's winner owes: the standing bid, his own or held (the same either way).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "MecklenburgContract"))]
pub struct Contract {
    /// The bid.
    pub bid: Bid,
    /// Won by holding (the duels only).
    pub held: bool,
}

/// The game as played; its value follows from it (§B5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "MecklenburgGame"))]
pub struct Game {
    /// The contract as played: the bid, or its Ruten game once the declarer named Ruten.
    pub bid: Bid,
    /// The trump suit once named (diamonds in a Ruten game).
    pub trumps: Option<Suit>,
    /// All five tricks to take: played on, or part of a Fips or a Rutenfips.
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

    /// The value: base × r × d, where base is the contract's target, r = 2 in a Ruten game and
    /// d = 2 for Durch (always in a Fips or a Rutenfips).
    pub fn value(&self) -> i32 {
        let r = if self.bid.is_ruten() { 2 } else { 1 };
        let d = if self.durch { 2 } else { 1 };
        i32::from(self.bid.target()) * r * d
    }
}

/// How a deal ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "MecklenburgOutcome"))]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum Outcome {
    /// Anseggerfips: nobody bid; nobody scores and the same dealer deals again.
    ThrownIn,
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
            Outcome::Won { declarer, game, .. } => Some((declarer, game.value())),
            Outcome::Lost { declarer, game, .. } => Some((declarer, -i32::from(loss_factor) * game.value())),
        }
    }
}

/// Where a deal stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "MecklenburgPhase"))]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Bidding.
    Auction,
    /// The declarer, holding the Dutt, lays five cards away.
    Discard,
    /// The declarer of a suit contract names trumps.
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
    pub(crate) dealt: [CardSet; 4],
    pub(crate) dutt: CardSet,
    pub(crate) hands: [CardSet; 4],
    pub(crate) dutt_taken: bool,
    pub(crate) discards: CardSet,
    pub(crate) phase: Phase,
    pub(crate) turn: Option<Seat>,
    pub(crate) auction: Auction,
    pub(crate) declarer: Option<Seat>,
    pub(crate) contract: Option<Contract>,
    pub(crate) game: Option<Game>,
    #[serde(flatten)]
    pub(crate) tricks: Tricks,
    pub(crate) outcome: Option<Outcome>,
}

impl Deal {
    /// The pack: 25 cards, the Rutenas the only diamond.
    pub const PACK: Pack = Pack::P25_A;
    /// Always four players.
    pub const PLAYERS: u8 = 4;

    /// Shuffles with `seed` and deals 3-2, the five cards left are the Dutt (§B1). Returns the
    /// deal and its first event.
    pub fn new(rules: impl Into<Rules>, number: u32, dealer: Seat, seed: Seed) -> (Deal, Event) {
        let pack = seed.shuffle_pack(Deal::PACK);
        Deal::deal_pack(rules.into(), number, dealer, &pack, seed)
    }

    /// Deals a pack in a given order instead of shuffling (for tests). Such a deal reports the
    /// all-zero seed. Returns `None` unless `pack` holds every card of [`Deal::PACK`] once, the
    /// rules are valid and the dealer sits at the table.
    pub fn from_pack(rules: impl Into<Rules>, number: u32, dealer: Seat, pack: &[Card]) -> Option<(Deal, Event)> {
        let rules = rules.into();
        let all: CardSet = pack.iter().copied().collect();
        (pack.len() == 25 && all == Deal::PACK.cards() && rules.validate().is_ok() && dealer.0 < Deal::PLAYERS)
            .then(|| Deal::deal_pack(rules, number, dealer, pack, Seed([0; 32])))
    }

    fn deal_pack(rules: Rules, number: u32, dealer: Seat, pack: &[Card], seed: Seed) -> (Deal, Event) {
        let n = Deal::PLAYERS;
        let forehand = dealer.next(n);
        let mut hands = [CardSet::EMPTY; 4];
        for i in 0..4 {
            let seat = usize::from((forehand.0 + i as u8) % n);
            hands[seat] = pack[3 * i..3 * i + 3].iter().chain(&pack[12 + 2 * i..14 + 2 * i]).copied().collect();
        }
        let dutt: CardSet = pack[20..].iter().copied().collect();
        let event = Event::Dealt { number, dealer, forehand, hands: hands.iter().map(|h| Some(*h)).collect() };
        let deal = Deal {
            rules,
            number,
            dealer,
            seed,
            dealt: hands,
            dutt,
            hands,
            dutt_taken: false,
            discards: CardSet::EMPTY,
            phase: Phase::Auction,
            turn: Some(forehand),
            auction: Auction::new(rules.auction(), forehand, n),
            declarer: None,
            contract: None,
            game: None,
            tricks: Tricks::default(),
            outcome: None,
        };
        (deal, event)
    }

    /// The table's rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Which game is played.
    pub fn variant(&self) -> Variant {
        self.rules.variant()
    }

    /// The number of players: always 4.
    pub fn players(&self) -> u8 {
        Deal::PLAYERS
    }

    crate::trick::holstein_deal_accessors!();

    /// The deal's number in its series.
    pub fn number(&self) -> u32 {
        self.number
    }

    /// Forehand: the player to the dealer's left, who speaks first.
    pub fn forehand(&self) -> Seat {
        self.dealer.next(Deal::PLAYERS)
    }

    /// The Dutt as dealt.
    pub fn dutt(&self) -> CardSet {
        self.dutt
    }

    /// Whether the declarer has taken the Dutt.
    pub fn dutt_taken(&self) -> bool {
        self.dutt_taken
    }

    /// Where every card is: the hands, the Dutt while it lies aside, the discards, the cards
    /// played. Always the whole pack, each card once (tested).
    pub fn card_places(&self) -> Vec<CardSet> {
        let mut places = self.hands.to_vec();
        if !self.dutt_taken {
            places.push(self.dutt);
        }
        places.push(self.discards);
        places.push(self.tricks.played_cards());
        places
    }

    /// The cards `seat` may play now: follow suit if able, otherwise any card (policy `free`).
    pub fn playable(&self, seat: Seat) -> CardSet {
        if self.phase != Phase::Play || self.turn != Some(seat) {
            return CardSet::EMPTY;
        }
        self.tricks.playable(self.hands[seat.index()], Deal::PLAYERS, Follow::FREE)
    }

    /// Whether `seat` may play a Ruten game now: always, unless the table wants the Rutenas in
    /// his hand.
    fn may_play_ruten(&self, seat: Seat) -> bool {
        !self.rules.ruten_needs_rutenas() || self.hands[seat.index()].contains(RUTENAS)
    }

    fn speaker(&self, seat: Seat) -> Speaker {
        Speaker {
            variant: self.variant(),
            min_bid: self.rules.min_bid(),
            may_bid_ruten: self.may_play_ruten(seat),
            must_open: self.variant() == Variant::Duttfips,
        }
    }

    /// Checks naming `suit` as trumps for a suit contract: diamonds makes it a Ruten game,
    /// where the table allows that.
    fn check_trumps(&self, seat: Seat, suit: Suit) -> Result<(), RuleError> {
        if suit != Suit::Diamonds {
            Ok(())
        } else if !self.rules.ruten_unbid() {
            Err(RuleError::RutenMustBeBid)
        } else if !self.may_play_ruten(seat) {
            Err(RuleError::RutenasRequired)
        } else {
            Ok(())
        }
    }

    /// Every action `seat` may take now (nothing out of turn in these games).
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
            Phase::Auction => self.auction.legal_calls(self.speaker(seat), &mut |call| {
                out.push(match call {
                    Call::Bid { bid } => Action::Bid { bid },
                    Call::Hold => Action::Hold,
                    Call::Pass => Action::Pass,
                })
            }),
            Phase::Discard => {
                self.hands[seat.index()].for_each_subset(5, &mut |cards| out.push(Action::Discard { cards }))
            }
            Phase::Trumps => out.extend(
                Suit::ALL
                    .into_iter()
                    .filter(|&suit| self.check_trumps(seat, suit).is_ok())
                    .map(|suit| Action::NameTrumps { suit }),
            ),
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
        if seat.0 >= Deal::PLAYERS {
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
            (Phase::Auction, Action::Bid { bid }) => self.auction.check_bid(bid, self.speaker(seat)),
            (Phase::Auction, Action::Hold) => self.auction.check_hold(self.speaker(seat)),
            (Phase::Auction, Action::Pass) => self.auction.check_pass(self.speaker(seat)),
            (Phase::Discard, Action::Discard { cards }) => match cards.difference(hand).lowest() {
                Some(card) => Err(RuleError::NotInHand { card }),
                None if cards.len() != 5 => Err(RuleError::DiscardCount { expected: 5 }),
                None => Ok(()),
            },
            (Phase::Trumps, Action::NameTrumps { suit }) => self.check_trumps(seat, suit),
            (Phase::Play, Action::Play { card }) => self.tricks.check_play(hand, card, Deal::PLAYERS, Follow::FREE),
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
                self.before_trumps(seat, out);
            }
            Action::NameTrumps { suit } => self.name_trumps(seat, suit, false, out),
            Action::Play { card } => self.play(seat, card, out),
            Action::Stop => {
                out.push(Event::Stopped { seat });
                self.end_of_play(true, out);
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
                match self.rules.dutt() {
                    DuttUse::Exchange => {
                        let d = declarer.index();
                        self.hands[d] = self.hands[d].union(self.dutt);
                        self.dutt_taken = true;
                        out.push(Event::DuttTaken {
                            seat: declarer,
                            count: self.dutt.len() as u8,
                            dutt: Some(self.dutt),
                        });
                        self.phase = Phase::Discard;
                    }
                    DuttUse::Unused => self.before_trumps(declarer, out),
                }
            }
        }
    }

    /// With his cards settled, the declarer of a Ruten contract plays with the Rutenas as the
    /// only trump; the declarer of a suit contract names trumps.
    fn before_trumps(&mut self, declarer: Seat, out: &mut Vec<Event>) {
        if self.game.is_some_and(|g| g.bid.is_ruten()) {
            self.name_trumps(declarer, Suit::Diamonds, true, out);
        } else {
            self.phase = Phase::Trumps;
        }
    }

    fn name_trumps(&mut self, seat: Seat, suit: Suit, forced: bool, out: &mut Vec<Event>) {
        if let Some(game) = &mut self.game {
            if suit == Suit::Diamonds {
                game.bid = game.bid.with_ruten();
            }
            game.trumps = Some(suit);
        }
        out.push(Event::TrumpsNamed { seat, suit, forced });
        self.phase = Phase::Play;
        self.turn = match self.rules.first_lead() {
            FirstLead::Forehand => Some(self.forehand()),
            FirstLead::Declarer => self.declarer,
        };
    }

    fn play(&mut self, seat: Seat, card: Card, out: &mut Vec<Event>) {
        let trumps = self.game.and_then(|g| g.trumps).unwrap_or(Suit::Diamonds);
        let hand = &mut self.hands[seat.index()];
        let (next, trick) = self.tricks.play(Play { seat, card }, hand, Deal::PLAYERS, self.declarer, trumps, out);
        self.turn = Some(next);
        if trick.is_none() {
            return;
        }
        // The Holstein play machine (§0.6, §B4); without the `durch` option the deal ends as
        // soon as the declarer has his target.
        let Some(game) = self.game else { return };
        match self.tricks.settled(game.target(), game.durch) {
            Settled::Open => {}
            Settled::DurchChoice if self.rules.durch() => {
                self.phase = Phase::DurchChoice;
                self.turn = self.declarer;
            }
            Settled::Won | Settled::DurchChoice => self.end_of_play(true, out),
            Settled::Lost => self.end_of_play(false, out),
        }
    }

    fn end_of_play(&mut self, won: bool, out: &mut Vec<Event>) {
        let (Some(declarer), Some(game)) = (self.declarer, self.game) else { return };
        let tricks = self.tricks.declarer_tricks;
        self.finish(
            if won { Outcome::Won { declarer, game, tricks } } else { Outcome::Lost { declarer, game, tricks } },
            out,
        );
    }

    fn finish(&mut self, outcome: Outcome, out: &mut Vec<Event>) {
        self.outcome = Some(outcome);
        self.phase = Phase::Over;
        self.turn = None;
        let scores = deal_scores(Deal::PLAYERS, outcome.score(self.rules.loss_factor()));
        out.push(Event::DealOver { outcome, scores, reveal: Box::new(self.reveal()) });
    }

    /// Everything hidden, shown once the deal is over.
    pub fn reveal(&self) -> Reveal {
        Reveal {
            dealt: self.dealt.to_vec(),
            hands: self.hands.to_vec(),
            dutt: self.dutt,
            discards: self.discards,
            seed: self.seed,
        }
    }
}

fn phase_hint(phase: Phase) -> &'static str {
    match phase {
        Phase::Auction => "the auction is on: bid or pass",
        Phase::Discard => "the declarer lays away five cards now",
        Phase::Trumps => "the declarer names trumps now",
        Phase::Play => "the cards are being played: play a card",
        Phase::DurchChoice => "the declarer chooses to stop or go on for Durch now",
        Phase::Over => "this deal is over",
    }
}
