//! ARCHITECTURE.md stays true: every file and folder it names exists, and every room handler it
//! names (`decide_…`) is defined in the room core.

use std::path::Path;

/// The backticked spans of a text.
fn spans(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

#[test]
fn every_file_and_handler_architecture_md_names_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md at the top");
    let mut files = 0;
    for span in spans(&text) {
        // A path in the workspace: under one of its top folders, no placeholder (error codes
        // such as `room/broken` are not paths).
        let top = [
            "rules/",
            "bots/",
            "tournament/",
            "protocol/",
            "server/",
            "loadgen/",
            "client-web/",
            "tests/",
            "scripts/",
            "docs/",
        ];
        let looks_like_path = top.iter().any(|t| span.starts_with(t)) && !span.contains(['<', ' ', '…', '*', '=']);
        if looks_like_path {
            assert!(root.join(span).exists(), "ARCHITECTURE.md names {span}, which does not exist");
            files += 1;
        }
    }
    assert!(files > 40, "only {files} paths found: is the check still reading the file?");

    let core = root.join("server/src/room/core");
    let mut sources = String::new();
    for entry in std::fs::read_dir(&core).expect("the room core") {
        sources += &std::fs::read_to_string(entry.expect("a file").path()).expect("readable");
    }
    let mut handlers = 0;
    for span in spans(&text).into_iter().filter(|s| s.starts_with("decide_") && !s.contains('…')) {
        assert!(sources.contains(&format!("fn {span}(")), "ARCHITECTURE.md names {span}, which the room core lacks");
        handlers += 1;
    }
    assert!(handlers >= 10, "{handlers} handlers named");
}
