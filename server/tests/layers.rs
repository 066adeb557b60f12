//! The server's modules stand in layers, and no import goes up a layer or round a cycle.
//!
//! Every file of `server/src/` is read; each `crate::…` and `super::…` path in it (in a `use`,
//! braced groups included, or written inline in the code) is mapped to the top-level module it
//! names. A module may use its own layer and those below it, and the modules never use each
//! other round a cycle. Inside a folder module (`room/`, `cluster/`, …) its parts (its files
//! and folders) use each other without a cycle either; its `mod.rs` sits on top of its parts,
//! declaring and re-exporting them. Comments and string literals are not read.
//!
//! [`LAYERS`] is the order, bottom first; ARCHITECTURE.md ("Server layers") lists the same.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The server's top-level modules, bottom layer first. `lib` is the crate root (`lib.rs`).
const LAYERS: &[&[&str]] = &[
    &[
        "analysis",
        "background",
        "fair",
        "frames",
        "keys",
        "metrics",
        "proxy",
        "quota",
        "secrets",
        "static_files",
        "text",
    ],
    &["storage"],
    &["lease"],
    &["room"],
    &["tournaments"],
    &["cluster"],
    &["registry"],
    &["config", "health"],
    &["state"],
    &["accept"],
    &["connection"],
    &["listener"],
    &["lib"],
];

/// A module path inside the crate: `["room", "shell"]` for `room/shell.rs`, `[]` for `lib.rs`.
fn module_of(file: &str) -> Vec<String> {
    let file = file.strip_suffix(".rs").unwrap_or(file);
    let mut parts: Vec<String> = file.split('/').map(str::to_string).collect();
    if parts.last().is_some_and(|last| last == "mod" || last == "lib") {
        parts.pop();
    }
    parts
}

/// The code of a file with its comments and the contents of its string and character literals
/// blanked out (so that neither can name a module).
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && !is_ident(chars.get(i.wrapping_sub(1))) {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= chars.len() {
                    break;
                }
                if chars[j] == '"' && (0..hashes).all(|h| chars.get(j + 1 + h) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && (next == Some('\\') || chars.get(i + 2) == Some(&'\'')) {
            // A character literal ('x', '\n', '\u{…}'); a lifetime is left as it is.
            i += 1;
            while i < chars.len() && chars[i] != '\'' {
                if chars[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn is_ident(c: Option<&char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || *c == '_')
}

/// The identifier starting at `at`, if any.
fn ident_at(chars: &[char], at: usize) -> Option<(String, usize)> {
    let mut end = at;
    while end < chars.len() && is_ident(Some(&chars[end])) {
        end += 1;
    }
    (end > at && !chars[at].is_ascii_digit()).then(|| (chars[at..end].iter().collect(), end))
}

fn skip_space(chars: &[char], mut at: usize) -> usize {
    while at < chars.len() && chars[at].is_whitespace() {
        at += 1;
    }
    at
}

/// Whether `::` follows `at` (after spaces): the position after it.
fn path_sep(chars: &[char], at: usize) -> Option<usize> {
    let at = skip_space(chars, at);
    (chars.get(at) == Some(&':') && chars.get(at + 1) == Some(&':') && chars.get(at + 2) != Some(&'<'))
        .then(|| skip_space(chars, at + 2))
}

/// The paths of a use tree or an inline path starting at `at` (just after `prefix::`), each
/// with its first two segments at most (all that the layers need).
fn paths_from(chars: &[char], at: usize, prefix: &[String], found: &mut Vec<Vec<String>>) {
    if chars.get(at) == Some(&'{') {
        let mut at = skip_space(chars, at + 1);
        while at < chars.len() && chars[at] != '}' {
            paths_from(chars, at, prefix, found);
            // Past this tree: to the comma at this depth, or the closing brace.
            let mut depth = 0;
            while at < chars.len() {
                match chars[at] {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        at += 1;
                        break;
                    }
                    _ => {}
                }
                at += 1;
            }
            at = skip_space(chars, at);
        }
        return;
    }
    let Some((segment, end)) = ident_at(chars, at) else {
        found.push(prefix.to_vec());
        return;
    };
    let mut path = prefix.to_vec();
    if segment != "self" {
        path.push(segment);
    }
    match path_sep(chars, end) {
        Some(next) if path.len() < 2 => paths_from(chars, next, &path, found),
        _ => found.push(path),
    }
}

/// The spans (start, end) of the inline modules (`mod tests { … }`) of a file's code.
fn inline_modules(chars: &[char]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i + 3 < chars.len() {
        let word_start = i == 0 || !is_ident(Some(&chars[i - 1]));
        if word_start && chars[i..].starts_with(&['m', 'o', 'd', ' ']) {
            let at = skip_space(chars, i + 4);
            if let Some((_, end)) = ident_at(chars, at) {
                let open = skip_space(chars, end);
                if chars.get(open) == Some(&'{') {
                    let mut depth = 0;
                    let mut close = open;
                    while close < chars.len() {
                        match chars[close] {
                            '{' => depth += 1,
                            '}' => {
                                depth -= 1;
                                if depth == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        close += 1;
                    }
                    spans.push((open, close));
                }
            }
        }
        i += 1;
    }
    spans
}

/// Every module path a file's code names through `crate::` or `super::`, absolute, with its
/// first two segments at most.
fn named_paths(file: &str, text: &str) -> Vec<Vec<String>> {
    let own = module_of(file);
    let chars: Vec<char> = code_only(text).chars().collect();
    let inline = inline_modules(&chars);
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let word_start = i == 0 || !(is_ident(Some(&chars[i - 1])) || chars[i - 1] == ':');
        let Some((word, end)) = word_start.then(|| ident_at(&chars, i)).flatten() else {
            i += 1;
            continue;
        };
        let is_macro_crate = i > 0 && chars[i - 1] == '$';
        if let (true, Some(mut next)) = (word == "crate" || word == "super", path_sep(&chars, end)) {
            let prefix = if word == "crate" || is_macro_crate {
                Vec::new()
            } else {
                // `super` counted from the inline module the path sits in, if any.
                let depth = inline.iter().filter(|(open, close)| *open < i && i < *close).count();
                let mut ups: usize = 1;
                while let Some(more) =
                    ident_at(&chars, next).filter(|(w, _)| w == "super").and_then(|(_, after)| path_sep(&chars, after))
                {
                    ups += 1;
                    next = more;
                }
                let inside = ups.saturating_sub(depth);
                own[..own.len().saturating_sub(inside)].to_vec()
            };
            if word == "super" && prefix.len() >= 2 {
                found.push(prefix[..2].to_vec());
            } else {
                paths_from(&chars, next, &prefix, &mut found);
            }
            i = end;
            continue;
        }
        i = end;
    }
    found
}

/// The problems of a crate's sources (`(path under src/, text)`) against `layers`: modules
/// not placed in exactly one layer, imports that go up a layer, cycles between top-level
/// modules, and cycles between the parts of a folder module. Empty when all is well.
fn check(sources: &[(String, String)], layers: &[&[&str]]) -> Vec<String> {
    let mut problems = Vec::new();
    let top_of = |module: &[String]| module.first().cloned().unwrap_or_else(|| "lib".to_string());
    let modules: BTreeSet<String> = sources.iter().map(|(file, _)| top_of(&module_of(file))).collect();
    // The parts of each folder module: its direct children.
    let mut parts: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (file, _) in sources {
        let module = module_of(file);
        if module.len() >= 2 {
            parts.entry(module[0].clone()).or_default().insert(module[1].clone());
        }
    }
    let mut layer_of = BTreeMap::new();
    for (rank, layer) in layers.iter().enumerate() {
        for &module in *layer {
            if layer_of.insert(module.to_string(), rank).is_some() {
                problems.push(format!("`{module}` is placed in two layers"));
            }
            if !modules.contains(module) {
                problems.push(format!("`{module}` is placed in a layer but is no module of the crate"));
            }
        }
    }
    for module in &modules {
        if !layer_of.contains_key(module) {
            problems.push(format!("`{module}` is in no layer: place it in LAYERS and in ARCHITECTURE.md"));
        }
    }

    let mut top_edges: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let mut part_edges: BTreeMap<String, BTreeMap<String, BTreeMap<String, String>>> = BTreeMap::new();
    for (file, text) in sources {
        let own = module_of(file);
        let from = top_of(&own);
        for path in named_paths(file, text) {
            let to =
                if modules.contains(&top_of(&path)) && !path.is_empty() { top_of(&path) } else { "lib".to_string() };
            if to != from {
                top_edges.entry(from.clone()).or_default().entry(to.clone()).or_insert_with(|| file.clone());
                if let (Some(&up), Some(&down)) = (layer_of.get(&to), layer_of.get(&from))
                    && up > down
                {
                    problems.push(format!(
                        "{file}: `{from}` (layer {}) uses `{to}` (layer {}), a layer above it",
                        down + 1,
                        up + 1
                    ));
                }
                continue;
            }
            let Some(children) = parts.get(&from) else { continue };
            // Inside a folder module: part to part; its mod.rs (the top) is not counted.
            let Some(from_part) = own.get(1) else { continue };
            let to_part =
                path.get(1).filter(|p| children.contains(*p)).cloned().unwrap_or_else(|| "mod.rs".to_string());
            if &to_part != from_part {
                part_edges
                    .entry(from.clone())
                    .or_default()
                    .entry(from_part.clone())
                    .or_default()
                    .entry(to_part)
                    .or_insert_with(|| file.clone());
            }
        }
    }
    for cycle in cycles(&top_edges) {
        problems.push(format!("the modules {} use each other round a cycle", cycle.join(" -> ")));
    }
    for (module, edges) in &part_edges {
        for cycle in cycles(edges) {
            problems.push(format!("the parts of `{module}` {} use each other round a cycle", cycle.join(" -> ")));
        }
    }
    problems
}

/// Every cycle found by a depth-first walk (each reported once, as the walk meets it), with the
/// file that makes each of its steps.
fn cycles(edges: &BTreeMap<String, BTreeMap<String, String>>) -> Vec<Vec<String>> {
    fn walk(
        node: &str,
        edges: &BTreeMap<String, BTreeMap<String, String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        found: &mut Vec<Vec<String>>,
    ) {
        if let Some(at) = stack.iter().position(|n| n == node) {
            let mut cycle: Vec<String> = stack[at..]
                .iter()
                .enumerate()
                .map(|(k, n)| {
                    let next = stack.get(at + k + 1).map_or(node, |s| s.as_str());
                    format!("{n} ({})", edges[n][next])
                })
                .collect();
            cycle.push(node.to_string());
            found.push(cycle);
            return;
        }
        if done.contains(node) {
            return;
        }
        stack.push(node.to_string());
        for next in edges.get(node).into_iter().flat_map(|e| e.keys()) {
            walk(next, edges, stack, done, found);
        }
        stack.pop();
        done.insert(node.to_string());
    }
    let mut found = Vec::new();
    let mut done = BTreeSet::new();
    for node in edges.keys() {
        walk(node, edges, &mut Vec::new(), &mut done, &mut found);
    }
    found
}

/// Every `.rs` file under `dir`, as its path under `root` with `/` between folders.
fn read_sources(root: &Path, dir: &Path, into: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            read_sources(root, &path, into);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let name = path.strip_prefix(root).expect("under src").to_string_lossy().replace('\\', "/");
            into.push((name, std::fs::read_to_string(&path).expect("readable")));
        }
    }
}

#[test]
fn the_server_modules_stand_in_layers_without_a_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut sources = Vec::new();
    read_sources(&src, &src, &mut sources);
    // main.rs is the binary, a crate of its own that uses this one by its name.
    sources.retain(|(file, _)| file != "main.rs");
    assert!(sources.len() > 50, "only {} files read", sources.len());
    let edges: usize = sources.iter().map(|(file, text)| named_paths(file, text).len()).sum();
    assert!(edges > 200, "only {edges} paths found: is the check still reading the imports?");
    let problems = check(&sources, LAYERS);
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn architecture_md_lists_the_same_layers() {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../ARCHITECTURE.md"))
        .expect("ARCHITECTURE.md at the top");
    let section = text.split("\n## Server layers").nth(1).expect("a section \"Server layers\"");
    let section = section.split("\n## ").next().unwrap_or(section);
    let listed: Vec<Vec<String>> = section
        .lines()
        .filter_map(|line| {
            let (number, rest) = line.split_once(". ")?;
            number.parse::<u32>().ok()?;
            let names = rest.split(" — ").next()?;
            Some(names.split('`').skip(1).step_by(2).map(str::to_string).collect())
        })
        .collect();
    let expected: Vec<Vec<String>> = LAYERS.iter().map(|layer| layer.iter().map(|m| m.to_string()).collect()).collect();
    assert_eq!(listed, expected, "ARCHITECTURE.md's server layers differ from LAYERS in server/tests/layers.rs");
}

fn files(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|(f, t)| (f.to_string(), t.to_string())).collect()
}

/// The check reports a use of a layer above, a cycle in one layer, a cycle between a folder
/// module's parts, and a module placed nowhere; and passes the same files once they are sound.
#[test]
fn the_check_reports_a_planted_upward_use_and_a_planted_cycle() {
    let layers: &[&[&str]] = &[&["low", "side"], &["high"], &["lib"]];
    let sound = files(&[
        ("lib.rs", "pub mod low;\npub mod side;\npub mod high;\n"),
        ("low.rs", "// uses crate::high::Thing only in a comment\nconst A: &str = \"crate::high::X\";\n"),
        ("side.rs", "use crate::low::Thing;\n"),
        ("high/mod.rs", "pub mod a;\npub mod b;\npub use a::A;\n"),
        ("high/a.rs", "use crate::{low::{self, Thing}, side};\nuse super::b::B;\n"),
        ("high/b.rs", "pub struct B;\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n"),
    ]);
    assert_eq!(check(&sound, layers), Vec::<String>::new());

    let mut upward = sound.clone();
    upward[1].1 += "fn f() { crate::high::a::go(); }\n";
    let problems = check(&upward, layers);
    assert!(problems.iter().any(|p| p.contains("`low` (layer 1) uses `high` (layer 2)")), "{problems:?}");

    let mut cycle = sound.clone();
    cycle[1].1 += "use crate::side::Other;\n";
    let problems = check(&cycle, layers);
    assert!(problems.iter().any(|p| p.contains("use each other round a cycle") && p.contains("low")), "{problems:?}");

    let mut parts = sound.clone();
    parts[5].1 += "use crate::high::a::A;\n";
    let problems = check(&parts, layers);
    assert!(problems.iter().any(|p| p.contains("the parts of `high`") && p.contains("a (")), "{problems:?}");

    let mut unplaced = sound;
    unplaced.push(("extra.rs".into(), String::new()));
    let problems = check(&unplaced, layers);
    assert!(problems.iter().any(|p| p.contains("`extra` is in no layer")), "{problems:?}");
}

/// Paths are found in braced groups, inline, behind `$crate` and `super::super`, and not in
/// comments or strings; `super` in an inline module counts from that module.
#[test]
fn paths_are_read_as_the_compiler_reads_them() {
    let text = "use crate::{a::X, b::{c::Y, Z}};\n/* crate::hidden::Q */\nfn f() { let _ = crate::d::e(); }\n\
                macro_rules! m { () => { $crate::f::G } }\nmod tests { use super::*; use super::super::h::I; }\n\
                const S: &str = r#\"crate::raw::R\"#; const C: char = '\"'; fn g<'a>(x: &'a str) { crate::k::l(x) }\n";
    let paths = named_paths("room/shell.rs", text);
    let names: BTreeSet<String> = paths.iter().map(|p| p.join("::")).collect();
    let expected: BTreeSet<String> = ["a::X", "b::c", "b::Z", "d::e", "f::G", "room::shell", "room::h", "k::l"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(names, expected);
}

/// Words that name a game's shared rules but no game of the registry: the Holstein family's
/// common deal (Prisdorf, Großenaspe and the Mecklenburg games build on it).
const FAMILIES: &[&str] = &["holstein"];

/// Every word that names a game, from the rules' registry, so that a new game is covered as
/// soon as it is registered: its code (`grossenaspe`), its variant (`Grossenaspe`), the words
/// of its English name but the family's `Fipsen` (`Großenaspe`), and the modules of its series
/// type that are folders of the rules crate (`mecklenburg` for Duttfips); and [`FAMILIES`].
fn game_names() -> BTreeSet<String> {
    let rules_src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/src");
    let mut names: BTreeSet<String> = FAMILIES.iter().map(|f| f.to_string()).collect();
    for &game in fipsen_rules::GameId::ALL {
        names.insert(game.code().to_lowercase());
        names.insert(format!("{game:?}").to_lowercase());
        for word in game.name().split_whitespace().filter(|w| *w != "Fipsen") {
            names.insert(word.to_lowercase());
        }
        let path: Vec<&str> = game.series_type().split("::").collect();
        for module in &path[1..path.len() - 1] {
            if rules_src.join(module).is_dir() {
                names.insert(module.to_lowercase());
            }
        }
    }
    names
}

/// Whether the text at `at` of `length` chars stands as a word of an identifier or of prose:
/// not inside a longer lower-case word (`nap` in `snapshot`), but at the start of a CamelCase
/// part or of a snake_case one (`NapBot`, `nap_rules`).
fn stands_alone(chars: &[char], at: usize, length: usize) -> bool {
    let before = at.checked_sub(1).map(|i| chars[i]);
    let first = chars[at];
    let after = chars.get(at + length).copied();
    let starts = match before {
        None => true,
        Some(b) => !b.is_alphanumeric() || (b.is_lowercase() && first.is_uppercase()),
    };
    let ends = match after {
        None => true,
        Some(a) => !(a.is_lowercase() || a.is_numeric()),
    };
    starts && ends
}

/// Each place in `sources` (`(path, text)`) that names one of `names` (lower case), in any case,
/// as a word: `path:line: name`. Comments and strings count: the sources name no game at all.
fn games_named(sources: &[(String, String)], names: &BTreeSet<String>) -> Vec<String> {
    let mut found = Vec::new();
    for (file, text) in sources {
        for (number, line) in text.lines().enumerate() {
            let chars: Vec<char> = line.chars().collect();
            // One char for one: no name of a game has a letter that lower-cases into two.
            let lower: Vec<char> = chars.iter().map(|c| c.to_lowercase().next().unwrap_or(*c)).collect();
            for name in names {
                let name: Vec<char> = name.chars().collect();
                let hit = (0..lower.len().saturating_sub(name.len() - 1))
                    .any(|at| lower[at..at + name.len()] == name[..] && stands_alone(&chars, at, name.len()));
                if hit {
                    found.push(format!("{file}:{}: {}", number + 1, name.iter().collect::<String>()));
                }
            }
        }
    }
    found
}

/// The server and the protocol name no game: a game is named in the rules, the bots and the
/// client's game modules only, and reaches the server through the registry.
#[test]
fn the_server_and_the_protocol_name_no_game() {
    let names = game_names();
    assert!(names.len() >= 8 && names.contains("mecklenburg"), "names from the registry: {names:?}");
    let mut problems = Vec::new();
    for krate in ["src", "../protocol/src"] {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(krate);
        let mut sources = Vec::new();
        read_sources(&src, &src, &mut sources);
        assert!(sources.len() > 10, "{krate}: only {} files read", sources.len());
        let sources: Vec<(String, String)> =
            sources.into_iter().map(|(file, text)| (format!("{krate}/{file}"), text)).collect();
        problems.extend(games_named(&sources, &names));
    }
    assert!(problems.is_empty(), "games named outside the rules, the bots and the client:\n{}", problems.join("\n"));
}

/// The check finds a game planted in code, a path, a string or a comment, in any case and as
/// part of an identifier, but not inside a longer word.
#[test]
fn the_check_finds_a_planted_game_name() {
    let names: BTreeSet<String> = ["wippen", "nap", "grossenaspe"].iter().map(|n| n.to_string()).collect();
    for planted in [
        "let budget = match game { GameId::Wippen => 1, _ => 2 };",
        "use fipsen_rules::wippen::PileRef;",
        r#"let rules = json!({"game": "grossenaspe"});"#,
        "// Nap has no review.",
        "struct NapBot;",
        "fn nap_rules() {}",
    ] {
        let sources = files(&[("room/core/play.rs", planted)]);
        assert_eq!(games_named(&sources, &names).len(), 1, "{planted}");
    }
    let clean = files(&[("room/snapshot.rs", "let snapshot = Snapshot::of(&room); // a snapshot, napped")]);
    assert_eq!(games_named(&clean, &names), Vec::<String>::new());
}
