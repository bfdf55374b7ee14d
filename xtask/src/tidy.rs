//! The tidy checks, in the manner of rust-analyzer's `tidy.rs`: tests over the source tree that
//! keep the code map and the invariants of `docs/ARCHITECTURE.md` true.
//!
//! - every Rust file starts with a `//!` comment saying what it is;
//! - the files that allow `unsafe_code` are exactly those the unsafe invariant names;
//! - every `.rs` path that ARCHITECTURE.md names exists;
//! - every public module of a library crate is named in its crate docs;
//! - every module of a crate's `tests/lib.rs` is named in that file's list.
//!
//! (That nothing in cube-cli prints outside its writer is cube-cli's own test,
//! `input::nothing_prints_outside_the_writer`.)

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::project_root;

/// Every `.rs` file of the workspace, relative to its root, outside build output.
fn rust_files() -> Vec<PathBuf> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
            .map(|entry| entry.expect("a directory entry").path())
            .collect();
        entries.sort();
        for path in entries {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() {
                if !matches!(name, "target" | "tables" | ".git" | "corpus" | "artifacts")
                    && !name.starts_with('.')
                {
                    walk(root, &path, out);
                }
            } else if name.ends_with(".rs") {
                out.push(
                    path.strip_prefix(root)
                        .expect("under the root")
                        .to_path_buf(),
                );
            }
        }
    }
    let root = project_root();
    let mut out = Vec::new();
    for top in ["crates", "xtask", "benches", "fuzz"] {
        if root.join(top).is_dir() {
            walk(&root, &root.join(top), &mut out);
        }
    }
    out
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(project_root().join(path))
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// The `//!` lines at the top of `text`, joined.
fn module_docs(text: &str) -> String {
    text.lines()
        .take_while(|line| line.starts_with("//!"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The names in backticks in `text` (`` `a/b.rs` `` gives `a/b.rs`).
fn code_spans(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// The paragraph of ARCHITECTURE.md that states the unsafe invariant.
fn unsafe_invariant(architecture: &str) -> &str {
    architecture
        .split("\n\n")
        .find(|paragraph| paragraph.contains("`unsafe` is denied workspace-wide"))
        .expect("ARCHITECTURE.md states the unsafe invariant")
}

#[test]
fn every_rust_file_says_what_it_is() {
    let missing: Vec<_> = rust_files()
        .into_iter()
        .filter(|path| !read(path).starts_with("//!"))
        .collect();
    assert!(
        missing.is_empty(),
        "these files do not start with a `//!` comment: {missing:?}"
    );
}

#[test]
fn the_unsafe_invariant_names_exactly_the_files_that_allow_unsafe() {
    let allowing: BTreeSet<String> = rust_files()
        .into_iter()
        .filter(|path| {
            read(path).lines().any(|line| {
                line.trim_start().starts_with('#') && line.contains("allow(unsafe_code)")
            })
        })
        .map(|path| path.to_string_lossy().replace('\\', "/"))
        .collect();
    let architecture = read(Path::new("docs/ARCHITECTURE.md"));
    let named: BTreeSet<String> = code_spans(unsafe_invariant(&architecture))
        .into_iter()
        .filter(|span| span.ends_with(".rs"))
        .map(str::to_string)
        .collect();
    let not_named: Vec<_> = allowing.difference(&named).collect();
    let not_allowing: Vec<_> = named.difference(&allowing).collect();
    assert!(
        not_named.is_empty() && not_allowing.is_empty(),
        "ARCHITECTURE.md's unsafe invariant must name, by their path from the workspace root, \
         exactly the files that allow unsafe_code: not named {not_named:?}; named but not \
         allowing it {not_allowing:?}"
    );
}

#[test]
fn every_file_the_architecture_names_exists() {
    let files: Vec<String> = rust_files()
        .into_iter()
        .map(|path| format!("/{}", path.to_string_lossy().replace('\\', "/")))
        .collect();
    let architecture = read(Path::new("docs/ARCHITECTURE.md"));
    let stale: Vec<&str> = code_spans(&architecture)
        .into_iter()
        .filter(|span| span.ends_with(".rs") && !span.contains([' ', '*']))
        .filter(|span| !files.iter().any(|file| file.ends_with(&format!("/{span}"))))
        .collect();
    assert!(
        stale.is_empty(),
        "ARCHITECTURE.md names files that do not exist: {stale:?}"
    );
}

#[test]
fn every_public_module_is_in_its_crate_docs() {
    let mut missing = Vec::new();
    for lib in rust_files()
        .into_iter()
        .filter(|path| path.starts_with("crates") && path.ends_with("src/lib.rs"))
    {
        let text = read(&lib);
        let docs = module_docs(&text);
        for line in text.lines() {
            if let Some(name) = line
                .strip_prefix("pub mod ")
                .and_then(|rest| rest.strip_suffix(';'))
                && !docs.contains(&format!("`{name}`"))
            {
                missing.push(format!("{}: {name}", lib.display()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "public modules that their crate docs do not name (as [`name`]): {missing:?}"
    );
}

#[test]
fn every_test_module_is_in_its_list() {
    let mut missing = Vec::new();
    for lib in rust_files()
        .into_iter()
        .filter(|path| path.ends_with("tests/lib.rs"))
    {
        let text = read(&lib);
        let docs = module_docs(&text);
        for line in text.lines() {
            if let Some(name) = line
                .strip_prefix("mod ")
                .and_then(|rest| rest.strip_suffix(';'))
                && !docs.contains(&format!("`{name}`"))
            {
                missing.push(format!("{}: {name}", lib.display()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "test modules that the list at the top of their tests/lib.rs does not name: {missing:?}"
    );
}
