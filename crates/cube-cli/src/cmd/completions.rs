//! `cube-cli completions SHELL` and `cube-cli man`: the shell completion scripts (clap_complete)
//! and the manual pages (clap_mangen), generated from the one clap definition in `args.rs`.

use clap::CommandFactory;

use crate::args::Cli;
use crate::output::{self, CliError};

/// Prints the completion script of `shell`.
///
/// clap_complete's bash script names the functions of a hyphenated binary's subcommands one way
/// where it computes them (`cube__cli__subcmd__solve`) and another where it dispatches on them
/// (`cube__subcmd__cli__subcmd__solve`), so nothing after the subcommand completes
/// (clap-rs/clap#6421); the dispatch labels are put right here until that is fixed upstream (then
/// the wrong spelling no longer occurs and this changes nothing).
pub fn completions(shell: clap_complete::Shell) -> Result<u8, CliError> {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "cube-cli", &mut script);
    if shell == clap_complete::Shell::Bash {
        let text = String::from_utf8_lossy(&script).replace("cube__subcmd__cli__", "cube__cli__");
        script = text.into_bytes();
    }
    output::write_bytes(&script)?;
    Ok(0)
}

/// Prints a manual page, in roff: of cube-cli (its options and the list of subcommands), or of a
/// subcommand at `path` (`["tables", "bake"]`: `cube-cli-tables-bake(1)`) with all its options.
/// Besides clap_mangen's sections, each page has EXIT STATUS, ENVIRONMENT and FILES, and the text
/// after the options (the STATE table, the examples) keeps its lines and columns.
pub fn man(path: &[String]) -> Result<u8, CliError> {
    let mut command = Cli::command();
    command.build();
    let version = command.get_version().unwrap_or_default().to_string();
    let mut name = String::from("cube-cli");
    let mut page = command;
    for word in path {
        let sub = page.find_subcommand(word).ok_or_else(|| {
            CliError::usage(format!(
                "man {}: no such subcommand (see `{name} --help`)",
                path.join(" ")
            ))
        })?;
        page = sub.clone();
        name = format!("{name}-{word}");
    }
    let page = page.name(name).version(version);
    let after = page
        .get_after_long_help()
        .or(page.get_after_help())
        .map(|text| text.to_string());
    let has_subcommands = page.has_subcommands();
    let man = clap_mangen::Man::new(page);
    let mut roff = Vec::new();
    let render = |roff: &mut Vec<u8>| -> std::io::Result<()> {
        man.render_title(roff)?;
        man.render_name_section(roff)?;
        man.render_synopsis_section(roff)?;
        man.render_description_section(roff)?;
        man.render_options_section(roff)?;
        if has_subcommands {
            man.render_subcommands_section(roff)?;
        }
        if let Some(after) = &after {
            roff.extend_from_slice(section("NOTES", after).as_bytes());
        }
        for (title, text) in STANDARD_SECTIONS {
            roff.extend_from_slice(section(title, text).as_bytes());
        }
        man.render_version_section(roff)
    };
    render(&mut roff).map_err(|e| CliError::io(format!("rendering the manual page: {e}")))?;
    output::write_bytes(&roff)?;
    Ok(0)
}

/// The sections every page has, as plain text (see [`section`]).
const STANDARD_SECTIONS: [(&str, &str); 3] = [
    (
        "EXIT STATUS",
        "  0    success
  1    invalid or illegal input, a check that fails (verify of a move sequence that does not solve the state), or output that could not be written
  2    usage error (an unknown option, a value out of range)
  3    tables missing or invalid (re-run the bake the message names)
  4    a search that timed out without a solution
  130  stopped by SIGINT or SIGTERM (what was found is printed)",
    ),
    (
        "ENVIRONMENT",
        "  CUBE_TABLES_DIR   the table directory when --tables is not given (if set and not empty)
  XDG_CACHE_HOME    on Linux, the table directory is $XDG_CACHE_HOME/cube-tables by default
  NO_COLOR          with --color auto, no colours or styles
  CLICOLOR_FORCE    with --color auto, colours and styles even when not on a terminal
  TERM              with --color auto, TERM=dumb means no colours",
    ),
    (
        "FILES",
        "The table directory: --tables DIR, else $CUBE_TABLES_DIR, else cube-tables in the user's cache directory:
  ~/.cache/cube-tables                  Linux ($XDG_CACHE_HOME/cube-tables when that is set)
  ~/Library/Caches/cube-tables          macOS
  %LOCALAPPDATA%\\cube-tables            Windows
It holds:
  NAME.v1.tbl          a table: pattern databases, H48 tables, the methods' cached tables
  NAME.v1.tbl.checked  the stamp of a full check of that table (cube-cli tables verify)
  .lock, .bake.lock    the readers' and the writers' lock files
`cube-cli tables files` lists them with their sizes; every one can be rebuilt.",
    ),
];

/// A manual section of plain text: lines that start with a space (tables, examples) keep their
/// lines and columns (no filling, no adjusting), the others are filled as paragraphs.
fn section(title: &str, text: &str) -> String {
    let mut roff = format!(".SH \"{title}\"\n");
    let mut verbatim = false;
    for line in text.lines() {
        let keep = line.starts_with(' ');
        if keep != verbatim {
            roff.push_str(if keep { ".nf\n" } else { ".fi\n" });
            verbatim = keep;
        }
        if !keep && !line.is_empty() {
            roff.push_str(".br\n");
        }
        roff.push_str(&escape(line));
        roff.push('\n');
    }
    if verbatim {
        roff.push_str(".fi\n");
    }
    roff
}

/// `line` as roff text: backslashes, hyphens and quotes as glyphs, never a control line.
fn escape(line: &str) -> String {
    let escaped = line
        .replace('\\', "\\e")
        .replace('-', "\\-")
        .replace('\'', "\\(aq");
    if escaped.starts_with('.') {
        format!("\\&{escaped}")
    } else {
        escaped
    }
}
