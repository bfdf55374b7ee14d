//! Who a command runs for: the terminal (the process's own run, stopped by a signal, reading the
//! files it is given) or one request of `cube-cli serve` (stopped by its own flag when its client
//! goes, its deadline passes or the server stops; its progress sent to its client; nothing it
//! says looked up on the server's disk). Every command reads this from its [`Global`] options,
//! so that nothing of one request reaches another.
//!
//! [`Global`]: crate::args::Global

use std::fmt;
use std::sync::Arc;

use std::sync::Mutex;

use cube_solvers::Stop;

use crate::output::{Answer, ProgressSink};

/// Who a command runs for.
#[derive(Clone, Default)]
pub enum Session {
    /// The command line: progress on standard error, a signal stops the searches.
    #[default]
    Terminal,
    /// A request of `cube-cli serve`.
    Request {
        /// Raised when the client goes away, the request's deadline passes or the server stops.
        stop: Stop,
        /// Where an optimal search's progress goes (a streamed answer's events).
        progress: Option<ProgressSink>,
        /// Where the command's reports go: the request's answer, rendered by the server.
        answer: Arc<Mutex<Answer>>,
    },
}

impl Session {
    /// The stop flag of a search that a signal stops on the command line: the request's own, or
    /// the process's (from then on the first signal stops the searches rather than the process).
    pub fn search_stop(&self) -> Stop {
        match self {
            Session::Terminal => crate::signals::listen().clone(),
            Session::Request { stop, .. } => stop.clone(),
        }
    }

    /// The stop flag of a quick search (two-phase): the request's own; on the command line a flag
    /// of its own, never raised (a signal ends such a run at once).
    pub fn quick_stop(&self) -> Stop {
        match self {
            Session::Terminal => Stop::new(),
            Session::Request { stop, .. } => stop.clone(),
        }
    }

    /// Whether the command's work was stopped from outside (a request's client gone, its
    /// deadline passed, the server stopping), as opposed to by a signal on the command line.
    pub fn stopped(&self) -> bool {
        matches!(self, Session::Request { stop, .. } if stop.is_stopped())
    }

    /// Whether STATE arguments may name files (the command line: a path is refused with a hint);
    /// a request's text is only ever text.
    pub fn reads_files(&self) -> bool {
        matches!(self, Session::Terminal)
    }

    /// Whether this is a request of `cube-cli serve`.
    pub fn is_request(&self) -> bool {
        matches!(self, Session::Request { .. })
    }

    /// Where the command's reports go: `None` on the command line (printed as they come).
    pub fn answer(&self) -> Option<&Mutex<Answer>> {
        match self {
            Session::Terminal => None,
            Session::Request { answer, .. } => Some(answer),
        }
    }

    /// Where an optimal search's progress goes: `None` on the command line (standard error).
    pub fn progress(&self) -> Option<&ProgressSink> {
        match self {
            Session::Terminal => None,
            Session::Request { progress, .. } => progress.as_ref(),
        }
    }
}

impl fmt::Debug for Session {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Session::Terminal => f.write_str("Terminal"),
            Session::Request { stop, progress, .. } => f
                .debug_struct("Request")
                .field("stopped", &stop.is_stopped())
                .field("progress", &progress.is_some())
                .finish(),
        }
    }
}
