//! A compact model of a Tippen deal from the dealer's discard to the settlement, for the bots'
//! rollouts, and the rules of thumb every simulated seat follows in it (and the normal bot at
//! the table): a hand's expected tricks, the exchange, the discard and the card to play.

use fipsen_rules::tippen::{Action, Preset, Rules, Sniffing};
use fipsen_rules::{Card, CardSet, Rank, Suit};

/// What a player void in the suit led must play (§0.4, the Tippen policies).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Void {
    /// A trump if the trick holds none yet and he has one.
    TrumpIfUntrumped,
    /// A trump if he has one.
    MustTrump,
    /// A trump beating every trump in the trick if he has one; else any card.
    OvertrumpElseFree,
}

/// The parameters a preset fixes (§D2), as the bots need them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Params {
    pub(crate) pack: CardSet,
    pub(crate) hand: u8,
    pub(crate) stake: i32,
    pub(crate) head: bool,
    pub(crate) void: Void,
    pub(crate) trump_lead: bool,
    pub(crate) daus: Option<Rank>,
    pub(crate) bete_is_stake: bool,
    pub(crate) exchange: u8,
    pub(crate) robbing: bool,
}

impl Params {
    pub(crate) fn of(rules: &Rules) -> Params {
        let p = rules.preset;
        let (head, void) = match p {
            Preset::Meyers1905 => (false, Void::MustTrump),
            Preset::ModernGrupp | Preset::ModernKatira => (true, Void::OvertrumpElseFree),
            _ => (false, Void::TrumpIfUntrumped),
        };
        let lead_rules = matches!(p, Preset::Dreiblatt1859 | Preset::Vierblatt);
        Params {
            pack: rules.pack().cards(),
            hand: p.hand_size(),
            stake: p.stake(),
            head,
            void,
            trump_lead: lead_rules,
            daus: lead_rules.then_some(rules.daus_card.rank()),
            bete_is_stake: p == Preset::ModernGrupp,
            exchange: match p {
                Preset::ModernGrupp | Preset::ModernKatira => 3,
                Preset::Vierblatt => rules.exchange_max.unwrap_or(0),
                _ => 0,
            },
            robbing: rules.robbing,
        }
    }

    /// The share of one trick, s = P / h.
    pub(crate) fn share(&self, played_for: i32) -> i32 {
        played_for / i32::from(self.hand)
    }

    /// The bête b.
    pub(crate) fn bete(&self, played_for: i32) -> i32 {
        if self.bete_is_stake { self.stake } else { played_for }
    }

    /// What an active seat receives (positive) or pays in the settlement with `tricks` taken.
    pub(crate) fn settle(&self, played_for: i32, tricks: u8, knocker: bool, sniffed: Option<Sniffing>) -> i32 {
        let (k, b) = (self.stake, self.bete(played_for));
        let payment = match (tricks, knocker, sniffed) {
            (0, true, _) => 2 * k,
            (1, true, _) => k,
            (0, false, Some(_)) => 2 * b,
            (1, false, Some(Sniffing::Grupp)) => b,
            (0, _, _) => b,
            _ => 0,
        };
        self.share(played_for) * i32::from(tricks) - payment
    }
}

/// Whether `c` beats `b` (the best card so far) with `trumps`.
pub(crate) fn beats(c: Card, b: Card, trumps: Suit) -> bool {
    match (c.suit() == trumps, b.suit() == trumps) {
        (true, false) => true,
        (false, true) => false,
        _ => c.suit() == b.suit() && c > b,
    }
}

/// The index of the card that takes `trick`.
pub(crate) fn winner(trick: &[Card], trumps: Suit) -> usize {
    let mut best = 0;
    for i in 1..trick.len() {
        if beats(trick[i], trick[best], trumps) {
            best = i;
        }
    }
    best
}

/// The cards that may be led from `hand` to trick number `done` (from 0) with `active` players.
pub(crate) fn lead_playable(p: &Params, trumps: Suit, done: u8, active: usize, hand: CardSet) -> CardSet {
    let held = hand.of_suit(trumps);
    match done {
        0 if p.trump_lead && active >= 3 && !held.is_empty() => held,
        1 => match p.daus.map(|r| Card::new(trumps, r)) {
            Some(daus) if hand.contains(daus) => daus.set(),
            _ => hand,
        },
        _ => hand,
    }
}

/// The cards of `hand` that may be added to the non-empty `trick`.
pub(crate) fn follow_playable(p: &Params, trumps: Suit, trick: &[Card], hand: CardSet) -> CardSet {
    let led = trick[0].suit();
    let follow = hand.of_suit(led);
    let best_trump = trick.iter().copied().filter(|c| c.suit() == trumps).max();
    if !follow.is_empty() {
        if !p.head || (best_trump.is_some() && led != trumps) {
            return follow;
        }
        let best = trick.iter().copied().filter(|c| c.suit() == led).max();
        let beating: CardSet = follow.iter().filter(|&c| best.is_none_or(|b| c > b)).collect();
        return if beating.is_empty() { follow } else { beating };
    }
    let held = hand.of_suit(trumps);
    match p.void {
        Void::TrumpIfUntrumped if best_trump.is_none() && !held.is_empty() => held,
        Void::MustTrump if !held.is_empty() => held,
        Void::OvertrumpElseFree => {
            let over: CardSet = held.iter().filter(|&c| best_trump.is_none_or(|b| c > b)).collect();
            if over.is_empty() { hand } else { over }
        }
        _ => hand,
    }
}

/// A card's worth for keeping: trumps above every plain card, then by rank.
pub(crate) fn keep_value(card: Card, trumps: Suit) -> u32 {
    card.rank() as u32 + if card.suit() == trumps { 20 } else { 0 }
}

fn lowest(cards: CardSet, trumps: Suit) -> Option<Card> {
    cards.iter().min_by_key(|&c| keep_value(c, trumps))
}

fn highest(cards: CardSet, trumps: Suit) -> Option<Card> {
    cards.iter().max_by_key(|&c| keep_value(c, trumps))
}

/// The unseen cards higher than `card` in its suit.
fn higher_unseen(card: Card, unseen: CardSet) -> u32 {
    unseen.of_suit(card.suit()).iter().filter(|&c| c > card).count() as u32
}

/// The chance, by rule of thumb, that `card` takes a trick against `opponents` holding `hand`
/// cards each out of the `unseen` ones.
pub(crate) fn card_win(p: &Params, trumps: Suit, card: Card, unseen: CardSet, opponents: f64) -> f64 {
    if opponents <= 0.0 {
        return 1.0;
    }
    let n = unseen.len().max(1) as f64;
    let f = (opponents * f64::from(p.hand) / n).min(1.0);
    let master = (1.0 - f).powi(higher_unseen(card, unseen) as i32);
    if card.suit() == trumps {
        master + (1.0 - master) * 0.12
    } else {
        let trumps_out = unseen.of_suit(trumps).len() as f64;
        // Someone void of the suit with a trump; and the suit must come.
        let ruff = (1.0 - f * 0.35).powf(trumps_out).max(0.2);
        master * ruff * 0.8
    }
}

/// A hand's expected tricks and chance of none, by rule of thumb, with the cards worth less
/// than a fresh card from the talon exchanged (up to `exchange`).
pub(crate) fn estimate(
    p: &Params,
    trumps: Suit,
    hand: CardSet,
    unseen: CardSet,
    opponents: f64,
    exchange: u8,
) -> (f64, f64) {
    let mut w: Vec<f64> = hand.iter().map(|c| card_win(p, trumps, c, unseen, opponents)).collect();
    if exchange > 0 && !unseen.is_empty() {
        let avg = unseen.iter().map(|c| card_win(p, trumps, c, unseen, opponents)).sum::<f64>() / unseen.len() as f64;
        w.sort_by(|a, b| a.total_cmp(b));
        for x in w.iter_mut().take(usize::from(exchange)) {
            if *x < avg {
                *x = avg;
            }
        }
    }
    let tricks = w.iter().sum::<f64>().min(f64::from(p.hand));
    let none = w.iter().map(|x| 1.0 - x.min(1.0)).product();
    (tricks, none)
}

/// The cards to exchange, by rule of thumb: those worth less than a fresh card (lowest first).
pub(crate) fn exchange_choice(
    p: &Params,
    trumps: Suit,
    hand: CardSet,
    unseen: CardSet,
    opponents: f64,
    limit: u8,
) -> CardSet {
    if limit == 0 || unseen.is_empty() {
        return CardSet::EMPTY;
    }
    let avg = unseen.iter().map(|c| card_win(p, trumps, c, unseen, opponents)).sum::<f64>() / unseen.len() as f64;
    let mut cards: Vec<(f64, Card)> = hand.iter().map(|c| (card_win(p, trumps, c, unseen, opponents), c)).collect();
    cards.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    cards.iter().take(usize::from(limit)).filter(|(w, _)| *w < avg - 0.02).map(|&(_, c)| c).collect()
}

/// The card a dealer who took the trump card lays away: his least worth.
pub(crate) fn discard_choice(trumps: Suit, hand: CardSet) -> Option<Card> {
    lowest(hand, trumps)
}

/// Whether no unseen card can beat `card` once it leads or wins a trick.
fn safe(card: Card, trumps: Suit, unseen: CardSet) -> bool {
    higher_unseen(card, unseen) == 0 && (card.suit() == trumps || unseen.of_suit(trumps).is_empty())
}

/// The card to play, by rule of thumb: lead a sure winner, else low; take a trick as cheaply
/// as is safe, with the highest card when it is not; else throw the least worth.
pub(crate) fn play_choice(trumps: Suit, legal: CardSet, unseen: CardSet, trick: &[Card], after_me: usize) -> Card {
    let fallback = legal.iter().next().unwrap_or(Card::new(trumps, Rank::Seven));
    if trick.is_empty() {
        let held_trumps = legal.of_suit(trumps);
        if let Some(top) = held_trumps.highest()
            && higher_unseen(top, unseen) == 0
        {
            return top;
        }
        if let Some(c) = legal.iter().filter(|&c| safe(c, trumps, unseen)).max_by_key(|&c| keep_value(c, trumps)) {
            return c;
        }
        let plain = legal.difference(held_trumps);
        return lowest(if plain.is_empty() { legal } else { plain }, trumps).unwrap_or(fallback);
    }
    let best = trick[winner(trick, trumps)];
    let winning: CardSet = legal.iter().filter(|&c| beats(c, best, trumps)).collect();
    if winning.is_empty() {
        return lowest(legal, trumps).unwrap_or(fallback);
    }
    if after_me == 0 {
        return lowest(winning, trumps).unwrap_or(fallback);
    }
    if let Some(c) = winning.iter().filter(|&c| safe(c, trumps, unseen)).min_by_key(|&c| keep_value(c, trumps)) {
        return c;
    }
    highest(winning, trumps).unwrap_or(fallback)
}

/// Where a simulated deal stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SimPhase {
    Discard,
    Decide,
    Exchange,
    Play,
    Over,
}

/// A deal with every card placed, from the dealer's discard on.
#[derive(Debug, Clone)]
pub(crate) struct Sim {
    pub(crate) p: Params,
    pub(crate) n: usize,
    pub(crate) dealer: usize,
    pub(crate) trumps: Suit,
    pub(crate) hands: [CardSet; 10],
    /// The talon, top first.
    pub(crate) talon: Vec<Card>,
    /// Cards everyone has seen lying out of play (the turned trump card, the robbing seven).
    pub(crate) seen: CardSet,
    /// The turned trump card while it may be robbed.
    pub(crate) robbable: Option<Card>,
    pub(crate) played: CardSet,
    pub(crate) phase: SimPhase,
    /// Seats still to decide or exchange, in turn.
    pub(crate) queue: Vec<u8>,
    pub(crate) joined: u16,
    pub(crate) forced: u16,
    pub(crate) dropped: u16,
    pub(crate) must_play: bool,
    pub(crate) active: Vec<u8>,
    pub(crate) knocked: bool,
    pub(crate) sniffed: Option<Sniffing>,
    pub(crate) played_for: i32,
    pub(crate) trick: Vec<Card>,
    pub(crate) leader: usize,
    pub(crate) done: u8,
    pub(crate) taken: [u8; 10],
}

impl Sim {
    /// Seats from forehand round to the dealer.
    fn order(&self) -> impl Iterator<Item = usize> + '_ {
        (1..=self.n).map(move |i| (self.dealer + i) % self.n)
    }

    /// §D4: who is asked, who plays unasked.
    pub(crate) fn begin_decisions(&mut self) {
        let dealer_plays = self.knocked || self.sniffed == Some(Sniffing::Grupp);
        self.queue.clear();
        for s in self.order().collect::<Vec<_>>() {
            if s == self.dealer && dealer_plays {
                self.forced |= 1 << s;
            } else if !self.must_play
                || self.p.robbing
                || (s == self.dealer && self.sniffed == Some(Sniffing::Alvensleben))
            {
                self.queue.push(s as u8);
            } else {
                self.forced |= 1 << s;
            }
        }
        self.phase = SimPhase::Decide;
        self.next_decision();
    }

    /// Once every seat has decided: the active seats, then the exchange or the play.
    pub(crate) fn next_decision(&mut self) {
        if !self.queue.is_empty() {
            return;
        }
        self.active = self.order().filter(|&s| (self.joined | self.forced) & (1 << s) != 0).map(|s| s as u8).collect();
        match self.active.len() {
            0 | 1 => self.phase = SimPhase::Over,
            _ if self.p.exchange > 0 => {
                self.phase = SimPhase::Exchange;
                self.queue = self.active.clone();
            }
            _ => self.start_play(),
        }
    }

    pub(crate) fn start_play(&mut self) {
        self.phase = SimPhase::Play;
        self.queue.clear();
        self.leader = 0;
    }

    /// Whose turn it is.
    pub(crate) fn turn(&self) -> Option<usize> {
        match self.phase {
            SimPhase::Discard => Some(self.dealer),
            SimPhase::Decide | SimPhase::Exchange => self.queue.first().map(|&s| usize::from(s)),
            SimPhase::Play => Some(usize::from(self.active[(self.leader + self.trick.len()) % self.active.len()])),
            SimPhase::Over => None,
        }
    }

    /// Whether `seat` may rob now.
    pub(crate) fn may_rob(&self, seat: usize) -> bool {
        let seven = Card::new(self.trumps, Rank::Seven);
        self.p.robbing && self.robbable.is_some_and(|c| c != seven) && self.hands[seat].contains(seven)
    }

    /// The cards `seat` may play now.
    pub(crate) fn playable(&self, seat: usize) -> CardSet {
        let hand = self.hands[seat];
        if self.trick.is_empty() {
            lead_playable(&self.p, self.trumps, self.done, self.active.len(), hand)
        } else {
            follow_playable(&self.p, self.trumps, &self.trick, hand)
        }
    }

    /// Applies `seat`'s action, which must be legal.
    pub(crate) fn apply(&mut self, seat: usize, action: Action) {
        match action {
            Action::Discard { cards } => {
                self.hands[seat] = self.hands[seat].difference(cards);
                self.begin_decisions();
            }
            Action::Join | Action::Rob | Action::Pass | Action::DropOut => {
                self.queue.remove(0);
                match action {
                    Action::Join => self.joined |= 1 << seat,
                    Action::Rob => {
                        self.joined |= 1 << seat;
                        if let Some(card) = self.robbable.take() {
                            let seven = Card::new(self.trumps, Rank::Seven);
                            self.hands[seat].remove(seven);
                            self.hands[seat].insert(card);
                            self.seen.remove(card);
                            self.seen.insert(seven);
                        }
                    }
                    Action::DropOut => self.dropped |= 1 << seat,
                    _ => {}
                }
                self.next_decision();
            }
            Action::Keep | Action::Exchange { .. } => {
                if let Action::Exchange { cards } = action {
                    let k = cards.len().min(self.talon.len());
                    self.hands[seat] = self.hands[seat].difference(cards);
                    for c in self.talon.drain(..k) {
                        self.hands[seat].insert(c);
                    }
                }
                self.queue.remove(0);
                if self.queue.is_empty() {
                    self.start_play();
                }
            }
            Action::Play { card } => {
                self.hands[seat].remove(card);
                self.played.insert(card);
                self.trick.push(card);
                if self.trick.len() == self.active.len() {
                    let w = (self.leader + winner(&self.trick, self.trumps)) % self.active.len();
                    self.taken[usize::from(self.active[w])] += 1;
                    self.done += 1;
                    self.trick.clear();
                    self.leader = w;
                    if self.done == self.p.hand {
                        self.phase = SimPhase::Over;
                    }
                }
            }
            _ => {}
        }
    }

    /// The cards `seat` has not seen: neither in his hand, played, nor lying face up.
    pub(crate) fn unseen(&self, seat: usize) -> CardSet {
        self.p.pack.difference(self.hands[seat]).difference(self.played).difference(self.seen)
    }

    /// What `seat` gets from here to the end of the deal (his ante not counted).
    pub(crate) fn payoff(&self, seat: usize) -> i32 {
        let bit = 1 << seat;
        if self.dropped & bit != 0 {
            return -self.p.stake;
        }
        if !self.active.contains(&(seat as u8)) || self.phase != SimPhase::Over {
            return 0;
        }
        if self.active.len() == 1 {
            return self.played_for;
        }
        let dealer = seat == self.dealer;
        self.p.settle(self.played_for, self.taken[seat], dealer && self.knocked, self.sniffed.filter(|_| dealer))
    }

    /// The expected value of joining by rule of thumb for `seat` deciding now.
    pub(crate) fn join_value(&self, seat: usize, hand: CardSet) -> f64 {
        let pos = self.queue.iter().position(|&s| usize::from(s) == seat).unwrap_or(0);
        let after = (self.queue.len() - pos - 1) as f64;
        let joined = ((self.joined | self.forced) & !(1u16 << seat)).count_ones() as f64;
        let unseen = self.p.pack.difference(hand).difference(self.played).difference(self.seen);
        join_value(&self.p, self.trumps, hand, unseen, joined, after, self.played_for, self.dealer_terms(seat))
    }

    fn dealer_terms(&self, seat: usize) -> (bool, Option<Sniffing>) {
        if seat == self.dealer { (self.knocked, self.sniffed) } else { (false, None) }
    }

    /// The rule-of-thumb action of `seat` (the normal bot's), which is always legal.
    pub(crate) fn policy(&self, seat: usize) -> Action {
        match self.phase {
            SimPhase::Discard => {
                let card = discard_choice(self.trumps, self.hands[seat]).unwrap_or(Card::new(self.trumps, Rank::Ace));
                Action::Discard { cards: card.set() }
            }
            SimPhase::Decide => {
                let alvensleben = seat == self.dealer && self.sniffed == Some(Sniffing::Alvensleben);
                let may_pass = !self.must_play && !alvensleben;
                let rob = self.may_rob(seat) && self.robbable.is_some_and(|c| c.rank() > Rank::Seven);
                let mut hand = self.hands[seat];
                if rob && let Some(card) = self.robbable {
                    hand.remove(Card::new(self.trumps, Rank::Seven));
                    hand.insert(card);
                }
                let join = if alvensleben {
                    self.join_value(seat, hand) > -f64::from(self.p.stake)
                } else if !may_pass {
                    true
                } else {
                    let nobody = (self.joined | self.forced) == 0 && self.queue.len() == 1;
                    nobody || self.join_value(seat, hand) > 0.0
                };
                match (join, rob, alvensleben) {
                    (true, true, _) => Action::Rob,
                    (true, false, _) => Action::Join,
                    (false, _, true) => Action::DropOut,
                    (false, _, false) => Action::Pass,
                }
            }
            SimPhase::Exchange => {
                let limit = self.p.exchange.min(self.talon.len() as u8);
                let opponents = (self.active.len() - 1) as f64;
                let cards =
                    exchange_choice(&self.p, self.trumps, self.hands[seat], self.unseen(seat), opponents, limit);
                if cards.is_empty() { Action::Keep } else { Action::Exchange { cards } }
            }
            SimPhase::Play => {
                let after = self.active.len() - self.trick.len() - 1;
                let legal = self.playable(seat);
                Action::Play { card: play_choice(self.trumps, legal, self.unseen(seat), &self.trick, after) }
            }
            SimPhase::Over => Action::Keep,
        }
    }

    /// Plays the deal to its end, every seat by rule of thumb.
    pub(crate) fn run(&mut self) {
        let mut steps = 0;
        while let Some(seat) = self.turn() {
            let action = self.policy(seat);
            self.apply(seat, action);
            steps += 1;
            if steps > 400 {
                break;
            }
        }
    }
}

/// The expected counters of joining, by rule of thumb: `joined` others play already, `after`
/// seats are still to decide (half of them expected to play).
#[allow(clippy::too_many_arguments)]
pub(crate) fn join_value(
    p: &Params,
    trumps: Suit,
    hand: CardSet,
    unseen: CardSet,
    joined: f64,
    after: f64,
    played_for: i32,
    (knocked, sniffed): (bool, Option<Sniffing>),
) -> f64 {
    let opponents = (joined + 0.5 * after).max(1.0);
    let (tricks, none) = estimate(p, trumps, hand, unseen, opponents, p.exchange);
    let s = f64::from(p.share(played_for));
    let b = f64::from(p.bete(played_for));
    let k = f64::from(p.stake);
    // The chance of exactly one trick, roughly, for the knocker's and sniffer's penalties.
    let one = (1.0 - none) * (1.0 - (tricks - 1.0 + none).clamp(0.0, 1.0) * 0.8);
    let penalty = match (knocked, sniffed) {
        (true, _) => none * 2.0 * k + one * k,
        (false, Some(Sniffing::Grupp)) => none * 2.0 * b + one * b,
        (false, Some(_)) => none * 2.0 * b,
        _ => none * b,
    };
    // Alone with nobody after him, a seat takes the pot.
    let alone = if joined == 0.0 { 0.25_f64.powf(after) * f64::from(played_for) } else { 0.0 };
    tricks * s - penalty + alone
}
