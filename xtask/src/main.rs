//! Project automation, run as `cargo xtask <task>` (an alias in `.cargo/config.toml`), in the manner of
//! rust-analyzer's `xtask`:
//!
//! - `cargo xtask test [--python PATH] [--python-only]` runs every test: the workspace's Rust tests in
//!   release mode, then the Python package's wheel, built and tested in a virtual environment;
//! - `cargo xtask bake-tables --tier T[,T...] [--dir DIR] [--threads N]` bakes the tables of the
//!   tiers (6edge, 7edge, 8edge: Korf's pattern databases; h0, h4..h7: the H48 tables, baked
//!   together; nx-eo1ep1 .. nx-eo2ep2 and their -qtm twins: the nx tables; each with the corner
//!   database) with progress bars, skipping what is baked and valid;
//! - `cargo xtask verify-tables [--tier T] [--dir DIR]` rescans them and spot-checks entries;
//! - `cargo xtask pack-tables [--tier T] [--dir DIR]` compresses them into zstd seeds;
//! - `cargo xtask codegen [--check]` rewrites the docs' generated sections (docs/tables.md's tiers,
//!   from cube-tables' `TIERS`), or checks that they are current.
//!
//! The default table directory is `tables/` in the workspace (git-ignored).

mod bake;
mod codegen;
mod flags;
mod pack;
mod test;
#[cfg(test)]
mod tidy;
mod verify;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;

use crate::flags::{Command, Flags};

/// Any error of a task; printed with its chain by `main`.
pub(crate) type Error = Box<dyn std::error::Error + Send + Sync>;

fn main() -> ExitCode {
    // SIGINT or SIGTERM during a bake: its scratch files and half-written tables removed (no
    // destructor runs when a signal ends a process), then the exit a shell expects.
    let _ = ctrlc::set_handler(|| {
        cube_tables::remove_temporary_files();
        std::process::exit(130);
    });
    let flags = Flags::parse();
    let result = match flags.command {
        Command::Test(flags) => test::run(flags),
        Command::BakeTables(flags) => bake::run(flags),
        Command::VerifyTables(flags) => verify::run(flags),
        Command::PackTables(flags) => pack::run(flags),
        Command::Codegen(flags) => codegen::run(flags),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if is_broken_pipe(&*e) {
                return ExitCode::SUCCESS;
            }
            let mut shown = message(&*e);
            eprintln!("error: {shown}");
            let mut source = e.source();
            while let Some(cause) = source {
                let text = message(cause);
                if !shown.contains(&text) {
                    eprintln!("  caused by: {text}");
                    shown = text;
                }
                source = cause.source();
            }
            ExitCode::FAILURE
        }
    }
}

/// xtask's words for the fix that ends a table error: its own bake command.
const FIX_COMMANDS: cube_tables::FixCommands = cube_tables::FixCommands {
    bake: "cargo xtask bake-tables --tier {tier}",
};

/// An error's message; a table error's fix in xtask's commands ([`FIX_COMMANDS`]).
fn message(e: &(dyn std::error::Error + 'static)) -> String {
    match e.downcast_ref::<cube_tables::TableError>() {
        Some(table) => table.message(&FIX_COMMANDS),
        None => e.to_string(),
    }
}

/// Whether the error comes from writing to a closed pipe (`cargo xtask ... | head`): not a failure.
fn is_broken_pipe(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut source = Some(e);
    while let Some(e) = source {
        if let Some(io) = e.downcast_ref::<std::io::Error>()
            && io.kind() == std::io::ErrorKind::BrokenPipe
        {
            return true;
        }
        source = e.source();
    }
    false
}

/// The workspace root: the parent of this crate's directory.
fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace root")
        .to_path_buf()
}

/// `--dir`, else `tables/` in the workspace.
pub(crate) fn table_dir(dir: Option<PathBuf>) -> PathBuf {
    dir.unwrap_or_else(|| project_root().join("tables"))
}

/// Memory figures of this process from `/proc/self/status`, in bytes (zero where unavailable).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Memory {
    /// Peak resident set (`VmHWM`): anonymous memory and mapped file pages.
    pub peak_rss: u64,
    /// Resident anonymous memory now (`RssAnon`).
    pub anon: u64,
    /// Resident mapped file pages now (`RssFile`): page cache, not memory of our own.
    pub file: u64,
}

impl Memory {
    pub(crate) fn now() -> Memory {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find_map(|line| line.strip_prefix(name))
                .and_then(|rest| {
                    rest.trim()
                        .trim_end_matches("kB")
                        .trim()
                        .parse::<u64>()
                        .ok()
                })
                .map_or(0, |kib| kib * 1024)
        };
        Memory {
            peak_rss: field("VmHWM:"),
            anon: field("RssAnon:"),
            file: field("RssFile:"),
        }
    }
}

/// Bytes as MiB, for messages.
pub(crate) fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1 << 20) as f64
}
