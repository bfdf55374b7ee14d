//! The tables of this process: the table directory of the CLI's rules (`$CUBE_TABLES_DIR`, else
//! the user's cache directory), each method's tables and each optimal tier's tables
//! (cube-solvers' `OptimalTables`, any family) loaded once and shared by every call, the count of
//! loads, `tables.status()` and `tables.bake()` (cube-tables' `tier` module decides which tables a
//! tier has, whether they are ready and how they are baked).

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use cube_solvers::MethodTables;
use cube_solvers::beginner::BeginnerTables;
use cube_solvers::cfop::CfopTables;
use cube_solvers::optimal::OptimalTables;
use cube_solvers::thistlethwaite::ThistlethwaiteTables;
use cube_solvers::two_phase::TwoPhaseTables;
use cube_tables::tier::{self, BakeOptions, ChoiceError, TierState};
use cube_tables::{Anonymous, Metric, Tier};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::errors::{BakeWarning, ParseError, TablesMissing, table_error, table_message};
use cube_solvers::fmc::insert::InsertTables;
use cube_solvers::fmc::{Step, StepTables};

/// How many table sets this process has loaded (or built): tests see each worker load once.
static LOADS: AtomicU64 = AtomicU64::new(0);

/// The optimal tables loaded so far, one per tier.
static OPTIMAL: Mutex<Vec<Arc<OptimalTables<Anonymous>>>> = Mutex::new(Vec::new());

/// The table directory: `$CUBE_TABLES_DIR`, else the user's cache directory (the CLI's rules
/// without `--tables`).
pub fn dir() -> PyResult<PathBuf> {
    cube_tables::resolve_table_dir(None).map_err(table_error)
}

/// The two-phase tables of this process, loaded once: the large ones when they are cached in
/// the table directory (see [`load`]; `cube-cli tables bake --caches` writes them), else the
/// small ones, built in memory in a fraction of a second, as the CLI decides for one state
/// ([`TwoPhaseTables::cached_in`]): a first call never builds 123 MiB.
pub fn two_phase() -> Arc<TwoPhaseTables> {
    static TABLES: OnceLock<Arc<TwoPhaseTables>> = OnceLock::new();
    Arc::clone(TABLES.get_or_init(|| {
        if dir().is_ok_and(|dir| TwoPhaseTables::cached_in(&dir)) {
            load()
        } else {
            LOADS.fetch_add(1, Ordering::Relaxed);
            Arc::new(TwoPhaseTables::small())
        }
    }))
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

/// The generated insertion algorithms of this process (`fmc.insert`), loaded once, as the CLI
/// loads them. Call without the GIL: the first call may make them (about 40 s on two cores).
pub fn insertions() -> Arc<InsertTables> {
    static TABLES: OnceLock<Arc<InsertTables>> = OnceLock::new();
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
    // A Python process asks many queries: its tables are mapped in whole once, not page by page.
    let tables = dir()
        .ok()
        .and_then(|dir| StepTables::load_or_build(step, &dir).ok())
        .map_or_else(
            || StepTables::build(step),
            |loaded| (*loaded.tables).clone(),
        );
    tables.prefault();
    LOADS.fetch_add(1, Ordering::Relaxed);
    loaded.push(tables.clone());
    tables
}

/// Says ([`announce`]) that the first query of `step` builds its family's tables, when they are not
/// cached in the table directory (a few of them take a minute), before it does. Call with the
/// GIL, before the query.
pub fn announce_fmc_build(step: &Step) -> PyResult<()> {
    let Ok(dir) = dir() else {
        return Ok(());
    };
    if step
        .table_specs()
        .iter()
        .all(|spec| spec.path_in(&dir).exists())
    {
        return Ok(());
    }
    announce(format!(
        "cube_toolkit: building the {} tables into {} ({}; once)",
        step.tables_name(),
        dir.display(),
        mib(step.table_bytes())
    ))
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

/// Parses a tier name.
pub fn parse_tier(name: &str) -> PyResult<Tier> {
    name.parse()
        .map_err(|e| ParseError::new_err(format!("tier {name:?}: {e}")))
}

/// The tables of the tier that answers the request ([`tier::choose`]): `asked`, which must count
/// in `metric` when that is given (else a `ValueError` naming the tier to use), else the baked
/// tier of `metric` measured cheapest per GB (in half turns h4, h5, h6, h7, nx-eo3ep1, nx-eo2ep2,
/// else the largest Korf tier, else 6edge; in quarter turns nx-eo3ep1-qtm, nx-eo2ep2-qtm, else the
/// largest `-qtm` tier, `TablesMissing` when there is none), loaded once per process; a missing tier is baked first when the CLI would
/// ([`tier::baked_on_first_use`]: 6edge, the H48 tiers, nx-eo1ep1 and nx-eo1ep1-qtm). Every
/// payload is hashed as it loads. Call without the GIL: it may bake and read for seconds.
pub fn optimal_tables(
    asked: Option<Tier>,
    metric: Option<Metric>,
) -> PyResult<Arc<OptimalTables<Anonymous>>> {
    let dir = dir()?;
    let mut loaded = OPTIMAL.lock().unwrap_or_else(|e| e.into_inner());
    let tier = match tier::choose(&dir, asked, metric) {
        Ok(tier) => tier,
        Err(ChoiceError::NoneReady { bake, .. }) => {
            return Err(TablesMissing::new_err(format!(
                "no quarter-turn table is baked in {}: call cube_toolkit.tables.bake(\"{bake}\") first",
                dir.display(),
            )));
        }
        Err(ChoiceError::OtherMetric {
            tier, metric, twin, ..
        }) => {
            return Err(PyValueError::new_err(format!(
                "tier \"{tier}\" counts in {:?}, not {:?}: use tier=\"{twin}\" with metric=\"{metric}\"",
                tier.metric().name(),
                metric.name()
            )));
        }
    };
    if let Some(tables) = loaded.iter().find(|tables| tables.tier() == tier) {
        return Ok(Arc::clone(tables));
    }
    match tier::state(&dir, tier) {
        TierState::Ready => {}
        // A table that is there but invalid is reported, never silently replaced.
        TierState::Invalid(e) => return Err(table_error(e)),
        TierState::Missing if !tier::baked_on_first_use(tier) => {
            return Err(TablesMissing::new_err(format!(
                "the {tier} {} not baked in {}: call cube_toolkit.tables.bake(\"{tier}\") first, or use tier=\"{}\"",
                tier.family().tables_are(),
                dir.display(),
                tier::first_use_alternative(tier)
            )));
        }
        TierState::Missing => {
            announce(format!(
                "cube_toolkit: baking the {tier} tables into {} ({} on 2 cores, {} of disk; once)",
                dir.display(),
                tier::bake_time(tier),
                mib(tier::disk_bytes(tier))
            ))?;
            bake(&dir, tier)?;
        }
    }
    let tables = Arc::new(OptimalTables::load_anonymous(&dir, tier, true).map_err(table_error)?);
    LOADS.fetch_add(1, Ordering::Relaxed);
    loaded.push(Arc::clone(&tables));
    Ok(tables)
}

/// Says `message` through Python's `warnings`, as a [`BakeWarning`] (shown on standard error once
/// per place of the call, by default): before work of seconds or more on first use. Called without
/// the GIL, it takes it. With warnings turned into errors (`-W error`), the error, before the work.
fn announce(message: String) -> PyResult<()> {
    let message = std::ffi::CString::new(message).expect("a message has no NUL");
    Python::with_gil(|py| PyErr::warn(py, py.get_type::<BakeWarning>().as_any(), &message, 1))
}

/// `82.7 MiB`.
fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / f64::from(1 << 20))
}

/// Bakes `tier` into `dir` as the CLI does ([`tier::bake`]), waiting for another bake of `dir`.
fn bake(dir: &std::path::Path, tier: Tier) -> PyResult<()> {
    let options = BakeOptions {
        wait_for_lock: true,
        ..BakeOptions::default()
    };
    tier::bake(dir, &[tier], &options, &()).map_err(table_error)?;
    Ok(())
}

/// The table directory this process uses (``$CUBE_TABLES_DIR``, else the user's cache
/// directory).
#[pyfunction]
pub fn tables_dir() -> PyResult<String> {
    Ok(dir()?.display().to_string())
}

/// How many table sets this process has loaded or built: each method's small tables and each
/// optimal tier's tables count once, however many calls use them.
#[pyfunction]
pub fn table_loads() -> u64 {
    LOADS.load(Ordering::Relaxed)
}

/// Every table of the optimal tiers with its size and header state, and which tiers are ready,
/// without reading the payloads: ``{"dir": ..., "tables": [...], "tiers": [...]}``.
#[pyfunction]
pub fn tables_status(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let dir = dir()?;
    let status = PyDict::new(py);
    status.set_item("dir", dir.display().to_string())?;
    let tables = PyList::empty(py);
    let mut all = Vec::new();
    for tier in Tier::ALL {
        for spec in tier::specs(tier) {
            if !all.contains(&spec) {
                all.push(spec);
            }
        }
    }
    for spec in &all {
        let path = spec.path_in(&dir);
        let bytes = std::fs::metadata(&path).ok().map(|m| m.len());
        let header = cube_tables::check_header(&path, spec);
        let entry = PyDict::new(py);
        entry.set_item("id", spec.id.as_str())?;
        entry.set_item("path", path.display().to_string())?;
        entry.set_item("bytes", bytes)?;
        entry.set_item("header_ok", header.is_ok())?;
        entry.set_item(
            "state",
            match (bytes, header) {
                (None, _) => "missing".to_string(),
                (Some(_), Ok(())) => "header ok".to_string(),
                (Some(_), Err(e)) => format!("invalid: {}", table_message(&e)),
            },
        )?;
        tables.append(entry)?;
    }
    status.set_item("tables", tables)?;
    let tiers = PyList::empty(py);
    for tier in Tier::ALL {
        let entry = PyDict::new(py);
        entry.set_item("tier", tier.to_string())?;
        entry.set_item("ready", matches!(tier::state(&dir, tier), TierState::Ready))?;
        tiers.append(entry)?;
    }
    status.set_item("tiers", tiers)?;
    Ok(status)
}

/// Bakes the tables of ``tier`` (``"6edge"``, ``"7edge"``, ``"8edge"``, an H48 tier: ``"h0"``
/// for tests, ``"h4"`` to ``"h7"``, or an nx tier: ``"nx-eo1ep1"`` .. ``"nx-eo2ep2"`` and their
/// ``"-qtm"`` twins) into the table directory as the CLI does, with the GIL
/// released; ``progress`` says on standard error what it bakes.
#[pyfunction]
#[pyo3(signature = (tier, progress = true))]
pub fn tables_bake(py: Python<'_>, tier: &str, progress: bool) -> PyResult<()> {
    let tier = parse_tier(tier)?;
    let dir = dir()?;
    if progress {
        eprintln!(
            "cube_toolkit: baking the {tier} tables into {} (once)",
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
