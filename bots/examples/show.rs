//! Plays a few deals between bots and prints every hand and action: `show [deals] [level]`.

use fipsen_bots::Level;
use fipsen_bots::arena::{Player, play_deal};
use fipsen_rules::{Deal, RuleSet, Seat, Seed};

fn main() {
    let mut args = std::env::args().skip(1);
    let deals: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(3);
    let level = match args.next().as_deref() {
        Some("easy") => Level::Easy,
        Some("normal") => Level::Normal,
        _ => Level::Strong,
    };
    let rules = RuleSet::prisdorf();
    for i in 0..deals {
        let seed = Seed::from_u64(1000 + i);
        let (deal, _) = Deal::new(rules, 1, Seat(3), seed);
        println!("== deal {i}");
        for s in 0..4 {
            println!("  seat {s}: {:?}", deal.hand(Seat(s)));
        }
        println!("  skat {:?} stock {:?}", deal.skat(), deal.stock());
        let played = play_deal(rules, Seat(3), seed, &[Player::of(level); 4], i);
        for (seat, action) in &played.actions {
            println!("  {seat}: {action:?}");
        }
        println!("  => {:?} {:?}", played.outcome, played.scores);
    }
}
