//! The cost of one reach table (the set-up every Wippen room of those rules waits for), alone
//! in a process, so that `/usr/bin/time -v` reports its CPU time and peak memory:
//!
//! ```sh
//! cargo build --release -p fipsen-rules --example wippen_reach
//! /usr/bin/time -v target/release/examples/wippen_reach 6 +-*/
//! ```
//!
//! The arguments: the group limit (1–6, default 6) and the operators (default all four).

use std::time::Instant;

use fipsen_rules::wippen::{Op, Operators, Rules, prepare};

fn main() {
    let mut args = std::env::args().skip(1);
    let g: u8 = args.next().and_then(|a| a.parse().ok()).unwrap_or(6);
    let ops: Vec<Op> = args
        .next()
        .map(|a| {
            a.chars()
                .filter_map(|c| match c {
                    '+' => Some(Op::Add),
                    '-' => Some(Op::Sub),
                    '*' => Some(Op::Mul),
                    '/' => Some(Op::Div),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_else(|| Op::ALL.to_vec());
    let rules = Rules { operators: Operators::of(&ops), max_group_piles: g, ..Rules::default() };
    let start = Instant::now();
    let table = prepare(&rules);
    let took = start.elapsed();
    println!(
        "groups of up to {g}, operators {:?}: {took:.2?}, {:.1} MiB held",
        rules.operators.list(),
        table.bytes() as f64 / f64::from(1 << 20)
    );
}
