//! The exceptions of `cube_toolkit`, one per kind of failure, all under `CubeError`, and the
//! conversions from the workspace's errors.

use cube_solvers::SolveError;
use cube_tables::{FixCommands, TableError, TableErrorKind};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyUserWarning};
use pyo3::prelude::*;

create_exception!(
    cube_toolkit,
    CubeError,
    PyException,
    "The base of every error of cube_toolkit."
);
create_exception!(
    cube_toolkit,
    ParseError,
    CubeError,
    "A text that is not a state, an algorithm or a name of this toolkit."
);
create_exception!(
    cube_toolkit,
    IllegalCube,
    CubeError,
    "A state that no turning of a real cube reaches (the message names the rule broken)."
);
create_exception!(
    cube_toolkit,
    TablesMissing,
    CubeError,
    "Tables that are not baked in the table directory (the message says how to bake them)."
);
create_exception!(
    cube_toolkit,
    TablesInvalid,
    CubeError,
    "Tables that are present but cannot be used: corrupt, truncated, unreadable, of another version."
);
create_exception!(
    cube_toolkit,
    NoSolution,
    CubeError,
    "No solution within the limits asked (a length or a time)."
);

create_exception!(
    cube_toolkit,
    BakeWarning,
    PyUserWarning,
    "Said (through ``warnings``, on standard error) before a call bakes or builds tables on first use, for seconds or minutes: what, where, how big and how long. ``warnings.simplefilter(\"ignore\", cube_toolkit.BakeWarning)`` keeps it quiet."
);

/// Adds the exceptions and the warning to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("CubeError", py.get_type::<CubeError>())?;
    m.add("ParseError", py.get_type::<ParseError>())?;
    m.add("IllegalCube", py.get_type::<IllegalCube>())?;
    m.add("TablesMissing", py.get_type::<TablesMissing>())?;
    m.add("TablesInvalid", py.get_type::<TablesInvalid>())?;
    m.add("NoSolution", py.get_type::<NoSolution>())?;
    m.add("BakeWarning", py.get_type::<BakeWarning>())?;
    Ok(())
}

/// A solver's error: unsolvable input is `IllegalCube`.
pub fn solve_error(e: SolveError) -> PyErr {
    match e {
        SolveError::Unsolvable(_) => IllegalCube::new_err(e.to_string()),
        SolveError::Cancelled => NoSolution::new_err("stopped before any solution was found"),
        _ => CubeError::new_err(e.to_string()),
    }
}

/// The package's words for the fix that ends a table error: the function that bakes a tier.
pub const FIX_COMMANDS: FixCommands = FixCommands {
    bake: "cube_toolkit.tables.bake(\"{tier}\")",
};

/// A table error as the package shows it, its fix in [`FIX_COMMANDS`]' words.
pub fn table_message(e: &TableError) -> String {
    e.message(&FIX_COMMANDS)
}

/// A table error: a missing table is `TablesMissing`, any other `TablesInvalid`.
pub fn table_error(e: TableError) -> PyErr {
    let message = table_message(&e);
    match e.kind() {
        TableErrorKind::Missing | TableErrorKind::NoTableDir => TablesMissing::new_err(message),
        _ => TablesInvalid::new_err(message),
    }
}
