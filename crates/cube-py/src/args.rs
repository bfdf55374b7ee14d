//! The numeric arguments of the functions, read so that every bad value is a `ValueError` that
//! names the argument and its range: never an `OverflowError` from the conversion (a negative or
//! huge int) nor a `PanicException` further on (a time too long for the clock). A value of the
//! wrong type is pyo3's `TypeError`, naming the argument.

use std::fmt;
use std::time::Duration;

use cube_solvers::Limits;
use pyo3::exceptions::{PyOverflowError, PyValueError};
use pyo3::prelude::*;

/// A Python `int` as given: its value when it fits an `i128` (else out of every range), and its
/// text for the message.
pub struct Int {
    value: Option<i128>,
    text: String,
}

impl<'py> FromPyObject<'py> for Int {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Int> {
        let value = match ob.extract::<i128>() {
            Ok(value) => Some(value),
            Err(e) if e.is_instance_of::<PyOverflowError>(ob.py()) => None,
            Err(e) => return Err(e),
        };
        Ok(Int {
            value,
            text: ob.str()?.to_string(),
        })
    }
}

impl Int {
    /// The value if it is from `min` to `max`, else a `ValueError` naming `name`.
    pub fn within<T>(&self, name: &str, min: T, max: T) -> PyResult<T>
    where
        T: TryFrom<i128> + PartialOrd + fmt::Display,
    {
        self.value
            .and_then(|v| T::try_from(v).ok())
            .filter(|v| *v >= min && *v <= max)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "{name}={} is out of range: expected an integer from {min} to {max}",
                    self.text
                ))
            })
    }
}

/// A Python number of seconds as given (an int too large for a float reads as the largest float
/// of its sign, out of range either way), and its text for the message.
pub struct Seconds {
    secs: f64,
    text: String,
}

impl<'py> FromPyObject<'py> for Seconds {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Seconds> {
        let secs = match ob.extract::<f64>() {
            Ok(secs) => secs,
            Err(e) if e.is_instance_of::<PyOverflowError>(ob.py()) => {
                if ob.lt(0)? {
                    f64::MIN
                } else {
                    f64::MAX
                }
            }
            Err(e) => return Err(e),
        };
        Ok(Seconds {
            secs,
            text: ob.str()?.to_string(),
        })
    }
}

/// An optional time limit within cube-solvers' bounds (the CLI's): a `ValueError` naming `name`
/// otherwise.
pub fn time_limit(name: &str, value: Option<Seconds>) -> PyResult<Option<Duration>> {
    value
        .map(|given| {
            Limits::time_limit(given.secs)
                .map_err(|e| PyValueError::new_err(format!("{name}={} {e}", given.text)))
        })
        .transpose()
}
