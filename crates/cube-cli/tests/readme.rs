//! Runs every `console` example of the workspace README.md and of the CLI guide, docs/cli.md: each
//! `$ cube-cli ...` line is run and its standard output must equal the lines below it, up to the
//! next `$` or the block's end. README.md's first run and docs/cli.md's table of tiers are the
//! CLI's too.

use std::time::Duration;

use cube_solvers::optimal::Progress;

use crate::run;

/// Splits a shell command line: words separated by spaces, double or single quotes group.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, ' ') => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// A file of the workspace, by its path from the workspace's root.
fn doc(path: &str) -> String {
    let full = format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

#[test]
fn readme_examples_print_what_they_show() {
    let docs = doc("README.md") + &doc("docs/cli.md");
    let mut examples = Vec::new();
    let mut in_console = false;
    for line in docs.lines() {
        if line.starts_with("```console") {
            in_console = true;
        } else if line.starts_with("```") {
            in_console = false;
        } else if in_console {
            if let Some(command) = line.strip_prefix("$ ") {
                examples.push((command.to_string(), Vec::new()));
            } else if let Some((_, expected)) = examples.last_mut() {
                expected.push(line.to_string());
            }
        }
    }
    assert!(
        examples.len() >= 5,
        "README.md and docs/cli.md have {} console examples",
        examples.len()
    );
    for (command, expected) in examples {
        let words = shell_words(&command);
        assert_eq!(words[0], "cube-cli", "{command}");
        let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
        let (_, stdout, stderr) = run(&args, None);
        let expected = expected.join("\n");
        assert_eq!(
            stdout.trim_end(),
            expected.trim_end(),
            "the example `{command}` (stderr: {stderr})"
        );
    }
}

// See: issue 16, "sizes and times printed from the table specs and measured figures, one source
// for the CLI and the README": every row of the CLI guide's table of tiers says what the CLI says.
#[test]
fn the_tier_table_is_the_cli_s() {
    let readme = doc("docs/cli.md");
    let (_, help, _) = run(&["tables", "bake", "--help"], None);
    let mut rows = 0;
    for line in readme.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let [_, tier, _, disk, bake, _] = cells[..] else {
            continue;
        };
        if !help.contains(&format!("- {tier}:")) {
            continue;
        }
        let bake = bake.split(" (").next().unwrap();
        let cli = help
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("- {tier}:")))
            .unwrap();
        assert!(
            cli.contains(&format!("{disk} of disk, bake {bake} on 2 cores")),
            "docs/cli.md: {line}\nCLI: {cli}"
        );
        rows += 1;
    }
    assert_eq!(rows, 20, "docs/cli.md's table of tiers has a row per tier");
}

/// A line with every number (digits, with a decimal point inside) as `#` and runs of spaces as one.
fn shape(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            while chars
                .peek()
                .is_some_and(|&d| d.is_ascii_digit() || d == '.')
            {
                chars.next();
            }
            out.push('#');
        } else if c != ' ' || !out.ends_with(' ') {
            out.push(c);
        }
    }
    out
}

// See: issue 36, item 6: the README shows the first run's lines in their real order.
#[test]
fn the_first_run_prints_what_the_readme_shows() {
    let readme = doc("README.md");
    let command = readme
        .lines()
        .find_map(|l| l.strip_prefix("cargo run --release -p cube-cli -- "))
        .expect("the first run's command");
    let shown: Vec<&str> = readme
        .split("The first run prints this on standard error")
        .nth(1)
        .and_then(|rest| rest.split("```text\n").nth(1))
        .and_then(|block| block.split("\n```").next())
        .expect("the first run's lines")
        .lines()
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("new");
    let mut args: Vec<String> = shell_words(command);
    args.extend(["--tables".to_string(), tables.display().to_string()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, stdout, stderr) = run(&args, None);
    assert_eq!(code, 0, "{stderr}");
    let stderr = stderr.replace(&tables.display().to_string(), "/home/me/.cache/cube-tables");
    let (last, notes) = shown.split_last().expect("lines");
    let mut printed: Vec<String> = stderr.lines().map(shape).collect();
    // The two-phase helper and the search race for the 13-move solution: when the search gets
    // there first, its bound 13 is a line of its own (the README says so under the block).
    let found = Progress {
        bound: 13,
        exhausted: false,
        solutions: 1,
        nodes: 0,
        total_nodes: 0,
        bound_elapsed: Duration::ZERO,
        elapsed: Duration::ZERO,
    };
    if printed.last() == Some(&shape(&found.to_string())) {
        printed.pop();
    }
    assert_eq!(
        printed,
        notes.iter().map(|l| shape(l)).collect::<Vec<_>>(),
        "standard error:\n{stderr}"
    );
    assert_eq!(stdout.trim_end(), *last);
}
