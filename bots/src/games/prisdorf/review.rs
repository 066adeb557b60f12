//! The review of a seat's deal once it is over: what his dealt hand was worth as each contract,
//! each of his calls against the best call at that moment, and — for the declarer — his play
//! trick by trick against the solver's best card. The review's types are the rules crate's
//! ([`fipsen_rules::review`]), re-exported here; this module computes them.

use fipsen_rules::{Action, Call, Card, Deal, DealView};

use crate::bot::{Bot, Level};
use crate::cards::card;
use crate::solver::{Position, Solver, Stakes};

pub use fipsen_rules::review::{CallReview, DurchReview, PlayReview, Review};

/// The pack order that deals `view`'s revealed hands, skat and stock.
fn pack_of(view: &DealView) -> Option<[Card; 25]> {
    let reveal = view.reveal.as_ref()?;
    let n = usize::from(view.rules.players.count());
    let mut pack = [Card::DIAMOND_SEVEN; 25];
    for i in 0..n {
        let seat = (usize::from(view.vorhand.0) + i) % n;
        let cards: Vec<Card> = reveal.dealt.get(seat)?.iter().collect();
        if cards.len() != 5 {
            return None;
        }
        pack[3 * i..3 * i + 3].copy_from_slice(&cards[..3]);
        pack[3 * n + 2 + 2 * i..3 * n + 4 + 2 * i].copy_from_slice(&cards[3..]);
    }
    let skat: Vec<Card> = reveal.skat.iter().collect();
    pack.get_mut(3 * n..3 * n + 2)?.copy_from_slice(skat.get(..2)?);
    for (i, c) in reveal.stock.iter().enumerate() {
        *pack.get_mut(5 * n + 2 + i)? = c;
    }
    Some(pack)
}

/// The review of `view`'s seat, from the view of a finished deal (everything revealed).
/// `level` and `seed` set the bot whose estimates are used. `None` if the view is not a seat's
/// view of a finished deal.
pub fn review(view: &DealView, level: Level, seed: u64) -> Option<Review> {
    let seat = view.viewer?;
    let reveal = view.reveal.as_ref()?;
    let dealt = *reveal.dealt.get(seat.index())?;
    let (mut deal, _) = Deal::from_pack(view.rules, 1, view.dealer, pack_of(view)?)?;
    let mut bot = Bot::new(level, seed);
    let estimates = bot.estimates(&deal.view(Some(seat)));
    let mut calls = Vec::new();
    for record in &view.calls {
        if record.seat == seat {
            let at = deal.view(Some(seat));
            let options: Vec<(Call, f64)> =
                bot.call_values(&at).into_iter().filter_map(|(a, v)| call_of(a).map(|c| (c, v))).collect();
            let score = options.iter().find(|(c, _)| *c == record.call).map_or(0.0, |o| o.1);
            let (best, best_score) =
                options.iter().copied().fold((Call::Pass, 0.0), |b, o| if o.1 > b.1 + 1e-9 { o } else { b });
            calls.push(CallReview { standing: at.standing, call: record.call, score, best, best_score, options });
        }
        let action = match record.call {
            Call::Bid { bid } => Action::Bid { bid },
            Call::Hold => Action::Hold,
            Call::Pass => Action::Pass,
        };
        deal.apply(record.seat, action).ok()?;
    }
    let (play, durch) = if view.declarer == Some(seat) { play_review(view) } else { (None, None) };
    Some(Review { seat, dealt, estimates, calls, play, durch })
}

fn call_of(action: Action) -> Option<Call> {
    match action {
        Action::Bid { bid } => Some(Call::Bid { bid }),
        Action::Hold => Some(Call::Hold),
        Action::Pass => Some(Call::Pass),
        _ => None,
    }
}

/// The declarer's play, trick by trick, with every card known.
fn play_review(view: &DealView) -> (Option<Vec<PlayReview>>, Option<DurchReview>) {
    let (Some(reveal), Some(game), Some(declarer)) = (view.reveal.as_ref(), view.game, view.declarer) else {
        return (None, None);
    };
    let Some(trumps) = game.trumps else { return (None, None) };
    let n = view.rules.players.count();
    let plays: Vec<_> = view.tricks.iter().flat_map(|t| t.cards.iter()).chain(view.trick.iter()).copied().collect();
    if plays.is_empty() {
        return (None, None);
    }
    // The hands when the first card was led: the cards left plus the cards played.
    let mut hands = [0u64; crate::solver::MAX_PLAYERS];
    for s in 0..usize::from(n) {
        hands[s] = reveal.hands.get(s).map_or(0, |h| h.bits());
    }
    for p in &plays {
        hands[p.seat.index()] |= 1 << p.card.index();
    }
    let mut pos = Position {
        players: n,
        hands,
        declarer: declarer.0,
        trumps: crate::cards::trump_mask(trumps),
        leader: plays[0].seat.0,
        trick: [0; crate::solver::MAX_PLAYERS],
        trick_len: 0,
    };
    let mut solver = Solver::new();
    let mut out = Vec::new();
    let mut durch = None;
    let (mut won, mut lost) = (0u8, 0u8);
    // Durch applies from the start for a 5 or a Kieker; after going on, from then on.
    let went_on = game.durch && game.tricks < 5;
    let mut on = game.tricks >= 5;
    let base = fipsen_rules::Game { durch: false, ..game };
    for (i, p) in plays.iter().enumerate() {
        let trick_no = (i / usize::from(n)) as u8 + 1;
        if p.seat == declarer {
            let game_now = fipsen_rules::Game { durch: on || game.tricks >= 5, ..base };
            let stakes = Stakes::from_game(&game_now, won, lost);
            let (best_score, best) = solver.solve(&pos, &stakes);
            let mut values = Vec::new();
            solver.card_values(&pos, &stakes, &mut values);
            let score = values.iter().find(|v| v.0 == p.card.index()).map_or(best_score, |v| v.1);
            out.push(PlayReview {
                trick: trick_no,
                before: pos.trick[..usize::from(pos.trick_len)].iter().map(|&c| card(c)).collect(),
                played: p.card,
                score,
                best: card(best),
                best_score,
                worse: score < best_score,
            });
        }
        let (next, winner) = pos.play(p.card.index());
        pos = next;
        if let Some(w) = winner {
            if w == declarer.0 {
                won += 1;
            } else {
                lost += 1;
            }
            // The Durch choice comes when he reaches his count without a loss.
            if !on && lost == 0 && won == game.tricks && won < 5 {
                let could = solver.at_least(&pos, 5 - won);
                durch = Some(DurchReview { went_on, could_take_all: could });
                on = went_on;
            }
        }
    }
    (Some(out), durch)
}
