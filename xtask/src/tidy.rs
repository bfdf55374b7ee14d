//! The tidy checks, in the manner of rust-analyzer's `tidy.rs`: tests over the source tree that
//! keep the code map and the invariants of `docs/ARCHITECTURE.md` true.
//!
//! - every Rust file starts with a `//!` comment saying what it is;
//! - the files that allow `unsafe_code` are exactly those the unsafe invariant names;
//! - every `.rs` path that ARCHITECTURE.md names exists, and every type or trait it names in
//!   backticks is declared in the workspace;
//! - every public module of a library crate is named in its crate docs;
//! - every module of a crate's `tests/lib.rs` is named in that file's list;
//! - cube-tables' folders import one way: `file/` nothing else, `coord/` only `file/`, `corners/`
//!   those two, `pdb/`, `h48/` and `nx/` those three (siblings: never each other), `tier/` all of
//!   them;
//! - no file of the repository reads outside it: the test data is `testdata/`, and no code,
//!   script or workflow reaches a folder `shared/` beside the repository.
//!
//! (That nothing in cube-cli prints outside its writer is cube-cli's own test,
//! `input::nothing_prints_outside_the_writer`.)

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::project_root;

/// Every `.rs` file of the workspace, relative to its root: the repository's files outside its
/// dot folders.
fn rust_files() -> Vec<PathBuf> {
    repository_files()
        .into_iter()
        .filter(|path| {
            path.extension().is_some_and(|e| e == "rs")
                && !path.components().any(|c| {
                    c.as_os_str()
                        .to_str()
                        .is_some_and(|name| name.starts_with('.'))
                })
        })
        .collect()
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

/// The names outside the workspace that ARCHITECTURE.md may name in backticks as types: the
/// standard library's and Python's.
const FOREIGN_TYPES: [&str; 3] = ["Arc", "Box", "ValueError"];

/// The type ARCHITECTURE.md's code span `span` names, if it names one: its first UpperCamelCase
/// path segment, generics aside (`OptimalTables<T>` and `cube_core::Cube` name `OptimalTables`
/// and `Cube`; `Tier::family` names `Tier`); `None` for file names, commands, constants,
/// methods and moves.
fn named_type(span: &str) -> Option<&str> {
    let path = span.split('<').next().unwrap_or(span);
    let segments: Vec<&str> = path.split("::").collect();
    let identifier = |s: &&str| {
        s.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    if !segments.iter().all(identifier) {
        return None;
    }
    segments.into_iter().find(|s| {
        s.starts_with(|c: char| c.is_ascii_uppercase())
            && s.contains(|c: char| c.is_ascii_lowercase())
    })
}

/// Every name the workspace declares as a type or trait (`struct`, `enum`, `trait`, `type`,
/// `union`), and every line that starts with an UpperCamelCase name followed by `,`, `(`, `{` or
/// ` =` (the enum variants, and the types a macro's rows declare).
fn declared_names() -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for path in rust_files() {
        let text = read(&path);
        let words: Vec<&str> = text.split_whitespace().collect();
        for pair in words.windows(2) {
            if matches!(pair[0], "struct" | "enum" | "trait" | "type" | "union") {
                let name: String = pair[1]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                names.insert(name);
            }
        }
        for line in text.lines() {
            let line = line.trim_start();
            let name: String = line
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let rest = &line[name.len()..];
            if name.starts_with(|c: char| c.is_ascii_uppercase())
                && (rest.starts_with([',', '(', '{'])
                    || rest.starts_with(" {")
                    || rest.starts_with(" ="))
            {
                names.insert(name);
            }
        }
    }
    names
}

#[test]
fn named_types_are_read_from_code_spans() {
    assert_eq!(named_type("OptimalTables<T>"), Some("OptimalTables"));
    assert_eq!(named_type("cube_core::Cube"), Some("Cube"));
    assert_eq!(named_type("Tier::family"), Some("Tier"));
    assert_eq!(named_type("optimal::Method"), Some("Method"));
    for span in [
        "R U",
        "FORMAT_VERSION",
        "H48",
        "tier::specs",
        "sparse.rs",
        "U'",
    ] {
        assert_eq!(named_type(span), None, "{span}");
    }
    let declared = declared_names();
    assert!(declared.contains("OptimalTables") && declared.contains("OptimalSearch"));
    // A name no one declares.
    assert!(!declared.contains("OptimalSearcher"));
}

#[test]
fn every_type_the_architecture_names_exists() {
    let architecture = read(Path::new("docs/ARCHITECTURE.md"));
    let declared = declared_names();
    let unknown: BTreeSet<&str> = code_spans(&architecture)
        .into_iter()
        .filter_map(named_type)
        .filter(|name| !declared.contains(*name) && !FOREIGN_TYPES.contains(name))
        .collect();
    assert!(
        unknown.is_empty(),
        "ARCHITECTURE.md names types or traits that the workspace does not declare: {unknown:?}"
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
        let src = lib.parent().expect("lib.rs is in src/");
        let declared = text.lines().filter_map(|line| {
            line.strip_prefix("pub mod ")
                .and_then(|rest| rest.strip_suffix(';'))
                .map(str::to_string)
        });
        // A module of a private folder made public by `pub use crate::folder::{name, ...}`: a
        // re-exported name with a file of its own under the folder.
        let reexported = root_exports(&text)
            .into_iter()
            .filter(|(name, parent)| {
                project_root()
                    .join(src)
                    .join(parent.replace("::", "/"))
                    .join(format!("{name}.rs"))
                    .is_file()
            })
            .map(|(name, _)| name);
        for name in declared.chain(reexported) {
            if !docs.contains(&format!("`{name}`")) {
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

/// The folders of cube-tables, each with the folders it may use (itself among them), never any
/// other nor a module at the crate root: the tier catalogue and the family trait
/// (`tier/catalogue.rs` and `tier/family.rs`, counted as the folder `tier/catalogue`) sit on
/// `file/`; the family folders (each folder with a `family.rs`, its `TierFamily` impl: `pdb/`,
/// `h48/`, `nx/`) are siblings over them and `corners/`; the rest of `tier/` sits above them all.
fn table_folders() -> Vec<(String, Vec<String>)> {
    let families = family_folders();
    let strings = |names: &[&str]| names.iter().map(ToString::to_string).collect::<Vec<_>>();
    let below_families = strings(&["file", "coord", "corners", "tier/catalogue"]);
    let mut folders = vec![
        ("file".to_string(), strings(&["file"])),
        ("coord".to_string(), strings(&["file", "coord"])),
        (
            "corners".to_string(),
            strings(&["file", "coord", "corners"]),
        ),
        (
            "tier/catalogue".to_string(),
            strings(&["file", "tier/catalogue"]),
        ),
    ];
    for family in &families {
        let mut uses = below_families.clone();
        uses.push(family.clone());
        folders.push((family.clone(), uses));
    }
    let mut tier = below_families;
    tier.extend(families);
    tier.push("tier".to_string());
    folders.push(("tier".to_string(), tier));
    folders
}

/// The family folders of cube-tables: those with a `family.rs` (its `TierFamily` impl).
fn family_folders() -> Vec<String> {
    let src = project_root().join("crates/cube-tables/src");
    let mut families: Vec<String> = std::fs::read_dir(src)
        .expect("crates/cube-tables/src is there")
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let name = entry.file_name().into_string().ok()?;
            (name != "tier" && entry.path().join("family.rs").is_file()).then_some(name)
        })
        .collect();
    families.sort();
    families
}

/// The index in [`table_folders`] of the folder `name`.
fn folder_index(name: &str) -> Option<usize> {
    table_folders().iter().position(|(f, _)| f == name)
}

/// The path under `crate::` that each name a crate's `lib.rs` re-exports with
/// `pub use crate::...` comes from: in cube-tables, `PruneTable` from `file::table`, `m12` from
/// `coord`.
fn root_exports(lib: &str) -> BTreeMap<String, String> {
    let mut exports = BTreeMap::new();
    for statement in lib.split(';') {
        let Some(path) = statement.trim().strip_prefix("pub use crate::") else {
            continue;
        };
        let (parent, names) = path.split_once("::{").map_or_else(
            || path.rsplit_once("::").unwrap_or(("", path)),
            |(parent, names)| (parent, names),
        );
        for name in names.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            if !name.is_empty() {
                exports.insert(name.to_string(), parent.to_string());
            }
        }
    }
    exports
}

/// The references in `text` (a file of the folder `table_folders()[folder]`) to a folder it may not use or
/// to a module at the crate root, by `crate::` path outside comments: `use` lines and paths in
/// code alike, a name re-exported at the root counting as its folder.
fn backward_references(
    folder: usize,
    text: &str,
    exports: &BTreeMap<String, String>,
) -> Vec<String> {
    let mut backward = Vec::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        for (at, _) in code.match_indices("crate::") {
            let rest = &code[at + "crate::".len()..];
            let first: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let target = if rest.starts_with("tier::catalogue") || rest.starts_with("tier::family")
            {
                "tier/catalogue".to_string()
            } else if folder_index(&first).is_some() {
                first.clone()
            } else {
                let parent = exports.get(&first).unwrap_or_else(|| {
                    panic!("`crate::{first}` is neither a folder of cube-tables nor re-exported by its lib.rs")
                });
                parent.split("::").next().unwrap_or("").to_string()
            };
            let folders = table_folders();
            let (name, uses) = &folders[folder];
            if !uses.contains(&target) {
                backward.push(format!("{name} uses {target}: {}", line.trim()));
            }
        }
    }
    backward
}

#[test]
fn cube_tables_folders_import_one_way() {
    let src = Path::new("crates/cube-tables/src");
    let exports = root_exports(&read(&src.join("lib.rs")));
    // The check finds a planted backward import.
    assert_eq!(
        backward_references(0, "use crate::pdb::CORNERS;", &exports).len(),
        1
    );
    assert_eq!(
        backward_references(1, "    let t = crate::h48::spec(tier);", &exports).len(),
        1
    );
    assert!(backward_references(2, "use crate::PruneTable; // crate::h48", &exports).is_empty());
    // The siblings: `h48/` never uses `pdb/`, nor `pdb/` `h48/`.
    let (pdb, h48) = (folder_index("pdb").unwrap(), folder_index("h48").unwrap());
    assert_eq!(
        backward_references(h48, "use crate::pdb::twist_rank;", &exports).len(),
        1
    );
    assert_eq!(
        backward_references(pdb, "let s = crate::h48::spec(tier);", &exports).len(),
        1
    );
    // The catalogue is below the families, the rest of `tier/` above them.
    assert!(backward_references(pdb, "use crate::tier::catalogue::Family;", &exports).is_empty());
    assert_eq!(
        backward_references(pdb, "use crate::tier::specs;", &exports).len(),
        1
    );
    let catalogue = folder_index("tier/catalogue").unwrap();
    assert_eq!(
        backward_references(catalogue, "use crate::nx::spec;", &exports).len(),
        1
    );
    let mut backward = Vec::new();
    let mut n_files = 0;
    for path in rust_files() {
        let Ok(inside) = path.strip_prefix(src) else {
            continue;
        };
        let top = inside
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .unwrap_or("");
        let top = top.strip_suffix(".rs").unwrap_or(top);
        let top =
            if inside == Path::new("tier/catalogue.rs") || inside == Path::new("tier/family.rs") {
                "tier/catalogue"
            } else {
                top
            };
        if let Some(folder) = folder_index(top) {
            n_files += 1;
            for reference in backward_references(folder, &read(&path), &exports) {
                backward.push(format!("{}: {reference}", path.display()));
            }
        }
    }
    assert!(
        n_files > 40,
        "the folders hold the crate's files ({n_files} found)"
    );
    assert!(
        backward.is_empty(),
        "cube-tables imports that point against the folders' order {:?}: {backward:#?}",
        table_folders()
    );
}

/// Every file of the repository, relative to its root, outside build output, tables, fuzzing
/// output, virtual environments and `.git` (the dot folders of scripts and settings included).
fn repository_files() -> Vec<PathBuf> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
            .map(|entry| entry.expect("a directory entry").path())
            .collect();
        entries.sort();
        for path in entries {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() {
                if !matches!(
                    name,
                    "target"
                        | "tables"
                        | ".git"
                        | "corpus"
                        | "artifacts"
                        | ".venv"
                        | "__pycache__"
                        | "node_modules"
                ) {
                    walk(root, &path, out);
                }
            } else {
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
    walk(&root, &root, &mut out);
    out
}

/// The code of `text`, a file named `name`: its comments dropped (`//` in Rust and JavaScript,
/// `#` in Python, shell, TOML and YAML, and Python's triple-quoted docstrings), so that a
/// document may cite a path that code may not read. Markdown is all documentation: `None`.
fn code_of(name: &str, text: &str) -> Option<String> {
    let extension = name.rsplit_once('.').map_or("", |(_, e)| e);
    let marker = match extension {
        "md" => return None,
        "rs" | "js" => Some("//"),
        "py" | "pyi" | "sh" | "toml" | "yml" | "yaml" | "gitignore" | "" => Some("#"),
        _ => None,
    };
    let text = if extension == "py" {
        // Every other piece between `"""`s is a docstring.
        text.split("\"\"\"").step_by(2).collect::<Vec<_>>().join("")
    } else {
        text.to_string()
    };
    Some(
        text.lines()
            .map(|line| marker.map_or(line, |m| line.split(m).next().unwrap_or("")))
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// The places in `code` that name the folder `shared/` beside the repository: the path segment
/// `/shared` (`../shared/vectors`, `../../../shared`) or the quoted name (`parent / "shared"`).
fn reads_outside(code: &str) -> Vec<String> {
    code.lines()
        .filter(|line| {
            line.contains("\"shared\"")
                || line.contains("'shared'")
                || line.match_indices("/shared").any(|(at, needle)| {
                    !line[at + needle.len()..]
                        .starts_with(|c: char| c.is_alphanumeric() || c == '_')
                })
        })
        .map(|line| line.trim().to_string())
        .collect()
}

#[test]
fn nothing_reads_outside_the_repository() {
    // The check finds the ways the tests used to reach the sibling folder, and lets documents and
    // comments cite it.
    for (name, planted) in [
        ("lib.rs", r#"    .join("../../../shared/vectors")"#),
        (
            "sym48.rs",
            r#"read_to_string("../../../shared/positions/x.txt")"#,
        ),
        (
            "conftest.py",
            r#"VECTORS = ROOT.parent / "shared" / "vectors""#,
        ),
        ("run", "cp -r ../shared/positions ."),
        ("ci.yml", "    repository: owner/shared"),
    ] {
        let code = code_of(name, planted).expect("a code file");
        assert_eq!(reads_outside(&code).len(), 1, "{name}: {planted}");
    }
    for (name, cited) in [
        (
            "peers.py",
            "\"\"\"Needs nissy-core (../shared/design/peers.md).\"\"\"\nimport sys",
        ),
        (
            "lib.rs",
            "/// Made as `../shared/design/peers.md` says.\nfn f() {}",
        ),
        ("README.md", "See `../shared/design/peers.md`."),
        ("lock.rs", "let shared_lock = lock.shared(); // Arc<Shared>"),
    ] {
        let code = code_of(name, cited).unwrap_or_default();
        assert!(reads_outside(&code).is_empty(), "{name}: {cited}");
    }
    let mut found = Vec::new();
    let mut n_files = 0;
    // This file names the needles it looks for.
    for path in repository_files()
        .into_iter()
        .filter(|path| !path.ends_with("xtask/src/tidy.rs"))
    {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        // Binary files (tables, images, fuzz seeds) hold no path.
        let Ok(text) = std::fs::read_to_string(project_root().join(&path)) else {
            continue;
        };
        let Some(code) = code_of(name, &text) else {
            continue;
        };
        n_files += 1;
        for line in reads_outside(&code) {
            found.push(format!("{}: {line}", path.display()));
        }
    }
    assert!(
        n_files > 300,
        "the walk sees the repository ({n_files} files)"
    );
    assert!(
        found.is_empty(),
        "files that read the folder shared/ beside the repository (the test data is testdata/, \
         testdata/README.md): {found:#?}"
    );
}
