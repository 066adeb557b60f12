//! The protocol names the rules and the tournament crate's types, never the bots: a client's
//! protocol must not change with how the computer players think.

#[test]
fn the_protocol_depends_on_no_crate_of_the_project_but_rules_and_tournament() {
    let manifest = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).expect("the manifest");
    let ours: Vec<&str> = manifest
        .lines()
        .filter_map(|line| line.split_once('=').map(|(name, _)| name.trim()))
        .filter(|name| name.starts_with("fipsen-"))
        .collect();
    assert_eq!(ours, ["fipsen-rules", "fipsen-tournament"], "{manifest}");
}
