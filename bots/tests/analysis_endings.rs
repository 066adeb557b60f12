//! The card-by-card analysis of the trick games where every seat plays for himself
//! (Thedinghausen, Tippen), checked against an exhaustive search written here: small endings of
//! deals played at random through the rules crate, every trump suit and every pack the game
//! allows. The search knows nothing of the bots: it plays every legal card through the rules'
//! own deal (its follow duties, its trick winners, its end of the deal) and counts the tricks
//! the rules credit.

use std::collections::BTreeSet;

use fipsen_bots::analysis::{Analysis, Budget};
use fipsen_bots::games::FinishedDeal;
use fipsen_bots::rng::Rng;
use fipsen_rules::{Card, Pack, Seat, Seed, Suit, thedinghausen, tippen};

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
/// the best value before the card, the value after it and the best cards. Returns how many
/// positions were compared.
fn compare<D: Played>(
    what: &str,
    analysis: &Analysis,
    positions: &[Position<D>],
    side_of: impl Fn(Seat) -> Vec<bool>,
) -> usize {
    for p in positions {
        let index = p.deal.played();
        let side = side_of(p.seat);
        let mut values: Vec<(Card, i32)> = p
            .deal
            .legal(p.seat)
            .into_iter()
            .map(|card| {
                let mut next = p.deal.clone();
                next.play(p.seat, card);
                (card, best(&next, &side))
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
            compared += compare(&what, &analysis, &positions, |seat| (0..players).map(|s| s == seat.0).collect());
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
                compared += compare(&what, &analysis, &positions, |seat| {
                    (0..thedinghausen::Deal::PLAYERS)
                        .map(|s| match fipsen {
                            Some(f) if f == seat => s == f.0,
                            Some(f) => s != f.0,
                            None => s == seat.0,
                        })
                        .collect()
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
    assert!(compared > 200, "{compared} positions compared");
}
