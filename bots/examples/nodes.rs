//! Positions visited by the solver on a fixed set of deals (a measure that does not depend on
//! the machine's load): full deals at the first lead, and bidding-style trick counts.

use fipsen_bots::cards::{Bits, PACK, SUIT_MASKS};
use fipsen_bots::rng::Rng;
use fipsen_bots::solver::{Position, Solver, Stakes};

fn main() {
    let mut rng = Rng::new(3);
    let mut solver = Solver::new();
    let mut solve_nodes = Vec::new();
    let mut count_nodes = Vec::new();
    for i in 0..2000 {
        let players = if i % 2 == 0 { 4u8 } else { 3 };
        let mut cards: Vec<u8> = Bits(PACK).collect();
        rng.shuffle(&mut cards);
        let mut hands = [0u64; fipsen_bots::solver::MAX_PLAYERS];
        for s in 0..usize::from(players) {
            hands[s] = cards[5 * s..5 * s + 5].iter().fold(0, |m, &c| m | 1 << c);
        }
        let declarer = rng.index(usize::from(players)) as u8;
        let leader = rng.index(usize::from(players)) as u8;
        let trump = rng.index(4);
        let pos = Position {
            players,
            hands,
            declarer,
            trumps: SUIT_MASKS[trump],
            leader,
            trick: [0; fipsen_bots::solver::MAX_PLAYERS],
            trick_len: 0,
        };
        let tricks = 2 + rng.index(4) as u8;
        let stakes = Stakes { tricks, durch: tricks == 5, value: 2, won: 0, lost: 0, loss_factor: 2, durch_open: true };
        let before = solver.nodes;
        solver.solve(&pos, &stakes);
        solve_nodes.push(solver.nodes - before);
        if solver.nodes - before > 1500 && std::env::var("SHOW").is_ok() {
            let show = |m: u64| fipsen_bots::play::cards_of(m);
            println!(
                "{} nodes: players {players} declarer {declarer} leader {leader} trumps {trump} tricks {tricks}: {:?} {:?} {:?} {:?}",
                solver.nodes - before,
                show(hands[0]),
                show(hands[1]),
                show(hands[2]),
                show(hands[3])
            );
        }
        let before = solver.nodes;
        solver.reaches(&pos, &[2, 3, 4, 5]);
        count_nodes.push(solver.nodes - before);
    }
    for (name, mut v) in [("solve", solve_nodes), ("count", count_nodes)] {
        v.sort_unstable();
        let sum: u64 = v.iter().sum();
        println!(
            "{name}: mean {:.0}, median {}, p90 {}, p99 {}, max {}",
            sum as f64 / v.len() as f64,
            v[v.len() / 2],
            v[v.len() * 9 / 10],
            v[v.len() * 99 / 100],
            v[v.len() - 1]
        );
    }
}
