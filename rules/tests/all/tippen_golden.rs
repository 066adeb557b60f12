//! Tippen golden series: runs of deals of every preset kept as data files in
//! `tests/golden/tippen/<preset>/` (rules, first dealer, master seed, every action → expected
//! events and final balances), replayed by one test per preset. The next deal is dealt
//! whenever an action follows a finished deal. A file that no longer matches fails with the
//! first differing event.
//!
//! To regenerate the expected events after an intended change of the rules:
//! `FIPSEN_BLESS=1 cargo test -p fipsen-rules --test all tippen_golden::`.
//! To build the set from scratch (searching master seeds for series with each wanted feature):
//! `cargo test -p fipsen-rules --test all -- --ignored --exact tippen_golden::generate`.

use crate::tippen_common;

use std::path::PathBuf;

use fipsen_rules::tippen::{Action, Choice, DausCard, Event, Preset, Rules, ScoreRow, Series, Sniffing};
use fipsen_rules::{Seat, Seed};
use tippen_common::holstein_common::golden as holstein_golden;
use tippen_common::{Rng, choose};

type Golden = holstein_golden::Golden<Rules, Action>;

fn golden_dir(preset: Preset) -> PathBuf {
    holstein_golden::golden_dir("tippen").join(preset.id())
}

/// Takes a series' actions again from its master seed, dealing the next deal whenever an
/// action follows a finished deal: the events as JSON values and the final balances.
fn replay(g: &Golden) -> Result<(Vec<serde_json::Value>, Vec<i32>), String> {
    let (mut series, mut events) = Series::new(g.rules, g.seed).map_err(|e| e.to_string())?;
    if series.first_dealer() != g.dealer {
        return Err(format!("the first dealer is {:?}, not {:?}", series.first_dealer(), g.dealer));
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

fn replay_preset(preset: Preset) {
    holstein_golden::replay_all(&golden_dir(preset), 8, replay);
}

#[test]
fn golden_drei_karten_1821() {
    replay_preset(Preset::DreiKarten1821);
}

#[test]
fn golden_loup_1821() {
    replay_preset(Preset::Loup1821);
}

#[test]
fn golden_dreiblatt_1859() {
    replay_preset(Preset::Dreiblatt1859);
}

#[test]
fn golden_meyers_1905() {
    replay_preset(Preset::Meyers1905);
}

#[test]
fn golden_modern_grupp() {
    replay_preset(Preset::ModernGrupp);
}

#[test]
fn golden_modern_katira() {
    replay_preset(Preset::ModernKatira);
}

#[test]
fn golden_vierblatt() {
    replay_preset(Preset::Vierblatt);
}

fn rows(events: &[Event]) -> Vec<&ScoreRow> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Scored { row } => Some(row),
            _ => None,
        })
        .collect()
}

fn has(events: &[Event], f: impl Fn(&Event) -> bool) -> bool {
    events.iter().any(f)
}

type Predicate = Box<dyn Fn(&[Event]) -> bool>;

struct Wanted {
    name: &'static str,
    about: &'static str,
    rules: Rules,
    /// The most deals to play looking for the feature.
    deals: usize,
    wanted: Predicate,
}

fn wanted(
    name: &'static str,
    about: &'static str,
    rules: Rules,
    deals: usize,
    f: impl Fn(&[Event]) -> bool + 'static,
) -> Wanted {
    Wanted { name, about, rules, deals, wanted: Box::new(f) }
}

/// Plays a series with the varied random player until the feature is seen at the end of a
/// deal, or `deals` deals are over, or the series is: the actions and every event.
fn random_series(w: &Wanted, seed: u64) -> (Vec<(Seat, Action)>, Vec<Event>) {
    let (mut series, mut events) = Series::new(w.rules, Seed::from_u64(seed)).expect("valid");
    let mut rng = Rng(seed);
    let mut actions = Vec::new();
    while !series.is_over() && actions.len() < 2_000 {
        if series.deal().is_over() {
            if rows(&events).len() >= w.deals || (w.wanted)(&events) {
                break;
            }
            events.extend(series.next_deal().expect("the next deal"));
        }
        let seat = series.deal().turn().expect("someone acts");
        let legal = series.legal_actions(seat);
        let action = choose(series.deal(), &legal, &mut rng);
        events.extend(series.apply(seat, action).expect("legal"));
        actions.push((seat, action));
    }
    (actions, events)
}

/// What every preset records: a plain deal, a bête carried into the next pot, a void deal, a
/// single player taking the pot, the maximum bête with its reserve, a series with a limit of
/// deals, the fewest and the most players.
fn common(preset: Preset) -> Vec<Wanted> {
    let (min, max) = preset.player_range();
    let base = Rules::preset(preset, 4.clamp(min, max));
    let h = u32::from(preset.hand_size());
    vec![
        wanted("plain-deal", "one deal at four players on the stake alone", base, 1, |_| true),
        wanted("bete-carried", "a bête paid into the pot is played for in the next deal", base, 3, |e| {
            rows(e).iter().any(|r| r.carry > 0 && r.active.len() >= 2)
        }),
        wanted("all-pass-void", "everyone passes: the deal is void and the pot stays", base, 6, |e| {
            rows(e).iter().any(|r| r.void)
        }),
        wanted("alone-takes-pot", "a single player takes the pot played for without play", base, 6, |e| {
            rows(e).iter().any(|r| r.alone.is_some())
        }),
        wanted(
            "max-bete-reserve",
            "option max_bete: the excess of the pot waits in the reserve",
            Rules { max_bete: Some(h), ..base },
            6,
            |e| rows(e).iter().any(|r| r.reserve > 0),
        ),
        wanted(
            "series-of-three",
            "option deals 3: the series ends, pot and reserve unclaimed",
            Rules { deals: Some(3), ..base },
            3,
            |e| has(e, |e| matches!(e, Event::SeriesOver { .. })),
        ),
        wanted("fewest-players", "the fewest players of the preset", Rules::preset(preset, min), 2, |_| true),
        wanted(
            "most-players",
            "the most players of the preset (the 52-card pack from seven)",
            Rules::preset(preset, max),
            2,
            |_| true,
        ),
    ]
}

fn special(preset: Preset) -> Vec<Wanted> {
    let base = Rules::preset(preset, 4);
    let decided =
        |choice: Choice| move |e: &[Event]| has(e, |e| matches!(e, Event::Decided { choice: c, .. } if *c == choice));
    match preset {
        Preset::ModernGrupp | Preset::ModernKatira => vec![
            wanted(
                "tipp-zwang",
                "option tipp_zwang: everyone plays on the stake alone",
                Rules { tipp_zwang: true, ..base },
                1,
                |_| true,
            ),
            wanted(
                "shoving",
                "option shoving: the dealer shoves, the next antes and deals",
                Rules { shoving: true, ..base },
                3,
                |e| has(e, |e| matches!(e, Event::Shoved { .. })) && rows(e).iter().any(|r| !r.active.is_empty()),
            ),
            wanted(
                "knocking",
                "option knocking: the dealer knocks unseen, discards, must play",
                Rules { knocking: true, ..base },
                4,
                |e| {
                    has(e, |e| matches!(e, Event::Knocked { .. }))
                        && rows(e).iter().any(|r| r.knocked && r.active.len() >= 2)
                },
            ),
            wanted(
                "sniffing-grupp",
                "option sniffing grupp: the dealer takes the trump card unseen",
                Rules { sniffing: Sniffing::Grupp, ..base },
                4,
                |e| rows(e).iter().any(|r| r.sniffed.is_some() && r.active.len() >= 2),
            ),
            wanted("exchange", "the exchange of up to three cards from the talon", base, 3, |e| {
                has(e, |e| matches!(e, Event::Exchanged { count: 3, .. }))
            }),
        ],
        Preset::Dreiblatt1859 => vec![
            wanted(
                "robbing",
                "option robbing: the holder of the seven of trumps robs the trump card",
                Rules { robbing: true, ..base },
                8,
                |e| has(e, |e| matches!(e, Event::Robbed { .. })),
            ),
            wanted(
                "hop-and-jump",
                "option hop_and_jump: an ace or seven at the bottom passes the deal on",
                Rules { hop_and_jump: true, ..base },
                4,
                |e| has(e, |e| matches!(e, Event::BottomCard { passed: true, .. })),
            ),
            wanted(
                "alvensleben-drop-out",
                "option sniffing alvensleben: the sniffer drops out paying the stake",
                Rules { sniffing: Sniffing::Alvensleben, ..base },
                6,
                decided(Choice::DropOut),
            ),
            wanted(
                "alvensleben-plays",
                "option sniffing alvensleben: the sniffer plays",
                Rules { sniffing: Sniffing::Alvensleben, ..base },
                6,
                |e| rows(e).iter().any(|r| r.sniffed.is_some() && r.active.contains(&r.dealer) && r.active.len() >= 2),
            ),
            wanted(
                "daus-two",
                "option daus_card two at eight players with the 52-card pack",
                Rules { daus_card: DausCard::Two, ..Rules::preset(preset, 8) },
                2,
                |_| true,
            ),
        ],
        Preset::Vierblatt => vec![
            wanted(
                "exchange-four",
                "option exchange_max 4: up to four cards from the talon",
                Rules { exchange_max: Some(4), ..base },
                3,
                |e| has(e, |e| matches!(e, Event::Exchanged { count: 4, .. })),
            ),
            wanted(
                "daus-two",
                "option daus_card two at seven players with the 52-card pack",
                Rules { daus_card: DausCard::Two, ..Rules::preset(preset, 7) },
                2,
                |_| true,
            ),
        ],
        _ => Vec::new(),
    }
}

#[test]
#[ignore = "builds the golden set; run by hand"]
fn generate() {
    for preset in Preset::ALL {
        let dir = golden_dir(preset);
        std::fs::create_dir_all(&dir).expect("a folder");
        let mut all = common(preset);
        all.extend(special(preset));
        for (i, w) in all.iter().enumerate() {
            let found = (0u64..100_000).find_map(|seed| {
                let (actions, events) = random_series(w, seed);
                (w.wanted)(&events).then_some((seed, actions, events))
            });
            let Some((seed, actions, events)) = found else { panic!("no series found for {} {}", preset.id(), w.name) };
            let (series, _) = Series::new(w.rules, Seed::from_u64(seed)).expect("valid");
            let mut golden = Golden {
                name: w.name.to_string(),
                about: w.about.to_string(),
                rules: w.rules,
                dealer: series.first_dealer(),
                seed: Seed::from_u64(seed),
                actions,
                events: holstein_golden::to_values(&events),
                scores: Vec::new(),
            };
            golden.scores = replay(&golden).expect("replays").1;
            holstein_golden::save(&dir, i, &golden);
        }
    }
}
