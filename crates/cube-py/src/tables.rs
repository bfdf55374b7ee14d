//! The tables of this process: the table directory of the CLI's rules (`$CUBE_TABLES_DIR`, else
//! the user's cache directory), each method's tables and each tier's pattern databases loaded
//! once and shared by every call, the count of loads, `tables.status()` and
//! `tables.bake()`.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use cube_solvers::MethodTables;
use cube_solvers::beginner::BeginnerTables;
use cube_solvers::cfop::CfopTables;
use cube_solvers::thistlethwaite::ThistlethwaiteTables;
use cube_solvers::two_phase::TwoPhaseTables;
use cube_tables::pdb::{self, BakeOptions, PdbSet};
use cube_tables::{Anonymous, Tier, h48};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::errors::{ParseError, TablesMissing, table_error};
use cube_solvers::fmc::{Step, StepTables};

/// How many table sets this process has loaded (or built): tests see each worker load once.
static LOADS: AtomicU64 = AtomicU64::new(0);

/// The pattern databases loaded so far, one per tier.
type Loaded = Vec<(Tier, Arc<PdbSet<Anonymous>>)>;
static PDBS: Mutex<Loaded> = Mutex::new(Vec::new());

/// The table directory: `$CUBE_TABLES_DIR`, else the user's cache directory (the CLI's rules
/// without `--tables`).
pub fn dir() -> PyResult<PathBuf> {
    cube_tables::resolve_table_dir(None).map_err(table_error)
}

/// The two-phase tables of this process, loaded once (see [`load`]).
pub fn two_phase() -> Arc<TwoPhaseTables> {
    static TABLES: OnceLock<Arc<TwoPhaseTables>> = OnceLock::new();
    Arc::clone(TABLES.get_or_init(load))
}

/// The Thistlethwaite tables of this process, loaded once.
pub fn thistlethwaite() -> Arc<ThistlethwaiteTables> {
    static TABLES: OnceLock<Arc<ThistlethwaiteTables>> = OnceLock::new();
    Arc::clone(TABLES.get_or_init(load))
}

/// The beginner's tables of this process, loaded once.
pub fn beginner() -> Arc<BeginnerTables> {
    static TABLES: OnceLock<Arc<BeginnerTables>> = OnceLock::new();
    Arc::clone(TABLES.get_or_init(load))
}

/// The CFOP tables of this process, loaded once.
pub fn cfop() -> Arc<CfopTables> {
    static TABLES: OnceLock<Arc<CfopTables>> = OnceLock::new();
    Arc::clone(TABLES.get_or_init(load))
}

/// The tables of an FMC step's family for this process, loaded once per family, as the CLI
/// loads them. Call without the GIL: it may build for seconds.
pub fn fmc_step(step: &Step) -> StepTables {
    static TABLES: Mutex<Vec<StepTables>> = Mutex::new(Vec::new());
    let mut loaded = TABLES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(tables) = loaded.iter().find(|t| t.name() == step.tables_name()) {
        return tables.clone();
    }
    let tables = dir()
        .ok()
        .and_then(|dir| StepTables::load_or_build(step, &dir).ok())
        .map_or_else(
            || StepTables::build(step),
            |loaded| (*loaded.tables).clone(),
        );
    LOADS.fetch_add(1, Ordering::Relaxed);
    loaded.push(tables.clone());
    tables
}

/// The tables of `T` from the table directory, as the CLI reads them: a missing or stale file is
/// built and written. Caching only saves time: without a usable directory the tables are built in
/// memory. Call without the GIL: it may build for seconds.
fn load<T: MethodTables>() -> Arc<T> {
    let loaded = dir()
        .ok()
        .and_then(|dir| cube_solvers::load_or_build::<T>(&dir).ok());
    LOADS.fetch_add(1, Ordering::Relaxed);
    loaded.map_or_else(|| Arc::new(T::build()), |loaded| loaded.tables)
}

/// Whether every pattern database of `tier` is present with a valid header.
fn tier_ready(dir: &std::path::Path, tier: Tier) -> bool {
    pdb::tier_tables(tier)
        .iter()
        .all(|table| pdb::check_header(&table.spec.path_in(dir), table).is_ok())
}

/// Parses a tier name.
pub fn parse_tier(name: &str) -> PyResult<Tier> {
    name.parse()
        .map_err(|e| ParseError::new_err(format!("tier {name:?}: {e}")))
}

/// The pattern databases of `asked`, else of the largest tier baked, else of 6edge (baked on
/// first use, as the CLI does), loaded once per process; every payload is hashed as it loads.
/// Call without the GIL: it may bake and read for seconds.
pub fn pdb_set(asked: Option<Tier>) -> PyResult<(Tier, Arc<PdbSet<Anonymous>>)> {
    let dir = dir()?;
    let mut loaded = PDBS.lock().unwrap_or_else(|e| e.into_inner());
    let tier = asked
        .or_else(|| {
            Tier::ALL
                .into_iter()
                .rev()
                .filter(|tier| tier.h48_flips().is_none())
                .find(|&tier| tier_ready(&dir, tier))
        })
        .unwrap_or(Tier::Edge6);
    if tier.h48_flips().is_some() {
        return Err(ParseError::new_err(format!(
            "tier {tier}: the H48 tiers are not searched by optimal yet; use 6edge, 7edge or 8edge"
        )));
    }
    if let Some((_, set)) = loaded.iter().find(|(t, _)| *t == tier) {
        return Ok((tier, Arc::clone(set)));
    }
    if !tier_ready(&dir, tier) {
        // A table that is there but invalid is reported, never silently replaced.
        for table in pdb::tier_tables(tier) {
            let path = table.spec.path_in(&dir);
            if path.exists() {
                pdb::check_header(&path, &table).map_err(table_error)?;
            }
        }
        if tier != Tier::Edge6 {
            return Err(TablesMissing::new_err(format!(
                "the {tier} pattern databases are not baked in {}: call cube_toolkit.tables.bake(\"{tier}\") first, or use tier=\"6edge\"",
                dir.display()
            )));
        }
        bake(&dir, tier)?;
    }
    let set = Arc::new(PdbSet::load_anonymous(&dir, tier).map_err(table_error)?);
    LOADS.fetch_add(1, Ordering::Relaxed);
    loaded.push((tier, Arc::clone(&set)));
    Ok((tier, set))
}

fn bake(dir: &std::path::Path, tier: Tier) -> PyResult<()> {
    std::fs::create_dir_all(dir).map_err(|e| {
        TablesMissing::new_err(format!(
            "{}: creating the table directory: {e}",
            dir.display()
        ))
    })?;
    let options = BakeOptions {
        wait_for_lock: true,
        ..BakeOptions::default()
    };
    pdb::bake_tier(dir, tier, &options, &|_| {}).map_err(table_error)?;
    if tier.h48_flips().is_some() {
        let options = h48::BakeOptions {
            wait_for_lock: true,
            ..h48::BakeOptions::default()
        };
        h48::bake(dir, tier, &options, &|_| {}).map_err(table_error)?;
    }
    Ok(())
}

/// The table directory this process uses (``$CUBE_TABLES_DIR``, else the user's cache
/// directory).
#[pyfunction]
pub fn tables_dir() -> PyResult<String> {
    Ok(dir()?.display().to_string())
}

/// How many table sets this process has loaded or built: each method's small tables and each
/// tier's pattern databases count once, however many calls use them.
#[pyfunction]
pub fn table_loads() -> u64 {
    LOADS.load(Ordering::Relaxed)
}

/// Every pattern database with its size and header state, and which tiers are ready, without
/// reading the payloads: ``{"dir": ..., "tables": [...], "tiers": [...]}``.
#[pyfunction]
pub fn tables_status(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let dir = dir()?;
    let status = PyDict::new(py);
    status.set_item("dir", dir.display().to_string())?;
    let tables = PyList::empty(py);
    let mut all = vec![pdb::CORNERS];
    for tier in Tier::ALL {
        all.extend(pdb::edge_tables(tier));
    }
    for table in &all {
        let path = table.spec.path_in(&dir);
        let bytes = std::fs::metadata(&path).ok().map(|m| m.len());
        let header = pdb::check_header(&path, table);
        let entry = PyDict::new(py);
        entry.set_item("id", table.id().as_str())?;
        entry.set_item("path", path.display().to_string())?;
        entry.set_item("bytes", bytes)?;
        entry.set_item("header_ok", header.is_ok())?;
        entry.set_item(
            "state",
            match (bytes, header) {
                (None, _) => "missing".to_string(),
                (Some(_), Ok(())) => "header ok".to_string(),
                (Some(_), Err(e)) => format!("invalid: {e}"),
            },
        )?;
        tables.append(entry)?;
    }
    status.set_item("tables", tables)?;
    let tiers = PyList::empty(py);
    for tier in Tier::ALL.into_iter().filter(|t| t.h48_flips().is_none()) {
        let entry = PyDict::new(py);
        entry.set_item("tier", tier.to_string())?;
        entry.set_item("ready", tier_ready(&dir, tier))?;
        tiers.append(entry)?;
    }
    status.set_item("tiers", tiers)?;
    Ok(status)
}

/// Bakes the pattern databases of ``tier`` (``"6edge"``, ``"7edge"``, ``"8edge"``) into the
/// table directory, with the GIL released; ``progress`` says on standard error what it bakes.
#[pyfunction]
#[pyo3(signature = (tier, progress = true))]
pub fn tables_bake(py: Python<'_>, tier: &str, progress: bool) -> PyResult<()> {
    let tier = parse_tier(tier)?;
    let dir = dir()?;
    if progress {
        eprintln!(
            "cube_toolkit: baking the {tier} pattern databases into {} (once)",
            dir.display()
        );
    }
    let start = std::time::Instant::now();
    py.allow_threads(|| bake(&dir, tier))?;
    if progress {
        eprintln!(
            "cube_toolkit: baked tier {tier} in {:.1} s",
            start.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
