//! The review of a finished deal: every contract estimated, every call of the seat compared
//! with the best call, and the declarer's cards checked against the solver on the real deal.

use crate::common;

use common::*;
use fipsen_bots::arena::{Player, play_from};
use fipsen_bots::review::{Review, review};
use fipsen_bots::rng::Rng;
use fipsen_bots::solver::{Position, Solver, Stakes};
use fipsen_bots::{Config, Level};
use fipsen_rules::{Action, Bid, Call, Phase, Seat};

#[test]
fn reviews_cover_every_call_and_every_card_of_the_declarer() {
    let mut rng = Rng::new(4242);
    let mut declarer_reviews = 0;
    let mut worse_found = 0;
    let mut deals = 0;
    let mut went_on = 0;
    while deals < 60 {
        let rules = random_rules(&mut rng);
        let deal = random_deal(&mut rng, rules);
        let n = rules.players.count();
        // Easy bots make mistakes for the review to find; normal ones go on for Durch.
        let normal = Config { bid_samples: 8, play_samples: 4, decision_samples: 8, ..Config::of(Level::Normal) };
        let players: Vec<Player> = (0..n)
            .map(|s| {
                if (s + deals as u8).is_multiple_of(2) {
                    Player { level: Level::Easy, config: Config::of(Level::Easy) }
                } else {
                    Player { level: Level::Normal, config: normal }
                }
            })
            .collect();
        let played = play_from(deal.clone(), &players, deals);
        deals += 1;
        // Replay to have the real deal at every step.
        let mut replay = deal.clone();
        let mut expected = Vec::new();
        let mut solver = Solver::new();
        for &(seat, action) in &played.actions {
            if replay.phase() == Phase::Play && Some(seat) == replay.declarer() {
                let pos = Position::from_deal(&replay).unwrap();
                let game = replay.game().unwrap();
                let (won, lost) = replay.tricks_taken();
                let stakes = Stakes::from_game(&game, won, lost);
                let (best, _) = solver.solve(&pos, &stakes);
                let mut values = Vec::new();
                solver.card_values(&pos, &stakes, &mut values);
                let Action::Play { card } = action else { panic!("a card") };
                let mine = values.iter().find(|v| v.0 == card.index()).unwrap().1;
                expected.push((card, mine, best));
            }
            went_on += usize::from(action == Action::GoOn);
            replay.apply(seat, action).unwrap();
        }
        for s in 0..n {
            let seat = Seat(s);
            let view = replay.view(Some(seat));
            let r: Review = review(&view, Level::Normal, 3).expect("a finished deal");
            let json = serde_json::to_string(&r).unwrap();
            assert_eq!(serde_json::from_str::<Review>(&json).unwrap().calls.len(), r.calls.len());
            let his_calls: Vec<Call> = view.calls.iter().filter(|c| c.seat == seat).map(|c| c.call).collect();
            assert_eq!(r.calls.iter().map(|c| c.call).collect::<Vec<_>>(), his_calls);
            for c in &r.calls {
                assert!(c.best_score >= c.score - 1e-9, "the best call is at least as good");
                assert!(c.options.iter().any(|o| o.0 == c.call), "his call was among the options");
            }
            let min = rules.min_bid;
            let games = r.estimates.iter().filter(|e| matches!(e.game, Bid::Tricks { .. })).count();
            assert_eq!(games, 4 * usize::from(6 - min));
            assert_eq!(r.estimates.iter().any(|e| e.game == Bid::Kieker), !r.dealt.has_court());
            if Some(seat) == replay.declarer() && !expected.is_empty() {
                declarer_reviews += 1;
                let choice = played.actions.iter().find(|a| matches!(a.1, Action::Stop | Action::GoOn));
                assert_eq!(r.durch.map(|d| d.went_on), choice.map(|a| a.1 == Action::GoOn), "the Durch choice");
                let play = r.play.as_ref().expect("the declarer's play is reviewed");
                assert_eq!(play.len(), expected.len());
                for (p, &(card, mine, best)) in play.iter().zip(&expected) {
                    assert_eq!((p.played, p.score, p.best_score), (card, mine, best));
                    assert_eq!(p.worse, mine < best);
                    worse_found += usize::from(p.worse);
                }
            } else {
                assert!(r.play.is_none());
            }
        }
    }
    assert!(declarer_reviews > 10, "{declarer_reviews} declarers reviewed");
    assert!(worse_found > 0, "easy bots make mistakes the review finds");
    assert!(went_on > 0, "a declarer went on for Durch");
}
