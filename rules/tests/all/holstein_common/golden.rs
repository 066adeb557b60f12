//! The golden-deal runner shared by the games of the Holstein family: a golden file holds a
//! complete deal (rules, dealer, seed, actions → expected events and scores) with one action
//! or event a line; one test replays every file of a folder and fails with the first
//! differing event, or rewrites the files under `FIPSEN_BLESS=1`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use fipsen_rules::{Seat, Seed};
use serde::{Deserialize, Serialize};

use super::HolsteinDeal;

/// One golden deal of a game with rules `R` and actions `A`.
#[derive(Debug, Serialize, Deserialize)]
pub struct Golden<R, A> {
    pub name: String,
    pub about: String,
    pub rules: R,
    pub dealer: Seat,
    pub seed: Seed,
    pub actions: Vec<(Seat, A)>,
    pub events: Vec<serde_json::Value>,
    pub scores: Vec<i32>,
}

impl<R, A> Golden<R, A> {
    /// A deal found for the golden set: its rules, dealer, seed, actions and events.
    pub fn found<D: HolsteinDeal<Action = A>>(
        (name, about): (&str, &str),
        rules: R,
        dealer: Seat,
        seed: Seed,
        actions: Vec<(Seat, A)>,
        events: &[D::Event],
    ) -> Golden<R, A> {
        let (name, about) = (name.to_string(), about.to_string());
        Golden { name, about, rules, dealer, seed, actions, events: to_values(events), scores: scores_of::<D>(events) }
    }
}

/// Writes `golden` as the file `NN-name.json` of `dir`, `NN` being `index` + 1.
pub fn save<R: Serialize, A: Serialize>(dir: &Path, index: usize, golden: &Golden<R, A>) {
    let path = dir.join(format!("{:02}-{}.json", index + 1, golden.name));
    std::fs::write(&path, render(golden)).expect("write");
}

/// A deal's actions, by seat, and every event it caused.
pub type Played<D> = (Vec<(Seat, <D as HolsteinDeal>::Action)>, Vec<<D as HolsteinDeal>::Event>);

/// Plays a deal out, `pick` choosing for the seat to act among his legal actions: the actions
/// taken and every event.
pub fn random_deal<D: HolsteinDeal>(
    (mut deal, first): (D, D::Event),
    mut pick: impl FnMut(&D, Seat, &[D::Action]) -> D::Action,
) -> Played<D> {
    let mut events = vec![first];
    let mut actions = Vec::new();
    while let Some(seat) = deal.turn() {
        let legal = deal.legal_actions(seat);
        let action = pick(&deal, seat, &legal);
        events.extend(deal.apply(seat, action).expect("legal"));
        actions.push((seat, action));
    }
    (actions, events)
}

/// The folder of golden files below `tests/golden` (`sub` empty: that folder itself).
pub fn golden_dir(sub: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("golden");
    if sub.is_empty() { dir } else { dir.join(sub) }
}

fn line<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// One action or event a line, so that a diff of the file reads like the deal.
pub fn render<R: Serialize, A: Serialize>(g: &Golden<R, A>) -> String {
    let mut out = String::from("{\n");
    let _ = writeln!(out, "  \"name\": {},", line(&g.name));
    let _ = writeln!(out, "  \"about\": {},", line(&g.about));
    let _ = writeln!(out, "  \"rules\": {},", line(&g.rules));
    let _ = writeln!(out, "  \"dealer\": {},", line(&g.dealer));
    let _ = writeln!(out, "  \"seed\": {},", line(&g.seed));
    out.push_str("  \"actions\": [\n");
    let actions: Vec<String> = g.actions.iter().map(|a| format!("    {}", line(a))).collect();
    out.push_str(&actions.join(",\n"));
    out.push_str("\n  ],\n  \"events\": [\n");
    let events: Vec<String> = g.events.iter().map(|e| format!("    {}", line(e))).collect();
    out.push_str(&events.join(",\n"));
    out.push_str("\n  ],\n");
    let _ = writeln!(out, "  \"scores\": {}", line(&g.scores));
    out.push_str("}\n");
    out
}

/// Events as JSON values, as a golden file holds them.
pub fn to_values<E: Serialize>(events: &[E]) -> Vec<serde_json::Value> {
    events.iter().map(|e| serde_json::to_value(e).expect("serialisable")).collect()
}

/// The scores of a deal's end among its events (none before it).
pub fn scores_of<D: HolsteinDeal>(events: &[D::Event]) -> Vec<i32> {
    events.iter().find_map(D::final_scores).map(<[i32]>::to_vec).unwrap_or_default()
}

/// Takes a golden deal's actions again in its deal, dealt anew: its events as JSON values and its
/// scores, or which action was refused.
pub fn replay<D: HolsteinDeal>(
    (mut deal, first): (D, D::Event),
    actions: &[(Seat, D::Action)],
) -> Result<(Vec<serde_json::Value>, Vec<i32>), String> {
    let mut events = vec![first];
    for (i, (seat, action)) in actions.iter().enumerate() {
        let more = deal.apply(*seat, *action).map_err(|e| format!("action {i} ({seat:?} {action:?}) refused: {e}"))?;
        events.extend(more);
    }
    Ok((to_values(&events), scores_of::<D>(&events)))
}

fn first_difference(expected: &[serde_json::Value], actual: &[serde_json::Value]) -> Option<String> {
    let line = |v: Option<&serde_json::Value>| v.map_or("(none)".to_string(), |v| v.to_string());
    let i = (0..expected.len().max(actual.len())).find(|&i| expected.get(i) != actual.get(i))?;
    let mut out = format!("event {i} differs\n");
    if i > 0 {
        let _ = writeln!(out, "    {}", line(expected.get(i - 1)));
    }
    let _ = writeln!(out, "  - {}", line(expected.get(i)));
    let _ = write!(out, "  + {}", line(actual.get(i)));
    Some(out)
}

/// Replays every golden file in `dir` (at least `at_least` of them) with `replay`, which
/// returns the events as JSON values and the scores; fails listing every file that no longer
/// matches, or rewrites them all under `FIPSEN_BLESS=1`.
pub fn replay_all<R, A>(
    dir: &Path,
    at_least: usize,
    replay: impl Fn(&Golden<R, A>) -> Result<(Vec<serde_json::Value>, Vec<i32>), String>,
) where
    R: Serialize + for<'de> Deserialize<'de>,
    A: Serialize + for<'de> Deserialize<'de>,
{
    let bless = std::env::var_os("FIPSEN_BLESS").is_some();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= at_least, "at least {at_least} golden deals, found {}", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("readable");
        let mut golden: Golden<R, A> =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let (actual, scores) = match replay(&golden) {
            Ok(replayed) => replayed,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        if bless {
            golden.events = actual;
            golden.scores = scores;
            std::fs::write(path, render(&golden)).expect("writable");
            continue;
        }
        if let Some(diff) = first_difference(&golden.events, &actual) {
            failures.push(format!("{name}: {diff}"));
        } else if golden.scores != scores {
            failures.push(format!("{name}: scores\n  expected {:?}\n  actual   {:?}", golden.scores, scores));
        }
    }
    assert!(
        failures.is_empty(),
        "{} golden deal(s) no longer match (FIPSEN_BLESS=1 rewrites them after an intended change):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
