//! The crate's modules in layers, kept by the tests below, which read every `crate::…` path of
//! the sources:
//!
//! 1. **Common modules**, the files at the crate's root but the registry's (`card`, `seat`,
//!    `seed`, `trick`, `duel`, `sheet`, `options`, `fields`, `error`, `engine`, `level`): what
//!    every game shares. They never name a game, and no two of them use each other round a
//!    cycle.
//! 2. **Games**, one folder each (`prisdorf/`, `grossenaspe/`, `mecklenburg/`, …): a game uses
//!    the common modules and its own folder, never another game.
//! 3. **The registry**: `games.rs` (one line per game), `prompt.rs`, `decisions.rs` (a review's
//!    decisions, one variant per game) and `lib.rs`, which may use everything; nothing below
//!    uses them but through the name of a game ([`crate::GameId`]), which a game's engine
//!    states as its own.
//!
//! One common module still names games: [`crate::RuleError`] keeps the standing bid of the
//! refusals "bid higher than …" in each game's own type (its fields are public), so `error.rs`
//! may name those three bid types and nothing else of a game.

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::Path;

    /// The files of the registry, the top layer.
    const REGISTRY: &[&str] = &["lib.rs", "games.rs", "prompt.rs", "decisions.rs", "layers.rs"];

    /// The one name of the registry that the layers below may use: the games' names.
    const REGISTRY_NAMES: &[&str] = &["games::GameId"];

    /// What a common module may name of a game (see the module's documentation).
    const COMMON_EXCEPTIONS: &[(&str, &str)] =
        &[("error.rs", "prisdorf::Bid"), ("error.rs", "grossenaspe"), ("error.rs", "mecklenburg")];

    /// What a file of the crate is, by its path under `src/`.
    #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
    enum Layer {
        Common(String),
        Game(String),
        Registry,
    }

    fn layer_of(file: &str, folders: &BTreeSet<String>) -> Layer {
        match file.split_once('/') {
            Some((folder, _)) => Layer::Game(folder.to_owned()),
            None if REGISTRY.contains(&file) => Layer::Registry,
            None => {
                let name = file.trim_end_matches(".rs");
                if folders.contains(name) { Layer::Game(name.to_owned()) } else { Layer::Common(name.to_owned()) }
            }
        }
    }

    /// Every path a source names after `crate::` (or `$crate::`), outside comments, as written
    /// up to its last `::` segment: `use crate::{seat::Seat, seed}` gives `seat::Seat` and
    /// `seed`.
    fn crate_paths(source: &str) -> Vec<String> {
        let mut paths = Vec::new();
        for line in source.lines() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            let mut rest = code;
            while let Some(at) = rest.find("crate::") {
                let after = &rest[at + "crate::".len()..];
                if let Some(group) = after.strip_prefix('{') {
                    let end = group.find('}').unwrap_or(group.len());
                    paths.extend(group[..end].split(',').map(|p| p.trim().to_owned()).filter(|p| !p.is_empty()));
                } else {
                    let end =
                        after.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).unwrap_or(after.len());
                    paths.push(after[..end].trim_end_matches(':').to_owned());
                }
                rest = after;
            }
        }
        paths
    }

    /// The breaches of the layers among `files` (path under `src/` → source): one sentence
    /// each, none when the layers hold.
    fn breaches(files: &BTreeMap<String, String>) -> Vec<String> {
        let folders: BTreeSet<String> =
            files.keys().filter_map(|f| f.split_once('/').map(|(folder, _)| folder.to_owned())).collect();
        let mut found = Vec::new();
        let mut common_edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (file, source) in files {
            let from = layer_of(file, &folders);
            for path in crate_paths(source) {
                let first = path.split("::").next().unwrap_or_default();
                let to = if folders.contains(first) {
                    Layer::Game(first.to_owned())
                } else if files.contains_key(&format!("{first}.rs")) {
                    layer_of(&format!("{first}.rs"), &folders)
                } else {
                    // An item the crate's root re-exports (`crate::Seat`): the top layer.
                    Layer::Registry
                };
                let registry_name = REGISTRY_NAMES.iter().any(|n| path == *n || path.starts_with(&format!("{n}::")));
                let excepted = COMMON_EXCEPTIONS.iter().any(|(f, p)| f == file && path.starts_with(p));
                match (&from, &to) {
                    (Layer::Registry, _) => {}
                    (_, Layer::Registry) if registry_name => {}
                    (_, Layer::Registry) => found.push(format!("{file} uses the registry's or root's `{path}`")),
                    (Layer::Common(_), Layer::Game(_)) if excepted => {}
                    (Layer::Common(_), Layer::Game(game)) => {
                        found.push(format!("common module {file} uses the game {game} (`{path}`)"))
                    }
                    (Layer::Game(a), Layer::Game(b)) if a != b => {
                        found.push(format!("{file} of the game {a} uses the game {b} (`{path}`)"))
                    }
                    (Layer::Common(a), Layer::Common(b)) if a != b => {
                        common_edges.entry(a.clone()).or_default().insert(b.clone());
                    }
                    _ => {}
                }
            }
        }
        found.extend(cycles(&common_edges).into_iter().map(|c| format!("common modules use each other round: {c}")));
        found
    }

    /// One cycle through each strongly connected part of `edges` with more than one module.
    fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
        let mut found = Vec::new();
        let mut seen = BTreeSet::new();
        for start in edges.keys() {
            // The modules reachable from `start`, with the step that reached each.
            let mut reached: BTreeMap<&str, &str> = BTreeMap::new();
            let mut stack = vec![start.as_str()];
            while let Some(at) = stack.pop() {
                for next in edges.get(at).into_iter().flatten() {
                    if !reached.contains_key(next.as_str()) {
                        reached.insert(next, at);
                        stack.push(next);
                    }
                }
            }
            if reached.contains_key(start.as_str()) && !seen.contains(start) {
                // Back from the step that reached `start` again, to `start`.
                let mut cycle = Vec::new();
                let mut at = reached[start.as_str()];
                while at != start {
                    cycle.push(at);
                    at = reached[at];
                }
                cycle.reverse();
                seen.insert(start.clone());
                seen.extend(cycle.iter().map(|m| (*m).to_owned()));
                found.push(format!("{start} → {} → {start}", cycle.join(" → ")));
            }
        }
        found
    }

    fn sources() -> BTreeMap<String, String> {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = BTreeMap::new();
        let mut dirs = vec![src.clone()];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).expect("the sources") {
                let path = entry.expect("an entry").path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let name = path.strip_prefix(&src).expect("under src").to_string_lossy().replace('\\', "/");
                    files.insert(name, std::fs::read_to_string(&path).expect("a source"));
                }
            }
        }
        files
    }

    #[test]
    fn common_modules_name_no_game_and_games_use_no_other_game() {
        let files = sources();
        assert!(files.contains_key("prisdorf/deal.rs") && files.contains_key("seat.rs"), "the sources are read");
        let found = breaches(&files);
        assert!(found.is_empty(), "the layers are broken:\n{}", found.join("\n"));
    }

    #[test]
    fn a_planted_breach_of_each_kind_is_found() {
        let mut files = sources();
        let mut plant = |file: &str, line: &str| {
            let source = files.get_mut(file).expect("a source");
            source.push('\n');
            source.push_str(line);
        };
        plant("seat.rs", "use crate::prisdorf::Deal;");
        plant("tippen/deal.rs", "use crate::{card::Card, wippen::Move};");
        plant("card.rs", "fn f() -> crate::seat::Seat { todo!() }");
        plant("nap/view.rs", "use crate::Seat;");
        let found = breaches(&files);
        assert!(found.iter().any(|f| f.contains("common module seat.rs uses the game prisdorf")), "{found:?}");
        assert!(
            found.iter().any(|f| f.contains("tippen/deal.rs of the game tippen uses the game wippen")),
            "{found:?}"
        );
        assert!(found.iter().any(|f| f.contains("round: ") && f.contains("card") && f.contains("seat")), "{found:?}");
        assert!(found.iter().any(|f| f.contains("nap/view.rs uses the registry's or root's `Seat`")), "{found:?}");
        assert_eq!(found.len(), 4, "{found:?}");
    }
}
