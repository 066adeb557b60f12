//! One game of Wippen (§E3–§E11): one pass through the pack with one dealer, as a state
//! machine. The engine calls it a deal.

use serde::{Deserialize, Serialize};

use super::event::Event;
use super::expr::{BuildingId, Expr, Move, Op, value};
use super::listing::{Listing, Position};
use super::rules::Rules;
use super::table::{Building, Pile, PileRef};
use crate::card::{Card, CardSet, Pack, Rank, Suit};
use crate::error::RuleError;
use crate::seat::Seat;
use crate::seed::Seed;

/// Where a game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "WippenPhase"))]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The players move in turn.
    Play,
    /// The game is over and scored.
    Over,
}

/// A move made, with what it did.
///
/// ```json
/// {"seat": 1, "move": {"kind": "capture", "card": "S5", "groups": [{"card": "D5"}]},
///  "taken": ["S5", "D5"], "building": null, "sweep": false}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "WippenMoveRecord"))]
pub struct MoveRecord {
    /// Who moved.
    pub seat: Seat,
    /// The move.
    #[serde(rename = "move")]
    pub mv: Move,
    /// The cards a capture took (the hand card first).
    pub taken: Vec<Card>,
    /// The building a build made.
    pub building: Option<Building>,
    /// Whether the capture was a sweep.
    pub sweep: bool,
}

/// How a game was scored (§E11).
///
/// ```json
/// {"cards": [29, 23], "spades": [8, 5], "aces": [3, 1], "good_ten": 0, "good_two": 0,
///  "sweeps": [2, 0], "points": [12, 1], "leftover": ["D10"], "leftover_to": 1}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "WippenOutcome"))]
pub struct Outcome {
    /// Cards each seat captured (the leftover included).
    pub cards: Vec<u8>,
    /// Spades each seat captured.
    pub spades: Vec<u8>,
    /// Aces each seat captured.
    pub aces: Vec<u8>,
    /// Who took ♦10.
    pub good_ten: Option<Seat>,
    /// Who took ♠2.
    pub good_two: Option<Seat>,
    /// Sweeps each seat made.
    pub sweeps: Vec<u8>,
    /// Each seat's points for the game.
    pub points: Vec<i32>,
    /// The cards left on the table at the end.
    pub leftover: Vec<Card>,
    /// Who took them: the last capturer (nobody if nobody captured).
    pub leftover_to: Option<Seat>,
}

/// The points of a "most" line (§E11): a single leader 2, two tied leaders 1 each, three or
/// more nothing; a count of 0 never scores.
fn most(counts: &[u8], points: &mut [i32]) {
    let Some(&best) = counts.iter().max() else { return };
    if best == 0 {
        return;
    }
    let leaders: Vec<usize> = (0..counts.len()).filter(|&i| counts[i] == best).collect();
    let each = match leaders.len() {
        1 => 2,
        2 => 1,
        _ => 0,
    };
    for i in leaders {
        points[i] += each;
    }
}

/// Scores a game from each seat's captured cards and sweeps (§E11).
pub fn score(captured: &[CardSet], sweeps: &[u8]) -> Outcome {
    let n = captured.len();
    let cards: Vec<u8> = captured.iter().map(|c| c.len() as u8).collect();
    let spades: Vec<u8> = captured.iter().map(|c| c.of_suit(Suit::Spades).len() as u8).collect();
    let aces: Vec<u8> =
        captured.iter().map(|c| c.iter().filter(|card| card.rank() == Rank::Ace).count() as u8).collect();
    let holder = |card: Card| (0..n).find(|&i| captured[i].contains(card)).map(|i| Seat(i as u8));
    let good_ten = holder(Card::new(Suit::Diamonds, Rank::Ten));
    let good_two = holder(Card::new(Suit::Spades, Rank::Two));
    let mut points = vec![0i32; n];
    most(&cards, &mut points);
    most(&spades, &mut points);
    if let Some(s) = good_ten {
        points[s.index()] += 2;
    }
    if let Some(s) = good_two {
        points[s.index()] += 1;
    }
    for i in 0..n {
        points[i] += i32::from(aces[i]) + i32::from(sweeps.get(i).copied().unwrap_or(0));
    }
    Outcome {
        cards,
        spades,
        aces,
        good_ten,
        good_two,
        sweeps: sweeps.to_vec(),
        points,
        leftover: Vec::new(),
        leftover_to: None,
    }
}

/// One game of Wippen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deal {
    rules: Rules,
    number: u32,
    dealer: Seat,
    seed: Seed,
    /// The stock, next card first.
    stock: Vec<Card>,
    hands: Vec<CardSet>,
    /// Every card dealt to each seat in this game.
    dealt: Vec<CardSet>,
    table: Vec<Pile>,
    next_id: u16,
    captured: Vec<CardSet>,
    sweeps: Vec<u8>,
    last_capturer: Option<Seat>,
    turn: Option<Seat>,
    /// How many deals of hand cards were made.
    round: u8,
    moves: Vec<MoveRecord>,
    outcome: Option<Outcome>,
}

/// What a checked move uses.
struct Checked {
    /// The table piles used.
    mask: u64,
    /// Their cards (and the hand card, for a build) in the order of the leaves.
    cards: Vec<Card>,
}

impl Deal {
    /// Deals game `number` (from 1) with `dealer`, shuffled from `seed` (§E3).
    pub fn new(rules: Rules, number: u32, dealer: Seat, seed: Seed) -> (Deal, Vec<Event>) {
        let n = usize::from(rules.players);
        let mut deal = Deal {
            rules,
            number,
            dealer,
            seed,
            stock: seed.shuffle_pack(Pack::P52),
            hands: vec![CardSet::EMPTY; n],
            dealt: vec![CardSet::EMPTY; n],
            table: Vec::new(),
            next_id: 1,
            captured: vec![CardSet::EMPTY; n],
            sweeps: vec![0; n],
            last_capturer: None,
            turn: None,
            round: 0,
            moves: Vec::new(),
            outcome: None,
        };
        let event = deal.deal_round();
        (deal, vec![event])
    }

    /// Deals one round: twice over two cards to each player from forehand round to the dealer,
    /// and in the first round two cards to the table before the dealer's.
    fn deal_round(&mut self) -> Event {
        let n = self.rules.players;
        let mut table_cards = Vec::new();
        let take = |stock: &mut Vec<Card>| -> Vec<Card> {
            let k = stock.len().min(2);
            stock.drain(..k).collect()
        };
        for _ in 0..2 {
            let mut seat = self.dealer.next(n);
            for _ in 0..n {
                if seat == self.dealer && self.round == 0 {
                    let cards = take(&mut self.stock);
                    table_cards.extend(cards);
                }
                for c in take(&mut self.stock) {
                    self.hands[seat.index()].insert(c);
                    self.dealt[seat.index()].insert(c);
                }
                seat = seat.next(n);
            }
        }
        for &card in &table_cards {
            self.table.push(Pile::Loose { card });
        }
        self.round += 1;
        self.turn = Some(self.dealer.next(n));
        Event::Dealt {
            number: self.number,
            round: self.round,
            dealer: self.dealer,
            hands: self.hands.iter().map(|&h| Some(h)).collect(),
            table: table_cards,
            stock: self.stock.len() as u8,
        }
    }

    /// The table's rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The game's number in the match, from 1.
    pub fn number(&self) -> u32 {
        self.number
    }

    /// The dealer.
    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// The seat left of the dealer, who plays first after each deal.
    pub fn forehand(&self) -> Seat {
        self.dealer.next(self.rules.players)
    }

    /// The seed the game was shuffled with.
    pub fn seed(&self) -> Seed {
        self.seed
    }

    /// Where the game stands.
    pub fn phase(&self) -> Phase {
        if self.outcome.is_some() { Phase::Over } else { Phase::Play }
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Whose turn it is.
    pub fn turn(&self) -> Option<Seat> {
        self.turn
    }

    /// A seat's hand.
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands.get(seat.index()).copied().unwrap_or_default()
    }

    /// Every hand, by seat.
    pub fn hands(&self) -> &[CardSet] {
        &self.hands
    }

    /// Every card dealt to each seat in this game.
    pub fn dealt(&self) -> &[CardSet] {
        &self.dealt
    }

    /// Every card dealt to `seat` in this game.
    pub fn dealt_hand(&self, seat: Seat) -> CardSet {
        self.dealt.get(seat.index()).copied().unwrap_or_default()
    }

    /// The stock, next card first.
    pub fn stock(&self) -> &[Card] {
        &self.stock
    }

    /// The piles on the table.
    pub fn table(&self) -> &[Pile] {
        &self.table
    }

    /// Each seat's captured cards.
    pub fn captured(&self) -> &[CardSet] {
        &self.captured
    }

    /// Each seat's sweeps.
    pub fn sweeps(&self) -> &[u8] {
        &self.sweeps
    }

    /// Who captured last.
    pub fn last_capturer(&self) -> Option<Seat> {
        self.last_capturer
    }

    /// How many deals of hand cards were made in this game.
    pub fn round(&self) -> u8 {
        self.round
    }

    /// The moves made, in order.
    pub fn moves(&self) -> &[MoveRecord] {
        &self.moves
    }

    /// How the game was scored, once over.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// The deals of hand cards still to come in this game.
    pub fn deals_left(&self) -> u8 {
        self.rules.deals_per_game().saturating_sub(self.round)
    }

    /// The position `seat` moves from.
    pub fn position(&self, seat: Seat) -> Position<'_> {
        Position { rules: &self.rules, table: &self.table, hand: self.hand(seat), seat }
    }

    /// The structured listing of `seat`'s legal moves (§E9); empty unless it is his turn.
    pub fn listing(&self, seat: Seat) -> Listing {
        if self.turn != Some(seat) || self.is_over() {
            return Listing { cards: Vec::new() };
        }
        self.position(seat).listing()
    }

    /// Every legal move of `seat` with `card` that uses exactly `piles`, each with one witness
    /// grouping (§E9, selections).
    ///
    /// # Errors
    /// Not his turn, the game is over, the card is not in his hand, a pile is unknown or named
    /// twice.
    pub fn options(&self, seat: Seat, card: Card, piles: &[PileRef]) -> Result<Vec<Move>, RuleError> {
        self.check_turn(seat)?;
        self.position(seat).options(card, piles)
    }

    /// The simple moves of `seat` (see [`Position::simple_moves`]): every legal move is made of
    /// these.
    pub fn legal_actions(&self, seat: Seat) -> Vec<Move> {
        if self.turn != Some(seat) || self.is_over() {
            return Vec::new();
        }
        self.position(seat).simple_moves()
    }

    fn check_turn(&self, seat: Seat) -> Result<(), RuleError> {
        if self.is_over() {
            return Err(RuleError::DealOver);
        }
        if seat.index() >= self.hands.len() {
            return Err(RuleError::NoSuchSeat(seat));
        }
        if self.turn != Some(seat) {
            return Err(RuleError::NotYourTurn);
        }
        Ok(())
    }

    /// Whether `seat` may make `mv` now.
    ///
    /// # Errors
    /// The error [`Deal::apply`] would return.
    pub fn check(&self, seat: Seat, mv: &Move) -> Result<(), RuleError> {
        self.check_move(seat, mv).map(|_| ())
    }

    /// Checks a move in the order of §E8.
    fn check_move(&self, seat: Seat, mv: &Move) -> Result<Checked, RuleError> {
        self.check_turn(seat)?;
        let card = mv.card();
        let hand = self.hand(seat);
        if !hand.contains(card) {
            return Err(RuleError::NotInHand { card });
        }
        let pos = self.position(seat);
        let w = value(card);
        let (groups, build) = match mv {
            Move::Discard { .. } => {
                if pos.promise(card) != 0 {
                    return Err(RuleError::BrokenPromise { value: w });
                }
                return Ok(Checked { mask: 0, cards: Vec::new() });
            }
            Move::Capture { groups, .. } => (groups, None),
            Move::Build { groups, value, .. } => (groups, Some(*value)),
        };
        // Size, before anything is evaluated. A build's hand card may form a group of its own
        // (a build to its own value), so a build may have one group more than table piles.
        let n = self.table.len();
        if groups.len() > n + usize::from(build.is_some()) {
            return Err(RuleError::MoveTooLarge);
        }
        let mut leaves_total = 0;
        for g in groups {
            leaves_total += g.count_leaves(n + 1 - leaves_total.min(n + 1));
            if leaves_total > n + 1 {
                return Err(RuleError::MoveTooLarge);
            }
        }
        if groups.is_empty() {
            return Err(RuleError::NoGroup);
        }
        // Every leaf names a pile (or the hand card).
        let leaf_piles: Vec<Vec<Option<usize>>> = groups
            .iter()
            .map(|g| {
                g.leaves()
                    .into_iter()
                    .map(|leaf| {
                        let name = match leaf {
                            Expr::Card(c) if *c == card => return Ok(None),
                            Expr::Card(c) => PileRef::Card(*c),
                            Expr::Building(b) => PileRef::Building(*b),
                            Expr::Op(..) => return Err(RuleError::UnknownPile),
                        };
                        self.table.iter().position(|p| p.name() == name).map(Some).ok_or(RuleError::UnknownPile)
                    })
                    .collect::<Result<Vec<_>, _>>()
            })
            .collect::<Result<_, _>>()?;
        let mut mask = 0u64;
        for &i in leaf_piles.iter().flatten().flatten() {
            if mask & (1 << i) != 0 {
                return Err(RuleError::PileUsedTwice);
            }
            mask |= 1 << i;
        }
        let hand_uses: Vec<usize> = leaf_piles.iter().map(|g| g.iter().filter(|l| l.is_none()).count()).collect();
        let total_hand: usize = hand_uses.iter().sum();
        let hand_ok = if build.is_some() { total_hand == 1 } else { total_hand == 0 };
        if !hand_ok {
            return Err(RuleError::HandCardMisplaced);
        }
        let g = self.rules.max_group_piles;
        for (i, leaves) in leaf_piles.iter().enumerate() {
            if leaves.iter().filter(|l| l.is_some()).count() > usize::from(g) {
                return Err(RuleError::GroupTooLarge { max: g, group: i as u8 });
            }
        }
        if build.is_some() && mask == 0 {
            return Err(RuleError::NoTablePile);
        }
        for e in groups {
            check_ops(e, &self.rules)?;
        }
        let target = build.unwrap_or(w);
        for (i, e) in groups.iter().enumerate() {
            let v = self.eval(e, card).map_err(|(op, left, right)| RuleError::InvalidArithmetic {
                group: i as u8,
                op: op.symbol(),
                left,
                right,
            })?;
            if v != u64::from(target) {
                return Err(RuleError::WrongValue { group: i as u8, value: v, target });
            }
        }
        let promise = pos.promise(card);
        if let Some(v) = build {
            if !(1..=13).contains(&v) || !pos.holds_other(card, v) {
                return Err(RuleError::NoCardForValue { value: v });
            }
            if mask & pos.own_other_than(v) != 0 {
                return Err(RuleError::OwnBuildingValueChange);
            }
            if promise != 0 && v != w {
                return Err(RuleError::BrokenPromise { value: w });
            }
        } else if mask & promise != promise {
            return Err(RuleError::BrokenPromise { value: w });
        }
        let cards = groups
            .iter()
            .flat_map(|e| e.leaves())
            .flat_map(|leaf| match leaf {
                Expr::Card(c) => vec![*c],
                Expr::Building(b) => self
                    .table
                    .iter()
                    .find_map(|p| p.building().filter(|x| x.id == *b).map(|x| x.cards.clone()))
                    .unwrap_or_default(),
                Expr::Op(..) => Vec::new(),
            })
            .collect();
        Ok(Checked { mask, cards })
    }

    /// The value of an expression, or the first node (in evaluation order) that is not a
    /// whole number of at least 1.
    fn eval(&self, e: &Expr, hand: Card) -> Result<u64, (Op, u64, u64)> {
        match e {
            Expr::Card(c) if *c == hand => Ok(u64::from(value(*c))),
            Expr::Card(c) => Ok(u64::from(value(*c))),
            Expr::Building(id) => Ok(self.building(*id).map_or(0, |b| u64::from(b.value))),
            Expr::Op(op, l, r) => {
                let a = self.eval(l, hand)?;
                let b = self.eval(r, hand)?;
                op.apply(a, b).ok_or((*op, a, b))
            }
        }
    }

    fn building(&self, id: BuildingId) -> Option<&Building> {
        self.table.iter().find_map(|p| p.building().filter(|b| b.id == id))
    }

    /// Makes `seat`'s move and returns the events it caused: the move, and after the last
    /// card of a round the next deal, or at the end of the game the leftover.
    ///
    /// # Errors
    /// A [`RuleError`] in the order of §E8; the game is then unchanged.
    pub fn apply(&mut self, seat: Seat, mv: Move) -> Result<Vec<Event>, RuleError> {
        let checked = self.check_move(seat, &mv)?;
        let card = mv.card();
        let n = self.rules.players;
        self.hands[seat.index()].remove(card);
        let mut record = MoveRecord { seat, mv: mv.clone(), taken: Vec::new(), building: None, sweep: false };
        let mut i = 0;
        self.table.retain(|_| {
            let keep = checked.mask & (1 << i) == 0;
            i += 1;
            keep
        });
        let last_card = self.stock.is_empty() && self.hands.iter().all(|h| h.is_empty());
        match &mv {
            Move::Discard { .. } => self.table.push(Pile::Loose { card }),
            Move::Capture { .. } => {
                let mut taken = vec![card];
                taken.extend(checked.cards);
                for &c in &taken {
                    self.captured[seat.index()].insert(c);
                }
                record.taken = taken;
                self.last_capturer = Some(seat);
                if self.table.is_empty() && (!last_card || self.rules.last_move_sweep) {
                    record.sweep = true;
                    self.sweeps[seat.index()] += 1;
                }
            }
            Move::Build { value, .. } => {
                let building =
                    Building { id: BuildingId(self.next_id), value: *value, owner: seat, cards: checked.cards };
                self.next_id += 1;
                record.building = Some(building.clone());
                self.table.push(Pile::Building(building));
            }
        }
        let mut events = vec![Event::Moved {
            seat,
            mv: record.mv.clone(),
            taken: record.taken.clone(),
            building: record.building.clone(),
            sweep: record.sweep,
        }];
        self.moves.push(record);
        self.turn = Some(seat.next(n));
        if self.hands.iter().all(|h| h.is_empty()) {
            if self.stock.is_empty() {
                events.push(self.finish());
            } else {
                events.push(self.deal_round());
            }
        }
        Ok(events)
    }

    /// Ends the game: the piles left go to the last capturer; the game is scored.
    fn finish(&mut self) -> Event {
        let leftover: Vec<Card> = self.table.drain(..).flat_map(|p| p.cards()).collect();
        if let Some(s) = self.last_capturer {
            for &c in &leftover {
                self.captured[s.index()].insert(c);
            }
        }
        let mut outcome = score(&self.captured, &self.sweeps);
        outcome.leftover = leftover.clone();
        outcome.leftover_to = self.last_capturer;
        self.outcome = Some(outcome);
        self.turn = None;
        Event::Leftover { seat: self.last_capturer, cards: leftover }
    }

    /// Every card of the game: stock, hands, table and captured cards, as one list (each card
    /// exactly once while the rules hold).
    pub fn all_cards(&self) -> Vec<Card> {
        let mut out: Vec<Card> = self.stock.clone();
        out.extend(self.hands.iter().flat_map(|h| h.iter()));
        out.extend(self.table.iter().flat_map(Pile::cards));
        out.extend(self.captured.iter().flat_map(|h| h.iter()));
        out
    }

    /// A game set up at will, for tests and examples: the table, the hands, the stock, who is to
    /// move, the next building id. Captured cards start empty.
    pub fn arranged(
        rules: Rules,
        dealer: Seat,
        table: Vec<Pile>,
        hands: Vec<CardSet>,
        stock: Vec<Card>,
        turn: Seat,
    ) -> Deal {
        let n = usize::from(rules.players);
        let next_id = table.iter().filter_map(|p| p.building().map(|b| b.id.0)).max().unwrap_or(0) + 1;
        Deal {
            rules,
            number: 1,
            dealer,
            seed: Seed::from_u64(0),
            stock,
            dealt: hands.clone(),
            hands,
            table,
            next_id,
            captured: vec![CardSet::EMPTY; n],
            sweeps: vec![0; n],
            last_capturer: None,
            turn: Some(turn),
            round: rules.deals_per_game(),
            moves: Vec::new(),
            outcome: None,
        }
    }
}

/// The first operator the table does not allow.
fn check_ops(e: &Expr, rules: &Rules) -> Result<(), RuleError> {
    match e {
        Expr::Op(op, l, r) => {
            check_ops(l, rules)?;
            if !rules.operators.contains(*op) {
                return Err(RuleError::OperatorNotAllowed { op: op.symbol() });
            }
            check_ops(r, rules)
        }
        _ => Ok(()),
    }
}
