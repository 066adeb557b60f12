//! One deal of Tippen, from the ante to the settlement (§D3–§D7).

use serde::{Deserialize, Serialize};

use super::event::{Event, Reveal};
use super::rules::{Params, Rules, Sniffing, TrumpKind};
use crate::card::{Card, CardSet, Rank, Suit};
use crate::error::RuleError;
use crate::seat::{Play, Seat, trick_winner};
use crate::seed::Seed;
use crate::trick::{Follow, Lead};

/// Everything a player can do in a Tippen deal.
///
/// ```json
/// {"action": "shove"}
/// {"action": "deal"}
/// {"action": "knock"}
/// {"action": "no_knock"}
/// {"action": "sniff"}
/// {"action": "no_sniff"}
/// {"action": "discard", "cards": ["S8"]}
/// {"action": "join"}
/// {"action": "rob"}
/// {"action": "pass"}
/// {"action": "drop_out"}
/// {"action": "keep"}
/// {"action": "exchange", "cards": ["C7", "S9"]}
/// {"action": "play", "card": "HQ"}
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "TippenAction"))]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    /// The dealer passes the deal on to the next seat, which antes in turn (option `shoving`).
    Shove,
    /// The dealer keeps the deal: the cards are dealt.
    Deal,
    /// The dealer takes the trump card unseen, before seeing his hand (option `knocking`).
    Knock,
    /// The dealer does not knock.
    NoKnock,
    /// The dealer takes the trump card after seeing his hand (option `sniffing`).
    Sniff,
    /// The dealer does not sniff: the trump card is turned.
    NoSniff,
    /// The dealer who knocked or sniffed lays one card away, face down.
    Discard {
        /// The card laid away (exactly one).
        cards: CardSet,
    },
    /// Play this deal ("ich spiele").
    Join,
    /// Play this deal and rob: take the turned-up trump card for the seven of trumps (option
    /// `robbing`).
    Rob,
    /// Do not play this deal: the hand is laid face down.
    Pass,
    /// A dealer who sniffed (alvensleben) gives up, paying the stake at once.
    DropOut,
    /// Exchange no card.
    Keep,
    /// Lay these cards away face down and take as many from the talon.
    Exchange {
        /// The cards laid away (one or more).
        cards: CardSet,
    },
    /// Play a card to the trick.
    Play {
        /// The card.
        card: Card,
    },
}

impl Action {
    /// A short name of the action's kind for logs (`"play"`, `"join"`), never its cards.
    pub const fn kind(&self) -> &'static str {
        match self {
            Action::Shove => "shove",
            Action::Deal => "deal",
            Action::Knock => "knock",
            Action::NoKnock => "no_knock",
            Action::Sniff => "sniff",
            Action::NoSniff => "no_sniff",
            Action::Discard { .. } => "discard",
            Action::Join => "join",
            Action::Rob => "rob",
            Action::Pass => "pass",
            Action::DropOut => "drop_out",
            Action::Keep => "keep",
            Action::Exchange { .. } => "exchange",
            Action::Play { .. } => "play",
        }
    }
}

/// Where a deal stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "TippenPhase"))]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The dealer shoves or deals (option `shoving`).
    Shove,
    /// The dealer knocks or not, before seeing his hand.
    Knock,
    /// The dealer sniffs or not.
    Sniff,
    /// The dealer who knocked or sniffed lays one card away.
    Discard,
    /// Each seat asked says play or pass.
    Decide,
    /// Each active seat exchanges cards with the talon.
    Exchange,
    /// Tricks are played.
    Play,
    /// The deal is over.
    Over,
}

/// A seat's answer in the decisions (§D4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "TippenChoice"))]
#[serde(rename_all = "snake_case")]
pub enum Choice {
    /// Plays.
    Join,
    /// Plays and robs the trump card.
    Rob,
    /// Passes.
    Pass,
    /// Drops out, paying the stake (a dealer who sniffed).
    DropOut,
}

/// A seat's answer, with the seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "TippenDecision"))]
pub struct Decision {
    /// Who answered.
    pub seat: Seat,
    /// What he said.
    pub choice: Choice,
}

/// The bottom card shown under hop and jump (§D3 step 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "TippenHop"))]
pub struct Hop {
    /// The dealer who had shuffled.
    pub seat: Seat,
    /// The bottom card of his shuffled pack.
    pub card: Card,
    /// An ace or a seven: the deal passed on to the next seat.
    pub passed: bool,
}

/// How many cards a seat exchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "TippenExchange"))]
pub struct Exchange {
    /// Who exchanged.
    pub seat: Seat,
    /// How many cards.
    pub count: u8,
}

/// What lies in the middle as a deal begins: the pot and the reserve, before any ante.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "TippenCarry"))]
pub struct Carry {
    /// The pot.
    pub pot: i32,
    /// The reserve kept aside by a maximum bête.
    pub reserve: i32,
}

impl Carry {
    /// Pot and reserve together: 0 when the deal is played for the stake only.
    pub const fn total(self) -> i32 {
        self.pot + self.reserve
    }
}

/// How a deal ended (§D7).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "TippenOutcome"))]
pub struct Outcome {
    /// Nobody played: the pot stays.
    pub void: bool,
    /// The only player, who took the pot played for without play.
    pub alone: Option<Seat>,
    /// Who played, in turn from forehand.
    pub active: Vec<Seat>,
    /// Tricks each seat took.
    pub tricks: Vec<u8>,
    /// What each seat received from the pot (shares of tricks, or the pot taken alone).
    pub receipts: Vec<i32>,
    /// What each seat paid into the pot besides his ante: bêtes, penalties, a drop-out stake.
    pub payments: Vec<i32>,
    /// The pot after the deal.
    pub pot: i32,
    /// The reserve after the deal.
    pub reserve: i32,
}

/// One deal: the whole truth, hidden cards included.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deal {
    pub(crate) rules: Rules,
    pub(crate) number: u32,
    pub(crate) due: Seat,
    pub(crate) dealer: Seat,
    pub(crate) seed: Seed,
    /// Packs dealt in place of shuffles (tests only); empty when shuffled from the seed.
    pub(crate) packs: Vec<Vec<Card>>,
    pub(crate) shuffles: u32,
    pub(crate) carry: Carry,
    pub(crate) shoves: Vec<Seat>,
    pub(crate) hops: Vec<Hop>,
    pub(crate) antes: Vec<i32>,
    pub(crate) pot: i32,
    pub(crate) reserve: i32,
    pub(crate) played_for: i32,
    pub(crate) changes: Vec<i32>,
    pub(crate) paid: Vec<i32>,
    pub(crate) dealt: Vec<CardSet>,
    pub(crate) hands: Vec<CardSet>,
    pub(crate) trump_card: Option<Card>,
    pub(crate) table: Option<Card>,
    pub(crate) turned: bool,
    pub(crate) talon: Vec<Card>,
    pub(crate) discards: Vec<CardSet>,
    pub(crate) knocked: bool,
    pub(crate) sniffed: Option<Sniffing>,
    pub(crate) trumps: Option<Suit>,
    pub(crate) phase: Phase,
    pub(crate) turn: Option<Seat>,
    pub(crate) queue: Vec<Seat>,
    pub(crate) forced: Vec<Seat>,
    pub(crate) decisions: Vec<Decision>,
    pub(crate) active: Vec<Seat>,
    pub(crate) robbed: Option<Seat>,
    pub(crate) exchanges: Vec<Exchange>,
    pub(crate) plays: Vec<Play>,
    pub(crate) winners: Vec<Seat>,
    pub(crate) outcome: Option<Outcome>,
}

impl Deal {
    /// Begins deal `number` with `due` due to deal and `carry` in the middle: the dealer antes;
    /// without shoving the pack is shuffled (hop and jump drawing further shuffles from
    /// `seed`) and dealt at once. Returns the deal and its first events.
    pub fn new(rules: Rules, number: u32, due: Seat, seed: Seed, carry: Carry) -> (Deal, Vec<Event>) {
        Deal::begin(rules, number, due, seed, Vec::new(), carry)
    }

    /// Deals the packs given, in order, instead of shuffling (for tests): the first pack for
    /// the first shuffle, the next after a hop, the last one again once they are used up. Such
    /// a deal reports the all-zero seed. Returns `None` unless every pack holds every card of
    /// the rules' pack once, the rules are valid and `due` sits at the table.
    pub fn from_packs(
        rules: Rules,
        number: u32,
        due: Seat,
        packs: Vec<Vec<Card>>,
        carry: Carry,
    ) -> Option<(Deal, Vec<Event>)> {
        let cards = rules.pack().cards();
        let valid = |p: &Vec<Card>| p.len() == cards.len() && p.iter().copied().collect::<CardSet>() == cards;
        (rules.validate().is_ok() && due.0 < rules.players && !packs.is_empty() && packs.iter().all(valid))
            .then(|| Deal::begin(rules, number, due, Seed([0; 32]), packs, carry))
    }

    fn begin(
        rules: Rules,
        number: u32,
        due: Seat,
        seed: Seed,
        packs: Vec<Vec<Card>>,
        carry: Carry,
    ) -> (Deal, Vec<Event>) {
        let n = usize::from(rules.players);
        let mut deal = Deal {
            rules,
            number,
            due,
            dealer: due,
            seed,
            packs,
            shuffles: 0,
            carry,
            shoves: Vec::new(),
            hops: Vec::new(),
            antes: vec![0; n],
            pot: carry.pot,
            reserve: carry.reserve,
            played_for: 0,
            changes: vec![0; n],
            paid: vec![0; n],
            dealt: vec![CardSet::EMPTY; n],
            hands: vec![CardSet::EMPTY; n],
            trump_card: None,
            table: None,
            turned: false,
            talon: Vec::new(),
            discards: vec![CardSet::EMPTY; n],
            knocked: false,
            sniffed: None,
            trumps: None,
            phase: Phase::Shove,
            turn: Some(due),
            queue: Vec::new(),
            forced: Vec::new(),
            decisions: Vec::new(),
            active: Vec::new(),
            robbed: None,
            exchanges: Vec::new(),
            plays: Vec::new(),
            winners: Vec::new(),
            outcome: None,
        };
        let mut out = Vec::new();
        deal.ante(due, &mut out);
        if !rules.shoving {
            deal.shuffle_and_deal(&mut out);
        }
        (deal, out)
    }

    pub(crate) fn params(&self) -> Params {
        self.rules.params()
    }

    /// The table's rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The number of players.
    pub fn players(&self) -> u8 {
        self.rules.players
    }

    /// The deal's number in its series.
    pub fn number(&self) -> u32 {
        self.number
    }

    /// The seat that was due to deal (before any shove or hop).
    pub fn due(&self) -> Seat {
        self.due
    }

    /// The dealer now.
    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// Forehand: the seat to the dealer's left.
    pub fn forehand(&self) -> Seat {
        self.dealer.next(self.players())
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

    /// Pot and reserve as the deal began.
    pub fn carry(&self) -> Carry {
        self.carry
    }

    /// The pot now.
    pub fn pot(&self) -> i32 {
        self.pot
    }

    /// The reserve now.
    pub fn reserve(&self) -> i32 {
        self.reserve
    }

    /// The pot played for, P (0 before the cards are dealt).
    pub fn played_for(&self) -> i32 {
        self.played_for
    }

    /// What each seat paid (negative) or received in this deal so far, antes included.
    pub fn changes(&self) -> &[i32] {
        &self.changes
    }

    /// What each seat anted in this deal.
    pub fn antes(&self) -> &[i32] {
        &self.antes
    }

    /// The dealers who shoved, in order.
    pub fn shoves(&self) -> &[Seat] {
        &self.shoves
    }

    /// The bottom cards shown under hop and jump, in order.
    pub fn hops(&self) -> &[Hop] {
        &self.hops
    }

    /// The trump suit, once known.
    pub fn trumps(&self) -> Option<Suit> {
        self.trumps
    }

    /// The trump card, once dealt: the dealer's exposed last card in the 1821 presets.
    pub fn trump_card(&self) -> Option<Card> {
        self.trump_card
    }

    /// The card lying on the table: the trump card (face down until turned), or the robbing
    /// seven; `None` once the dealer has taken the trump card, or in the 1821 presets.
    pub fn table_card(&self) -> Option<Card> {
        self.table
    }

    /// Whether the card on the table lies face up.
    pub fn table_card_turned(&self) -> bool {
        self.turned
    }

    /// The 1821 dealer's exposed last card, while he holds it.
    pub fn exposed(&self) -> Option<Card> {
        let card = self.trump_card?;
        (self.params().trump == TrumpKind::DealersLast && self.hands[self.dealer.index()].contains(card))
            .then_some(card)
    }

    /// The undealt pack, top first.
    pub fn talon(&self) -> &[Card] {
        &self.talon
    }

    /// What each seat laid away face down.
    pub fn discards(&self) -> &[CardSet] {
        &self.discards
    }

    /// Whether the dealer knocked.
    pub fn knocked(&self) -> bool {
        self.knocked
    }

    /// How the dealer sniffed, if he did.
    pub fn sniffed(&self) -> Option<Sniffing> {
        self.sniffed
    }

    /// The answers so far.
    pub fn decisions(&self) -> &[Decision] {
        &self.decisions
    }

    /// Who plays, in turn from forehand, once the decisions are over.
    pub fn active(&self) -> &[Seat] {
        &self.active
    }

    /// Who robbed the trump card.
    pub fn robbed(&self) -> Option<Seat> {
        self.robbed
    }

    /// How many cards each seat exchanged, in turn.
    pub fn exchanges(&self) -> &[Exchange] {
        &self.exchanges
    }

    /// How the deal ended, once it has.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
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

    /// Every card played, in order.
    pub fn plays(&self) -> &[Play] {
        &self.plays
    }

    /// The winners of the finished tricks.
    pub fn trick_winners(&self) -> &[Seat] {
        &self.winners
    }

    /// The cards of the trick being played.
    pub fn current_trick(&self) -> &[Play] {
        let done = self.winners.len() * self.active.len();
        &self.plays[done.min(self.plays.len())..]
    }

    /// Tricks each seat took.
    pub fn tricks_taken(&self) -> Vec<u8> {
        let mut taken = vec![0; usize::from(self.players())];
        for w in &self.winners {
            taken[w.index()] += 1;
        }
        taken
    }

    /// Where every card is: the hands, the card on the table, the talon, the discards, the
    /// cards played. Always the whole pack, each card once (tested); empty before the deal.
    pub fn card_places(&self) -> Vec<CardSet> {
        let mut places = self.hands.clone();
        places.push(self.table.map_or(CardSet::EMPTY, Card::set));
        places.push(self.talon.iter().copied().collect());
        places.extend(self.discards.iter().copied());
        places.push(self.plays.iter().map(|p| p.card).collect());
        places
    }

    /// Whether every seat must play (the preset's rule, while the pot holds the stake only).
    pub fn everyone_must_play(&self) -> bool {
        self.params().must_play && self.carry.total() == 0
    }

    /// What the middle (pot and reserve) may still take under the table's `max_pot`.
    pub fn room(&self) -> i32 {
        let limit = i32::try_from(self.rules.max_pot).unwrap_or(i32::MAX);
        limit.saturating_sub(self.pot.saturating_add(self.reserve)).max(0)
    }

    /// The dealer antes the stake, or what the middle still takes under `max_pot`.
    fn ante(&mut self, seat: Seat, out: &mut Vec<Event>) {
        let k = self.params().stake.min(self.room());
        self.dealer = seat;
        self.antes[seat.index()] += k;
        self.changes[seat.index()] -= k;
        self.pot += k;
        out.push(Event::Anted { seat, stake: k, pot: self.pot });
    }

    fn shuffled(&self) -> Vec<Card> {
        if !self.packs.is_empty() {
            let i = (self.shuffles as usize).min(self.packs.len() - 1);
            return self.packs[i].clone();
        }
        let pack = self.rules.pack();
        // The first shuffle is the seed's own; each further shuffle (hop and jump) comes from
        // the next stream of the same seed, in order.
        if self.shuffles == 0 {
            self.seed.shuffle_pack(pack)
        } else {
            self.seed.derive(u64::from(self.shuffles)).shuffle_pack(pack)
        }
    }

    /// §D3 steps 2 and 3, then on to knocking, sniffing or the decisions.
    fn shuffle_and_deal(&mut self, out: &mut Vec<Event>) {
        let pack = loop {
            let pack = self.shuffled();
            self.shuffles += 1;
            if !self.rules.hop_and_jump {
                break pack;
            }
            let bottom = pack[pack.len() - 1];
            let passed = matches!(bottom.rank(), Rank::Ace | Rank::Seven);
            let hop = Hop { seat: self.dealer, card: bottom, passed };
            self.hops.push(hop);
            out.push(Event::BottomCard { seat: hop.seat, card: bottom, passed });
            if !passed {
                break pack;
            }
            let next = self.dealer.next(self.players());
            self.ante(next, out);
        };
        self.deal_pack(&pack, out);
    }

    fn deal_pack(&mut self, pack: &[Card], out: &mut Vec<Event>) {
        let params = self.params();
        let n = usize::from(self.players());
        let h = usize::from(params.hand);
        let forehand = self.forehand();
        let seats: Vec<usize> = (0..n).map(|i| (forehand.index() + i) % n).collect();
        let mut next = 0;
        let round = |hands: &mut Vec<CardSet>, next: &mut usize| {
            for &s in &seats {
                hands[s].insert(pack[*next]);
                *next += 1;
            }
        };
        let mut hands = vec![CardSet::EMPTY; n];
        let trump_card = match params.trump {
            TrumpKind::DealersLast => {
                for _ in 0..h {
                    round(&mut hands, &mut next);
                }
                pack[next - 1]
            }
            TrumpKind::Between(before) => {
                for _ in 0..before {
                    round(&mut hands, &mut next);
                }
                let card = pack[next];
                next += 1;
                for _ in usize::from(before)..h {
                    round(&mut hands, &mut next);
                }
                card
            }
        };
        self.talon = pack[next..].to_vec();
        self.hands = hands.clone();
        self.dealt = hands;
        self.trump_card = Some(trump_card);
        // §D3 step 7: the pot played for, the excess kept in the reserve.
        let total = self.pot + self.reserve;
        self.played_for = self.rules.max_bete.map_or(total, |m| total.min(i32::try_from(m).unwrap_or(i32::MAX)));
        self.pot = self.played_for;
        self.reserve = total - self.played_for;
        let exposed = params.trump == TrumpKind::DealersLast;
        let knocking = self.rules.knocking && !exposed;
        out.push(Event::Dealt {
            number: self.number,
            dealer: self.dealer,
            forehand,
            hands: self.hands.iter().map(|h| Some(*h)).collect(),
            exposed: exposed.then_some(trump_card),
            dealer_sees_hand: !knocking,
            talon: self.talon.len() as u8,
            pot: self.pot,
            reserve: self.reserve,
            played_for: self.played_for,
        });
        if exposed {
            self.trumps = Some(trump_card.suit());
            self.begin_decisions(out);
        } else {
            self.table = Some(trump_card);
            if knocking {
                self.phase = Phase::Knock;
                self.turn = Some(self.dealer);
            } else {
                self.sniff_or_turn(out);
            }
        }
    }

    fn sniff_or_turn(&mut self, out: &mut Vec<Event>) {
        if self.rules.sniffing == Sniffing::Off {
            self.turn_trump(out);
        } else {
            self.phase = Phase::Sniff;
            self.turn = Some(self.dealer);
        }
    }

    fn turn_trump(&mut self, out: &mut Vec<Event>) {
        let Some(card) = self.table else { return };
        self.turned = true;
        self.trumps = Some(card.suit());
        out.push(Event::TrumpTurned { card });
        self.begin_decisions(out);
    }

    /// §D4: who is asked, and who plays without being asked.
    fn begin_decisions(&mut self, out: &mut Vec<Event>) {
        let n = self.players();
        let must = self.everyone_must_play();
        let dealer_plays = self.knocked || self.sniffed == Some(Sniffing::Grupp);
        let mut seat = self.forehand();
        for _ in 0..n {
            if seat == self.dealer && dealer_plays {
                self.forced.push(seat);
            } else if seat == self.dealer && self.sniffed == Some(Sniffing::Alvensleben) {
                self.queue.push(seat);
            } else if must && !self.rules.robbing {
                self.forced.push(seat);
            } else {
                self.queue.push(seat);
            }
            seat = seat.next(n);
        }
        self.phase = Phase::Decide;
        self.next_decision(out);
    }

    fn next_decision(&mut self, out: &mut Vec<Event>) {
        if let Some(&seat) = self.queue.first() {
            self.turn = Some(seat);
            return;
        }
        let mut seat = self.forehand();
        for _ in 0..self.players() {
            let joined =
                self.decisions.iter().any(|d| d.seat == seat && matches!(d.choice, Choice::Join | Choice::Rob));
            if joined || self.forced.contains(&seat) {
                self.active.push(seat);
            }
            seat = seat.next(self.players());
        }
        out.push(Event::Playing { seats: self.active.clone() });
        match self.active.len() {
            0 => self.finish(out),
            1 => {
                let seat = self.active[0];
                let amount = self.played_for;
                self.changes[seat.index()] += amount;
                self.pot -= amount;
                out.push(Event::TookPot { seat, amount, pot: self.pot });
                self.finish(out);
            }
            _ if self.params().exchange > 0 => {
                self.phase = Phase::Exchange;
                self.queue = self.active.clone();
                self.turn = Some(self.queue[0]);
            }
            _ => self.start_play(),
        }
    }

    fn start_play(&mut self) {
        self.phase = Phase::Play;
        self.queue.clear();
        self.turn = Some(self.active[0]);
    }

    /// Whether `seat` may rob now (§D5).
    fn may_rob(&self, seat: Seat) -> bool {
        let (Some(card), Some(trumps)) = (self.table, self.trumps) else { return false };
        let seven = Card::new(trumps, Rank::Seven);
        self.rules.robbing
            && self.sniffed.is_none()
            && !self.knocked
            && self.robbed.is_none()
            && Some(card) == self.trump_card
            && card != seven
            && self.hands[seat.index()].contains(seven)
    }

    /// The most cards `seat` may exchange now.
    pub fn exchange_limit(&self) -> u8 {
        self.params().exchange.min(self.talon.len() as u8)
    }

    /// The lead rule for the trick about to be led (§D6): a trump to the first trick with three
    /// or more active players, the Daus of trumps to the second.
    pub(crate) fn lead_rule(&self) -> Lead {
        self.lead_rule_at(self.winners.len())
    }

    /// The lead rule for a trick led once `done` tricks are finished.
    fn lead_rule_at(&self, done: usize) -> Lead {
        let (params, Some(trumps)) = (self.params(), self.trumps) else { return Lead::Any };
        match done {
            0 if params.trump_lead && self.active.len() >= 3 => Lead::Trump(trumps),
            1 => params.daus.map_or(Lead::Any, |rank| Lead::Card(Card::new(trumps, rank))),
            _ => Lead::Any,
        }
    }

    /// The follow settings of the preset (§D2, §0.4).
    pub(crate) fn follow(&self) -> Follow {
        let params = self.params();
        Follow { head: params.head, void: params.void, trumps: self.trumps }
    }

    /// The cards of `hand` this deal's rules and trumps allow to be added to a trick holding
    /// `trick` (from its leader; empty: a lead) once `done` tricks are finished: what
    /// [`Deal::playable`] answers for any position of the play (an analysis with every card
    /// open asks it of positions the deal never reached).
    pub fn playable_at(&self, hand: CardSet, trick: &[Card], done: usize) -> CardSet {
        if trick.is_empty() {
            return self.lead_rule_at(done).playable(hand);
        }
        let plays: Vec<Play> = trick.iter().map(|&card| Play { seat: Seat(0), card }).collect();
        self.follow().playable(&plays, hand)
    }

    /// The cards `seat` may play now.
    pub fn playable(&self, seat: Seat) -> CardSet {
        if self.phase != Phase::Play || self.turn != Some(seat) {
            return CardSet::EMPTY;
        }
        let hand = self.hands[seat.index()];
        match self.current_trick() {
            [] => self.lead_rule().playable(hand),
            trick => self.follow().playable(trick, hand),
        }
    }

    fn decide_choices(&self, seat: Seat) -> [bool; 4] {
        // join, rob, pass, drop out
        if seat == self.dealer && self.sniffed == Some(Sniffing::Alvensleben) {
            return [true, false, false, true];
        }
        [true, self.may_rob(seat), !self.everyone_must_play(), false]
    }

    /// Every action `seat` may take now (nothing out of turn).
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
            Phase::Shove => {
                if self.may_shove() {
                    out.push(Action::Shove);
                }
                out.push(Action::Deal);
            }
            Phase::Knock => out.extend([Action::Knock, Action::NoKnock]),
            Phase::Sniff => out.extend([Action::Sniff, Action::NoSniff]),
            Phase::Discard => out.extend(self.hands[seat.index()].iter().map(|c| Action::Discard { cards: c.set() })),
            Phase::Decide => {
                let [join, rob, pass, drop_out] = self.decide_choices(seat);
                let all = [(join, Action::Join), (rob, Action::Rob), (pass, Action::Pass), (drop_out, Action::DropOut)];
                out.extend(all.iter().filter(|(ok, _)| *ok).map(|(_, a)| *a));
            }
            Phase::Exchange => {
                out.push(Action::Keep);
                let hand = self.hands[seat.index()];
                for k in 1..=usize::from(self.exchange_limit()) {
                    hand.for_each_subset(k, &mut |cards| out.push(Action::Exchange { cards }));
                }
            }
            Phase::Play => out.extend(self.playable(seat).iter().map(|card| Action::Play { card })),
            Phase::Over => {}
        }
    }

    fn may_shove(&self) -> bool {
        self.rules.shoving && self.shoves.len() + 1 < usize::from(self.players())
    }

    /// Checks an action without applying it: seat, deal over, turn, phase, then the cards.
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
            (Phase::Shove, Action::Deal) => Ok(()),
            (Phase::Shove, Action::Shove) => {
                if self.may_shove() {
                    Ok(())
                } else {
                    Err(RuleError::ShoveNotAllowed)
                }
            }
            (Phase::Knock, Action::Knock | Action::NoKnock) | (Phase::Sniff, Action::Sniff | Action::NoSniff) => Ok(()),
            (Phase::Discard, Action::Discard { cards }) => {
                if cards.len() != 1 {
                    return Err(RuleError::DiscardCount { expected: 1 });
                }
                match cards.difference(hand).iter().next() {
                    Some(card) => Err(RuleError::NotInHand { card }),
                    None => Ok(()),
                }
            }
            (Phase::Decide, Action::Join | Action::Rob | Action::Pass | Action::DropOut) => {
                let [_, rob, pass, drop_out] = self.decide_choices(seat);
                match action {
                    Action::Rob if !rob => Err(RuleError::RobNotAllowed),
                    Action::Pass if !pass => Err(RuleError::PassNotAllowed),
                    Action::DropOut if !drop_out => Err(RuleError::DropOutNotAllowed),
                    _ => Ok(()),
                }
            }
            (Phase::Exchange, Action::Keep) => Ok(()),
            (Phase::Exchange, Action::Exchange { cards }) => {
                let max = self.exchange_limit();
                if cards.is_empty() || cards.len() > usize::from(max) {
                    return Err(RuleError::ExchangeTooMany { max });
                }
                match cards.difference(hand).iter().next() {
                    Some(card) => Err(RuleError::NotInHand { card }),
                    None => Ok(()),
                }
            }
            (Phase::Play, Action::Play { card }) => {
                if !hand.contains(card) {
                    return Err(RuleError::NotInHand { card });
                }
                match self.current_trick() {
                    [] => self.lead_rule().check(hand, card),
                    trick => self.follow().check(trick, hand, card),
                }
            }
            (phase, _) => Err(RuleError::WrongPhase(phase_hint(phase))),
        }
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

    /// [`Deal::apply`], appending the events to `out`.
    ///
    /// # Errors
    /// As [`Deal::apply`]; `out` is then unchanged too.
    pub fn apply_into(&mut self, seat: Seat, action: Action, out: &mut Vec<Event>) -> Result<(), RuleError> {
        self.check(seat, action)?;
        let i = seat.index();
        match action {
            Action::Shove => {
                self.shoves.push(seat);
                out.push(Event::Shoved { seat });
                let next = seat.next(self.players());
                self.ante(next, out);
                self.turn = Some(next);
            }
            Action::Deal => self.shuffle_and_deal(out),
            Action::Knock => {
                self.knocked = true;
                self.take_trump_card(seat);
                let suit = self.trumps.unwrap_or(Suit::Clubs);
                out.push(Event::Knocked { seat, suit, hand: Some(self.hands[i]) });
                self.phase = Phase::Discard;
            }
            Action::NoKnock => {
                out.push(Event::NotKnocked { seat, hand: Some(self.hands[i]) });
                self.sniff_or_turn(out);
            }
            Action::Sniff => {
                let kind = self.rules.sniffing;
                self.sniffed = Some(kind);
                let card = self.table;
                if kind == Sniffing::Alvensleben {
                    self.turned = true;
                }
                self.take_trump_card(seat);
                let suit = self.trumps.unwrap_or(Suit::Clubs);
                out.push(Event::Sniffed { seat, kind, suit, trump_card: card });
                self.phase = Phase::Discard;
            }
            Action::NoSniff => {
                out.push(Event::NotSniffed { seat });
                self.turn_trump(out);
            }
            Action::Discard { cards } => {
                self.hands[i] = self.hands[i].difference(cards);
                self.discards[i] = self.discards[i].union(cards);
                out.push(Event::Discarded { seat, count: cards.len() as u8, cards: Some(cards) });
                self.begin_decisions(out);
            }
            Action::Join | Action::Rob | Action::Pass | Action::DropOut => {
                let choice = match action {
                    Action::Join => Choice::Join,
                    Action::Rob => Choice::Rob,
                    Action::Pass => Choice::Pass,
                    _ => Choice::DropOut,
                };
                self.queue.remove(0);
                self.decisions.push(Decision { seat, choice });
                let paid = if choice == Choice::DropOut { self.params().stake.min(self.room()) } else { 0 };
                self.changes[i] -= paid;
                self.paid[i] += paid;
                self.pot += paid;
                out.push(Event::Decided { seat, choice, paid, pot: self.pot });
                if choice == Choice::Rob {
                    self.rob(seat, out);
                }
                self.next_decision(out);
            }
            Action::Keep | Action::Exchange { .. } => {
                let cards = match action {
                    Action::Exchange { cards } => cards,
                    _ => CardSet::EMPTY,
                };
                let count = cards.len();
                let received: CardSet = self.talon.drain(..count).collect();
                self.hands[i] = self.hands[i].difference(cards).union(received);
                self.discards[i] = self.discards[i].union(cards);
                let count = count as u8;
                self.exchanges.push(Exchange { seat, count });
                out.push(Event::Exchanged { seat, count, discarded: Some(cards), received: Some(received) });
                self.queue.remove(0);
                match self.queue.first() {
                    Some(&next) => self.turn = Some(next),
                    None => self.start_play(),
                }
            }
            Action::Play { card } => self.play(seat, card, out),
        }
        Ok(())
    }

    /// The dealer takes the trump card into his hand (knocking, sniffing); its suit is trumps.
    fn take_trump_card(&mut self, seat: Seat) {
        if let Some(card) = self.table.take() {
            self.hands[seat.index()].insert(card);
            self.trumps = Some(card.suit());
        }
    }

    fn rob(&mut self, seat: Seat, out: &mut Vec<Event>) {
        let (Some(card), Some(trumps)) = (self.table, self.trumps) else { return };
        let seven = Card::new(trumps, Rank::Seven);
        let hand = &mut self.hands[seat.index()];
        hand.remove(seven);
        hand.insert(card);
        self.table = Some(seven);
        self.robbed = Some(seat);
        out.push(Event::Robbed { seat, trump_card: card, seven });
    }

    fn play(&mut self, seat: Seat, card: Card, out: &mut Vec<Event>) {
        self.hands[seat.index()].remove(card);
        self.plays.push(Play { seat, card });
        out.push(Event::CardPlayed { seat, card });
        let trick = self.current_trick();
        if trick.len() < self.active.len() {
            let pos = self.active.iter().position(|&s| s == seat).unwrap_or(0);
            self.turn = Some(self.active[(pos + 1) % self.active.len()]);
            return;
        }
        let winner = trick_winner(trick, self.trumps.unwrap_or(Suit::Clubs));
        self.winners.push(winner);
        out.push(Event::TrickTaken { seat: winner });
        if self.winners.len() == usize::from(self.params().hand) {
            self.settle(out);
        } else {
            self.turn = Some(winner);
        }
    }

    /// §D7: shares of the pot played for, bêtes, the sniffer's and knocker's penalties. The
    /// shares are taken from the pot first; should the payments then lift the middle above
    /// `max_pot`, each is cut in the same proportion, rounded down, and the counters the
    /// rounding leaves are paid one each by the payers in turn from forehand: the middle is
    /// then exactly full.
    fn settle(&mut self, out: &mut Vec<Event>) {
        let params = self.params();
        let share = self.played_for / i32::from(params.hand);
        let k = params.stake;
        let b = if params.bete_is_stake { k } else { self.played_for };
        let tricks = self.tricks_taken();
        let active = self.active.clone();
        let mut settled: Vec<(Seat, u8, i32, i32)> = Vec::with_capacity(active.len());
        for &seat in &active {
            let t = tricks[seat.index()];
            let receipt = share * i32::from(t);
            let dealer = seat == self.dealer;
            let payment = match (t, dealer && self.knocked, dealer.then_some(self.sniffed).flatten()) {
                (0, true, _) => 2 * k,
                (1, true, _) => k,
                (0, false, Some(_)) => 2 * b,
                (1, false, Some(Sniffing::Grupp)) => b,
                (0, _, _) => b,
                _ => 0,
            };
            settled.push((seat, t, receipt, payment));
        }
        self.pot -= settled.iter().map(|s| s.2).sum::<i32>();
        let owed: i64 = settled.iter().map(|s| i64::from(s.3)).sum();
        let room = i64::from(self.room());
        if owed > room {
            let mut left = room;
            let mut payers = Vec::new();
            for s in &mut settled {
                // Less than the payment itself, since room < owed.
                let cut = i64::from(s.3) * room / owed;
                left -= cut;
                payers.push(s.3 > 0);
                s.3 = i32::try_from(cut).unwrap_or(0);
            }
            // What the rounding left over (fewer counters than payers) is paid a counter each by
            // the payers in turn from forehand, so the middle is exactly full.
            for (s, _) in
                settled.iter_mut().zip(payers).filter(|(_, payer)| *payer).take(usize::try_from(left).unwrap_or(0))
            {
                s.3 += 1;
            }
        }
        for (seat, t, receipt, payment) in settled {
            let i = seat.index();
            self.changes[i] += receipt - payment;
            self.paid[i] += payment;
            self.pot += payment;
            out.push(Event::Settled { seat, tricks: t, received: receipt, paid: payment });
        }
        self.finish(out);
    }

    fn finish(&mut self, out: &mut Vec<Event>) {
        let n = usize::from(self.players());
        let tricks = self.tricks_taken();
        let receipts: Vec<i32> = (0..n).map(|i| self.changes[i] + self.antes[i] + self.paid[i]).collect();
        let outcome = Outcome {
            void: self.active.is_empty(),
            alone: (self.active.len() == 1).then(|| self.active[0]),
            active: self.active.clone(),
            tricks,
            receipts,
            payments: self.paid.clone(),
            pot: self.pot,
            reserve: self.reserve,
        };
        self.outcome = Some(outcome.clone());
        self.phase = Phase::Over;
        self.turn = None;
        self.queue.clear();
        out.push(Event::DealOver { outcome, scores: self.changes.clone(), reveal: Box::new(self.reveal()) });
    }

    /// Everything hidden, shown once the deal is over.
    pub fn reveal(&self) -> Reveal {
        Reveal {
            dealt: self.dealt.clone(),
            hands: self.hands.clone(),
            trump_card: self.trump_card,
            talon: self.talon.clone(),
            discards: self.discards.clone(),
            seed: self.seed,
        }
    }
}

fn phase_hint(phase: Phase) -> &'static str {
    match phase {
        Phase::Shove => "the dealer shoves or deals",
        Phase::Knock => "the dealer knocks or not",
        Phase::Sniff => "the dealer sniffs or not",
        Phase::Discard => "the dealer lays one card away",
        Phase::Decide => "each player says whether he plays",
        Phase::Exchange => "the players exchange cards with the talon",
        Phase::Play => "the cards are being played: play a card",
        Phase::Over => "this deal is over",
    }
}
