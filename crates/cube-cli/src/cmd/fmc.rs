//! `cube-cli fmc`: fewest-moves tools over cube-core's NISS sequences ([`NissAlg`]): `unniss`,
//! `invert`, `cleanup` and `count`.

use cube_core::NissAlg;

use crate::args::FmcAction;
use crate::output::{CliError, Outcome, Report};
use crate::record::{self, Record};

/// The notation commands: what each does to a sequence.
#[derive(Clone, Copy, Debug)]
pub enum Notation {
    Unniss,
    Invert,
    Cleanup,
    Count,
}

impl Notation {
    /// The notation command of `action` and its SEQUENCE argument.
    pub fn of(action: &FmcAction) -> (Notation, &str) {
        match action {
            FmcAction::Unniss { sequence, .. } => (Notation::Unniss, sequence),
            FmcAction::Invert { sequence, .. } => (Notation::Invert, sequence),
            FmcAction::Cleanup { sequence, .. } => (Notation::Cleanup, sequence),
            FmcAction::Count { sequence, .. } => (Notation::Count, sequence),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Notation::Unniss => "unniss",
            Notation::Invert => "invert",
            Notation::Cleanup => "cleanup",
            Notation::Count => "count",
        }
    }
}

/// Reads `text` as a NISS sequence and answers `command` for it.
pub fn notation(command: Notation, text: &str) -> Outcome {
    let niss: NissAlg = text.parse().map_err(CliError::parse)?;
    let result = match command {
        Notation::Unniss => NissAlg::new(&niss.unniss(), &Default::default()),
        Notation::Invert => niss.invert(),
        Notation::Cleanup => niss.cleanup(),
        Notation::Count => niss,
    };
    let (htm, qtm, stm) = (result.htm(), result.qtm(), result.stm());
    let text = match command {
        Notation::Count => format!("{htm} HTM, {qtm} QTM, {stm} STM"),
        _ => result.to_string(),
    };
    Ok(Report::new(
        text,
        Record::Sequence(record::Sequence {
            action: command.name(),
            sequence: result.to_string(),
            htm,
            qtm,
            stm,
        }),
    ))
}
