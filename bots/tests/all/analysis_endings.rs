//! The card-by-card analysis of every game, checked against an exhaustive search written here:
//! small endings of deals played at random through the rules crate, every trump suit, contract
//! and pack the game allows. The search knows nothing of the bots: it plays every legal card (or
//! Wippen move) through the rules' own deal (its follow duties, its trick winners, its Durch
//! choice, its end of the deal) and counts what the rules credit, from the player's side as the
//! analysis defines it:
//!
//! * Thedinghausen, Tippen: the tricks of the player (or his side in a Thedinghausen fipsen)
//!   against all the others as one side;
//! * Prisdorf, Großenaspe, Anseggerfips, Duttfips: the declarer's score (its negation for a
//!   defender), the declarer making the Durch choice both ways;
//! * Wippen: the player's points less the best of the others', over the horizon the analysis
//!   reports (to the end of the deal where its search got there).

use std::collections::BTreeSet;

use fipsen_bots::analysis::wippen::analyse_from;
use fipsen_bots::analysis::{Analysis, Budget, Method, Unit};
use fipsen_bots::games::FinishedDeal;
use fipsen_bots::rng::Rng;
use fipsen_rules::grossenaspe::{self, Action as GAction, Phase as GPhase};
use fipsen_rules::mecklenburg::{self, Action as MAction, Phase as MPhase};
use fipsen_rules::mecklenburg::{AuctionKind, DuttUse};
use fipsen_rules::{
    Action, Card, FirstLead, KiekerShow, Pack, Phase, Players, RuleSet, Seat, Seed, Suit, thedinghausen, tippen, wippen,
};

/// The analysis' budget: enough for every card of a deal played at random.
const BUDGET: u64 = 400_000_000;

/// A deal of a trick game as its rules play it: all the exhaustive search needs.
trait Played: Clone {
    /// The seat to play a card (`None`: the play is over, or not begun).
    fn to_play(&self) -> Option<Seat>;
    /// The cards the rules let `seat` play now.
    fn legal(&self, seat: Seat) -> Vec<Card>;
    /// `seat` plays `card`.
    fn play(&mut self, seat: Seat, card: Card);
    /// The tricks each seat has taken in this deal.
    fn taken(&self) -> Vec<u8>;
    /// The cards still in the hands.
    fn in_hands(&self) -> usize;
    /// The cards played so far in the deal.
    fn played(&self) -> usize;
}

impl Played for tippen::Deal {
    fn to_play(&self) -> Option<Seat> {
        (self.phase() == tippen::Phase::Play).then(|| self.turn()).flatten()
    }
    fn legal(&self, seat: Seat) -> Vec<Card> {
        self.legal_actions(seat)
            .into_iter()
            .filter_map(|a| match a {
                tippen::Action::Play { card } => Some(card),
                _ => None,
            })
            .collect()
    }
    fn play(&mut self, seat: Seat, card: Card) {
        self.apply(seat, tippen::Action::Play { card }).expect("a legal card");
    }
    fn taken(&self) -> Vec<u8> {
        self.tricks_taken()
    }
    fn in_hands(&self) -> usize {
        self.active().iter().map(|&s| self.hand(s).len()).sum()
    }
    fn played(&self) -> usize {
        self.plays().len()
    }
}

impl Played for thedinghausen::Deal {
    fn to_play(&self) -> Option<Seat> {
        (self.phase() == thedinghausen::Phase::Play).then(|| self.turn()).flatten()
    }
    fn legal(&self, seat: Seat) -> Vec<Card> {
        self.legal_actions(seat)
            .into_iter()
            .filter_map(|a| match a {
                thedinghausen::Action::Play { card } => Some(card),
                _ => None,
            })
            .collect()
    }
    fn play(&mut self, seat: Seat, card: Card) {
        self.apply(seat, thedinghausen::Action::Play { card }).expect("a legal card");
    }
    fn taken(&self) -> Vec<u8> {
        self.tricks_taken().to_vec()
    }
    fn in_hands(&self) -> usize {
        (0..thedinghausen::Deal::PLAYERS).map(|s| self.hand(Seat(s)).len()).sum()
    }
    fn played(&self) -> usize {
        self.plays().len()
    }
}

/// A deal of a Holstein-family game (Prisdorf, Großenaspe, Anseggerfips, Duttfips): the
/// declarer against the others as one side, and a Durch choice when he has his count without a
/// loss.
trait Declared: Played {
    /// The declarer.
    fn declarer_seat(&self) -> Seat;
    /// Whether the declarer is to choose to stop or go on for Durch.
    fn durch_choice(&self) -> bool;
    /// The declarer stops (`false`) or goes on for Durch (`true`).
    fn choose(&mut self, go_on: bool);
    /// The declarer's score once the deal is over, as the rules credit it.
    fn score(&self) -> Option<i32>;
}

/// The Played and Declared impls of a Holstein-family deal: they share their accessors' names.
macro_rules! holstein_deal {
    ($deal:ty, $phase:ident, $action:ident, |$d:ident| $score:expr) => {
        impl Played for $deal {
            fn to_play(&self) -> Option<Seat> {
                (self.phase() == $phase::Play).then(|| self.turn()).flatten()
            }
            fn legal(&self, seat: Seat) -> Vec<Card> {
                self.legal_actions(seat)
                    .into_iter()
                    .filter_map(|a| match a {
                        $action::Play { card } => Some(card),
                        _ => None,
                    })
                    .collect()
            }
            fn play(&mut self, seat: Seat, card: Card) {
                self.apply(seat, $action::Play { card }).expect("a legal card");
            }
            fn taken(&self) -> Vec<u8> {
                let mut taken = vec![0; usize::from(self.players())];
                for w in self.trick_winners() {
                    taken[w.index()] += 1;
                }
                taken
            }
            fn in_hands(&self) -> usize {
                (0..self.players()).map(|s| self.hand(Seat(s)).len()).sum()
            }
            fn played(&self) -> usize {
                self.plays().len()
            }
        }

        impl Declared for $deal {
            fn declarer_seat(&self) -> Seat {
                self.declarer().expect("a declarer in the play")
            }
            fn durch_choice(&self) -> bool {
                self.phase() == $phase::DurchChoice
            }
            fn choose(&mut self, go_on: bool) {
                let seat = self.declarer_seat();
                self.apply(seat, if go_on { $action::GoOn } else { $action::Stop }).expect("the Durch choice");
            }
            fn score(&self) -> Option<i32> {
                let $d = self;
                $score
            }
        }
    };
}

holstein_deal!(fipsen_rules::Deal, Phase, Action, |d| d.outcome().and_then(|o| o.score()).map(|(_, p)| p));
holstein_deal!(grossenaspe::Deal, GPhase, GAction, |d| d
    .outcome()
    .and_then(|o| o.score(d.rules().loss_factor))
    .map(|(_, p)| p));
holstein_deal!(mecklenburg::Deal, MPhase, MAction, |d| d
    .outcome()
    .and_then(|o| o.score(d.rules().loss_factor()))
    .map(|(_, p)| p));

/// The declarer's score when he plays for the most and the others for the least: every legal
/// card tried, and both answers to the Durch choice, to the end the rules give the deal.
fn score<D: Declared>(deal: &D) -> i32 {
    if let Some(points) = deal.score() {
        return points;
    }
    if deal.durch_choice() {
        return [false, true]
            .into_iter()
            .map(|go_on| {
                let mut next = deal.clone();
                next.choose(go_on);
                score(&next)
            })
            .max()
            .expect("two choices");
    }
    let seat = deal.to_play().expect("a deal not over is played or chosen");
    let values = deal.legal(seat).into_iter().map(|card| {
        let mut next = deal.clone();
        next.play(seat, card);
        score(&next)
    });
    if seat == deal.declarer_seat() { values.max() } else { values.min() }.expect("a seat to play has a legal card")
}

/// The declarer's score for his side, its negation for a defender's.
fn for_side<D: Declared>(next: &D, seat: Seat) -> i32 {
    let points = score(next);
    if seat == next.declarer_seat() { points } else { -points }
}

/// A random action before the play (or at the Durch choice) among `actions`: in the auction,
/// a pass half the time (so that auctions end, and with every seat as declarer), else any
/// other call.
fn pick<A: Copy>(actions: &[A], is_pass: impl Fn(&A) -> bool, rng: &mut Rng) -> A {
    let calls: Vec<A> = actions.iter().copied().filter(|a| !is_pass(a)).collect();
    match actions.iter().find(|a| is_pass(a)) {
        Some(&pass) if calls.is_empty() || rng.index(2) == 0 => pass,
        _ => calls[rng.index(calls.len())],
    }
}

/// The endings kept: at most this many cards in the hands (three tricks with four or five
/// players, four with three).
fn small(players: u8) -> usize {
    (3 * usize::from(players)).max(12)
}

/// The tricks the seats of `side` take in the deal when they play for the most and every other
/// seat for the fewest: every legal card tried, to the end the rules give the deal.
fn best<D: Played>(deal: &D, side: &[bool]) -> i32 {
    let Some(seat) = deal.to_play() else {
        return deal.taken().iter().zip(side).filter(|(_, on)| **on).map(|(&t, _)| i32::from(t)).sum();
    };
    let values = deal.legal(seat).into_iter().map(|card| {
        let mut next = deal.clone();
        next.play(seat, card);
        best(&next, side)
    });
    if side[seat.index()] { values.max() } else { values.min() }.expect("a seat to play has a legal card")
}

/// One position of an ending, kept as the deal stood before a card was played.
struct Position<D> {
    deal: D,
    seat: Seat,
    card: Card,
}

/// Compares the analysis of a finished deal with the exhaustive search at each kept position:
/// the best value before the card, the value after it and the best cards. `value(next, seat)`
/// is what the exhaustive search gives `seat`'s side once `seat`'s card has made the position
/// `next`. Returns how many positions were compared.
fn compare<D: Played>(
    what: &str,
    analysis: &Analysis,
    positions: &[Position<D>],
    value: impl Fn(&D, Seat) -> i32,
) -> usize {
    for p in positions {
        let index = p.deal.played();
        let mut values: Vec<(Card, i32)> = p
            .deal
            .legal(p.seat)
            .into_iter()
            .map(|card| {
                let mut next = p.deal.clone();
                next.play(p.seat, card);
                (card, value(&next, p.seat))
            })
            .collect();
        values.sort_by_key(|v| v.0.index());
        let before = values.iter().map(|v| v.1).max();
        let after = values.iter().find(|v| v.0 == p.card).map(|v| v.1);
        let best_cards: Vec<Card> = values.iter().filter(|v| Some(v.1) == before).map(|v| v.0).collect();
        let got = analysis.cards.get(index).unwrap_or_else(|| panic!("{what}: card {index} analysed"));
        assert_eq!((got.seat, got.card), (p.seat, p.card), "{what}: card {index}");
        assert_eq!(
            (got.before, got.after, &got.best),
            (before, after, &best_cards),
            "{what}: card {index} ({} by seat {}), every card's value {values:?}",
            p.card,
            p.seat.0
        );
    }
    positions.len()
}

/// Plays `deal` to its end with random legal actions from `rng`, keeping each position of the
/// play with at most `small` cards in the hands.
fn play_out<D: Played>(
    deal: &mut D,
    small: usize,
    rng: &mut Rng,
    mut act: impl FnMut(&mut D, &mut Rng) -> bool,
) -> Vec<Position<D>> {
    let mut kept = Vec::new();
    loop {
        if let Some(seat) = deal.to_play() {
            let legal = deal.legal(seat);
            let card = legal[rng.index(legal.len())];
            if deal.in_hands() <= small {
                kept.push(Position { deal: deal.clone(), seat, card });
            }
            deal.play(seat, card);
        } else if !act(deal, rng) {
            return kept;
        }
    }
}

/// Tippen: 32 cards up to six players, 52 from seven; the trumps are the turned card's suit,
/// so random deals meet every suit. With diamonds as trumps every diamond is a trump (not the
/// seven alone, as in Prisdorf's pack), and with 52 cards the twos to sixes of trumps too.
#[test]
fn tippens_analysis_matches_an_exhaustive_search_of_endings_with_every_trump_suit_and_pack() {
    let tables = [
        (tippen::Preset::Dreiblatt1859, 3),
        (tippen::Preset::ModernGrupp, 4),
        (tippen::Preset::Meyers1905, 5),
        (tippen::Preset::Dreiblatt1859, 7),
        (tippen::Preset::Vierblatt, 8),
        (tippen::Preset::Meyers1905, 9),
    ];
    let mut rng = Rng::new(9);
    let mut covered: BTreeSet<(&str, usize)> = BTreeSet::new();
    let mut compared = 0;
    for (preset, players) in tables {
        let rules = tippen::Rules::preset(preset, players);
        let pack = rules.pack();
        for _ in 0..60 {
            // The first deal of a fresh series each time.
            let (series, _) = tippen::Series::new(rules, Seed::from_u64(rng.next_u64())).expect("valid rules");
            let mut deal = series.deal().clone();
            let positions = play_out(&mut deal, 9, &mut rng, |d, rng| {
                let Some(seat) = d.turn() else { return false };
                let actions = d.legal_actions(seat);
                d.apply(seat, actions[rng.index(actions.len())]).expect("a legal action");
                true
            });
            let (Some(trumps), false) = (deal.trumps(), positions.is_empty()) else { continue };
            let analysis = FinishedDeal::Tippen(Box::new(deal.clone()))
                .analyse(Budget::nodes(BUDGET))
                .expect("a played deal is analysed");
            assert!(analysis.complete, "{} nodes", analysis.nodes);
            let what = format!("{preset:?} with {players} players, {trumps:?} trumps");
            compared += compare(&what, &analysis, &positions, |next, seat| {
                best(next, &(0..players).map(|s| s == seat.0).collect::<Vec<_>>())
            });
            covered.insert((pack.name(), Suit::ALL.iter().position(|&s| s == trumps).expect("a suit")));
        }
    }
    for pack in [Pack::P32, Pack::P52] {
        for suit in 0..4 {
            assert!(
                covered.contains(&(pack.name(), suit)),
                "{} with {:?} trumps compared",
                pack.name(),
                Suit::ALL[suit]
            );
        }
    }
    println!("{compared} positions compared");
    assert!(compared > 200, "{compared} positions compared");
}

/// Thedinghausen: 32 cards, the trumps the turned card's suit, and a race to ten tricks over
/// the deals of a round: the deal ends when a seat's count reaches ten, and the tricks it
/// would have had after that are not the seat's (nor anyone's). Whole series are played, so
/// that deals begin with counts near ten.
#[test]
fn thedinghausens_analysis_matches_an_exhaustive_search_of_endings_with_every_trump_suit() {
    let mut rng = Rng::new(11);
    let mut covered: BTreeSet<usize> = BTreeSet::new();
    let (mut compared, mut cut_short) = (0, 0);
    for _ in 0..6 {
        let rules = thedinghausen::Rules::default();
        let (mut series, _) = thedinghausen::Series::new(rules, Seed::from_u64(rng.next_u64())).expect("valid rules");
        let mut deals = 0;
        while !series.is_over() && deals < 30 {
            let mut positions = Vec::new();
            while let Some(seat) = series.deal().turn() {
                let deal = series.deal();
                let actions = series.legal_actions(seat);
                let action = actions[rng.index(actions.len())];
                if let (thedinghausen::Action::Play { card }, true) = (action, deal.in_hands() <= 10) {
                    positions.push(Position { deal: deal.clone(), seat, card });
                }
                series.apply(seat, action).expect("a legal action");
            }
            deals += 1;
            let deal = series.deal().clone();
            if !positions.is_empty() {
                let trumps = deal.trump_card().suit();
                let analysis = FinishedDeal::Thedinghausen(Box::new(deal.clone()))
                    .analyse(Budget::nodes(BUDGET))
                    .expect("a played deal is analysed");
                assert!(analysis.complete, "{} nodes", analysis.nodes);
                let fipsen = deal.fipsen().map(|f| f.seat);
                let what = format!("deal {} of a series, {trumps:?} trumps, fipsen {fipsen:?}", deal.number());
                compared += compare(&what, &analysis, &positions, |next, seat| {
                    let side: Vec<bool> = (0..thedinghausen::Deal::PLAYERS)
                        .map(|s| match fipsen {
                            Some(f) if f == seat => s == f.0,
                            Some(f) => s != f.0,
                            None => s == seat.0,
                        })
                        .collect();
                    best(next, &side)
                });
                covered.insert(Suit::ALL.iter().position(|&s| s == trumps).expect("a suit"));
                cut_short += usize::from(deal.in_hands() > 0);
            }
            if series.is_over() || series.next_deal().is_err() {
                break;
            }
        }
    }
    assert_eq!(covered.len(), 4, "every trump suit compared: {covered:?}");
    assert!(cut_short > 0, "some deal ended with cards unplayed (a round won)");
    println!("{compared} positions compared");
    assert!(compared > 200, "{compared} positions compared");
}

/// A random first lead.
fn first_lead(rng: &mut Rng) -> FirstLead {
    if rng.index(2) == 0 { FirstLead::Forehand } else { FirstLead::Declarer }
}

/// The place of `suit` in [`Suit::ALL`].
fn suit_place(suit: Suit) -> usize {
    Suit::ALL.iter().position(|&s| s == suit).expect("a suit")
}

/// Prisdorf: 25 cards (three suits and the seven of diamonds alone), three or four players;
/// clubs, spades or hearts as trumps, or Ruten (the seven of diamonds the only trump); with
/// the skat or Hand, a Kieker, Kontra and Rekontra, and the declarer's Durch choice, which the
/// exhaustive search makes both ways.
#[test]
fn prisdorfs_analysis_matches_an_exhaustive_search_of_endings_with_every_trump_suit_and_contract() {
    let mut rng = Rng::new(13);
    let mut covered: BTreeSet<(u8, usize)> = BTreeSet::new();
    let mut kinds: BTreeSet<&str> = BTreeSet::new();
    let mut compared = 0;
    for round in 0..400 {
        let players = if round % 2 == 0 { Players::Three } else { Players::Four };
        let rules = RuleSet {
            players,
            min_bid: 2,
            kontra: rng.index(2) == 0,
            first_lead: first_lead(&mut rng),
            kieker_show: KiekerShow::LeftOpponent,
            deals: None,
        };
        let n = players.count();
        let dealer = Seat(rng.index(usize::from(n)) as u8);
        let (mut deal, _) = fipsen_rules::Deal::new(rules, 1, dealer, Seed::from_u64(rng.next_u64()));
        let positions = play_out(&mut deal, small(n), &mut rng, |d, rng| {
            let Some(seat) = d.turn() else { return false };
            let actions: Vec<Action> = d
                .legal_actions(seat)
                .into_iter()
                .filter(|a| !matches!(a, Action::SiebenerFips | Action::GiveUp))
                .collect();
            // Kiekers are rare (no court card): bid one half the time it is allowed.
            let kieker = Action::Bid { bid: fipsen_rules::Bid::Kieker };
            let action = if actions.contains(&kieker) && rng.index(2) == 0 {
                kieker
            } else {
                pick(&actions, |a| matches!(a, Action::Pass), rng)
            };
            d.apply(seat, action).expect("a legal action");
            true
        });
        let (Some(game), false) = (deal.game(), positions.is_empty()) else { continue };
        let trumps = game.trumps.expect("trumps named before the play");
        let analysis = FinishedDeal::Prisdorf(Box::new(deal.clone()))
            .analyse(Budget::nodes(BUDGET))
            .expect("a played deal is analysed");
        assert!(analysis.complete, "{} nodes", analysis.nodes);
        let what = format!("{n} players, {game:?}");
        compared += compare(&what, &analysis, &positions, for_side);
        covered.insert((n, suit_place(trumps)));
        kinds.extend(
            [
                (game.hand, "hand"),
                (!game.hand && !game.kieker, "skat"),
                (game.kieker, "kieker"),
                (game.kontra, "kontra"),
                (game.durch && game.tricks < 5 && !game.kieker, "went on"),
                (deal.plays().len() % usize::from(n) == 0 && deal.in_hands() > 0, "ended early"),
            ]
            .into_iter()
            .filter_map(|(on, kind)| on.then_some(kind)),
        );
    }
    for n in [3, 4] {
        for suit in 0..4 {
            assert!(covered.contains(&(n, suit)), "{n} players with {:?} trumps compared", Suit::ALL[suit]);
        }
    }
    for kind in ["hand", "skat", "kieker", "kontra", "went on", "ended early"] {
        assert!(kinds.contains(kind), "a game compared with {kind}: {kinds:?}");
    }
    println!("{compared} positions compared");
    assert!(compared > 200, "{compared} positions compared");
}

/// Großenaspe: the whole 32-card pack (diamonds a full suit), three to five players; every suit
/// as trumps, plain and Gute bids (clubs doubling), a Kieker, a Fips, both loss factors, and the
/// Durch choice.
#[test]
fn grossenaspes_analysis_matches_an_exhaustive_search_of_endings_with_every_trump_suit_and_contract() {
    let mut rng = Rng::new(17);
    let mut covered: BTreeSet<(u8, usize)> = BTreeSet::new();
    let mut kinds: BTreeSet<&str> = BTreeSet::new();
    let mut compared = 0;
    for round in 0..450u16 {
        let players = 3 + (round % 3) as u8;
        let rules = grossenaspe::Rules {
            players,
            min_bid: 1 + rng.index(2) as u8,
            loss_factor: 1 + rng.index(2) as u8,
            first_lead: first_lead(&mut rng),
            kieker_show: KiekerShow::LeftOpponent,
            ..grossenaspe::Rules::grossenaspe()
        };
        let dealer = Seat(rng.index(usize::from(players)) as u8);
        let (mut deal, _) = grossenaspe::Deal::new(rules, 1, dealer, Seed::from_u64(rng.next_u64()));
        let positions = play_out(&mut deal, small(players), &mut rng, |d, rng| {
            let Some(seat) = d.turn() else { return false };
            let actions: Vec<GAction> =
                d.legal_actions(seat).into_iter().filter(|a| !matches!(a, GAction::Fold)).collect();
            // Kiekers are rare (no court card): bid one half the time it is allowed.
            let kieker = GAction::Bid { bid: grossenaspe::Bid::Kieker };
            let action = if actions.contains(&kieker) && rng.index(2) == 0 {
                kieker
            } else {
                pick(&actions, |a| matches!(a, GAction::Pass), rng)
            };
            d.apply(seat, action).expect("a legal action");
            true
        });
        let (Some(game), false) = (deal.game(), positions.is_empty()) else { continue };
        let trumps = game.trumps.expect("trumps named before the play");
        let analysis = FinishedDeal::Grossenaspe(Box::new(deal.clone()))
            .analyse(Budget::nodes(BUDGET))
            .expect("a played deal is analysed");
        assert!(analysis.complete, "{} nodes", analysis.nodes);
        let what = format!("{players} players, loss factor {}, {game:?}", rules.loss_factor);
        compared += compare(&what, &analysis, &positions, for_side);
        covered.insert((players, suit_place(trumps)));
        let bid = match game.bid {
            grossenaspe::Bid::Tricks { gute: true, .. } => "gute",
            grossenaspe::Bid::Tricks { tricks: 5, .. } => "five",
            grossenaspe::Bid::Tricks { .. } => "number",
            grossenaspe::Bid::Kieker => "kieker",
            grossenaspe::Bid::Fips => "fips",
        };
        kinds.insert(bid);
        if game.durch && game.bid.target() < 5 {
            kinds.insert("went on");
        }
        kinds.insert(if rules.loss_factor == 1 { "loss factor 1" } else { "loss factor 2" });
    }
    for players in 3..=5 {
        for suit in 0..4 {
            assert!(covered.contains(&(players, suit)), "{players} players with {:?} trumps compared", Suit::ALL[suit]);
        }
    }
    for kind in ["gute", "five", "number", "kieker", "fips", "went on", "loss factor 1", "loss factor 2"] {
        assert!(kinds.contains(kind), "a game compared with {kind}: {kinds:?}");
    }
    println!("{compared} positions compared");
    assert!(compared > 200, "{compared} positions compared");
}

/// Plays random Mecklenburg deals of `rules` (one a round) and compares every ending; returns
/// the positions compared and the contracts met (the bid as played, the trumps, and whether the
/// table allows Durch).
fn mecklenburg_endings(
    seed: u64,
    deals: usize,
    rules: impl Fn(&mut Rng) -> mecklenburg::Rules,
) -> (usize, BTreeSet<(String, usize, bool)>) {
    let mut rng = Rng::new(seed);
    let mut covered = BTreeSet::new();
    let mut compared = 0;
    for _ in 0..deals {
        let rules = rules(&mut rng);
        let dealer = Seat(rng.index(4) as u8);
        let (mut deal, _) = mecklenburg::Deal::new(rules, 1, dealer, Seed::from_u64(rng.next_u64()));
        let positions = play_out(&mut deal, small(4), &mut rng, |d, rng| {
            let Some(seat) = d.turn() else { return false };
            let actions = d.legal_actions(seat);
            d.apply(seat, pick(&actions, |a| matches!(a, MAction::Pass), rng)).expect("a legal action");
            true
        });
        let (Some(game), false) = (deal.game(), positions.is_empty()) else { continue };
        let trumps = game.trumps.expect("trumps named before the play");
        let finished = match deal.variant() {
            mecklenburg::Variant::Anseggerfips => FinishedDeal::Anseggerfips(Box::new(deal.clone())),
            mecklenburg::Variant::Duttfips => FinishedDeal::Duttfips(Box::new(deal.clone())),
        };
        let analysis = finished.analyse(Budget::nodes(BUDGET)).expect("a played deal is analysed");
        assert!(analysis.complete, "{} nodes", analysis.nodes);
        let what = format!("{rules:?}, {game:?}");
        compared += compare(&what, &analysis, &positions, for_side);
        let bid = match game.bid {
            mecklenburg::Bid::Tricks { ruten: true, .. } => "ruten n".to_string(),
            mecklenburg::Bid::Tricks { .. } => "n".to_string(),
            other => format!("{other:?}"),
        };
        covered.insert((bid, suit_place(trumps), rules.durch()));
    }
    (compared, covered)
}

/// Anseggerfips: 25 cards (the Rutenas, the ace of diamonds, alone), four players; clubs,
/// spades or hearts as trumps or Ruten (the Rutenas the only trump), every contract from a
/// number to a Rutenfips, the Dutt used or not, and the table's Durch on and off (off, the deal
/// ends when the declarer has his count).
#[test]
fn anseggerfips_analysis_matches_an_exhaustive_search_of_endings_with_every_trump_suit_and_contract() {
    let (compared, covered) = mecklenburg_endings(19, 400, |rng| {
        mecklenburg::AnseggerfipsRules {
            auction: if rng.index(2) == 0 { AuctionKind::SingleRound } else { AuctionKind::Duels },
            min_bid: 1 + rng.index(2) as u8,
            dutt: if rng.index(2) == 0 { DuttUse::Unused } else { DuttUse::Exchange },
            ruten_needs_rutenas: rng.index(2) == 0,
            ruten_unbid: rng.index(2) == 0,
            durch: rng.index(2) == 0,
            loss_factor: 1 + rng.index(2) as u8,
            first_lead: first_lead(rng),
            ..mecklenburg::AnseggerfipsRules::anseggerfips()
        }
        .into()
    });
    for suit in 0..3 {
        for durch in [false, true] {
            assert!(
                covered.iter().any(|c| c.0 == "n" && c.1 == suit && c.2 == durch),
                "a number with {:?} trumps compared, Durch {durch}: {covered:?}",
                Suit::ALL[suit]
            );
        }
    }
    for bid in ["ruten n", "Fips", "Rutenfips"] {
        assert!(covered.iter().any(|c| c.0 == bid), "a {bid} compared: {covered:?}");
    }
    for durch in [false, true] {
        assert!(covered.iter().any(|c| c.0 == "ruten n" && c.2 == durch), "Ruten n, Durch {durch}: {covered:?}");
    }
    println!("{compared} positions compared");
    assert!(compared > 200, "{compared} positions compared");
}

/// Duttfips: the same pack; a Dutt or a Fips with a suit as trumps, a Ruten oewer or a
/// Rutenfips with the Rutenas alone, the Dutt always exchanged, Durch on and off.
#[test]
fn duttfips_analysis_matches_an_exhaustive_search_of_endings_with_every_trump_suit_and_contract() {
    let (compared, covered) = mecklenburg_endings(23, 1200, |rng| {
        mecklenburg::DuttfipsRules {
            ruten_needs_rutenas: rng.index(2) == 0,
            ruten_unbid: rng.index(2) == 0,
            durch: rng.index(2) == 0,
            loss_factor: 1 + rng.index(2) as u8,
            first_lead: first_lead(rng),
            ..mecklenburg::DuttfipsRules::duttfips()
        }
        .into()
    });
    for suit in 0..3 {
        for durch in [false, true] {
            assert!(
                covered.iter().any(|c| c.0 == "Dutt" && c.1 == suit && c.2 == durch),
                "a Dutt with {:?} trumps compared, Durch {durch}: {covered:?}",
                Suit::ALL[suit]
            );
        }
    }
    for bid in ["Fips", "Rutenfips"] {
        assert!(covered.iter().any(|c| c.0 == bid), "a {bid} compared: {covered:?}");
    }
    for durch in [false, true] {
        assert!(
            covered.iter().any(|c| c.0 == "RutenOewer" && c.2 == durch),
            "a Ruten oewer, Durch {durch}: {covered:?}"
        );
    }
    println!("{compared} positions compared");
    assert!(compared > 200, "{compared} positions compared");
}

/// Wippen: the points `me` has over the best of the others in `points`.
fn margin(points: &[i32], me: Seat) -> i32 {
    let others = points.iter().enumerate().filter(|&(i, _)| i != me.index()).map(|(_, &p)| p).max();
    points[me.index()] - others.expect("other seats")
}

/// Wippen: `me`'s margin over the best of the others when he plays for the most and every
/// other seat for the least for `depth` more moves, every simple move the rules allow tried at
/// every turn; scored by the points the rules credit at the end of the deal (the leftover to
/// the last capturer, the sweeps, the cards, spades and aces, the good ten and two), or, where
/// the depth runs out first, by the points the rules' score gives the cards captured so far.
fn wippen_best(deal: &wippen::Deal, me: Seat, depth: u8) -> i32 {
    let Some(turn) = deal.turn() else {
        return margin(&deal.outcome().expect("the deal is over").points, me);
    };
    if depth == 0 {
        return margin(&wippen::score(deal.captured(), deal.sweeps()).points, me);
    }
    let values = deal.legal_actions(turn).into_iter().map(|mv| {
        let mut next = deal.clone();
        next.apply(turn, mv).expect("a legal move");
        wippen_best(&next, me, depth - 1)
    });
    if turn == me { values.max() } else { values.min() }.expect("a seat at his turn has a move")
}

/// The moves still to be made in a Wippen deal: one a hand card, the stock's cards included.
fn wippen_moves_left(deal: &wippen::Deal) -> usize {
    deal.hands().iter().map(|h| h.len()).sum::<usize>() + deal.stock().len()
}

/// What [`wippen_endings`] compared.
#[derive(Default)]
struct WippenCompared {
    /// Positions compared.
    positions: usize,
    /// Of them, those whose search reached the end of the deal.
    to_the_end: usize,
    /// Of them, moves that cost something.
    costly: usize,
    /// Moves the analysis left without values (out of budget), not compared.
    unanalysed: usize,
    /// Moves played that are not simple (a capture of several groups, a build with extras),
    /// valued by the analysis as played.
    combined: usize,
    /// The player counts and the last move's sweep option met.
    tables: BTreeSet<(u8, bool)>,
}

/// Now and then a legal move that is not simple (the analysis weighs only the simple ones, and
/// the move played): a hand card with a random selection of the table's piles, one of the
/// moves the rules offer for it that none of the simple moves is.
fn combined(deal: &wippen::Deal, seat: Seat, simple: &[wippen::Move], rng: &mut Rng) -> Option<wippen::Move> {
    let hand: Vec<Card> = deal.hand(seat).iter().collect();
    for _ in 0..6 {
        let piles: Vec<wippen::PileRef> =
            deal.table().iter().filter(|_| rng.index(3) > 0).map(|pile| pile.name()).collect();
        let card = hand[rng.index(hand.len())];
        let Ok(options) = deal.options(seat, card, &piles) else { continue };
        let options: Vec<wippen::Move> = options.into_iter().filter(|mv| !simple.contains(mv)).collect();
        if !options.is_empty() {
            return Some(options[rng.index(options.len())].clone());
        }
    }
    None
}

/// Plays `rounds` random Wippen deals of two to four players and every table option, analyses
/// each one's last `LEFT` moves within `budget`, and compares every move's values with an
/// exhaustive search over the horizon the analysis reports (the moves searched after it): the
/// best value before the move, the value after it, the best cards, and the better moves named,
/// which must be moves the rules allow here that reach the best value, all of them.
fn wippen_endings(seed: u64, rounds: u32, budget: Budget) -> WippenCompared {
    /// The endings kept: at most this many moves left.
    const LEFT: usize = 5;
    let mut rng = Rng::new(seed);
    let mut seen = WippenCompared::default();
    for round in 0..rounds {
        let rules = wippen::Rules {
            players: 2 + (round % 3) as u8,
            operators: match rng.index(3) {
                0 => wippen::Operators::ALL,
                1 => wippen::Operators::PLUS,
                _ => wippen::Operators::of(&[wippen::Op::Add, wippen::Op::Sub]),
            },
            max_group_piles: 2 + rng.index(3) as u8,
            keep_promise: rng.index(2) == 0,
            last_move_sweep: rng.index(2) == 0,
            ..wippen::Rules::default()
        };
        let dealer = Seat(rng.index(usize::from(rules.players)) as u8);
        let (mut deal, _) = wippen::Deal::new(rules, 1, dealer, Seed::from_u64(rng.next_u64()));
        let mut start = None;
        while let Some(seat) = deal.turn() {
            if start.is_none() && wippen_moves_left(&deal) <= LEFT {
                start = Some(deal.clone());
            }
            let moves = deal.legal_actions(seat);
            // In the ending most moves that can be are not simple, before it some.
            let mv = (start.is_some() && rng.index(3) > 0 || rng.index(4) == 0)
                .then(|| combined(&deal, seat, &moves, &mut rng))
                .flatten()
                .unwrap_or_else(|| moves[rng.index(moves.len())].clone());
            deal.apply(seat, mv).expect("a legal move");
        }
        let start = start.expect("a deal ends with its last moves");
        let first = start.moves().len();
        let records = &deal.moves()[first..];
        let analysis = analyse_from(start.clone(), records, budget).expect("the moves fit the deal");
        assert_eq!((analysis.unit, analysis.method), (Unit::Points, Method::Bounded));
        let mut position = start;
        for (i, record) in records.iter().enumerate() {
            let seat = record.seat;
            let got = &analysis.cards[i];
            let what = format!("{rules:?}, move {} ({:?} by seat {})", first + i, record.mv, seat.0);
            assert_eq!((got.seat, got.card), (seat, record.mv.card()), "{what}");
            if got.before.is_none() {
                assert!(!analysis.complete && got.horizon.is_none(), "{what}: left without values");
                seen.unanalysed += 1;
                position.apply(seat, record.mv.clone()).expect("the move played");
                continue;
            }
            let left = u8::try_from(wippen_moves_left(&position) - 1).expect("a few moves");
            let horizon = got.horizon.unwrap_or_else(|| panic!("{what}: a horizon"));
            assert!(horizon <= left, "{what}: horizon {horizon} with {left} moves left");
            let mut moves = position.legal_actions(seat);
            if !moves.contains(&record.mv) {
                moves.push(record.mv.clone());
            }
            let values: Vec<(wippen::Move, i32)> = moves
                .into_iter()
                .map(|mv| {
                    let mut next = position.clone();
                    next.apply(seat, mv.clone()).expect("a legal move");
                    let value = wippen_best(&next, seat, horizon);
                    (mv, value)
                })
                .collect();
            let before = values.iter().map(|v| v.1).max();
            let after = values.iter().find(|v| v.0 == record.mv).map(|v| v.1);
            let best_moves: Vec<&wippen::Move> = values.iter().filter(|v| Some(v.1) == before).map(|v| &v.0).collect();
            let mut best_cards: Vec<Card> = best_moves.iter().map(|m| m.card()).collect();
            best_cards.sort_by_key(|c| c.index());
            best_cards.dedup();
            let what = format!("{what}, horizon {horizon}, every move's value {values:?}");
            assert_eq!((got.before, got.after, &got.best), (before, after, &best_cards), "{what}");
            for mv in &got.best_moves {
                position.check(seat, mv).unwrap_or_else(|e| panic!("{what}: {mv:?} named, refused: {e}"));
                let mut next = position.clone();
                next.apply(seat, mv.clone()).expect("a legal move");
                assert_eq!(Some(wippen_best(&next, seat, horizon)), before, "{what}: {mv:?} named as a best move");
            }
            assert_eq!(got.best_moves.len(), best_moves.len(), "{what}: best moves {:?}", got.best_moves);
            seen.positions += 1;
            seen.to_the_end += usize::from(horizon == left);
            seen.costly += usize::from(got.lost());
            seen.combined += usize::from(!position.legal_actions(seat).contains(&record.mv));
            position.apply(seat, record.mv.clone()).expect("the move played");
        }
        seen.tables.insert((rules.players, rules.last_move_sweep));
    }
    seen
}

/// Wippen with budget enough for the endings: the analysis' search reaches the end of the
/// deal (almost) everywhere, and its values must be those of an exhaustive search to the end.
#[test]
fn wippens_analysis_matches_an_exhaustive_search_of_endings_to_the_end_of_the_deal() {
    let seen = wippen_endings(29, 150, Budget::nodes(BUDGET));
    assert_eq!(seen.unanalysed, 0, "every move analysed");
    assert!(seen.combined > 20, "{} moves of several groups or with extras compared", seen.combined);
    assert_eq!(seen.tables.len(), 6, "two to four players, the last move's sweep on and off: {:?}", seen.tables);
    assert!(seen.costly > 20, "{} costly moves compared", seen.costly);
    assert!(seen.to_the_end * 10 >= seen.positions * 9, "{} of {} to the end", seen.to_the_end, seen.positions);
    println!(
        "{} positions compared, {} to the end ({} costly moves, {} not simple, {} moves left without values)",
        seen.positions, seen.to_the_end, seen.costly, seen.combined, seen.unanalysed
    );
    assert!(seen.positions > 200, "{} positions compared", seen.positions);
}

/// Wippen with a small budget: the search stops short of the end (the horizon the analysis
/// gives), and its values must be those of an exhaustive search over that horizon, scored by
/// the points the cards captured by then would give.
#[test]
fn wippens_analysis_matches_an_exhaustive_search_of_endings_over_its_horizon() {
    let seen = wippen_endings(31, 150, Budget::nodes(25_000));
    assert_eq!(seen.tables.len(), 6, "two to four players, the last move's sweep on and off: {:?}", seen.tables);
    assert!(
        seen.positions - seen.to_the_end > 150,
        "{} of {} positions searched short of the end",
        seen.positions - seen.to_the_end,
        seen.positions
    );
    println!(
        "{} positions compared, {} to the end ({} costly moves, {} not simple, {} moves left without values)",
        seen.positions, seen.to_the_end, seen.costly, seen.combined, seen.unanalysed
    );
    assert!(seen.positions > 200, "{} positions compared", seen.positions);
}
