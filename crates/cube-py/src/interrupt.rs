//! Searches that Ctrl-C stops: the work runs on another thread with the GIL released, while the
//! calling thread waits for it and checks for Python signals every 20 ms; a `KeyboardInterrupt`
//! raises the work's stop flag and is raised once the work has stopped (every search polls the
//! flag within milliseconds).

use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use cube_solvers::Stop;
use pyo3::prelude::*;

/// How often the waiting thread checks for signals.
const SIGNAL_POLL: Duration = Duration::from_millis(20);

/// Runs `work` with a stop flag that a Python signal handler's exception (Ctrl-C's
/// `KeyboardInterrupt`) raises; that exception is then the result. Work that ends sooner
/// returns at once.
pub fn run<T: Send>(py: Python<'_>, work: impl FnOnce(&Stop) -> T + Send) -> PyResult<T> {
    let stop = Stop::new();
    let mut interrupted = None;
    let outcome = std::thread::scope(|scope| {
        let (done, finished) = mpsc::channel();
        let stop = &stop;
        let worker = scope.spawn(move || {
            let result = work(stop);
            // The waiting thread may have stopped listening only after a panic of its own.
            let _ = done.send(());
            result
        });
        // Waited on with the GIL released, so from a closure that must be `Send`.
        let finished = Mutex::new(finished);
        let wait = || {
            let finished = finished.lock().unwrap_or_else(PoisonError::into_inner);
            finished.recv_timeout(SIGNAL_POLL)
        };
        // Disconnected: the worker panicked; the join below says so.
        while py.allow_threads(wait) == Err(RecvTimeoutError::Timeout) {
            if interrupted.is_none()
                && let Err(e) = py.check_signals()
            {
                stop.stop();
                interrupted = Some(e);
            }
        }
        worker.join()
    });
    if let Some(e) = interrupted {
        return Err(e);
    }
    match outcome {
        Ok(result) => Ok(result),
        Err(panic) => std::panic::resume_unwind(panic),
    }
}
