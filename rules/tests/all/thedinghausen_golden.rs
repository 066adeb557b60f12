//! Thedinghausen golden series: complete runs of deals kept as data files in
//! `tests/golden/thedinghausen/` (rules, first dealer, master seed, every action of the series
//! → expected events and final balances), replayed by one test. The next deal is dealt
//! whenever an action follows a finished deal. A file that no longer matches fails with the
//! first differing event.
//!
//! To regenerate the expected events after an intended change of the rules:
//! `FIPSEN_BLESS=1 cargo test -p fipsen-rules --test all thedinghausen_golden::`.
//! To build the set from scratch (searching master seeds for series with each wanted feature):
//! `cargo test -p fipsen-rules --test all -- --ignored --exact thedinghausen_golden::generate`.

use crate::thedinghausen_common;

use std::path::PathBuf;

use fipsen_rules::thedinghausen::{Action, Event, FipsenResult, Rules, ScoreRow, Series};
use fipsen_rules::{Seat, Seed};
use thedinghausen_common::holstein_common::golden as holstein_golden;
use thedinghausen_common::{Rng, choose};

type Golden = holstein_golden::Golden<Rules, Action>;

fn golden_dir() -> PathBuf {
    holstein_golden::golden_dir("thedinghausen")
}

/// Takes a series' actions again from its master seed, dealing the next deal whenever an
/// action follows a finished deal: the events as JSON values and the final balances.
fn replay(g: &Golden) -> Result<(Vec<serde_json::Value>, Vec<i32>), String> {
    let (mut series, mut events) = Series::new(g.rules, g.seed).map_err(|e| e.to_string())?;
    if series.deal().dealer() != g.dealer {
        return Err(format!("the first dealer is {:?}, not {:?}", series.deal().dealer(), g.dealer));
    }
    for (i, (seat, action)) in g.actions.iter().enumerate() {
        if series.deal().is_over() {
            events.extend(series.next_deal().map_err(|e| format!("next deal before action {i}: {e}"))?);
        }
        let more =
            series.apply(*seat, *action).map_err(|e| format!("action {i} ({seat:?} {action:?}) refused: {e}"))?;
        events.extend(more);
    }
    Ok((holstein_golden::to_values(&events), series.totals().to_vec()))
}

#[test]
fn thedinghausen_golden_series_replay_to_their_recorded_events_and_balances() {
    holstein_golden::replay_all(&golden_dir(), 12, replay);
}

/// Plays a series with the varied random player until `stop` says so after an action (or the
/// series is over): the actions and every event.
fn random_series(
    rules: Rules,
    seed: u64,
    stop: &dyn Fn(&Series, &[Event]) -> bool,
) -> (Vec<(Seat, Action)>, Vec<Event>) {
    let (mut series, mut events) = Series::new(rules, Seed::from_u64(seed)).expect("valid");
    let mut rng = Rng(seed);
    let mut actions = Vec::new();
    while !series.is_over() && actions.len() < 2_000 {
        if series.deal().is_over() {
            events.extend(series.next_deal().expect("the next deal"));
        }
        let seat = series.deal().turn().expect("someone acts");
        let legal = series.legal_actions(seat);
        let action = choose(series.deal(), seat, &legal, &mut rng);
        events.extend(series.apply(seat, action).expect("legal"));
        actions.push((seat, action));
        if stop(&series, &events) {
            break;
        }
    }
    (actions, events)
}

fn deals_over(events: &[Event]) -> usize {
    events.iter().filter(|e| matches!(e, Event::DealOver { .. })).count()
}

fn round_won(events: &[Event]) -> bool {
    events.iter().any(|e| matches!(e, Event::RoundWon { .. }))
}

fn has(events: &[Event], f: impl Fn(&Event) -> bool) -> bool {
    events.iter().any(f)
}

/// The tricks played in the deal in which the round was won.
fn tricks_of_winning_deal(events: &[Event]) -> usize {
    let start = events.iter().rposition(|e| matches!(e, Event::Dealt { .. })).unwrap_or(0);
    events[start..].iter().filter(|e| matches!(e, Event::TrickTaken { .. })).count()
}

fn fipsen_rows(events: &[Event], result: FipsenResult) -> bool {
    has(events, |e| matches!(e, Event::Scored { row: ScoreRow::Deal { fipsen: Some(f), .. } } if f.result == result))
}

type Predicate = Box<dyn Fn(&[Event]) -> bool>;
type Stop = Box<dyn Fn(&Series, &[Event]) -> bool>;

struct Wanted {
    name: &'static str,
    about: &'static str,
    rules: Rules,
    stop: Stop,
    wanted: Predicate,
}

fn after_deals(n: usize) -> Stop {
    Box::new(move |_, events| deals_over(events) >= n)
}

fn after_round() -> Stop {
    Box::new(|_, events| round_won(events))
}

#[test]
#[ignore = "builds the golden set; run by hand"]
fn generate() {
    let default = Rules::default();
    let wanted = vec![
        Wanted {
            name: "plain-deal",
            about: "nobody announces; five tricks, nobody reaches ten: the round goes on",
            rules: default,
            stop: after_deals(1),
            wanted: Box::new(|e| !has(e, |e| matches!(e, Event::Announced { .. }))),
        },
        Wanted {
            name: "fipsen-lost-deal-goes-on",
            about: "a fipsen is broken at trick 2 or later: 5 into the pot, the deal is played on",
            rules: default,
            stop: after_deals(1),
            wanted: Box::new(|e| fipsen_rows(e, FipsenResult::Lost) && !round_won(e)),
        },
        Wanted {
            name: "fipsen-won",
            about: "the announcer takes all five tricks: they count ten and win the round at once",
            rules: default,
            stop: after_deals(1),
            wanted: Box::new(|e| fipsen_rows(e, FipsenResult::Won)),
        },
        Wanted {
            name: "fipsen-won-mid-round",
            about: "a player with tricks in the round wins a fipsen: credited 10, above ten",
            rules: default,
            stop: after_round(),
            wanted: Box::new(|e| has(e, |e| matches!(e, Event::FipsenWon { count, .. } if *count > 10))),
        },
        Wanted {
            name: "fipsen-void",
            about: "the announcer reaches ten with ordinary tricks before the fifth: the fipsen is void",
            rules: default,
            stop: after_round(),
            wanted: Box::new(|e| fipsen_rows(e, FipsenResult::Void)),
        },
        Wanted {
            name: "round-ends-mid-deal",
            about: "a player reaches ten before the fifth trick: the rest of the deal is not played",
            rules: default,
            stop: after_round(),
            wanted: Box::new(|e| tricks_of_winning_deal(e) < 5 && !has(e, |e| matches!(e, Event::Announced { .. }))),
        },
        Wanted {
            name: "round-ends-at-fifth-trick",
            about: "a player reaches ten with the last trick of a deal",
            rules: default,
            stop: after_round(),
            wanted: Box::new(|e| tricks_of_winning_deal(e) == 5 && !fipsen_rows(e, FipsenResult::Won)),
        },
        Wanted {
            name: "penalty-then-another-takes-the-pot",
            about: "a fipsen lost in the round: another player reaches ten and takes the pot of 10",
            rules: default,
            stop: after_round(),
            wanted: Box::new(|e| {
                let announcer = e.iter().find_map(|e| match e {
                    Event::FipsenLost { seat, .. } => Some(*seat),
                    _ => None,
                });
                announcer.is_some()
                    && has(e, |e| matches!(e, Event::RoundWon { seat, pot: 10, .. } if Some(*seat) != announcer))
            }),
        },
        Wanted {
            name: "penalty-then-announcer-wins",
            about: "a fipsen lost in the round, and the announcer himself reaches ten later: pot of 10",
            rules: default,
            stop: after_round(),
            wanted: Box::new(|e| {
                let announcer = e.iter().find_map(|e| match e {
                    Event::FipsenLost { seat, .. } => Some(*seat),
                    _ => None,
                });
                has(e, |e| matches!(e, Event::RoundWon { seat, pot: 10, .. } if Some(*seat) == announcer))
            }),
        },
        Wanted {
            name: "penalty-and-round-end-at-one-trick",
            about: "the trick that breaks a fipsen brings another player to ten: penalty first, then the pot",
            rules: default,
            stop: after_round(),
            wanted: Box::new(|e| {
                e.windows(2).any(|w| matches!((&w[0], &w[1]), (Event::FipsenLost { .. }, Event::RoundWon { .. })))
            }),
        },
        Wanted {
            name: "head-the-trick",
            about: "option head_the_trick: a round in which followers must beat the suit led",
            rules: Rules { head_the_trick: true, ..default },
            stop: after_round(),
            wanted: Box::new(|_| true),
        },
        Wanted {
            name: "fipsen-off",
            about: "option fipsen off: no announcements, a whole round",
            rules: Rules { fipsen: false, ..default },
            stop: after_round(),
            wanted: Box::new(|_| true),
        },
        Wanted {
            name: "series-of-two-rounds",
            about: "option rounds 2: two rounds, slips and balances, the series ends",
            rules: Rules { rounds: Some(2), ..default },
            stop: Box::new(|series, _| series.is_over()),
            wanted: Box::new(|e| has(e, |e| matches!(e, Event::SeriesOver { .. }))),
        },
    ];
    let dir = golden_dir();
    std::fs::create_dir_all(&dir).expect("a folder");
    for (i, w) in wanted.iter().enumerate() {
        let found = (0u64..200_000).find_map(|seed| {
            let (actions, events) = random_series(w.rules, seed, &w.stop);
            (w.wanted)(&events).then_some((seed, actions, events))
        });
        let Some((seed, actions, events)) = found else { panic!("no series found for {}", w.name) };
        let (_, totals) = {
            let g = Golden {
                name: String::new(),
                about: String::new(),
                rules: w.rules,
                dealer: Seat(4),
                seed: Seed::from_u64(seed),
                actions: actions.clone(),
                events: Vec::new(),
                scores: Vec::new(),
            };
            replay(&g).expect("replays")
        };
        let golden = Golden {
            name: w.name.to_string(),
            about: w.about.to_string(),
            rules: w.rules,
            dealer: Seat(4),
            seed: Seed::from_u64(seed),
            actions,
            events: holstein_golden::to_values(&events),
            scores: totals,
        };
        holstein_golden::save(&dir, i, &golden);
    }
}
