//! One deal of Nap, from the shuffle to the settlement (docs/rules/nap.md#n2-the-deal to
//! docs/rules/nap.md#n6-settlement).

use serde::{Deserialize, Serialize};

use super::cards::{NapCard, NapCards, NapPlay, cards_from, stripped_lowest, trick_winner};
use super::event::Event;
use super::rules::{AllPass, Bid, CARD_COST, Exchange, HAND, MAX_PURCHASE, PEEP_COST, POOL_ANTE, PackChoice, Rules};
use crate::card::{Rank, Suit};
use crate::error::RuleError;
use crate::seat::Seat;
use crate::seed::Seed;

/// Everything a player can do in a Nap deal.
///
/// ```json
/// {"action": "keep"}
/// {"action": "exchange", "cards": ["C2", "D5"]}
/// {"action": "peep"}
/// {"action": "pass"}
/// {"action": "bid", "bid": "misere"}
/// {"action": "take_widow"}
/// {"action": "discard", "cards": ["S4"]}
/// {"action": "play", "card": "JK"}
/// {"action": "name_trumps", "suit": "hearts"}
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "NapAction"))]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    /// Purchase: buy nothing. Peep: the declarer leaves the widow where it lies.
    Keep,
    /// Purchase: lay these cards away and buy as many from the stock, a counter each.
    Exchange {
        /// The cards laid away (1 to 5, no more than the stock holds).
        cards: NapCards,
    },
    /// Peep: look at the widow for a counter, before bidding or passing.
    Peep,
    /// Make no bid.
    Pass,
    /// Bid higher than the bid standing.
    Bid {
        /// The bid.
        bid: Bid,
    },
    /// Peep: the declarer takes the widow into his hand (then discards one card).
    TakeWidow,
    /// Peep: the declarer who took the widow lays one card away.
    Discard {
        /// Exactly one card of his hand.
        cards: NapCards,
    },
    /// The declarer who led the joker to the first trick names the trump suit.
    NameTrumps {
        /// The trump suit.
        suit: Suit,
    },
    /// Play a card to the trick.
    Play {
        /// The card.
        card: NapCard,
    },
}

impl Action {
    /// A short name of the action's kind for logs (`"play"`, `"bid"`), never its cards.
    pub const fn kind(&self) -> &'static str {
        match self {
            Action::Keep => "keep",
            Action::Exchange { .. } => "exchange",
            Action::Peep => "peep",
            Action::Pass => "pass",
            Action::Bid { .. } => "bid",
            Action::TakeWidow => "take_widow",
            Action::Discard { .. } => "discard",
            Action::NameTrumps { .. } => "name_trumps",
            Action::Play { .. } => "play",
        }
    }
}

/// Where a deal stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "NapPhase"))]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Purchase: each player in turn keeps his hand or buys cards.
    Purchase,
    /// Each player in turn passes or bids higher (and may peep first at a peep table).
    Auction,
    /// Peep: the declarer takes the widow or leaves it.
    Widow,
    /// Peep: the declarer who took the widow discards a card.
    Discard,
    /// The declarer led the joker to the first trick and names trumps.
    NameTrumps,
    /// Tricks are played.
    Play,
    /// The deal is over.
    Over,
}

/// A call of the auction: a bid, or a pass (`bid` null).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "NapCall"))]
pub struct Call {
    /// Who called.
    pub seat: Seat,
    /// The bid; `null` for a pass.
    pub bid: Option<Bid>,
}

/// How a deal ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "NapOutcome"))]
pub struct Outcome {
    /// The declarer; `null` when everybody passed and the deal was thrown in.
    pub declarer: Option<Seat>,
    /// His bid.
    pub bid: Option<Bid>,
    /// The trump suit (none in a misère or a thrown-in deal).
    pub trumps: Option<Suit>,
    /// Tricks the declarer took.
    pub declarer_tricks: u8,
    /// Tricks his opponents took together.
    pub opponent_tricks: u8,
    /// Whether he made his bid; `null` for a thrown-in deal.
    pub made: Option<bool>,
    /// What he took from the pool (a made Nap, Wellington or Blücher).
    pub pool_taken: i32,
    /// What he paid into the pool (a lost Nap, Wellington or Blücher at a pool table).
    pub pool_paid: i32,
}

/// One deal: the whole truth, hidden cards included.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deal {
    pub(crate) rules: Rules,
    pub(crate) number: u32,
    pub(crate) dealer: Seat,
    pub(crate) seed: Seed,
    pub(crate) dealt: Vec<NapCards>,
    pub(crate) hands: Vec<NapCards>,
    /// The undealt cards, top first (the widow apart at a peep table).
    pub(crate) stock: Vec<NapCard>,
    /// Peep: the widow, the card dealt face down for peeping.
    pub(crate) widow: Option<NapCard>,
    /// Whether the widow still lies on the table.
    pub(crate) widow_lying: bool,
    /// The cards each seat laid away: bought away, or discarded for the widow.
    pub(crate) laid_away: Vec<NapCards>,
    /// Purchase: how many cards each seat bought, once he has decided.
    pub(crate) bought: Vec<Option<u8>>,
    pub(crate) peeked: Vec<bool>,
    pub(crate) calls: Vec<Call>,
    pub(crate) declarer: Option<Seat>,
    pub(crate) bid: Option<Bid>,
    pub(crate) took_widow: Option<bool>,
    pub(crate) trumps: Option<Suit>,
    pub(crate) plays: Vec<NapPlay>,
    pub(crate) trick_winners: Vec<Seat>,
    pub(crate) phase: Phase,
    pub(crate) turn: Option<Seat>,
    /// What each seat paid (negative) or took in this deal so far.
    pub(crate) changes: Vec<i32>,
    /// The pool now.
    pub(crate) pool: i32,
    pub(crate) outcome: Option<Outcome>,
}

impl Deal {
    /// The cards of the pack these rules deal with, in the order a shuffle starts from: the
    /// suit cards (clubs, spades, hearts, diamonds, each from its lowest up), then the joker.
    pub fn pack(rules: &Rules) -> Vec<NapCard> {
        let lowest = match rules.pack {
            PackChoice::Full => Rank::Two,
            PackChoice::Stripped => stripped_lowest(rules.players),
        };
        let mut pack: Vec<NapCard> = cards_from(lowest).iter().map(NapCard::Card).collect();
        if rules.joker {
            pack.push(NapCard::Joker);
        }
        pack
    }

    /// Shuffles with `seed` and deals; `pool` is the pool carried from the deal before. Returns
    /// the deal and its first event. The rules must be valid.
    pub fn new(rules: Rules, number: u32, dealer: Seat, seed: Seed, pool: i32) -> (Deal, Event) {
        let mut pack = Deal::pack(&rules);
        seed.shuffle_slice(&mut pack);
        Deal::deal_pack(rules, number, dealer, &pack, seed, pool)
    }

    /// Deals a pack in a given order instead of shuffling (for tests). Such a deal reports the
    /// all-zero seed. Returns `None` unless `pack` holds every card of [`Deal::pack`] once, the
    /// rules are valid and the dealer sits at the table.
    pub fn from_pack(rules: Rules, number: u32, dealer: Seat, pack: &[NapCard], pool: i32) -> Option<(Deal, Event)> {
        let all: NapCards = pack.iter().copied().collect();
        let expected: NapCards = Deal::pack(&rules).into_iter().collect();
        (rules.validate().is_ok() && pack.len() == expected.len() && all == expected && dealer.0 < rules.players)
            .then(|| Deal::deal_pack(rules, number, dealer, pack, Seed([0; 32]), pool))
    }

    /// Deals 3-2 from forehand (docs/rules/nap.md#n2-the-deal); the rest is the stock, whose
    /// top card is the widow at a peep table. With the pool option, an empty pool takes an
    /// ante from everyone, a pool that is not from the dealer alone.
    fn deal_pack(rules: Rules, number: u32, dealer: Seat, pack: &[NapCard], seed: Seed, pool: i32) -> (Deal, Event) {
        let n = rules.players;
        let players = usize::from(n);
        let forehand = dealer.next(n);
        let mut hands = vec![NapCards::EMPTY; players];
        for i in 0..players {
            let seat = usize::from((forehand.0 + i as u8) % n);
            let first = &pack[3 * i..3 * i + 3];
            let second = &pack[3 * players + 2 * i..3 * players + 2 * i + 2];
            hands[seat] = first.iter().chain(second).copied().collect();
        }
        let rest = &pack[5 * players..];
        let (widow, stock) = match rules.exchange {
            Exchange::Peep => (rest.first().copied(), rest.get(1..).unwrap_or_default().to_vec()),
            Exchange::Off | Exchange::Purchase => (None, rest.to_vec()),
        };
        let mut changes = vec![0; players];
        let mut pool = pool;
        if rules.pool {
            if pool == 0 {
                changes.iter_mut().for_each(|c| *c -= POOL_ANTE);
                pool += POOL_ANTE * i32::from(n);
            } else {
                changes[dealer.index()] -= POOL_ANTE;
                pool += POOL_ANTE;
            }
        }
        let event = Event::Dealt {
            number,
            dealer,
            forehand,
            hands: hands.iter().map(|h| Some(*h)).collect(),
            stock: stock.len() as u8,
            widow: widow.is_some(),
            antes: changes.clone(),
            pool,
        };
        let deal = Deal {
            rules,
            number,
            dealer,
            seed,
            dealt: hands.clone(),
            hands,
            stock,
            widow,
            widow_lying: widow.is_some(),
            laid_away: vec![NapCards::EMPTY; players],
            bought: vec![None; players],
            peeked: vec![false; players],
            calls: Vec::new(),
            declarer: None,
            bid: None,
            took_widow: None,
            trumps: None,
            plays: Vec::new(),
            trick_winners: Vec::new(),
            phase: if rules.exchange == Exchange::Purchase { Phase::Purchase } else { Phase::Auction },
            turn: Some(forehand),
            changes,
            pool,
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

    /// The deal's number in its series.
    pub fn number(&self) -> u32 {
        self.number
    }

    /// The dealer.
    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// Forehand: the player to the dealer's left, who buys and bids first.
    pub fn forehand(&self) -> Seat {
        self.dealer.next(self.rules.players)
    }

    /// The seed this deal was shuffled with. Never shown to players: it would give away the
    /// stock (docs/rules/nap.md#n8-what-each-player-sees).
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

    /// The calls of the auction so far, in turn.
    pub fn calls(&self) -> &[Call] {
        &self.calls
    }

    /// The bid standing (the contract once the auction is over).
    pub fn bid(&self) -> Option<Bid> {
        self.bid
    }

    /// The player who made the bid standing (the declarer once the auction is over).
    pub fn declarer(&self) -> Option<Seat> {
        self.declarer
    }

    /// The trump suit, once the declarer's first lead has fixed it (none in a misère).
    pub fn trumps(&self) -> Option<Suit> {
        self.trumps
    }

    /// Whether the declarer took the widow (peep), once he has decided.
    pub fn took_widow(&self) -> Option<bool> {
        self.took_widow
    }

    /// Who peeped at the widow.
    pub fn peeked(&self) -> &[bool] {
        &self.peeked
    }

    /// How many cards each seat bought (purchase), once decided.
    pub fn bought(&self) -> &[Option<u8>] {
        &self.bought
    }

    /// The cards a seat holds now.
    pub fn hand(&self, seat: Seat) -> NapCards {
        self.hands[seat.index()]
    }

    /// The hand a seat was dealt.
    pub fn dealt_hand(&self, seat: Seat) -> NapCards {
        self.dealt[seat.index()]
    }

    /// The cards a seat laid away (bought away, or discarded for the widow).
    pub fn laid_away(&self, seat: Seat) -> NapCards {
        self.laid_away[seat.index()]
    }

    /// The widow (peep), whether or not it still lies on the table.
    pub fn widow(&self) -> Option<NapCard> {
        self.widow
    }

    /// How many cards the stock holds (the widow not counted).
    pub fn stock_len(&self) -> usize {
        self.stock.len()
    }

    /// Every card played, in order.
    pub fn plays(&self) -> &[NapPlay] {
        &self.plays
    }

    /// The winners of the finished tricks.
    pub fn trick_winners(&self) -> &[Seat] {
        &self.trick_winners
    }

    /// The cards of the trick being played.
    pub fn current_trick(&self) -> &[NapPlay] {
        let done = self.trick_winners.len() * usize::from(self.rules.players);
        &self.plays[done.min(self.plays.len())..]
    }

    /// The finished tricks: their cards and winners.
    pub fn finished_tricks(&self) -> impl Iterator<Item = (&[NapPlay], Seat)> {
        let n = usize::from(self.rules.players);
        self.trick_winners.iter().enumerate().map(move |(i, &winner)| (&self.plays[i * n..(i + 1) * n], winner))
    }

    /// Tricks taken by the declarer and by his opponents together.
    pub fn tricks_taken(&self) -> (u8, u8) {
        let declarer = self.trick_winners.iter().filter(|&&w| Some(w) == self.declarer).count() as u8;
        (declarer, self.trick_winners.len() as u8 - declarer)
    }

    /// What each seat paid (negative) or took in this deal so far. With the pool's growth in
    /// this deal they sum to zero.
    pub fn changes(&self) -> &[i32] {
        &self.changes
    }

    /// The pool now.
    pub fn pool(&self) -> i32 {
        self.pool
    }

    /// How the deal ended, once it has.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Whether the deal is over.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Where every card is: the hands, the stock, the widow lying, the cards laid away, the
    /// cards played. Always the whole pack, each card once (tested).
    pub fn card_places(&self) -> Vec<NapCards> {
        let mut places = self.hands.clone();
        places.push(self.stock.iter().copied().collect());
        places.push(self.widow.filter(|_| self.widow_lying).into_iter().collect());
        places.extend(self.laid_away.iter().copied());
        places.push(self.plays.iter().map(|p| p.card).collect());
        places
    }

    /// The cards `seat` may play now: any card to lead; else a card of the suit led if he
    /// holds one (the joker belongs to the trump suit); else any card
    /// (docs/rules/nap.md#n5-the-play).
    pub fn playable(&self, seat: Seat) -> NapCards {
        if self.phase != Phase::Play || self.turn != Some(seat) {
            return NapCards::EMPTY;
        }
        let hand = self.hands[seat.index()];
        let Some(led) = self.current_trick().first() else { return hand };
        let Some(suit) = led.card.suit_under(self.trumps) else { return hand };
        let follow = hand.of_suit(suit, self.trumps);
        if follow.is_empty() { hand } else { follow }
    }

    /// The bids `seat` may make now.
    fn biddable(&self) -> impl Iterator<Item = Bid> + '_ {
        Bid::ALL.into_iter().filter(move |&bid| {
            self.rules.offers(bid) && self.bid.is_none_or(|standing| bid > standing) && {
                match bid.only_over() {
                    Some(over) => self.bid == Some(over),
                    None => true,
                }
            }
        })
    }

    /// Whether `seat` may pass: always, except the dealer when nobody has bid at a table where
    /// he must then bid.
    fn may_pass(&self, seat: Seat) -> bool {
        !(self.rules.all_pass == AllPass::DealerBids && seat == self.dealer && self.bid.is_none())
    }

    /// Whether `seat` may peep now.
    fn may_peep(&self, seat: Seat) -> bool {
        self.rules.exchange == Exchange::Peep && self.widow_lying && !self.peeked[seat.index()]
    }

    /// The most cards `seat`'s purchase may hold.
    fn purchase_max(&self) -> usize {
        self.stock.len().min(usize::from(MAX_PURCHASE))
    }

    /// Every action `seat` may take now (nothing out of turn).
    pub fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        let mut out = Vec::new();
        if self.outcome.is_some() || self.turn != Some(seat) {
            return out;
        }
        match self.phase {
            Phase::Purchase => {
                out.push(Action::Keep);
                self.hands[seat.index()]
                    .for_each_subset(self.purchase_max(), &mut |cards| out.push(Action::Exchange { cards }));
            }
            Phase::Auction => {
                if self.may_peep(seat) {
                    out.push(Action::Peep);
                }
                if self.may_pass(seat) {
                    out.push(Action::Pass);
                }
                out.extend(self.biddable().map(|bid| Action::Bid { bid }));
            }
            Phase::Widow => out.extend([Action::TakeWidow, Action::Keep]),
            Phase::Discard => out.extend(
                self.hands[seat.index()].iter().map(|card| Action::Discard { cards: std::iter::once(card).collect() }),
            ),
            Phase::NameTrumps => out.extend(Suit::ALL.map(|suit| Action::NameTrumps { suit })),
            Phase::Play => out.extend(self.playable(seat).iter().map(|card| Action::Play { card })),
            Phase::Over => {}
        }
        out
    }

    /// Checks that every card of `cards` is in `seat`'s hand.
    fn check_held(&self, seat: Seat, cards: NapCards) -> Result<(), RuleError> {
        let missing = cards.difference(self.hands[seat.index()]);
        match missing.iter().next() {
            None => Ok(()),
            Some(NapCard::Card(card)) => Err(RuleError::NotInHand { card }),
            Some(NapCard::Joker) => Err(RuleError::WrongPhase("the joker is not in your hand")),
        }
    }

    /// Checks an action without applying it: seat, deal over, turn, phase, then its content.
    ///
    /// # Errors
    /// The [`RuleError`] that [`Deal::apply`] would return.
    pub fn check(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
        if seat.0 >= self.rules.players {
            return Err(RuleError::NoSuchSeat(seat));
        }
        if self.outcome.is_some() {
            return Err(RuleError::DealOver);
        }
        if self.turn != Some(seat) {
            return Err(RuleError::NotYourTurn);
        }
        match (self.phase, action) {
            (Phase::Purchase, Action::Keep) => Ok(()),
            (Phase::Purchase, Action::Exchange { cards }) => {
                let max = self.purchase_max();
                if cards.is_empty() || cards.len() > max {
                    return Err(RuleError::ExchangeTooMany { max: max as u8 });
                }
                self.check_held(seat, cards)
            }
            (Phase::Auction, Action::Peep) if self.may_peep(seat) => Ok(()),
            (Phase::Auction, Action::Peep) => Err(RuleError::WrongPhase(if self.rules.exchange == Exchange::Peep {
                "you have peeped at the widow already"
            } else {
                "there is no peeping at this table"
            })),
            (Phase::Auction, Action::Pass) if self.may_pass(seat) => Ok(()),
            (Phase::Auction, Action::Pass) => Err(RuleError::PassNotAllowed),
            (Phase::Auction, Action::Bid { bid }) if self.biddable().any(|b| b == bid) => Ok(()),
            (Phase::Auction, Action::Bid { .. }) => Err(RuleError::UnknownBid),
            (Phase::Widow, Action::TakeWidow | Action::Keep) => Ok(()),
            (Phase::Discard, Action::Discard { cards }) => {
                if cards.len() != 1 {
                    return Err(RuleError::DiscardCount { expected: 1 });
                }
                self.check_held(seat, cards)
            }
            (Phase::NameTrumps, Action::NameTrumps { .. }) => Ok(()),
            (Phase::Play, Action::Play { card }) => {
                self.check_held(seat, std::iter::once(card).collect())?;
                if self.playable(seat).contains(card) {
                    return Ok(());
                }
                // Only a card off the suit led is ever refused.
                let led = self.current_trick().first().and_then(|p| p.card.suit_under(self.trumps));
                Err(RuleError::MustFollowSuit { suit: led.unwrap_or(Suit::Clubs) })
            }
            (phase, _) => Err(RuleError::WrongPhase(phase_hint(phase))),
        }
    }

    /// Applies `action` for `seat` and returns the events it caused.
    ///
    /// # Errors
    /// A [`RuleError`] if the action is not legal now; the deal is then unchanged.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, RuleError> {
        self.check(seat, action)?;
        let mut out = Vec::with_capacity(4);
        let n = self.rules.players;
        match action {
            Action::Keep if self.phase == Phase::Purchase => {
                self.bought[seat.index()] = Some(0);
                out.push(Event::Kept { seat });
                self.after_purchase(seat);
            }
            Action::Exchange { cards } => {
                let count = cards.len();
                let drawn: NapCards = self.stock.drain(..count).collect();
                let hand = &mut self.hands[seat.index()];
                *hand = hand.difference(cards).union(drawn);
                self.laid_away[seat.index()] = self.laid_away[seat.index()].union(cards);
                self.bought[seat.index()] = Some(count as u8);
                let cost = CARD_COST * count as i32;
                self.changes[seat.index()] -= cost;
                self.pool += cost;
                out.push(Event::Exchanged {
                    seat,
                    count: count as u8,
                    laid_away: Some(cards),
                    drawn: Some(drawn),
                    pool: self.pool,
                });
                self.after_purchase(seat);
            }
            Action::Peep => {
                self.peeked[seat.index()] = true;
                self.changes[seat.index()] -= PEEP_COST;
                self.pool += PEEP_COST;
                out.push(Event::Peeked { seat, card: self.widow, pool: self.pool });
            }
            Action::Pass => {
                self.calls.push(Call { seat, bid: None });
                out.push(Event::Passed { seat });
                self.after_call(seat, &mut out);
            }
            Action::Bid { bid } => {
                self.calls.push(Call { seat, bid: Some(bid) });
                self.bid = Some(bid);
                self.declarer = Some(seat);
                out.push(Event::Bid { seat, bid });
                self.after_call(seat, &mut out);
            }
            Action::TakeWidow => {
                if let Some(widow) = self.widow {
                    self.hands[seat.index()].insert(widow);
                }
                self.widow_lying = false;
                self.took_widow = Some(true);
                self.phase = Phase::Discard;
                out.push(Event::WidowTaken { seat, card: self.widow });
            }
            Action::Keep => {
                self.took_widow = Some(false);
                out.push(Event::WidowLeft { seat });
                self.start_play();
            }
            Action::Discard { cards } => {
                self.hands[seat.index()] = self.hands[seat.index()].difference(cards);
                self.laid_away[seat.index()] = self.laid_away[seat.index()].union(cards);
                out.push(Event::Discarded { seat, cards: Some(cards) });
                self.start_play();
            }
            Action::NameTrumps { suit } => {
                self.trumps = Some(suit);
                out.push(Event::Trumps { suit });
                self.phase = Phase::Play;
                self.turn = Some(seat.next(n));
            }
            Action::Play { card } => self.play(seat, card, &mut out),
        }
        Ok(out)
    }

    /// After a purchase decision: the next player buys, or the auction begins with forehand.
    fn after_purchase(&mut self, seat: Seat) {
        if seat == self.dealer {
            self.phase = Phase::Auction;
            self.turn = Some(self.forehand());
        } else {
            self.turn = Some(seat.next(self.rules.players));
        }
    }

    /// After a call: the next player calls, unless the dealer has spoken or nothing higher can
    /// be bid at this table; then the deal is thrown in, or the declarer takes the widow or
    /// leads (docs/rules/nap.md#n4-the-auction).
    fn after_call(&mut self, seat: Seat, out: &mut Vec<Event>) {
        let unbeatable = self.biddable().next().is_none();
        if seat != self.dealer && !unbeatable {
            self.turn = Some(seat.next(self.rules.players));
            return;
        }
        let (Some(declarer), Some(bid)) = (self.declarer, self.bid) else {
            out.push(Event::ThrownIn);
            self.finish(None, out);
            return;
        };
        out.push(Event::Declared { seat: declarer, bid });
        if self.rules.exchange == Exchange::Peep && self.widow_lying {
            self.phase = Phase::Widow;
            self.turn = Some(declarer);
        } else {
            self.start_play();
        }
    }

    /// The declarer leads to the first trick.
    fn start_play(&mut self) {
        self.phase = Phase::Play;
        self.turn = self.declarer;
    }

    fn play(&mut self, seat: Seat, card: NapCard, out: &mut Vec<Event>) {
        let n = self.rules.players;
        self.hands[seat.index()].remove(card);
        self.plays.push(NapPlay { seat, card });
        out.push(Event::CardPlayed { seat, card });
        if self.plays.len() == 1 && self.bid.is_some_and(|b| !b.is_misere()) {
            // The first card led makes trumps; the joker's leader names them (§N5).
            match card {
                NapCard::Card(card) => {
                    self.trumps = Some(card.suit());
                    out.push(Event::Trumps { suit: card.suit() });
                }
                NapCard::Joker => {
                    self.phase = Phase::NameTrumps;
                    return;
                }
            }
        }
        let trick = self.current_trick();
        if trick.len() < usize::from(n) {
            self.turn = Some(seat.next(n));
            return;
        }
        let winner = trick_winner(trick, self.trumps).unwrap_or(seat);
        self.trick_winners.push(winner);
        out.push(Event::TrickTaken { seat: winner });
        self.turn = Some(winner);
        if let Some(made) = self.settled() {
            self.finish(Some(made), out);
        }
    }

    /// Whether the bid is decided: made, lost, or (`None`) still open. Play stops as soon as
    /// it is (docs/rules/nap.md#n5-the-play).
    fn settled(&self) -> Option<bool> {
        let bid = self.bid?;
        let (won, lost) = self.tricks_taken();
        if bid.is_misere() {
            if won > 0 {
                Some(false)
            } else if lost == HAND {
                Some(true)
            } else {
                None
            }
        } else if won >= bid.tricks() {
            Some(true)
        } else if lost > HAND - bid.tricks() {
            Some(false)
        } else {
            None
        }
    }

    /// Ends the deal: `made` is `None` for a thrown-in deal. Settles between the declarer and
    /// each opponent, and with the pool (docs/rules/nap.md#n6-settlement).
    fn finish(&mut self, made: Option<bool>, out: &mut Vec<Event>) {
        let (declarer_tricks, opponent_tricks) = self.tricks_taken();
        let mut pool_taken = 0;
        let mut pool_paid = 0;
        if let (Some(made), Some(declarer), Some(bid)) = (made, self.declarer, self.bid) {
            let d = declarer.index();
            let stake = if made { bid.won() } else { -bid.lost() };
            for (i, change) in self.changes.iter_mut().enumerate() {
                if i != d {
                    *change -= stake;
                }
            }
            self.changes[d] += stake * (i32::from(self.rules.players) - 1);
            if bid.is_five() && made {
                pool_taken = self.pool;
                self.changes[d] += pool_taken;
                self.pool = 0;
            } else if bid.is_five() && self.rules.pool {
                pool_paid = bid.lost();
                self.changes[d] -= pool_paid;
                self.pool += pool_paid;
            }
        }
        let outcome = Outcome {
            declarer: self.declarer.filter(|_| made.is_some()),
            bid: self.bid.filter(|_| made.is_some()),
            trumps: self.trumps,
            declarer_tricks,
            opponent_tricks,
            made,
            pool_taken,
            pool_paid,
        };
        self.outcome = Some(outcome);
        self.phase = Phase::Over;
        self.turn = None;
        out.push(Event::DealOver { outcome, scores: self.changes.clone(), pool: self.pool });
    }
}

fn phase_hint(phase: Phase) -> &'static str {
    match phase {
        Phase::Purchase => "the purchase is on: keep your hand or exchange cards",
        Phase::Auction => "the auction is on: bid or pass",
        Phase::Widow => "the declarer takes the widow or leaves it",
        Phase::Discard => "the declarer discards a card",
        Phase::NameTrumps => "the declarer names trumps",
        Phase::Play => "the cards are being played: play a card",
        Phase::Over => "this deal is over",
    }
}
