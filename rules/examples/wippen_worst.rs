//! Searches for the Wippen positions whose listing of legal moves (§E9) and whose selection
//! query take longest, for the issue's "listing every legal move of a position must stay fast
//! with a full table (report the worst case you find and its time)". The figures go to
//! BENCHMARKS.md; `benches/wippen.rs` measures the positions found here with criterion.
//!
//! `cargo run --release -p fipsen-rules --example wippen_worst` (about ten minutes on one core
//! and 3 GiB at its peak; `-- quick` for a shorter run, `-- selections` for part 4 alone).
//! Every search is seeded. Parts 1 and 2 rank positions by a count, so every run finds the same
//! ones; the times of parts 3 and 4 are single measurements, and the climbs of part 4 follow
//! them, so they may end elsewhere on another run.
//!
//! 1. **Played games.** Two-, three- and four-player games (default options) in which every seat
//!    discards with a given probability (100, 95 or 85 %) and otherwise makes a random legal
//!    move; every position met is listed. The most piles a four-card hand can face is 45: at two
//!    players, the dealer's first move of the sixth deal when nobody has captured.
//! 2. **Constructed positions.** The 45-pile table of two players with four cards in hand and
//!    three in the other hand, climbed from several starts (the 45 cards of lowest value, and
//!    random ones): a step swaps a table card with a card off the table, swaps a card of one
//!    hand with one of the other, or joins two loose cards into a building of the other player (a value
//!    their pair can make, one the other player holds). A step is kept when the listing has at
//!    least as many pile sets. The listing's work — a lookup per set of at most g piles, and a
//!    witness tree per listed set — grows with that count.
//! 3. **The worst position, timed**: `Position::raw` (what views and bots use), `Deal::listing`
//!    and `Deal::legal_actions` (both build witness trees) under the default options; `raw`
//!    with `max_group_piles` 5 and 6 (the most the options allow), and the first computation of
//!    the reach tables of g = 5 and 6.
//! 4. **Selections.** `Deal::options(seat, card, piles)` splits a selection into listed groups by
//!    a search over its subsets. (a) For each hand card of several positions (the worst listing
//!    position, and 45-pile tables of the smallest values with operators `+` only, `+ -`, or all
//!    four), the selection grows pile by pile in table order until a query takes over 0.2 s;
//!    then, at the largest size that stayed under it, a climb toggles piles in and out of
//!    random selections, keeping the slower one. (b) Under the default options, random tables
//!    (cards up to a random value, some higher ones), random hands and random selections of 10
//!    to 39 piles, every hand card asked. (c) From the slowest selection of (b) and that of the
//!    small-value table under all operators, a climb toggles one pile (or changes the card) and
//!    keeps the change when the query is no faster (each time the better of two measurements).

use std::time::{Duration, Instant};

use fipsen_rules::wippen::{
    Building, BuildingId, Deal, Move, Op, Operators, Pile, PileRef, Position, RawCard, Rules, value,
};
use fipsen_rules::{Card, CardSet, Seat, Seed};

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n.max(1) as u64) as usize
    }
}

fn timed<T>(f: impl FnOnce() -> T) -> (Duration, T) {
    let start = Instant::now();
    let out = f();
    (start.elapsed(), out)
}

/// The pile sets a listing holds: capture groups, build cores and extras.
fn sets(raw: &[RawCard]) -> usize {
    raw.iter()
        .map(|rc| rc.capture.len() + rc.builds.iter().map(|b| b.cores.len() + b.extras.len()).sum::<usize>())
        .sum()
}

/// Piles written by their names: a card's code, a building's id.
fn names(piles: &[PileRef]) -> String {
    let names: Vec<String> = piles
        .iter()
        .map(|p| match p {
            PileRef::Card(c) => c.to_string(),
            PileRef::Building(b) => b.to_string(),
        })
        .collect();
    names.join(" ")
}

/// A position to list: the table, the mover's hand and the other hands.
#[derive(Clone, Debug)]
struct Arranged {
    rules: Rules,
    table: Vec<Pile>,
    hand: CardSet,
    /// The other seats' hands, from the mover's left.
    others: Vec<CardSet>,
}

impl Arranged {
    fn position(&self) -> Position<'_> {
        Position { rules: &self.rules, table: &self.table, hand: self.hand, seat: Seat(0) }
    }

    /// The position as a game, seat 0 to move.
    fn deal(&self) -> Deal {
        let mut hands = vec![self.hand];
        hands.extend(self.others.iter().copied());
        let dealer = Seat(self.rules.players - 1);
        Deal::arranged(self.rules, dealer, self.table.clone(), hands, Vec::new(), Seat(0))
    }

    fn describe(&self) -> String {
        let table: Vec<String> = self
            .table
            .iter()
            .map(|p| match p {
                Pile::Loose { card } => card.to_string(),
                Pile::Building(b) => {
                    let cards: Vec<String> = b.cards.iter().map(Card::to_string).collect();
                    format!("#{}={} of seat {} ({})", b.id.0, b.value, b.owner.0, cards.join(" "))
                }
            })
            .collect();
        let hand: Vec<String> = self.hand.iter().map(|c| c.to_string()).collect();
        let others: Vec<String> =
            self.others.iter().map(|h| h.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ")).collect();
        format!(
            "{} piles: {}\n    hand (seat 0 to move): {}\n    other hands: {}",
            self.table.len(),
            table.join(" "),
            hand.join(" "),
            others.join(" | ")
        )
    }
}

/// Part 1: positions met in played games. Returns the one whose listing holds most sets.
fn played_games(quick: bool) -> (usize, Arranged) {
    let mut best: Option<(usize, Arranged)> = None;
    let mut found_in = String::new();
    let seeds = if quick { 4 } else { 40 };
    let mut positions = 0usize;
    let start = Instant::now();
    for players in [2u8, 3, 4] {
        let rules = Rules { players, ..Rules::default() };
        for discard_percent in [100, 95, 85] {
            for seed in 0..seeds {
                let (mut deal, _) = Deal::new(rules, 1, Seat(players - 1), Seed::from_u64(seed));
                let mut rng = Rng(seed * 1000 + discard_percent as u64);
                while let Some(seat) = deal.turn() {
                    let pos = deal.position(seat);
                    let raw = pos.raw();
                    positions += 1;
                    let count = sets(&raw);
                    if best.as_ref().is_none_or(|(b, _)| count > *b) {
                        let n = usize::from(players);
                        let others = (1..n).map(|k| deal.hand(Seat(((seat.index() + k) % n) as u8))).collect();
                        // The mover becomes seat 0: the other seats' buildings are another's.
                        let table = deal
                            .table()
                            .iter()
                            .map(|p| match p {
                                Pile::Building(b) => Pile::Building(Building {
                                    owner: Seat(((usize::from(b.owner.0) + n - seat.index()) % n) as u8),
                                    ..b.clone()
                                }),
                                loose => loose.clone(),
                            })
                            .collect();
                        best = Some((count, Arranged { rules, table, hand: deal.hand(seat), others }));
                        found_in = format!(
                            "{players} players, discarding {discard_percent} %, seed {seed}, move {}",
                            deal.moves().len() + 1
                        );
                    }
                    let mv = random_move(&deal, seat, &raw, discard_percent, &mut rng);
                    deal.apply(seat, mv).expect("a legal move");
                }
            }
        }
    }
    let (count, arranged) = best.expect("a position");
    println!(
        "1. played games: {positions} positions of {} games in {:.0?}; the largest listing: {count} sets ({found_in}) \
         on\n    {}",
        3 * 3 * seeds,
        start.elapsed(),
        arranged.describe()
    );
    (count, arranged)
}

/// A discard with probability `discard_percent` where one is allowed, else a random legal move.
fn random_move(deal: &Deal, seat: Seat, raw: &[RawCard], discard_percent: usize, rng: &mut Rng) -> Move {
    let pos = deal.position(seat);
    let discards: Vec<Card> = raw.iter().filter(|rc| rc.discard).map(|rc| rc.card).collect();
    if !discards.is_empty() && rng.below(100) < discard_percent {
        return Move::Discard { card: discards[rng.below(discards.len())] };
    }
    loop {
        let rc = &raw[rng.below(raw.len())];
        match rng.below(3) {
            0 if rc.discard => return Move::Discard { card: rc.card },
            1 if !rc.capture.is_empty() => {
                let used = rc.capture[rng.below(rc.capture.len())] | rc.must_include;
                if let Some(m) = pos.options_mask(rc.card, used).into_iter().find(|m| matches!(m, Move::Capture { .. }))
                {
                    return m;
                }
            }
            2 if !rc.builds.is_empty() => {
                let b = &rc.builds[rng.below(rc.builds.len())];
                if let Some(&core) = b.cores.get(rng.below(b.cores.len().max(1))).filter(|&&c| c != 0)
                    && let Some(m) = pos
                        .options_mask(rc.card, core)
                        .into_iter()
                        .find(|m| matches!(m, Move::Build { value, .. } if *value == b.value))
                {
                    return m;
                }
            }
            _ => {}
        }
    }
}

/// The 45-pile table of two players: `off` are the seven cards not on it, the first four of
/// them the mover's hand.
fn full_table(rules: Rules, off: &[Card]) -> Arranged {
    let off_set: CardSet = off.iter().copied().collect();
    let table = CardSet::ALL.iter().filter(|c| !off_set.contains(*c)).map(|card| Pile::Loose { card }).collect();
    Arranged {
        rules,
        table,
        hand: off[..4].iter().copied().collect(),
        others: vec![off[4..].iter().copied().collect()],
    }
}

/// The values two piles can make (1–13) under all four operators.
fn pair_values(a: u8, b: u8) -> Vec<u8> {
    let (a, b) = (u64::from(a), u64::from(b));
    let mut out: Vec<u8> = Op::ALL
        .iter()
        .flat_map(|op| [op.apply(a, b), op.apply(b, a)])
        .flatten()
        .filter(|v| (1..=13).contains(v))
        .map(|v| v as u8)
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// One step of the climb: a changed position (still 52 cards, one hand of four, one of three).
fn mutate(a: &Arranged, rng: &mut Rng) -> Option<Arranged> {
    let mut next = a.clone();
    match rng.below(4) {
        // A table card for a card off the table.
        0 | 1 => {
            let loose: Vec<usize> =
                (0..next.table.len()).filter(|&i| matches!(next.table[i], Pile::Loose { .. })).collect();
            let i = *loose.get(rng.below(loose.len()))?;
            let Pile::Loose { card } = next.table[i] else { return None };
            let off: Vec<Card> = next.hand.iter().chain(next.others[0].iter()).collect();
            let out = off[rng.below(off.len())];
            if next.hand.contains(out) {
                next.hand.remove(out);
                next.hand.insert(card);
            } else {
                next.others[0].remove(out);
                next.others[0].insert(card);
            }
            next.table[i] = Pile::Loose { card: out };
        }
        // A card of the hand for one of the other hand.
        2 => {
            let h: Vec<Card> = next.hand.iter().collect();
            let o: Vec<Card> = next.others[0].iter().collect();
            let (x, y) = (h[rng.below(h.len())], o[rng.below(o.len())]);
            next.hand.remove(x);
            next.hand.insert(y);
            next.others[0].remove(y);
            next.others[0].insert(x);
        }
        // Two loose cards joined into a building of the other player.
        _ => {
            let loose: Vec<usize> =
                (0..next.table.len()).filter(|&i| matches!(next.table[i], Pile::Loose { .. })).collect();
            if loose.len() < 2 {
                return None;
            }
            let (i, j) = (loose[rng.below(loose.len())], loose[rng.below(loose.len())]);
            if i == j {
                return None;
            }
            let (Pile::Loose { card: x }, Pile::Loose { card: y }) = (&next.table[i], &next.table[j]) else {
                return None;
            };
            let (x, y) = (*x, *y);
            let held: Vec<u8> = next.others[0].iter().map(value).collect();
            let values: Vec<u8> = pair_values(value(x), value(y)).into_iter().filter(|v| held.contains(v)).collect();
            let v = *values.get(rng.below(values.len()))?;
            let id = next.table.iter().filter_map(|p| p.building().map(|b| b.id.0)).max().unwrap_or(0) + 1;
            let building = Building { id: BuildingId(id), value: v, owner: Seat(1), cards: vec![x, y] };
            next.table.retain(|p| *p != Pile::Loose { card: x } && *p != Pile::Loose { card: y });
            next.table.push(Pile::Building(building));
        }
    }
    Some(next)
}

/// Part 2: the climb from several starts. Returns the position with most sets.
fn climb(quick: bool) -> (usize, Arranged) {
    let rules = Rules::default();
    let steps = if quick { 40 } else { 250 };
    let mut by_value: Vec<Card> = CardSet::ALL.iter().collect();
    by_value.sort_by_key(|&c| (std::cmp::Reverse(value(c)), c));
    let mut starts = vec![
        // The 45 cards of lowest value on the table; four kings... off it: hand of the highest.
        ("lowest values, kings and a queen off", full_table(rules, &by_value[..7])),
    ];
    // The lowest values, with a hand of four different small values.
    let hand_small: Vec<Card> =
        ["SA", "S2", "S3", "S4", "CK", "HK", "DK"].iter().map(|c| c.parse().expect("a card")).collect();
    starts.push(("lowest values, hand A 2 3 4", full_table(rules, &hand_small)));
    let mut rng = Rng(2026);
    for _ in 0..3 {
        let mut cards: Vec<Card> = CardSet::ALL.iter().collect();
        for i in (1..cards.len()).rev() {
            cards.swap(i, rng.below(i + 1));
        }
        starts.push(("random", full_table(rules, &cards[..7])));
    }
    let mut best: Option<(usize, Arranged)> = None;
    let start = Instant::now();
    for (name, mut a) in starts {
        let mut count = sets(&a.position().raw());
        let first = count;
        for _ in 0..steps {
            let Some(next) = mutate(&a, &mut rng) else { continue };
            let c = sets(&next.position().raw());
            if c >= count {
                count = c;
                a = next;
            }
        }
        println!("2. climb from {name}: {first} → {count} sets");
        if best.as_ref().is_none_or(|(b, _)| count > *b) {
            best = Some((count, a));
        }
    }
    let (count, a) = best.expect("a start");
    println!("   the climb took {:.0?}; the largest listing: {count} sets on\n    {}", start.elapsed(), a.describe());
    (count, a)
}

/// Part 3: the worst position timed.
fn time_listing(worst: &Arranged, quick: bool) {
    let pos = worst.position();
    let deal = worst.deal();
    let (t_raw, raw) = timed(|| pos.raw());
    println!("3. the worst position, default options (g = 4): {} sets", sets(&raw));
    println!("   Position::raw {t_raw:.2?}");
    let (t_listing, listing) = timed(|| deal.listing(Seat(0)));
    let groups: usize = listing
        .cards
        .iter()
        .map(|c| c.capture.len() + c.builds.iter().map(|b| b.cores.len() + b.extras.len()).sum::<usize>())
        .sum();
    drop(listing);
    println!("   Deal::listing {t_listing:.2?} ({groups} groups with witness trees)");
    let (t_legal, legal) = timed(|| deal.legal_actions(Seat(0)));
    println!("   Deal::legal_actions {t_legal:.2?} ({} simple moves)", legal.len());
    drop(legal);
    for g in [5u8, 6] {
        let rules = Rules { max_group_piles: g, ..worst.rules };
        let tiny = Position { rules: &rules, table: &worst.table[..1], hand: worst.hand, seat: Seat(0) };
        let (t_reach, _) = timed(|| tiny.raw());
        let a = Arranged { rules, ..worst.clone() };
        let (t, raw) = timed(|| a.position().raw());
        println!(
            "   g = {g}: first use of the reach table {t_reach:.2?}; Position::raw {t:.2?} ({} sets, {} MiB of masks)",
            sets(&raw),
            (sets(&raw) * 8) >> 20
        );
        drop(raw);
        // Deal::listing grows with the sets; at g = 6 only a smaller table is listed whole.
        if g == 6 {
            for n in if quick { vec![16] } else { vec![16, 20, 24] } {
                let small = Arranged { table: worst.table[..n].to_vec(), ..a.clone() };
                let (t_raw, raw) = timed(|| small.position().raw());
                let (t, _) = timed(|| small.deal().listing(Seat(0)));
                println!(
                    "   g = 6, first {n} piles: raw {t_raw:.2?}, Deal::listing {t:.2?} for {} sets ({:.2} µs a set)",
                    sets(&raw),
                    t.as_secs_f64() * 1e6 / sets(&raw).max(1) as f64
                );
            }
        }
    }
}

/// The slowest selection query found on one position: (time, card, selection).
fn worst_selection(a: &Arranged, label: &str, quick: bool, rng: &mut Rng) -> (Duration, Card, Vec<PileRef>) {
    let deal = a.deal();
    let pos = a.position();
    let n = a.table.len();
    let limit = Duration::from_millis(200);
    let query = |card: Card, mask: u64| -> Duration {
        let piles = pos.piles(mask);
        timed(|| deal.options(Seat(0), card, &piles).expect("a valid question")).0
    };
    // The reach table of the rules is computed on first use: not in the times.
    let _ = pos.raw();
    let mut best = (Duration::ZERO, Card::DIAMOND_SEVEN, 0u64);
    let mut curve = Vec::new();
    for card in a.hand.iter() {
        // Growing selections in table order.
        let mut largest = 0;
        let mut steps = Vec::new();
        for s in 1..=n {
            let mask = (1u64 << s) - 1;
            let t = query(card, mask);
            if t > best.0 {
                best = (t, card, mask);
            }
            if s % 4 == 0 || t > limit {
                steps.push(format!("{s}: {t:.1?}"));
            }
            if t > limit {
                break;
            }
            largest = s;
        }
        curve.push(format!("{card} [{}]", steps.join(", ")));
        // Random selections of that size, climbed.
        let size = largest.clamp(1, n);
        let rounds = if quick { 2 } else { 6 };
        for _ in 0..rounds {
            let mut idx: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                idx.swap(i, rng.below(i + 1));
            }
            let mut mask = idx[..size].iter().fold(0u64, |m, &i| m | 1 << i);
            let mut t = query(card, mask);
            for _ in 0..if quick { 10 } else { 40 } {
                let flip = 1u64 << rng.below(n);
                let other = mask ^ flip;
                if other == 0 || other.count_ones() as usize > size + 1 {
                    continue;
                }
                let t2 = query(card, other);
                if t2 >= t {
                    (mask, t) = (other, t2);
                }
                if t > 3 * limit {
                    break;
                }
            }
            if t > best.0 {
                best = (t, card, mask);
            }
        }
    }
    println!("4. selections, {label}; growing in table order (piles: time):\n    {}", curve.join("\n    "));
    println!(
        "   the slowest: {:.2?} with {} on {} piles: {}",
        best.0,
        best.1,
        best.2.count_ones(),
        names(&pos.piles(best.2))
    );
    (best.0, best.1, pos.piles(best.2))
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    // `selections`: part 4 alone (on the climbed position).
    let selections = std::env::args().any(|a| a == "selections");
    let (played_count, played) = if selections {
        (0, None)
    } else {
        let (c, p) = played_games(quick);
        (c, Some(p))
    };
    let (climbed_count, climbed) = climb(quick);
    let worst = match played {
        Some(p) if played_count > climbed_count => p,
        _ => climbed,
    };
    if !selections {
        time_listing(&worst, quick);
    }
    let mut rng = Rng(7);
    let mut by_value: Vec<Card> = CardSet::ALL.iter().collect();
    by_value.sort_by_key(|&c| (value(c), c));
    let small_table = |ops: Operators, g: u8, hand: &str| -> Arranged {
        let hand: CardSet = hand.split_whitespace().map(|c| c.parse::<Card>().expect("a card")).collect();
        let table: Vec<Pile> =
            by_value.iter().filter(|c| !hand.contains(**c)).take(45).map(|&card| Pile::Loose { card }).collect();
        let others =
            vec![CardSet::ALL.difference(hand).iter().filter(|c| !table.contains(&Pile::Loose { card: *c })).collect()];
        Arranged { rules: Rules { operators: ops, max_group_piles: g, ..Rules::default() }, table, hand, others }
    };
    let mut found = vec![worst_selection(&worst, "the worst listing position (default options)", quick, &mut rng)];
    for (label, a) in [
        ("small values, all operators, g = 4, hand K Q J 10", small_table(Operators::ALL, 4, "SK SQ SJ S10")),
        ("small values, all operators, g = 6, hand K Q J 10", small_table(Operators::ALL, 6, "SK SQ SJ S10")),
        (
            "small values, + and -, g = 4, hand K Q J 10",
            small_table(Operators::of(&[Op::Add, Op::Sub]), 4, "SK SQ SJ S10"),
        ),
        ("small values, + only, g = 4, hand K Q J 10", small_table(Operators::PLUS, 4, "SK SQ SJ S10")),
    ] {
        found.push(worst_selection(&a, label, quick, &mut rng));
    }
    let (t, card, a, mask) = random_selections(quick, &mut rng);
    let small = small_table(Operators::ALL, 4, "SK SQ SJ S10");
    let (t0, card0, piles0) = &found[1];
    let mask0 = small.position().mask_of(piles0).expect("piles of the table");
    let mut slowest = climb_selection(&a, card, mask, t, quick, &mut rng);
    let other = climb_selection(&small, *card0, mask0, *t0, quick, &mut rng);
    if other.0 > slowest.0 {
        slowest = other;
    }
    let (t, card, a, mask) = slowest;
    println!(
        "4. selections, default options, the slowest after the climbs: {t:.2?} with {card} on {} piles: {}\n    {}",
        mask.count_ones(),
        names(&a.position().piles(mask)),
        a.describe()
    );
    for (label, (t, card, piles)) in
        ["worst listing", "K Q J 10 on small values, all operators, g = 4", "g = 6", "+ -", "+"].iter().zip(&found)
    {
        println!("   {label}: {t:.2?} with {card} on {} piles", piles.len());
    }
}

/// Part 4 (c): a climb from a slow selection of the default options: a pile toggled in or out of
/// the selection, or another hand card, kept when the query is no faster.
fn climb_selection(
    a: &Arranged,
    mut card: Card,
    mut mask: u64,
    mut t: Duration,
    quick: bool,
    rng: &mut Rng,
) -> (Duration, Card, Arranged, u64) {
    let pos = a.position();
    let n = a.table.len();
    let hand: Vec<Card> = a.hand.iter().collect();
    let first = t;
    for _ in 0..if quick { 50 } else { 400 } {
        let (c, m) =
            if rng.below(8) == 0 { (hand[rng.below(hand.len())], mask) } else { (card, mask ^ (1u64 << rng.below(n))) };
        if m == 0 {
            continue;
        }
        // The better of two measurements, against noise.
        let t2 = timed(|| pos.options_mask(c, m)).0.min(timed(|| pos.options_mask(c, m)).0);
        if t2 >= t {
            (card, mask, t) = (c, m, t2);
        }
    }
    println!("4. selections, default options, climb: {first:.2?} → {t:.2?} ({} piles, {card})", mask.count_ones());
    (t, card, a.clone(), mask)
}

/// Part 4 (b): random tables, hands and selections under the default options.
fn random_selections(quick: bool, rng: &mut Rng) -> (Duration, Card, Arranged, u64) {
    let rules = Rules::default();
    let rounds = if quick { 1_000 } else { 20_000 };
    let mut best: Option<(Duration, Card, Arranged, u64)> = None;
    let start = Instant::now();
    for _ in 0..rounds {
        let mut cards: Vec<Card> = CardSet::ALL.iter().collect();
        for i in (1..cards.len()).rev() {
            cards.swap(i, rng.below(i + 1));
        }
        let top = 3 + rng.below(11) as u8;
        let hand: CardSet = cards[..4].iter().copied().collect();
        let table: Vec<Pile> = cards[4..]
            .iter()
            .filter(|&&c| value(c) <= top || rng.below(100) < 10)
            .take(45)
            .map(|&card| Pile::Loose { card })
            .collect();
        let n = table.len();
        let others = vec![cards[4..].iter().filter(|c| !table.contains(&Pile::Loose { card: **c })).copied().collect()];
        let a = Arranged { rules, table, hand, others };
        let s = (10 + rng.below(30)).min(n);
        let mut idx: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            idx.swap(i, rng.below(i + 1));
        }
        let mask = idx[..s].iter().fold(0u64, |m, &i| m | 1 << i);
        let pos = a.position();
        for card in hand.iter() {
            let (t, _) = timed(|| pos.options_mask(card, mask));
            if best.as_ref().is_none_or(|(b, ..)| t > *b) {
                best = Some((t, card, a.clone(), mask));
            }
        }
    }
    let (t, card, a, mask) = best.expect("a query");
    println!(
        "4. selections, default options, {rounds} random tables, hands and selections in {:.0?}: the slowest \
         {t:.2?} with {card} on {} piles: {}\n    {}",
        start.elapsed(),
        mask.count_ones(),
        names(&a.position().piles(mask)),
        a.describe()
    );
    (t, card, a, mask)
}
