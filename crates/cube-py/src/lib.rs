//! The Python module `cube_toolkit._native`: the workspace's cube, formats, solvers and tables for
//! Python, re-exported by the pure-Python package `cube_toolkit` (`python/cube_toolkit`).
//!
//! - `PyCube` (`Cube`): a state read from any format the CLI reads (cube-encode's detection),
//!   written to every format.
//! - `solve`, `optimal`, `scramble`, `check`, `convert`: the CLI's commands as functions
//!   (`solve.rs`, `optimal.rs`), both returning a `Solution` (`solution.rs`).
//! - `fmc.rs`: the FMC step solvers and NISS notation (`cube_toolkit.fmc`).
//! - `tables.rs`: the table directory of the CLI's rules, the tables loaded once per process and
//!   shared by every call, and the count of loads.
//! - `errors.rs`: the exceptions, one per kind of failure.
//! - `args.rs`: the numeric arguments, every bad value a `ValueError` naming its range.
//!
//! Every solve runs with the GIL released, so Python threads solve in parallel, and on a thread
//! of its own that Ctrl-C stops (`interrupt.rs`).

mod args;
mod cube;
mod errors;
mod fmc;
mod interrupt;
mod optimal;
mod solution;
mod solve;
mod tables;

use pyo3::prelude::*;

/// What `__reduce__` returns for pickling: the class and the arguments that rebuild the object.
type Reduce<'py, Args> = (Bound<'py, pyo3::types::PyType>, Args);

/// The native part of `cube_toolkit`; import `cube_toolkit`, not this.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<cube::PyCube>()?;
    m.add_class::<cube::Problem>()?;
    m.add_class::<solution::PySolution>()?;
    m.add_class::<solution::PyStage>()?;
    m.add_class::<optimal::OptimalResult>()?;
    m.add_function(wrap_pyfunction!(solve::solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve::scramble, m)?)?;
    m.add_function(wrap_pyfunction!(cube::check, m)?)?;
    m.add_function(wrap_pyfunction!(cube::convert, m)?)?;
    m.add_function(wrap_pyfunction!(optimal::optimal, m)?)?;
    m.add_function(wrap_pyfunction!(tables::tables_status, m)?)?;
    m.add_function(wrap_pyfunction!(tables::tables_bake, m)?)?;
    m.add_function(wrap_pyfunction!(tables::tables_dir, m)?)?;
    m.add_function(wrap_pyfunction!(tables::table_loads, m)?)?;
    fmc::register(m)?;
    errors::register(m)?;
    Ok(())
}
