//! Embeds the web client into the server binary at compile time.
//!
//! The client's files are taken from `client-web/dist/` when it holds an `index.html` (a built
//! client), otherwise from `client-web/` itself when it holds one (a client without a build
//! step), leaving out `node_modules/`, `tests/` and hidden files. With neither, no file is
//! embedded and the server shows a placeholder page: the build never depends on the client.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const SKIPPED_DIRS: [&str; 4] = ["node_modules", "tests", "test", "dist"];

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let client = manifest.join("../client-web");
    println!("cargo:rerun-if-changed={}", client.display());
    println!("cargo:rerun-if-changed=build.rs");
    let root = [client.join("dist"), client.clone()].into_iter().find(|dir| dir.join("index.html").is_file());
    let mut files = Vec::new();
    if let Some(root) = &root {
        collect(root, root, root != &client.join("dist"), &mut files);
    }
    files.sort();
    let mut out = String::from(
        "/// The web client's files: path relative to its root, contents.\npub static FILES: &[(&str, &[u8])] = &[\n",
    );
    for (rel, abs) in &files {
        let _ = writeln!(out, "    ({rel:?}, include_bytes!({:?})),", abs.display().to_string());
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default()).join("client_files.rs");
    if let Err(e) = std::fs::write(&dest, out) {
        panic!("cannot write {}: {e}", dest.display());
    }
}

fn collect(root: &Path, dir: &Path, skip_dirs: bool, files: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        if path.is_dir() {
            if skip_dirs && SKIPPED_DIRS.contains(&name.as_str()) {
                continue;
            }
            collect(root, &path, skip_dirs, files);
        } else if path.is_file() {
            let skipped_file = matches!(name.as_str(), "package.json" | "package-lock.json") || name.ends_with(".md");
            if skip_dirs && skipped_file {
                continue;
            }
            if let Ok(rel) = path.strip_prefix(root) {
                let rel = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>();
                files.push((rel.join("/"), path.canonicalize().unwrap_or(path.clone())));
            }
        }
    }
}
