//! A vs B with hand-set configurations (for tuning): `experiment <deals> <variant>`.

use fipsen_bots::arena::{Player, Stats, play_deal};
use fipsen_bots::rng::Hasher;
use fipsen_bots::{Config, Level};
use fipsen_rules::{RuleSet, Seat, Seed};

fn main() {
    let mut args = std::env::args().skip(1);
    let deals: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(500);
    let variant = args.next().unwrap_or_default();
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let normal = Player::of(Level::Normal);
    let strong = Player::of(Level::Strong);
    let (a, b) = match variant.as_str() {
        "noinfer" => (Player { config: Config { infer: false, ..strong.config }, ..strong }, normal),
        "bidonly" => (Player { config: Config { bid_samples: 64, ..normal.config }, ..normal }, normal),
        "playonly" => {
            (Player { config: Config { play_samples: 40, enumerate_limit: 300, ..normal.config }, ..normal }, normal)
        }
        "decisions" => {
            (Player { config: Config { decision_samples: 40, keep_candidates: 6, ..normal.config }, ..normal }, normal)
        }
        "infer" => (Player { config: Config { infer: true, ..normal.config }, ..normal }, normal),
        "margin" => (Player { config: Config { margin: -0.3, ..normal.config }, ..normal }, normal),
        "strongmargin" => (Player { config: Config { margin: -0.3, ..strong.config }, ..strong }, normal),
        _ => (strong, normal),
    };
    let rules = RuleSet::prisdorf();
    let mut diff = Stats::default();
    for i in 0..deals {
        let mut h = Hasher::new(seed);
        h.word(i);
        let deal_seed = Seed::from_u64(h.finish());
        let dealer = Seat((i % 4) as u8);
        let mut d = 0.0;
        for swap in [false, true] {
            let players: Vec<Player> = (0..4).map(|s| if (s % 2 == 0) != swap { a } else { b }).collect();
            let played = play_deal(rules, dealer, deal_seed, &players, h.finish());
            for s in 0..4 {
                let sign = if (s % 2 == 0) != swap { 1.0 } else { -1.0 };
                d += sign * f64::from(played.scores[s]) / 4.0;
            }
        }
        diff.add(d);
    }
    println!("{variant}: A - B = {:+.3} ± {:.3} per seat per deal over {deals} deals", diff.mean(), diff.ci95());
}
