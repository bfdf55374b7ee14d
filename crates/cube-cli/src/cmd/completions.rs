//! `cube-cli completions SHELL` and `cube-cli man`: the shell completion scripts (clap_complete)
//! and the manual page (clap_mangen), generated from the one clap definition in `args.rs`.

use clap::CommandFactory;

use crate::args::Cli;
use crate::output::{self, CliError};

/// Prints the completion script of `shell`.
pub fn completions(shell: clap_complete::Shell) -> Result<u8, CliError> {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "cube-cli", &mut script);
    output::write_bytes(&script)?;
    Ok(0)
}

/// Prints the manual page, in roff: of cube-cli (its options and the list of subcommands), or of
/// one subcommand (`cube-cli-optimal(1)`) with all its options.
pub fn man(subcommand: Option<&str>) -> Result<u8, CliError> {
    let mut command = Cli::command();
    command.build();
    let page = match subcommand {
        None => command,
        Some(name) => {
            let version = command.get_version().unwrap_or_default().to_string();
            let sub = command.find_subcommand(name).ok_or_else(|| {
                CliError::usage(format!(
                    "man {name}: no such subcommand (see `cube-cli --help`)"
                ))
            })?;
            sub.clone()
                .name(format!("cube-cli-{name}"))
                .version(version)
        }
    };
    let mut roff = Vec::new();
    clap_mangen::Man::new(page)
        .render(&mut roff)
        .map_err(|e| CliError::io(format!("rendering the manual page: {e}")))?;
    output::write_bytes(&roff)?;
    Ok(0)
}
