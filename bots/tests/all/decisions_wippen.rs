//! The review of a seat's moves in a game of Wippen: it reads only what the seat knew — the
//! unseen cards exchanged between the other hands and the stock, with the same moves seen, give
//! the same review — it ranks a clearly better move above a worse one, and it reviews every
//! move of the seat, in order.

use fipsen_bots::games::decisions::MoveDecision;
use fipsen_bots::rng::Rng;
use fipsen_bots::wippen::{self, Bot, STRONG_SAMPLES};
use fipsen_bots::{GameBot, Level};
use fipsen_rules::wippen::{Deal, Expr, Move, MoveRecord, Pile, Rules, Series};
use fipsen_rules::{Card, CardSet, Seat, Seed};

fn card(code: &str) -> Card {
    code.parse().expect("a card code")
}

fn cards(codes: &str) -> Vec<Card> {
    codes.split(' ').map(card).collect()
}

/// Plays `deal` on to its end, each seat by the normal bot; returns it with the moves made.
fn play_out(mut deal: Deal, seed: u64) -> Deal {
    let mut steps = 0;
    while let Some(seat) = deal.turn() {
        let mv = Bot::new(Level::Normal, seed.wrapping_mul(1_000) + steps)
            .choose(&deal.view(Some(seat)))
            .expect("a move at its turn");
        deal.apply(seat, mv).expect("the bot's move is legal");
        steps += 1;
        assert!(steps < 200, "the game ends");
    }
    deal
}

/// The moves of a finished game.
fn moves_of(deal: &Deal) -> Vec<MoveRecord> {
    deal.moves().to_vec()
}

/// A game of `n` players arranged from a shuffled pack: four loose cards on the table, four
/// cards in each hand and a stock for one more round; seat 0 moves first.
fn arranged(n: u8, pack: &[Card]) -> Deal {
    let n_us = usize::from(n);
    let table = pack[..4].iter().map(|&card| Pile::Loose { card }).collect();
    let hands = (0..n_us).map(|s| pack[4 + 4 * s..8 + 4 * s].iter().copied().collect()).collect();
    let stock = pack[4 + 4 * n_us..4 + 8 * n_us].to_vec();
    let rules = Rules { players: n, ..Rules::default() };
    Deal::arranged(rules, Seat(n - 1), table, hands, stock, Seat(0))
}

/// (a) With `n` players, seat 0 moves first in each round, so each other seat's last card of
/// the first round is still hidden at all of seat 0's moves of that round, as is the stock:
/// exchanging those cards among the other hands and the stock, the same moves are made up to
/// seat 0's last move of the round, and his review of those moves is exactly the same.
#[test]
fn the_review_is_the_same_whatever_the_unseen_cards() {
    let mut rng = Rng::new(31);
    let mut compared = 0;
    let mut hidden_differed = 0;
    let mut tries = 0;
    for (round, n) in [2u8, 3, 2, 4].into_iter().enumerate() {
        let n_us = usize::from(n);
        // A game whose moves of the first round stay legal with the cards exchanged (a build
        // needs its builder to keep a card of its value: not every exchange allows the same moves).
        let (start_a, moves_a, start_b, b) = loop {
            tries += 1;
            assert!(tries < 100, "exchanges that keep the moves legal are found");
            let mut pack: Vec<Card> = CardSet::ALL.iter().collect();
            rng.shuffle(&mut pack);
            let start_a = arranged(n, &pack);
            let moves_a = moves_of(&play_out(start_a.clone(), tries));
            // Each other seat's last card of the first round, still hidden at seat 0's moves.
            let late: Vec<(Seat, Card)> = (1..n_us).map(|s| (Seat(s as u8), moves_a[3 * n_us + s].mv.card())).collect();
            // Exchange those cards and the stock among themselves.
            let mut pool: Vec<Card> = late.iter().map(|&(_, c)| c).chain(start_a.stock().iter().copied()).collect();
            let before = pool.clone();
            while pool == before {
                rng.shuffle(&mut pool);
            }
            let mut hands: Vec<CardSet> = start_a.hands().to_vec();
            for (k, &(seat, c)) in late.iter().enumerate() {
                hands[seat.index()].remove(c);
                hands[seat.index()].insert(pool[k]);
            }
            if hands != start_a.hands() {
                hidden_differed += 1;
            }
            let start_b = Deal::arranged(
                *start_a.rules(),
                start_a.dealer(),
                start_a.table().to_vec(),
                hands,
                pool[late.len()..].to_vec(),
                Seat(0),
            );
            // The same moves up to seat 0's last move of the round, then the bots play on.
            let mut b = start_b.clone();
            let same = moves_a[..=last_of(n_us)].iter().all(|r| {
                let seen = replayed(&start_a, &moves_a, b.moves().len()).view(Some(Seat(0)));
                assert_eq!(b.view(Some(Seat(0))), seen, "seat 0 sees the same game");
                b.apply(r.seat, r.mv.clone()).is_ok()
            });
            if same {
                break (start_a, moves_a, start_b, play_out(b, 100 + round as u64));
            }
        };
        let bot = Bot::new(Level::Strong, 9);
        let review_a = wippen::review_from(&bot, start_a, &moves_a, Seat(0)).expect("a review");
        let review_b = wippen::review_from(&bot, start_b, b.moves(), Seat(0)).expect("a review");
        let first_round = |m: &&MoveDecision| m.at as usize <= last_of(n_us);
        let same: Vec<_> = review_a.moves.iter().filter(first_round).collect();
        let same_b: Vec<_> = review_b.moves.iter().filter(first_round).collect();
        assert_eq!(same.len(), 4, "seat 0's four moves of the first round");
        assert_eq!(same, same_b, "{n} players: the review reads only what seat 0 saw");
        assert!(same.iter().any(|m| m.samples > 0), "some of the moves were sampled");
        compared += same.len();
    }
    assert_eq!(compared, 16);
    assert!(hidden_differed > 0, "the hidden hands were changed");
}

/// The index of seat 0's last move of the first round, among `n` players.
fn last_of(n: usize) -> usize {
    3 * n
}

/// `start` with the first `k` of `moves` made.
fn replayed(start: &Deal, moves: &[MoveRecord], k: usize) -> Deal {
    let mut d = start.clone();
    for r in &moves[..k] {
        d.apply(r.seat, r.mv.clone()).expect("the recorded move replays");
    }
    d
}

/// (b) ♦10 alone on the table and ♥10 in hand: taking it sweeps the table (♥10 ♦10, worth
/// 1 + 7 and 8 for the sweep as the easy bot counts them) and leaves nothing; discarding ♣5
/// instead leaves ♦10 to the other player. The review puts the capture first, as the bot's
/// move, clearly above the seat's discard.
#[test]
fn a_sweep_of_the_good_ten_ranks_above_a_discard_that_leaves_it() {
    let mut rng = Rng::new(5);
    let hand = cards("H10 C5 S9 H4");
    let shown: CardSet = hand.iter().copied().chain([card("D10")]).collect();
    let mut rest: Vec<Card> = CardSet::ALL.difference(shown).iter().collect();
    rng.shuffle(&mut rest);
    let start = Deal::arranged(
        Rules::default(),
        Seat(1),
        vec![Pile::Loose { card: card("D10") }],
        vec![hand.iter().copied().collect(), rest[..4].iter().copied().collect()],
        rest[4..12].to_vec(),
        Seat(0),
    );
    let discard = Move::Discard { card: card("C5") };
    let mut deal = start.clone();
    deal.apply(Seat(0), discard.clone()).unwrap();
    let deal = play_out(deal, 3);
    let review = wippen::review_from(&Bot::new(Level::Strong, 2), start, deal.moves(), Seat(0)).unwrap();
    let first = &review.moves[0];
    assert_eq!(first.at, 0);
    assert_eq!(first.chosen, discard);
    assert_eq!(first.samples, STRONG_SAMPLES as u32);
    let sweep = Move::Capture { card: card("H10"), groups: vec![Expr::Card(card("D10"))] };
    assert_eq!(first.bot, sweep, "the bot sweeps");
    let best = &first.options[0];
    assert_eq!(best.action, sweep);
    assert_eq!(best.taken, cards("H10 D10"));
    assert_eq!((best.worth, best.sweep), (1 + 7 + 8, true));
    assert!(best.left.is_empty());
    let chosen = first.options.iter().find(|o| o.action == discard).expect("the seat's move is weighed");
    assert!(chosen.taken.is_empty() && chosen.worth == 0 && !chosen.sweep);
    assert_eq!(chosen.left, cards("D10 C5"));
    assert!(
        best.value - best.margin > chosen.value + chosen.margin + 1.0,
        "the sweep {:.2}±{:.2} is clearly better than the discard {:.2}±{:.2}",
        best.value,
        best.margin,
        chosen.value,
        chosen.margin
    );
    // Options best first.
    assert!(first.options.windows(2).all(|w| w[0].value >= w[1].value));
}

/// (c) A whole game dealt from a seed: each of the seat's moves is reviewed, in order, `at`
/// naming his move in the game, his move and the bot's among the options, best first, the
/// seat's move taking what the game recorded; the last card of each round is valued without
/// sampling. A game not over has no review.
#[test]
fn every_move_of_the_seat_is_reviewed_in_order() {
    let (mut series, _) = Series::new(Rules::default(), Seed::from_u64(12)).unwrap();
    let mut steps = 0;
    let mut unfinished = None;
    while !series.deal().is_over() {
        let seat = series.deal().turn().unwrap();
        let mv = Bot::new(Level::Normal, steps).choose_in_series(&series.view(Some(seat))).unwrap();
        series.apply(seat, mv).unwrap();
        steps += 1;
        if steps == 10 {
            unfinished = Some(series.deal().clone());
        }
    }
    let deal = series.deal();
    let mut bot = Bot::new(Level::Strong, 4);
    assert_eq!(bot.review(&unfinished.unwrap(), Seat(0)), None, "a game not over has no review");
    assert_eq!(bot.review(deal, Seat(2)), None, "no third seat in a game of two");
    // The dealer plays the last card of each round.
    let seat = deal.dealer();
    let review = bot.review(deal, seat).expect("a finished game has a review");
    assert_eq!(review.seat, seat);
    let mine: Vec<(usize, &MoveRecord)> = deal.moves().iter().enumerate().filter(|(_, r)| r.seat == seat).collect();
    assert_eq!(review.moves.len(), mine.len());
    assert_eq!(mine.len(), 24, "two players each play 24 cards");
    let mut unsampled = 0;
    for (m, (at, record)) in review.moves.iter().zip(&mine) {
        assert_eq!(m.at as usize, *at);
        assert_eq!(m.chosen, record.mv);
        assert!(m.options.iter().any(|o| o.action == m.chosen), "the seat's move at {at} is weighed");
        assert!(m.options.iter().any(|o| o.action == m.bot), "the bot's move at {at} is weighed");
        assert!(m.options.windows(2).all(|w| w[0].value >= w[1].value), "best first at {at}");
        // The seat's move takes what the game recorded, and leaves what the next view shows.
        let o = m.options.iter().find(|o| o.action == m.chosen).unwrap();
        let taken: CardSet = o.taken.iter().copied().collect();
        assert_eq!(taken, record.taken.iter().copied().collect::<CardSet>(), "taken at {at}");
        assert_eq!(o.sweep, record.sweep, "sweep at {at}");
        if (at + 1) % 8 == 0 {
            assert_eq!(m.samples, 0, "the last card of a round at {at} is not sampled");
        }
        if m.samples == 0 {
            unsampled += 1;
            assert!(m.options.iter().all(|o| o.margin == 0.0));
        } else {
            assert_eq!(m.samples, STRONG_SAMPLES as u32);
            assert!(m.options.len() >= 2);
            assert!(m.options.iter().all(|o| o.margin >= 0.0 && o.margin.is_finite()));
        }
    }
    // The last card of each of the six rounds at least is valued without sampling.
    assert!(unsampled >= 6, "{unsampled} moves without sampling");
    assert!(unsampled < 24, "most moves are sampled");
}
