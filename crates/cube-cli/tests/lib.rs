//! Integration tests of cube-cli: they run the built binary.
//! - `readme`: every `console` example in the workspace README.md runs and prints what it shows;
//! - `commands`: each subcommand, each input format and each error path.
//! - `fmc`: issue 33, subgroup scrambles and the FMC commands.
//! - `input`: issue 14, every input read as what it is or refused, and every output failure.
//! - `optimal`: `optimal` and `tables` over the Korf tiers; `h48`: over the H48 tiers (sym48).
//! - `small_tables`: the two-phase and Thistlethwaite tables cached in the table directory.
//! - `json`: issue 16, every record type against docs/json.schema.json.
//! - `manners`: issue 16, help, refused options, colours, completions, the man pages, shards;
//!   issue 58, the word of a skipped browser test.
//! - `serve`: issue 37, the web app's server and API against the CLI's records; `browser`: the
//!   page in headless Chromium.

mod browser;
mod commands;
mod fmc;
mod h48;
mod input;
mod json;
mod manners;
mod optimal;
mod readme;
mod serve;
mod small_tables;

use assert_cmd::Command;

/// The table directory the tests share, under the target directory: the first `cube-cli` run
/// that needs tables bakes the 6edge tier there (the others wait for its lock).
pub fn shared_tables() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-tables")
}

/// The built `cube-cli`, with colours off and the shared table directory.
pub fn cube_cli() -> Command {
    let mut cmd = Command::cargo_bin("cube-cli").expect("cube-cli is built");
    cmd.env("NO_COLOR", "1");
    cmd.env("CUBE_TABLES_DIR", shared_tables());
    cmd
}

/// Runs `cmd` (its standard output and error captured) to its end, or kills it after `limit` and
/// fails saying that `what` hung, with what it wrote on standard error.
pub fn output_within(
    mut cmd: std::process::Command,
    limit: std::time::Duration,
    what: &str,
) -> std::process::Output {
    let mut child = cmd
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "{what} still ran after {limit:?} (blocked?): {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Runs `cube-cli` with `args` and returns (exit code, stdout, stderr).
pub fn run(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut cmd = cube_cli();
    cmd.args(args);
    if let Some(input) = stdin {
        cmd.write_stdin(input);
    }
    let out = cmd.output().expect("run cube-cli");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `optimal` over `tier` in the table directory `dir`, read and mapped (`--mmap`): each run refuses
/// the corrupt payload of table `id` with exit 3 before any search. Returns each run's standard
/// error; `context` names the case in failure messages.
pub fn corrupt_payload_is_refused(dir: &str, tier: &str, id: &str, context: &str) -> Vec<String> {
    // Read or mapped (--mmap), the payload is hashed before the search gets it.
    [None, Some("--mmap")]
        .into_iter()
        .map(|mmap| {
            let mut args = vec!["optimal", "R U F D", "--tables", dir, "--tier", tier];
            args.extend(mmap);
            let (code, out, err) = run(&args, None);
            assert_eq!(code, 3, "{context}, {mmap:?}: {out} {err}");
            assert!(out.is_empty(), "{context}: {out}");
            assert!(!err.contains("depth"), "no search ran: {err}");
            assert!(
                err.contains(&format!("table {id}")) && err.contains("the payload is corrupt"),
                "{err}"
            );
            err
        })
        .collect()
}
