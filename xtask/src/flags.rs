//! The command line of `cargo xtask`, parsed by clap.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use cube_tables::Tier;

/// Project automation for the cube workspace.
#[derive(Debug, Parser)]
#[command(name = "cargo xtask", version, about)]
pub struct Flags {
    /// The task.
    #[command(subcommand)]
    pub command: Command,
}

/// The tasks.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Every test: the workspace's Rust tests in release mode, then the Python package's wheel
    /// built with maturin in a virtual environment under the target directory, installed, and
    /// its pytest suite.
    Test(TestFlags),
    /// Bake the tables of one or more tiers: the corner database, and the two edge databases of a
    /// Korf tier or the table of an H48 or an nx tier.
    ///
    /// Tables that are baked and valid are skipped; a killed bake restarts cleanly.
    BakeTables(BakeFlags),
    /// Rescan tables (hash, histogram against the header and the published numbers) and spot-check
    /// entries.
    VerifyTables(VerifyFlags),
    /// Compress baked tables into zstd seeds (`<file>.zst`), which the loaders install when the table is
    /// missing.
    PackTables(PackFlags),
    /// Rewrite the sections of the docs written from the code (docs/tables.md's tiers, from
    /// cube-tables' `TIERS`); with `--check`, fail when they differ instead.
    Codegen(CodegenFlags),
}

/// `cargo xtask test`.
#[derive(Debug, Args)]
pub struct TestFlags {
    /// The Python interpreter that creates the virtual environment (default: `python3`).
    #[arg(long)]
    pub python: Option<PathBuf>,
    /// Skip the Rust tests: only build the wheel and run the Python tests.
    #[arg(long)]
    pub python_only: bool,
}

/// `cargo xtask bake-tables`.
#[derive(Debug, Args)]
pub struct BakeFlags {
    /// The tiers, comma separated: names of cube-tables' tier catalogue (`TIERS`), which an
    /// unknown name's error lists; each is baked with the corner database, the H48 ones in one
    /// pass.
    #[arg(long, value_delimiter = ',', required = true)]
    pub tier: Vec<Tier>,
    /// The table directory (default: `tables/` in the workspace).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Bake even the tables that are baked and valid.
    #[arg(long)]
    pub force: bool,
    /// Where the byte-per-entry scratch lives: a mapped file in the table directory, or memory.
    #[arg(long, value_enum, default_value_t = ScratchFlag::File)]
    pub scratch: ScratchFlag,
    /// Run a level backward when unassigned < FACTOR x frontier (for measurements; default: the
    /// measured per-table defaults).
    #[arg(long, hide = true)]
    pub backward_factor: Option<f64>,
}

/// Where the scratch lives.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ScratchFlag {
    /// `<dir>/<id>.scratch`, memory-mapped.
    File,
    /// Anonymous memory.
    Memory,
}

/// `cargo xtask verify-tables`.
#[derive(Debug, Args)]
pub struct VerifyFlags {
    /// The tier to verify (with the corners); default: every tier present.
    #[arg(long)]
    pub tier: Option<Tier>,
    /// The table directory (default: `tables/` in the workspace).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Random entries to check against their neighbours, per table.
    #[arg(long, default_value_t = 4000)]
    pub spot: usize,
}

/// `cargo xtask pack-tables`.
#[derive(Debug, Args)]
pub struct PackFlags {
    /// The tier to pack (with the corners); default: every tier present.
    #[arg(long)]
    pub tier: Option<Tier>,
    /// The table directory (default: `tables/` in the workspace).
    #[arg(long)]
    pub dir: Option<PathBuf>,
}

/// `cargo xtask codegen`.
#[derive(Debug, Args)]
pub struct CodegenFlags {
    /// Write nothing: exit non-zero when a generated section differs from what the code writes.
    #[arg(long)]
    pub check: bool,
}
