//! Wippen golden games: whole games, sets and matches kept as data files in
//! `tests/golden/wippen/` (rules, first dealer, master seed, every move → expected events, the
//! views at fixed points and the final totals), replayed by one test. The next game is dealt
//! whenever a move follows a finished game. A file that no longer matches fails with its first
//! differing event or view.
//!
//! The views recorded are those of the seat to move after the first two deals of hand cards of
//! every game (the deal that starts it and the first replenishing deal from the stock), and the
//! spectator's view after the last move.
//!
//! A second test replays the files again and names what they hold — every kind of move of
//! §E7/§E10 and every line of the scoring of §E11, computed from the moves and the tables they
//! were made on — and fails if a file of the set is missing, if a file no longer shows what it
//! was chosen for, or if the files together no longer show everything of [`Feature::ALL`].
//!
//! To regenerate the expected events and views after an intended change of the rules:
//! `FIPSEN_BLESS=1 cargo test -p fipsen-rules --test all wippen_golden::`.
//! To build the set from scratch (searching master seeds, each game played by a seeded player
//! of a given style, until the game shows the features wanted of it):
//! `cargo test -p fipsen-rules --test all -- --ignored --exact wippen_golden::generate`.

use crate::wippen_common;

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use fipsen_rules::wippen::{
    Deal, Event, Expr, Move, Op, Operators, Pile, Position, RawBuild, RawCard, Rules, ScoreRow, Series,
};
use fipsen_rules::{Card, Seat, Seed};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use wippen_common::{Rng, random_move};

/// One golden series: how it starts, every move, and what it must give.
#[derive(Debug, Serialize, Deserialize)]
struct Golden {
    name: String,
    about: String,
    rules: Rules,
    /// The dealer of the first game.
    dealer: Seat,
    /// The master seed.
    seed: Seed,
    /// Every move, by seat.
    actions: Vec<(Seat, Move)>,
    /// Every event, as JSON.
    events: Vec<Value>,
    /// The views at the points named in the module's documentation.
    views: Vec<Value>,
    /// Each seat's total after the last move.
    scores: Vec<i32>,
}

/// What a replay gives: events, views and totals.
struct Replayed {
    events: Vec<Value>,
    views: Vec<Value>,
    scores: Vec<i32>,
}

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("golden").join("wippen")
}

fn json<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("serialisable")
}

/// The view of `viewer` after `after` moves, as a golden file holds it.
fn checkpoint(series: &Series, after: usize, viewer: Option<Seat>) -> Value {
    serde_json::json!({ "after": after, "viewer": viewer, "view": series.view(viewer) })
}

/// Takes a series' moves again from its master seed, dealing the next game whenever a move
/// follows a finished one: every event, the views at the recorded points, the totals.
fn replay(g: &Golden) -> Result<Replayed, String> {
    let (mut series, first) = Series::new(g.rules, g.seed).map_err(|e| e.to_string())?;
    if series.deal().dealer() != g.dealer {
        return Err(format!("the first dealer is {:?}, not {:?}", series.deal().dealer(), g.dealer));
    }
    let mut events: Vec<Event> = first;
    let mut views = vec![checkpoint(&series, 0, series.deal().turn())];
    for (i, (seat, mv)) in g.actions.iter().enumerate() {
        if series.deal().is_over() {
            events.extend(series.next_deal().map_err(|e| format!("next game before move {i}: {e}"))?);
            views.push(checkpoint(&series, i, series.deal().turn()));
        }
        let more = series.apply(*seat, mv.clone()).map_err(|e| format!("move {i} ({seat:?} {mv:?}) refused: {e}"))?;
        let dealt = more.iter().any(|e| matches!(e, Event::Dealt { round: 2, .. }));
        events.extend(more);
        if dealt {
            views.push(checkpoint(&series, i + 1, series.deal().turn()));
        }
    }
    views.push(checkpoint(&series, g.actions.len(), None));
    Ok(Replayed { events: events.iter().map(json).collect(), views, scores: series.totals().to_vec() })
}

fn line<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// One action, event or view a line, so that a diff of the file reads like the game.
fn render(g: &Golden) -> String {
    fn list(out: &mut String, key: &str, items: Vec<String>) {
        let _ = writeln!(out, "  \"{key}\": [");
        out.push_str(&items.iter().map(|i| format!("    {i}")).collect::<Vec<_>>().join(",\n"));
        out.push_str("\n  ],\n");
    }
    let mut out = String::from("{\n");
    let _ = writeln!(out, "  \"name\": {},", line(&g.name));
    let _ = writeln!(out, "  \"about\": {},", line(&g.about));
    let _ = writeln!(out, "  \"rules\": {},", line(&g.rules));
    let _ = writeln!(out, "  \"dealer\": {},", line(&g.dealer));
    let _ = writeln!(out, "  \"seed\": {},", line(&g.seed));
    list(&mut out, "actions", g.actions.iter().map(line).collect());
    list(&mut out, "events", g.events.iter().map(line).collect());
    list(&mut out, "views", g.views.iter().map(line).collect());
    let _ = writeln!(out, "  \"scores\": {}", line(&g.scores));
    out.push_str("}\n");
    out
}

/// The first place two lists of JSON values differ, with the line before it.
fn first_difference(what: &str, expected: &[Value], actual: &[Value]) -> Option<String> {
    let line = |v: Option<&Value>| v.map_or("(none)".to_string(), Value::to_string);
    let i = (0..expected.len().max(actual.len())).find(|&i| expected.get(i) != actual.get(i))?;
    let mut out = format!("{what} {i} differs\n");
    if i > 0 {
        let _ = writeln!(out, "    {}", line(expected.get(i - 1)));
    }
    let _ = writeln!(out, "  - {}", line(expected.get(i)));
    let _ = write!(out, "  + {}", line(actual.get(i)));
    Some(out)
}

/// Every golden file, sorted by name.
fn golden_files() -> Vec<PathBuf> {
    let dir = golden_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

fn load(path: &Path) -> Golden {
    let text = std::fs::read_to_string(path).expect("readable");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn file_name(path: &Path) -> String {
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

#[test]
fn wippen_golden_games_replay_to_their_recorded_events_views_and_totals() {
    let bless = std::env::var_os("FIPSEN_BLESS").is_some();
    let files = golden_files();
    assert!(files.len() >= 12, "at least 12 golden series, found {}", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let mut golden = load(path);
        let name = file_name(path);
        let replayed = match replay(&golden) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        if bless {
            golden.events = replayed.events;
            golden.views = replayed.views;
            golden.scores = replayed.scores;
            std::fs::write(path, render(&golden)).expect("writable");
            continue;
        }
        if let Some(diff) = first_difference("event", &golden.events, &replayed.events) {
            failures.push(format!("{name}: {diff}"));
        } else if let Some(diff) = first_difference("view", &golden.views, &replayed.views) {
            failures.push(format!("{name}: {diff}"));
        } else if golden.scores != replayed.scores {
            failures.push(format!("{name}: totals\n  expected {:?}\n  actual   {:?}", golden.scores, replayed.scores));
        }
    }
    assert!(
        failures.is_empty(),
        "{} golden series no longer match (FIPSEN_BLESS=1 rewrites them after an intended change):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// What a golden series can show: a kind of move, a line of the scoring, a table size or an
/// option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Feature {
    Discard,
    CaptureEqualCard,
    CaptureAdd,
    CaptureSubtract,
    CaptureMultiply,
    CaptureDivide,
    CaptureSeveralGroups,
    CaptureBuilding,
    CaptureKeepsPromise,
    Build,
    MultiBuild,
    BuildOwnValue,
    Overbuild,
    Rebuild,
    PromiseNotKept,
    Sweep,
    SweepWithLastCard,
    LastCardEmptiesTableNoSweep,
    Leftover,
    LeftoverToNobody,
    ReplenishingDeal,
    MostCardsOneLeader,
    MostCardsTwoTied,
    MostCardsThreeTied,
    MostSpadesOneLeader,
    MostSpadesTwoTied,
    MostSpadesThreeTied,
    ZeroCountScoresNothing,
    Aces,
    GoodTen,
    GoodTwo,
    SweepPoints,
    TwoPlayers,
    ThreePlayers,
    FourPlayers,
    WholeSet,
    MatchOfSeveralSets,
    MatchCutByDeals,
    OperatorsRestricted,
    OtherGroupLimit,
    KeepPromiseOff,
    LastMoveSweepOff,
}

impl Feature {
    /// Everything the golden set must show between its files.
    const ALL: [Feature; 42] = [
        Feature::Discard,
        Feature::CaptureEqualCard,
        Feature::CaptureAdd,
        Feature::CaptureSubtract,
        Feature::CaptureMultiply,
        Feature::CaptureDivide,
        Feature::CaptureSeveralGroups,
        Feature::CaptureBuilding,
        Feature::CaptureKeepsPromise,
        Feature::Build,
        Feature::MultiBuild,
        Feature::BuildOwnValue,
        Feature::Overbuild,
        Feature::Rebuild,
        Feature::PromiseNotKept,
        Feature::Sweep,
        Feature::SweepWithLastCard,
        Feature::LastCardEmptiesTableNoSweep,
        Feature::Leftover,
        Feature::LeftoverToNobody,
        Feature::ReplenishingDeal,
        Feature::MostCardsOneLeader,
        Feature::MostCardsTwoTied,
        Feature::MostCardsThreeTied,
        Feature::MostSpadesOneLeader,
        Feature::MostSpadesTwoTied,
        Feature::MostSpadesThreeTied,
        Feature::ZeroCountScoresNothing,
        Feature::Aces,
        Feature::GoodTen,
        Feature::GoodTwo,
        Feature::SweepPoints,
        Feature::TwoPlayers,
        Feature::ThreePlayers,
        Feature::FourPlayers,
        Feature::WholeSet,
        Feature::MatchOfSeveralSets,
        Feature::MatchCutByDeals,
        Feature::OperatorsRestricted,
        Feature::OtherGroupLimit,
        Feature::KeepPromiseOff,
        Feature::LastMoveSweepOff,
    ];

    fn about(self) -> &'static str {
        match self {
            Feature::Discard => "a discard",
            Feature::CaptureEqualCard => "a capture of a loose card of equal value",
            Feature::CaptureAdd => "a capture with +",
            Feature::CaptureSubtract => "a capture with -",
            Feature::CaptureMultiply => "a capture with *",
            Feature::CaptureDivide => "a capture with /",
            Feature::CaptureSeveralGroups => "a capture of several groups at once",
            Feature::CaptureBuilding => "a capture of a building",
            Feature::CaptureKeepsPromise => {
                "a capture with the last card of a value that must take the builder's buildings of it"
            }
            Feature::Build => "a build of one group",
            Feature::MultiBuild => "a multi-build (two or more groups)",
            Feature::BuildOwnValue => "a build to the hand card's own value, the card a group of its own",
            Feature::Overbuild => "an overbuild of another player's building",
            Feature::Rebuild => "a rebuild of the player's own building at its value",
            Feature::PromiseNotKept => "keep_promise off: a builder left without a card of his building's value",
            Feature::Sweep => "a sweep",
            Feature::SweepWithLastCard => "a sweep with the game's last card (last_move_sweep on)",
            Feature::LastCardEmptiesTableNoSweep => {
                "the game's last card empties the table: no sweep (last_move_sweep off)"
            }
            Feature::Leftover => "the last capturer takes the piles left at the end",
            Feature::LeftoverToNobody => "nobody captured: the piles left belong to nobody",
            Feature::ReplenishingDeal => "a later deal of hand cards from the stock",
            Feature::MostCardsOneLeader => "most cards: one leader scores 2",
            Feature::MostCardsTwoTied => "most cards: two tied leaders score 1 each",
            Feature::MostCardsThreeTied => "most cards: three or more tied score nothing",
            Feature::MostSpadesOneLeader => "most spades: one leader scores 2",
            Feature::MostSpadesTwoTied => "most spades: two tied leaders score 1 each",
            Feature::MostSpadesThreeTied => "most spades: three or more tied score nothing",
            Feature::ZeroCountScoresNothing => "a count of 0 never scores a \"most\" line",
            Feature::Aces => "a point for each ace",
            Feature::GoodTen => "the good ten (♦10) scores 2",
            Feature::GoodTwo => "the good two (♠2) scores 1",
            Feature::SweepPoints => "a point for each sweep",
            Feature::TwoPlayers => "two players",
            Feature::ThreePlayers => "three players",
            Feature::FourPlayers => "four players",
            Feature::WholeSet => "a whole set: one game dealt by each player, the match over",
            Feature::MatchOfSeveralSets => "a match of several sets, played to its end",
            Feature::MatchCutByDeals => "option deals: the match ends after that many games",
            Feature::OperatorsRestricted => "option operators: not all four",
            Feature::OtherGroupLimit => "option max_group_piles other than 4",
            Feature::KeepPromiseOff => "option keep_promise off",
            Feature::LastMoveSweepOff => "option last_move_sweep off",
        }
    }
}

/// The cards' values, written here apart from the rules crate (§E1).
fn worth(card: Card) -> u8 {
    let code = card.to_string();
    match &code[1..] {
        "A" => 1,
        "J" => 11,
        "Q" => 12,
        "K" => 13,
        n => n.parse().expect("a number rank"),
    }
}

/// The operators of an expression, and the buildings it names (owner and value).
fn walk(e: &Expr, table: &[Pile], ops: &mut BTreeSet<Op>, buildings: &mut Vec<(Seat, u8)>) {
    match e {
        Expr::Op(op, l, r) => {
            ops.insert(*op);
            walk(l, table, ops, buildings);
            walk(r, table, ops, buildings);
        }
        Expr::Building(id) => {
            let b = table.iter().find_map(|p| p.building().filter(|b| b.id == *id)).expect("a building on the table");
            buildings.push((b.owner, b.value));
        }
        Expr::Card(_) => {}
    }
}

/// Whether `seat` owns a building of some value w and holds no card of w.
fn promise_broken(deal: &Deal, seat: Seat) -> bool {
    let hand = deal.hand(seat);
    deal.table().iter().filter_map(Pile::building).any(|b| b.owner == seat && !hand.iter().any(|c| worth(c) == b.value))
}

/// What one move shows, judged from the game before it and the events it caused.
fn move_features(before: &Deal, seat: Seat, mv: &Move, events: &[Event], after: &Deal, out: &mut BTreeSet<Feature>) {
    let table = before.table();
    let card = mv.card();
    let w = worth(card);
    let hand = before.hand(seat);
    match mv {
        Move::Discard { .. } => {
            out.insert(Feature::Discard);
        }
        Move::Capture { groups, .. } => {
            if groups.len() >= 2 {
                out.insert(Feature::CaptureSeveralGroups);
            }
            let mut buildings = Vec::new();
            for g in groups {
                if matches!(g, Expr::Card(_)) {
                    out.insert(Feature::CaptureEqualCard);
                }
                let mut ops = BTreeSet::new();
                walk(g, table, &mut ops, &mut buildings);
                for op in ops {
                    out.insert(match op {
                        Op::Add => Feature::CaptureAdd,
                        Op::Sub => Feature::CaptureSubtract,
                        Op::Mul => Feature::CaptureMultiply,
                        Op::Div => Feature::CaptureDivide,
                    });
                }
            }
            if !buildings.is_empty() {
                out.insert(Feature::CaptureBuilding);
            }
            let last_of_value = !hand.iter().any(|c| c != card && worth(c) == w);
            let promised = table.iter().filter_map(Pile::building).any(|b| b.owner == seat && b.value == w);
            if before.rules().keep_promise && last_of_value && promised {
                out.insert(Feature::CaptureKeepsPromise);
            }
        }
        Move::Build { value, groups, .. } => {
            out.insert(if groups.len() >= 2 { Feature::MultiBuild } else { Feature::Build });
            if groups.contains(&Expr::Card(card)) {
                out.insert(Feature::BuildOwnValue);
            }
            let mut used = Vec::new();
            for g in groups {
                walk(g, table, &mut BTreeSet::new(), &mut used);
            }
            if used.iter().any(|&(owner, _)| owner != seat) {
                out.insert(Feature::Overbuild);
            }
            if used.iter().any(|&(owner, _)| owner == seat) {
                assert!(used.iter().all(|&(o, v)| o != seat || v == *value), "a rebuild keeps the value");
                out.insert(Feature::Rebuild);
            }
        }
    }
    if !before.rules().keep_promise && !promise_broken(before, seat) && promise_broken(after, seat) {
        out.insert(Feature::PromiseNotKept);
    }
    let last_card = after.hands().iter().all(|h| h.is_empty()) && after.stock().is_empty();
    for e in events {
        match e {
            Event::Moved { sweep: true, .. } => {
                out.insert(if last_card { Feature::SweepWithLastCard } else { Feature::Sweep });
            }
            Event::Moved { sweep: false, mv: Move::Capture { .. }, .. } if last_card => {
                // The table is empty at the end exactly when the last capture took everything.
                if matches!(events.iter().find(|e| matches!(e, Event::Leftover { .. })), Some(Event::Leftover { cards, .. }) if cards.is_empty())
                {
                    out.insert(Feature::LastCardEmptiesTableNoSweep);
                }
            }
            Event::Dealt { round, .. } if *round > 1 => {
                out.insert(Feature::ReplenishingDeal);
            }
            Event::Leftover { seat: Some(_), cards } if !cards.is_empty() => {
                out.insert(Feature::Leftover);
            }
            Event::Leftover { seat: None, cards } if !cards.is_empty() => {
                out.insert(Feature::LeftoverToNobody);
            }
            Event::Scored { row } => row_features(row, out),
            Event::MatchOver { .. } => {
                let rules = after.rules();
                out.insert(match rules.deals {
                    Some(_) => Feature::MatchCutByDeals,
                    None if rules.sets >= 2 => Feature::MatchOfSeveralSets,
                    None => Feature::WholeSet,
                });
            }
            _ => {}
        }
    }
}

/// The points of a "most" line by §E11, written here apart from the rules crate, and what the
/// line shows.
fn most(counts: &[u8], points: &mut [i32], lines: [Feature; 3], out: &mut BTreeSet<Feature>) {
    let best = counts.iter().copied().max().unwrap_or(0);
    if best == 0 {
        out.insert(Feature::ZeroCountScoresNothing);
        return;
    }
    let leaders: Vec<usize> = (0..counts.len()).filter(|&i| counts[i] == best).collect();
    let (each, line) = match leaders.len() {
        1 => (2, lines[0]),
        2 => (1, lines[1]),
        _ => (0, lines[2]),
    };
    out.insert(line);
    for i in leaders {
        points[i] += each;
    }
}

/// What a row of the scoresheet shows; its points are checked against §E11.
fn row_features(row: &ScoreRow, out: &mut BTreeSet<Feature>) {
    let n = row.cards.len();
    let mut points = vec![0i32; n];
    most(
        &row.cards,
        &mut points,
        [Feature::MostCardsOneLeader, Feature::MostCardsTwoTied, Feature::MostCardsThreeTied],
        out,
    );
    most(
        &row.spades,
        &mut points,
        [Feature::MostSpadesOneLeader, Feature::MostSpadesTwoTied, Feature::MostSpadesThreeTied],
        out,
    );
    if let Some(s) = row.good_ten {
        points[s.index()] += 2;
        out.insert(Feature::GoodTen);
    }
    if let Some(s) = row.good_two {
        points[s.index()] += 1;
        out.insert(Feature::GoodTwo);
    }
    for ((p, &aces), &sweeps) in points.iter_mut().zip(&row.aces).zip(&row.sweeps) {
        *p += i32::from(aces) + i32::from(sweeps);
    }
    if row.aces.iter().any(|&a| a > 0) {
        out.insert(Feature::Aces);
    }
    if row.sweeps.iter().any(|&s| s > 0) {
        out.insert(Feature::SweepPoints);
    }
    assert_eq!(row.points, points, "the points of game {} by §E11", row.number);
}

/// What the table's options show.
fn rules_features(rules: &Rules, out: &mut BTreeSet<Feature>) {
    out.insert(match rules.players {
        2 => Feature::TwoPlayers,
        3 => Feature::ThreePlayers,
        _ => Feature::FourPlayers,
    });
    if rules.operators != Operators::ALL {
        out.insert(Feature::OperatorsRestricted);
    }
    if rules.max_group_piles != 4 {
        out.insert(Feature::OtherGroupLimit);
    }
    if !rules.keep_promise {
        out.insert(Feature::KeepPromiseOff);
    }
    if !rules.last_move_sweep {
        out.insert(Feature::LastMoveSweepOff);
    }
}

/// Everything a series of moves shows, by playing them.
fn features_of(rules: Rules, seed: Seed, actions: &[(Seat, Move)]) -> BTreeSet<Feature> {
    let mut out = BTreeSet::new();
    rules_features(&rules, &mut out);
    let (mut series, _) = Series::new(rules, seed).expect("valid rules");
    for (seat, mv) in actions {
        if series.deal().is_over() {
            series.next_deal().expect("the next game");
        }
        let before = series.deal().clone();
        let events = series.apply(*seat, mv.clone()).expect("a recorded move is legal");
        move_features(&before, *seat, mv, &events, series.deal(), &mut out);
    }
    out
}

#[test]
fn the_golden_games_show_every_kind_of_move_and_every_line_of_the_scoring() {
    let mut seen: BTreeSet<Feature> = BTreeSet::new();
    let mut report = String::new();
    let mut failures = Vec::new();
    let wanted = wanted();
    let files = golden_files();
    for (i, w) in wanted.iter().enumerate() {
        let name = format!("{:02}-{}.json", i + 1, w.name);
        if !files.iter().any(|p| file_name(p) == name) {
            failures.push(format!("{name} is missing"));
        }
    }
    for path in &files {
        let g = load(path);
        let features = features_of(g.rules, g.seed, &g.actions);
        let name = file_name(path);
        let _ = writeln!(report, "{name}: {features:?}");
        // Each file still shows what it was chosen for.
        if let Some(w) = wanted.iter().find(|w| w.name == g.name) {
            let lost: Vec<&Feature> = w.shows.iter().filter(|f| !features.contains(f)).collect();
            if !lost.is_empty() {
                failures.push(format!("{name} no longer shows {lost:?}"));
            }
        }
        seen.extend(features);
    }
    failures.extend(
        Feature::ALL.iter().filter(|f| !seen.contains(f)).map(|f| format!("no file shows {f:?} ({})", f.about())),
    );
    assert!(failures.is_empty(), "{}\n\nthe files show:\n{report}", failures.join("\n"));
}

/// How a seeded player chooses among the legal moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    /// A random legal move (any card; discard, capture of several groups or build alike).
    Random,
    /// The capture that takes the most cards, three times out of four; else random.
    Greedy,
    /// A random build where there is one, two times out of three; else greedy.
    Builder,
    /// A discard where there is one; else random.
    Discarder,
}

/// The capture taking the most cards: for each hand card, its groups packed greedily from the
/// largest, the promised buildings first.
fn best_capture(pos: &Position, raw: &[RawCard]) -> Option<Move> {
    let cards_of = |mask: u64| -> usize {
        (0..pos.table.len()).filter(|i| mask & (1 << i) != 0).map(|i| pos.table[i].cards().len()).sum()
    };
    let mut best: Option<(usize, Card, u64)> = None;
    for rc in raw {
        let mut groups = rc.capture.clone();
        groups.sort_by_key(|&m| std::cmp::Reverse(cards_of(m)));
        let mut used = rc.must_include;
        for m in groups {
            if m & used == 0 {
                used |= m;
            }
        }
        if used != 0 && best.is_none_or(|(n, _, _)| cards_of(used) > n) {
            best = Some((cards_of(used), rc.card, used));
        }
    }
    let (_, card, used) = best?;
    pos.options_mask(card, used).into_iter().find(|m| matches!(m, Move::Capture { .. }))
}

/// A random build: a core and, half the time, disjoint extras.
fn random_build(pos: &Position, raw: &[RawCard], rng: &mut Rng) -> Option<Move> {
    let builds: Vec<(Card, &RawBuild)> = raw
        .iter()
        .flat_map(|rc| rc.builds.iter().map(move |b| (rc.card, b)))
        .filter(|(_, b)| !b.cores.is_empty())
        .collect();
    if builds.is_empty() {
        return None;
    }
    let (card, b) = builds[rng.below(builds.len())];
    let mut used = b.cores[rng.below(b.cores.len())];
    let tries = if used == 0 { 3 } else { rng.below(2) * 3 };
    for _ in 0..tries {
        if b.extras.is_empty() {
            break;
        }
        let e = b.extras[rng.below(b.extras.len())];
        if e & used == 0 {
            used |= e;
        }
    }
    if used == 0 {
        return None;
    }
    pos.options_mask(card, used).into_iter().find(|m| matches!(m, Move::Build { value, .. } if *value == b.value))
}

/// The move of the seat to move in `deal`, as a player of `style` makes it.
fn choose(deal: &Deal, style: Style, rng: &mut Rng) -> Move {
    let seat = deal.turn().expect("someone moves");
    if style == Style::Discarder {
        let hand: Vec<Card> = deal.hand(seat).iter().collect();
        let card = hand[rng.below(hand.len())];
        if deal.check(seat, &Move::Discard { card }).is_ok() {
            return Move::Discard { card };
        }
    }
    let pos = deal.position(seat);
    let raw = pos.raw();
    let chosen = match style {
        Style::Greedy if rng.chance(75) => best_capture(&pos, &raw),
        Style::Builder if rng.chance(67) => random_build(&pos, &raw, rng).or_else(|| best_capture(&pos, &raw)),
        Style::Builder => best_capture(&pos, &raw),
        _ => None,
    };
    chosen.unwrap_or_else(|| random_move(&pos, &raw, rng))
}

/// A golden series to look for.
struct Wanted {
    name: &'static str,
    about: &'static str,
    rules: Rules,
    /// The styles of play tried, one per seed in turn.
    styles: &'static [Style],
    /// The most games to play (the match may end before).
    games: usize,
    /// What the series must show.
    shows: &'static [Feature],
}

/// Plays a series from `seed` with every seat of `style` until `games` games are over or the
/// match is: the moves.
fn play(w: &Wanted, seed: u64, style: Style) -> Vec<(Seat, Move)> {
    let (mut series, _) = Series::new(w.rules, Seed::from_u64(seed)).expect("valid rules");
    let mut rng = Rng(seed ^ 0x5749_5050_454e);
    let mut actions = Vec::new();
    let mut games = 0;
    while !series.is_over() {
        if series.deal().is_over() {
            games += 1;
            if games >= w.games {
                break;
            }
            series.next_deal().expect("the next game");
        }
        let seat = series.deal().turn().expect("someone moves");
        let mv = choose(series.deal(), style, &mut rng);
        series.apply(seat, mv.clone()).expect("a chosen move is legal");
        actions.push((seat, mv));
    }
    actions
}

fn wanted() -> Vec<Wanted> {
    use Feature::*;
    use Style::*;
    let default = Rules::default();
    let three = Rules { players: 3, ..default };
    let four = Rules { players: 4, ..default };
    vec![
        Wanted {
            name: "two-players-game",
            about: "one game at two players with the default options: discards, captures of equal cards and by \
                    sums, several groups at once, builds, sweeps, the replenishing deals and the leftover",
            rules: default,
            styles: &[Greedy, Builder],
            games: 1,
            shows: &[
                Discard,
                CaptureEqualCard,
                CaptureAdd,
                CaptureSeveralGroups,
                Build,
                Sweep,
                ReplenishingDeal,
                Leftover,
            ],
        },
        Wanted {
            name: "subtract-multiply-divide",
            about: "captures whose groups use -, * and /",
            rules: default,
            styles: &[Random, Greedy],
            games: 1,
            shows: &[CaptureSubtract, CaptureMultiply, CaptureDivide],
        },
        Wanted {
            name: "multi-build-and-overbuild",
            about: "a build of several groups, and a building of the other player built over to another value",
            rules: default,
            styles: &[Builder],
            games: 1,
            shows: &[MultiBuild, Overbuild],
        },
        Wanted {
            name: "rebuild",
            about: "a player builds on his own building at its value",
            rules: default,
            styles: &[Builder],
            games: 1,
            shows: &[Rebuild, Build],
        },
        Wanted {
            name: "build-own-value",
            about: "a build to the hand card's own value with the card as a group of its own",
            rules: default,
            styles: &[Builder],
            games: 1,
            shows: &[BuildOwnValue],
        },
        Wanted {
            name: "capture-of-a-building-keeping-the-promise",
            about: "buildings captured; a builder's last card of his building's value must take the building",
            rules: default,
            styles: &[Builder],
            games: 1,
            shows: &[CaptureBuilding, CaptureKeepsPromise],
        },
        Wanted {
            name: "sweep-with-the-last-card",
            about: "the game's last card empties the table: a sweep (last_move_sweep on)",
            rules: default,
            styles: &[Greedy],
            games: 1,
            shows: &[SweepWithLastCard, SweepPoints],
        },
        Wanted {
            name: "last-card-no-sweep",
            about: "option last_move_sweep off: the game's last card empties the table, no sweep",
            rules: Rules { last_move_sweep: false, ..default },
            styles: &[Greedy],
            games: 1,
            shows: &[LastCardEmptiesTableNoSweep],
        },
        Wanted {
            name: "nobody-captures",
            about: "every card is discarded: 52 cards on the table go to nobody, no line scores",
            rules: default,
            styles: &[Discarder],
            games: 1,
            shows: &[LeftoverToNobody, ZeroCountScoresNothing],
        },
        Wanted {
            name: "cards-tied",
            about: "two players take 26 cards each: 1 point each for most cards",
            rules: default,
            styles: &[Greedy, Random],
            games: 1,
            shows: &[MostCardsTwoTied, GoodTen, GoodTwo, Aces],
        },
        Wanted {
            name: "plus-only",
            about: "option operators + with groups of at most 3 piles (a beginners' table)",
            rules: Rules { operators: Operators::PLUS, max_group_piles: 3, ..default },
            styles: &[Greedy, Random],
            games: 1,
            shows: &[CaptureAdd, CaptureSeveralGroups, Build],
        },
        Wanted {
            name: "keep-promise-off",
            about: "option keep_promise off: a builder may give up the last card of his building's value",
            rules: Rules { keep_promise: false, ..default },
            styles: &[Builder],
            games: 1,
            shows: &[PromiseNotKept],
        },
        Wanted {
            name: "spades-tied",
            about: "three players, one game: two tie for most spades",
            rules: three,
            styles: &[Greedy, Random],
            games: 1,
            shows: &[MostSpadesTwoTied],
        },
        Wanted {
            name: "three-tied-for-cards",
            about: "four players, one game: three tie for most cards and nobody scores the line",
            rules: four,
            styles: &[Greedy, Random],
            games: 1,
            shows: &[MostCardsThreeTied],
        },
        Wanted {
            name: "three-tied-for-spades",
            about: "four players, one game: three tie for most spades and nobody scores the line",
            rules: four,
            styles: &[Greedy, Random],
            games: 1,
            shows: &[MostSpadesThreeTied],
        },
        Wanted {
            name: "two-players-whole-set",
            about: "a whole set at two players: each deals one game; the match is over",
            rules: default,
            styles: &[Greedy, Builder],
            games: 2,
            shows: &[WholeSet, MostCardsOneLeader, MostSpadesOneLeader],
        },
        Wanted {
            name: "three-players-whole-set",
            about: "a whole set at three players with operators + - * and groups of at most 5 piles",
            rules: Rules { operators: Operators::of(&[Op::Add, Op::Sub, Op::Mul]), max_group_piles: 5, ..three },
            styles: &[Greedy, Builder],
            games: 3,
            shows: &[WholeSet, Sweep],
        },
        Wanted {
            name: "four-players-whole-set",
            about: "a whole set at four players with groups of at most 2 piles, keep_promise off",
            rules: Rules { max_group_piles: 2, keep_promise: false, ..four },
            styles: &[Greedy, Builder],
            games: 4,
            shows: &[WholeSet],
        },
        Wanted {
            name: "match-of-two-sets",
            about: "a match of two sets at two players with operators + and -: four games, the totals",
            rules: Rules { sets: 2, operators: Operators::of(&[Op::Add, Op::Sub]), ..default },
            styles: &[Greedy, Builder],
            games: 4,
            shows: &[MatchOfSeveralSets],
        },
        Wanted {
            name: "three-players-two-games",
            about: "option deals 2 at three players: the match ends after two games, the set unfinished",
            rules: Rules { deals: Some(2), ..three },
            styles: &[Greedy, Builder],
            games: 2,
            shows: &[MatchCutByDeals],
        },
    ]
}

#[test]
#[ignore = "builds the golden set; run by hand"]
fn generate() {
    let dir = golden_dir();
    std::fs::create_dir_all(&dir).expect("a folder");
    // Each file plays another seed, so that no two files hold the same game.
    let mut used = BTreeSet::new();
    for (i, w) in wanted().iter().enumerate() {
        let found = (0u64..50_000).filter(|seed| !used.contains(seed)).find_map(|seed| {
            let style = w.styles[seed as usize % w.styles.len()];
            let actions = play(w, seed, style);
            let shows = features_of(w.rules, Seed::from_u64(seed), &actions);
            w.shows.iter().all(|f| shows.contains(f)).then_some((seed, actions))
        });
        let Some((seed, actions)) = found else { panic!("no series found for {}", w.name) };
        used.insert(seed);
        let (series, _) = Series::new(w.rules, Seed::from_u64(seed)).expect("valid rules");
        let mut golden = Golden {
            name: w.name.to_string(),
            about: w.about.to_string(),
            rules: w.rules,
            dealer: series.deal().dealer(),
            seed: Seed::from_u64(seed),
            actions,
            events: Vec::new(),
            views: Vec::new(),
            scores: Vec::new(),
        };
        let replayed = replay(&golden).expect("replays");
        golden.events = replayed.events;
        golden.views = replayed.views;
        golden.scores = replayed.scores;
        let path = dir.join(format!("{:02}-{}.json", i + 1, w.name));
        std::fs::write(&path, render(&golden)).expect("write");
        eprintln!("{}: seed {seed}", path.display());
    }
}
