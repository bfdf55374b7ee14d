//! SIGINT (Ctrl-C) and SIGTERM, one handler for the whole run, installed first thing.
//!
//! From the first optimal search of the run on ([`listen`]), the first signal raises the stop
//! flag that every search polls: each search stops within a fraction of a second with what it
//! has, which is printed (and its checkpoint written), later ones stop at once, and the run exits
//! with 130. Before that (a bake, a table build, any other command), and on a second signal, the
//! process removes the temporary files it has open (half-written tables, a bake's scratch files:
//! destructors do not run when a signal ends a process) and exits with 130 at once.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use cube_solvers::Stop;

/// The exit code after SIGINT or SIGTERM, as a shell reports a process ended by SIGINT.
pub const EXIT_SIGNAL: u8 = 130;

/// A signal asked the run to stop.
static SIGNALLED: AtomicBool = AtomicBool::new(false);

/// An optimal search has started: a signal stops the searches rather than the process.
static LISTENING: AtomicBool = AtomicBool::new(false);

/// The stop flag of the searches.
fn stop_flag() -> &'static Stop {
    static STOP: OnceLock<Stop> = OnceLock::new();
    STOP.get_or_init(Stop::new)
}

/// Installs the handler. Without it (another one is installed), a signal simply ends the process.
pub fn install() {
    let _ = ctrlc::set_handler(|| {
        let again = SIGNALLED.swap(true, Ordering::SeqCst);
        if again || !LISTENING.load(Ordering::SeqCst) {
            cube_tables::remove_temporary_files();
            std::process::exit(i32::from(EXIT_SIGNAL));
        }
        stop_flag().stop();
    });
}

/// Whether a signal asked the run to stop.
pub fn signalled() -> bool {
    SIGNALLED.load(Ordering::SeqCst)
}

/// The stop flag for a search to poll; from now on a first signal raises it instead of ending
/// the process.
pub fn listen() -> &'static Stop {
    LISTENING.store(true, Ordering::SeqCst);
    stop_flag()
}
