//! One deal of Thedinghausen Fipsen, from the shuffle to the last trick or the end of the round.

use serde::{Deserialize, Serialize};

use super::event::{Event, Reveal};
use super::rules::Rules;
use crate::card::{Card, CardSet, Pack};
use crate::error::RuleError;
use crate::seat::{Play, Seat};
use crate::seed::Seed;
use crate::trick::{Follow, Tricks, VoidPolicy};

/// Tricks that win a round.
pub const TARGET: u8 = 10;
/// What every player pays into the pot when a round begins.
pub const ANTE: i32 = 1;
/// What a lost fipsen costs, paid into the pot.
pub const FIPSEN_PENALTY: i32 = 5;

/// Everything a player can do in a Thedinghausen deal.
///
/// ```json
/// {"action": "fipsen"}
/// {"action": "pass"}
/// {"action": "play", "card": "HQ"}
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ThedinghausenAction"))]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    /// Announce fipsen: to take all five tricks of this deal.
    Fipsen,
    /// Do not announce.
    Pass,
    /// Play a card to the trick.
    Play {
        /// The card.
        card: Card,
    },
}

impl Action {
    /// A short name of the action's kind for logs (`"play"`, `"fipsen"`), never its cards.
    pub const fn kind(&self) -> &'static str {
        match self {
            Action::Fipsen => "fipsen",
            Action::Pass => "pass",
            Action::Play { .. } => "play",
        }
    }
}

/// How a fipsen stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ThedinghausenFipsenResult"))]
#[serde(rename_all = "snake_case")]
pub enum FipsenResult {
    /// Announced, every trick so far to the announcer.
    Running,
    /// All five tricks taken: they count ten.
    Won,
    /// Another player took a trick: the announcer paid 5 into the pot.
    Lost,
    /// The round ended before the fifth trick with the fipsen still running.
    Void,
}

/// A fipsen announced in a deal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ThedinghausenFipsen"))]
pub struct Fipsen {
    /// The announcer.
    pub seat: Seat,
    /// How it stands.
    pub result: FipsenResult,
}

/// The state of the round a deal is played in, as the deal begins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ThedinghausenRound"))]
pub struct Round {
    /// The round's number in the series, from 1.
    pub number: u32,
    /// Each seat's round count: tricks taken in this round so far.
    pub counts: [u8; 5],
    /// The round pot before this deal.
    pub pot: i32,
    /// The round begins with this deal: every player pays 1 into the pot first.
    pub fresh: bool,
}

impl Round {
    /// The first round of a series.
    pub const fn first() -> Round {
        Round { number: 1, counts: [0; 5], pot: 0, fresh: true }
    }
}

/// How a deal ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ThedinghausenOutcome"))]
pub struct Outcome {
    /// Who won the round in this deal (reached ten tricks), if anyone.
    pub winner: Option<Seat>,
    /// What the winner took from the pot; 0 without a winner.
    pub pot: i32,
    /// The fipsen announced, and how it ended.
    pub fipsen: Option<Fipsen>,
    /// Tricks each seat took in this deal (a won fipsen's credit not included).
    pub tricks: Vec<u8>,
    /// Each seat's round count when the deal ended.
    pub counts: Vec<u8>,
}

/// Where a deal stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ThedinghausenPhase"))]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Each player in turn announces fipsen or passes.
    Fipsen,
    /// Tricks are played.
    Play,
    /// The deal is over.
    Over,
}

/// One deal: the whole truth, hidden cards included.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deal {
    pub(crate) rules: Rules,
    pub(crate) number: u32,
    pub(crate) round: Round,
    pub(crate) dealer: Seat,
    pub(crate) seed: Seed,
    pub(crate) dealt: [CardSet; 5],
    pub(crate) hands: [CardSet; 5],
    pub(crate) trump_card: Card,
    pub(crate) unused: CardSet,
    pub(crate) phase: Phase,
    pub(crate) turn: Option<Seat>,
    pub(crate) passed: Vec<Seat>,
    pub(crate) fipsen: Option<Fipsen>,
    #[serde(flatten)]
    pub(crate) tricks: Tricks,
    pub(crate) counts: [u8; 5],
    pub(crate) pot: i32,
    pub(crate) changes: [i32; 5],
    pub(crate) outcome: Option<Outcome>,
}

impl Deal {
    /// The pack: 32 cards.
    pub const PACK: Pack = Pack::P32;
    /// Always five players.
    pub const PLAYERS: u8 = 5;

    /// Shuffles with `seed` and deals 3-2; the next card is turned for trumps, the six left are
    /// set aside (§C3). When `round` is fresh, every player antes first. Returns the deal and
    /// its first event.
    pub fn new(rules: Rules, number: u32, dealer: Seat, seed: Seed, round: Round) -> (Deal, Event) {
        let pack = seed.shuffle_pack(Deal::PACK);
        Deal::deal_pack(rules, number, dealer, &pack, seed, round)
    }

    /// Deals a pack in a given order instead of shuffling (for tests). Such a deal reports the
    /// all-zero seed. Returns `None` unless `pack` holds every card of [`Deal::PACK`] once, the
    /// rules are valid and the dealer sits at the table.
    pub fn from_pack(rules: Rules, number: u32, dealer: Seat, pack: &[Card], round: Round) -> Option<(Deal, Event)> {
        let all: CardSet = pack.iter().copied().collect();
        (pack.len() == 32 && all == Deal::PACK.cards() && rules.validate().is_ok() && dealer.0 < Deal::PLAYERS)
            .then(|| Deal::deal_pack(rules, number, dealer, pack, Seed([0; 32]), round))
    }

    fn deal_pack(rules: Rules, number: u32, dealer: Seat, pack: &[Card], seed: Seed, round: Round) -> (Deal, Event) {
        let n = Deal::PLAYERS;
        let forehand = dealer.next(n);
        let mut hands = [CardSet::EMPTY; 5];
        for i in 0..5 {
            let seat = usize::from((forehand.0 + i as u8) % n);
            hands[seat] = pack[3 * i..3 * i + 3].iter().chain(&pack[15 + 2 * i..17 + 2 * i]).copied().collect();
        }
        let trump_card = pack[25];
        let unused: CardSet = pack[26..].iter().copied().collect();
        let (pot, changes) = if round.fresh { (round.pot + 5 * ANTE, [-ANTE; 5]) } else { (round.pot, [0; 5]) };
        let event = Event::Dealt {
            number,
            round: round.number,
            dealer,
            forehand,
            trump_card,
            hands: hands.iter().map(|h| Some(*h)).collect(),
            counts: round.counts.to_vec(),
            anted: round.fresh,
            pot,
        };
        let deal = Deal {
            rules,
            number,
            round,
            dealer,
            seed,
            dealt: hands,
            hands,
            trump_card,
            unused,
            phase: if rules.fipsen { Phase::Fipsen } else { Phase::Play },
            turn: Some(forehand),
            passed: Vec::new(),
            fipsen: None,
            tricks: Tricks::default(),
            counts: round.counts,
            pot,
            changes,
            outcome: None,
        };
        (deal, event)
    }

    /// The table's rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The number of players: always 5.
    pub fn players(&self) -> u8 {
        Deal::PLAYERS
    }

    /// The deal's number in its series.
    pub fn number(&self) -> u32 {
        self.number
    }

    /// The round as it stood when this deal began.
    pub fn round(&self) -> Round {
        self.round
    }

    /// The dealer.
    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// Forehand: the player to the dealer's left, who speaks first and leads.
    pub fn forehand(&self) -> Seat {
        self.dealer.next(Deal::PLAYERS)
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

    /// The turned-up card: its suit is trumps; it is out of play.
    pub fn trump_card(&self) -> Card {
        self.trump_card
    }

    /// The six cards set aside, unused.
    pub fn unused(&self) -> CardSet {
        self.unused
    }

    /// The fipsen announced, and how it stands.
    pub fn fipsen(&self) -> Option<Fipsen> {
        self.fipsen
    }

    /// The players who passed in the announcements, in turn.
    pub fn passed(&self) -> &[Seat] {
        &self.passed
    }

    /// Each seat's round count now.
    pub fn counts(&self) -> [u8; 5] {
        self.counts
    }

    /// The round pot now.
    pub fn pot(&self) -> i32 {
        self.pot
    }

    /// What each seat has paid (negative) or taken in this deal so far: antes, a fipsen
    /// penalty, the pot. With the pot's change they sum to zero.
    pub fn changes(&self) -> [i32; 5] {
        self.changes
    }

    /// How the deal ended, once it has.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Whether the deal is over.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Whether the round was won in this deal.
    pub fn round_won(&self) -> Option<Seat> {
        self.outcome.as_ref().and_then(|o| o.winner)
    }

    /// The round the next deal is played in: a new one once this deal's round is won.
    pub fn next_round(&self) -> Round {
        if self.round_won().is_some() {
            Round { number: self.round.number + 1, counts: [0; 5], pot: 0, fresh: true }
        } else {
            Round { number: self.round.number, counts: self.counts, pot: self.pot, fresh: false }
        }
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
        self.tricks.plays()
    }

    /// The winners of the finished tricks.
    pub fn trick_winners(&self) -> &[Seat] {
        self.tricks.trick_winners()
    }

    /// The cards of the trick being played.
    pub fn current_trick(&self) -> &[Play] {
        self.tricks.current_trick(Deal::PLAYERS)
    }

    /// Tricks each seat took in this deal.
    pub fn tricks_taken(&self) -> [u8; 5] {
        let mut taken = [0; 5];
        for w in self.tricks.trick_winners() {
            taken[w.index()] += 1;
        }
        taken
    }

    /// Where every card is: the hands, the turned card, the unused cards, the cards played.
    /// Always the whole pack, each card once (tested).
    pub fn card_places(&self) -> Vec<CardSet> {
        let mut places = self.hands.to_vec();
        places.push(self.trump_card.set());
        places.push(self.unused);
        places.push(self.tricks.played_cards());
        places
    }

    /// The follow settings: overtrump, else trump, when void; heading by option (§C5).
    fn follow(&self) -> Follow {
        Follow {
            head: self.rules.head_the_trick,
            void: VoidPolicy::OvertrumpElseTrump,
            trumps: Some(self.trump_card.suit()),
        }
    }

    /// The cards `seat` may play now.
    pub fn playable(&self, seat: Seat) -> CardSet {
        if self.phase != Phase::Play || self.turn != Some(seat) {
            return CardSet::EMPTY;
        }
        self.tricks.playable(self.hands[seat.index()], Deal::PLAYERS, self.follow())
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
            Phase::Fipsen => out.extend([Action::Fipsen, Action::Pass]),
            Phase::Play => out.extend(self.playable(seat).iter().map(|card| Action::Play { card })),
            Phase::Over => {}
        }
    }

    /// Checks an action without applying it: seat, deal over, turn, phase, then the card.
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
        match (self.phase, action) {
            (Phase::Fipsen, Action::Fipsen | Action::Pass) => Ok(()),
            (Phase::Play, Action::Play { card }) => {
                self.tricks.check_play(self.hands[seat.index()], card, Deal::PLAYERS, self.follow())
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
        match action {
            Action::Fipsen => {
                self.fipsen = Some(Fipsen { seat, result: FipsenResult::Running });
                out.push(Event::Announced { seat });
                self.start_play();
            }
            Action::Pass => {
                self.passed.push(seat);
                out.push(Event::Passed { seat });
                if self.passed.len() == usize::from(Deal::PLAYERS) {
                    self.start_play();
                } else {
                    self.turn = Some(seat.next(Deal::PLAYERS));
                }
            }
            Action::Play { card } => self.play(seat, card, out),
        }
        Ok(())
    }

    /// Forehand leads, also after a fipsen (§C5).
    fn start_play(&mut self) {
        self.phase = Phase::Play;
        self.turn = Some(self.forehand());
    }

    fn play(&mut self, seat: Seat, card: Card, out: &mut Vec<Event>) {
        let announcer = self.fipsen.map(|f| f.seat);
        let hand = &mut self.hands[seat.index()];
        let trumps = self.trump_card.suit();
        let (next, trick) = self.tricks.play(Play { seat, card }, hand, Deal::PLAYERS, announcer, trumps, out);
        self.turn = Some(next);
        let Some(winner) = trick else { return };
        self.counts[winner.index()] += 1;
        let tricks = self.tricks.trick_winners().len();
        if let Some(fipsen) = self.fipsen.as_mut().filter(|f| f.result == FipsenResult::Running) {
            if fipsen.seat != winner {
                // Broken: the penalty goes into the pot at once, and the deal goes on (§C5).
                fipsen.result = FipsenResult::Lost;
                self.changes[fipsen.seat.index()] -= FIPSEN_PENALTY;
                self.pot += FIPSEN_PENALTY;
                out.push(Event::FipsenLost { seat: fipsen.seat, penalty: FIPSEN_PENALTY, pot: self.pot });
            } else if tricks == 5 {
                // All five: they count ten, which always wins the round (§C10.2). **Decision:**
                // an announcer whose fifth trick is also his tenth by ordinary count has still
                // taken all five tricks: the fipsen is won (credited), not void; only a round
                // ended before the fifth trick voids it.
                fipsen.result = FipsenResult::Won;
                self.counts[winner.index()] += 5;
                out.push(Event::FipsenWon { seat: winner, count: self.counts[winner.index()] });
            }
        }
        if self.counts[winner.index()] >= TARGET {
            if let Some(fipsen) = self.fipsen.as_mut().filter(|f| f.result == FipsenResult::Running) {
                fipsen.result = FipsenResult::Void;
                out.push(Event::FipsenVoid { seat: fipsen.seat });
            }
            let pot = self.pot;
            self.changes[winner.index()] += pot;
            self.pot = 0;
            out.push(Event::RoundWon { seat: winner, round: self.round.number, pot });
            self.finish(Some(winner), pot, out);
        } else if tricks == 5 {
            self.finish(None, 0, out);
        }
    }

    fn finish(&mut self, winner: Option<Seat>, pot: i32, out: &mut Vec<Event>) {
        let outcome = Outcome {
            winner,
            pot,
            fipsen: self.fipsen,
            tricks: self.tricks_taken().to_vec(),
            counts: self.counts.to_vec(),
        };
        self.outcome = Some(outcome.clone());
        self.phase = Phase::Over;
        self.turn = None;
        out.push(Event::DealOver { outcome, scores: self.changes.to_vec(), reveal: Box::new(self.reveal()) });
    }

    /// Everything hidden, shown once the deal is over.
    pub fn reveal(&self) -> Reveal {
        Reveal { dealt: self.dealt.to_vec(), hands: self.hands.to_vec(), unused: self.unused, seed: self.seed }
    }
}

fn phase_hint(phase: Phase) -> &'static str {
    match phase {
        Phase::Fipsen => "the announcements are on: announce fipsen or pass",
        Phase::Play => "the cards are being played: play a card",
        Phase::Over => "this deal is over",
    }
}
