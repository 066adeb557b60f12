//! Compares the bidding estimate of the game a declarer played with what happened.

use fipsen_bots::arena::{Player, play_deal};
use fipsen_bots::rng::Hasher;
use fipsen_bots::{Bot, Level};
use fipsen_rules::{Bid, Deal, Outcome, RuleSet, Seat, Seed};

fn main() {
    let mut args = std::env::args().skip(1);
    let deals: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(500);
    let level = match args.next().as_deref() {
        Some("strong") => Level::Strong,
        _ => Level::Normal,
    };
    let rules = RuleSet::prisdorf();
    let players = vec![Player::of(level); 4];
    // bins of estimated win chance: (count, est win sum, actual wins, est score sum, actual score sum)
    let mut bins = [(0u32, 0.0f64, 0.0f64, 0.0f64, 0.0f64); 10];
    for i in 0..deals {
        let mut h = Hasher::new(9);
        h.word(i);
        let seed = Seed::from_u64(h.finish());
        let dealer = Seat((i % 4) as u8);
        let played = play_deal(rules, dealer, seed, &players, h.finish());
        let (declarer, game, score) = match played.outcome {
            Outcome::Won { declarer, game, .. } | Outcome::Lost { declarer, game, .. } => {
                (declarer, game, played.scores[declarer.index()])
            }
            _ => continue,
        };
        if game.kieker {
            continue;
        }
        // Re-estimate the declarer's dealt hand as his bot did in the auction.
        let (deal, _) = Deal::new(rules, 1, dealer, seed);
        let view = deal.view(Some(declarer));
        let mut hs = Hasher::new(h.finish());
        hs.word(u64::from(declarer.0));
        let mut bot = Bot::new(level, hs.finish());
        let est = bot.estimates(&view);
        let ruten = game.ruten();
        let e = est.iter().find(|e| e.game == Bid::Tricks { tricks: game.tricks, hand: game.hand, ruten }).copied();
        let Some(e) = e else { continue };
        let b = ((e.win * 10.0) as usize).min(9);
        bins[b].0 += 1;
        bins[b].1 += e.win;
        bins[b].2 += f64::from(u8::from(score > 0));
        bins[b].3 += e.score;
        bins[b].4 += f64::from(score);
    }
    println!("bin  n   est_win  act_win  est_score  act_score");
    for (i, b) in bins.iter().enumerate() {
        if b.0 == 0 {
            continue;
        }
        let n = f64::from(b.0);
        println!("{i}   {:4}  {:.3}  {:.3}  {:+.2}  {:+.2}", b.0, b.1 / n, b.2 / n, b.3 / n, b.4 / n);
    }
}
