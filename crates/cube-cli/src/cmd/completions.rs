//! `cube-cli completions SHELL` and `cube-cli man`: the shell completion scripts (clap_complete)
//! and the manual pages (clap_mangen, one page per subcommand, `man --dir` writing them all),
//! generated from the one clap definition in `args.rs`.

use std::path::Path;

use clap::CommandFactory;

use crate::args::Cli;
use crate::output::{
    self, CliError, EXIT_INPUT, EXIT_INTERNAL, EXIT_TABLES, EXIT_TIMEOUT, EXIT_USAGE, Printer,
};
use crate::signals::EXIT_SIGNAL;

/// Prints the completion script of `shell`.
///
/// clap_complete's bash script names the functions of a hyphenated binary's subcommands one way
/// where it computes them (`cube__cli__subcmd__solve`) and another where it dispatches on them
/// (`cube__subcmd__cli__subcmd__solve`), so nothing after the subcommand completes
/// (clap-rs/clap#6421); the dispatch labels are put right here until that is fixed upstream (then
/// the wrong spelling no longer occurs and this changes nothing).
///
/// clap_complete's fish script completes options only, no positional argument; the values of the
/// positionals that have a closed set (`fmc solve STEP`, `completions SHELL`) are added after it
/// ([`fish_positionals`]).
pub fn completions(printer: Printer<'_>, shell: clap_complete::Shell) -> Result<u8, CliError> {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "cube-cli", &mut script);
    match shell {
        clap_complete::Shell::Bash => {
            let text =
                String::from_utf8_lossy(&script).replace("cube__subcmd__cli__", "cube__cli__");
            script = text.into_bytes();
        }
        clap_complete::Shell::Fish => script.extend(fish_positionals(&command).into_bytes()),
        _ => {}
    }
    printer.document(&script)
}

/// The fish `complete` lines of the possible values of every positional argument of a subcommand
/// (one or two levels down, as clap_complete's own conditions go), under the condition its
/// script uses for that subcommand's options, until one of them is on the line.
fn fish_positionals(command: &clap::Command) -> String {
    let mut lines = String::new();
    let mut add = |condition: String, sub: &clap::Command| {
        for arg in sub.get_positionals() {
            let values: Vec<_> = arg
                .get_possible_values()
                .into_iter()
                .filter(|value| !value.is_hide_set())
                .collect();
            if values.is_empty() {
                continue;
            }
            let names: Vec<&str> = values.iter().map(|value| value.get_name()).collect();
            for value in &values {
                let help = value
                    .get_help()
                    .map(|help| help.to_string())
                    .unwrap_or_default();
                lines.push_str(&format!(
                    "complete -c cube-cli -n \"{condition}; and not __fish_seen_subcommand_from {}\" -f -a '{}' -d '{}'\n",
                    names.join(" "),
                    value.get_name(),
                    help.replace('\\', "\\\\").replace('\'', "\\'")
                ));
            }
        }
    };
    for sub in command.get_subcommands() {
        let name = sub.get_name();
        add(format!("__fish_cube_cli_using_subcommand {name}"), sub);
        for nested in sub.get_subcommands() {
            add(
                format!(
                    "__fish_cube_cli_using_subcommand {name}; and __fish_seen_subcommand_from {}",
                    nested.get_name()
                ),
                nested,
            );
        }
    }
    lines
}

/// Prints a manual page, in roff: of cube-cli (its options and the list of subcommands), or of a
/// subcommand at `path` (`["tables", "bake"]`: `cube-cli-tables-bake(1)`) with all its options.
/// With `dir`, writes instead the page of cube-cli and of every subcommand, nested ones too, into
/// `dir` as `NAME.1` (`cube-cli-tables-bake.1`), so that every page a page names is there: in a
/// directory `man` searches (`~/.local/share/man/man1`), `man cube-cli-solve` finds its page.
/// Besides clap_mangen's sections, each page has EXIT STATUS, ENVIRONMENT and FILES, and the text
/// after the options (the STATE table, the examples) keeps its lines and columns.
pub fn man(printer: Printer<'_>, path: &[String], dir: Option<&Path>) -> Result<u8, CliError> {
    let command = man_command();
    let Some(dir) = dir else {
        let (_, roff) = page(&command, path)?;
        return printer.document(&roff);
    };
    std::fs::create_dir_all(dir)
        .map_err(|e| CliError::io(format!("creating {}: {e}", dir.display())))?;
    let mut paths = vec![Vec::new()];
    let mut next = 0;
    while let Some(path) = paths.get(next).cloned() {
        let mut sub = &command;
        for word in &path {
            sub = sub.find_subcommand(word).expect("a path of subcommands");
        }
        for child in sub.get_subcommands() {
            let mut longer = path.clone();
            longer.push(child.get_name().to_string());
            paths.push(longer);
        }
        next += 1;
    }
    for path in &paths {
        let (name, roff) = page(&command, path)?;
        let file = dir.join(format!("{name}.1"));
        output::write_file(&file, &roff)
            .map_err(|e| CliError::io(format!("writing {}: {e}", file.display())))?;
    }
    printer.document(
        format!(
            "wrote {} manual pages into {}: cube-cli.1 and cube-cli-SUBCOMMAND.1\n",
            paths.len(),
            dir.display()
        )
        .as_bytes(),
    )
}

/// The command the pages are made of: without a `help` subcommand, which has no page of its own,
/// so that no page names it.
fn man_command() -> clap::Command {
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    command
}

/// Refuses a SUBCOMMAND path of `man` that names no subcommand (by `request.rs`, before anything
/// is written).
pub fn check_page(path: &[String]) -> Result<(), CliError> {
    page_of(&man_command(), path).map(|_| ())
}

/// The name (`cube-cli-tables-bake`) and the subcommand at `path` of `command` (built), or a usage
/// error naming the word that is no subcommand.
fn page_of<'c>(
    command: &'c clap::Command,
    path: &[String],
) -> Result<(String, &'c clap::Command), CliError> {
    let mut name = String::from("cube-cli");
    let mut page = command;
    for word in path {
        page = page.find_subcommand(word).ok_or_else(|| {
            CliError::usage(format!(
                "man {}: no such subcommand (see `{name} --help`)",
                path.join(" ")
            ))
        })?;
        name = format!("{name}-{word}");
    }
    Ok((name, page))
}

/// The name (`cube-cli-tables-bake`) and the roff of the page of the subcommand at `path` of
/// `command` (built).
fn page(command: &clap::Command, path: &[String]) -> Result<(String, Vec<u8>), CliError> {
    let version = command.get_version().unwrap_or_default().to_string();
    let (name, page) = page_of(command, path)?;
    let page = page.clone().name(name.clone()).version(version);
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
        for (title, text) in standard_sections() {
            roff.extend_from_slice(section(title, &text).as_bytes());
        }
        man.render_version_section(roff)
    };
    render(&mut roff).map_err(|e| CliError::io(format!("rendering the manual page: {e}")))?;
    Ok((name, roff))
}

/// The sections every page has, as plain text (see [`section`]); the exit statuses from the
/// constants the run exits with.
fn standard_sections() -> [(&'static str, String); 3] {
    [
        (
            "EXIT STATUS",
            format!(
                "  0    success
  {EXIT_INPUT}    invalid or illegal input, a check that fails (verify of a move sequence that does not solve the state), or output that could not be written
  {EXIT_USAGE}    usage error (an unknown option, a value out of range)
  {EXIT_TABLES}    tables missing or invalid (re-run the bake the message names)
  {EXIT_TIMEOUT}    a search that timed out without a solution
  {EXIT_INTERNAL}   an internal error: a solver failed in a way no input should cause (a bug, named as one; please report it)
  {EXIT_SIGNAL}  stopped by SIGINT or SIGTERM (what was found is printed)"
            ),
        ),
        (
            "ENVIRONMENT",
            "  CUBE_TABLES_DIR   the table directory when --tables is not given (if set and not empty)
  XDG_CACHE_HOME    on Linux, the table directory is $XDG_CACHE_HOME/cube-tables by default
  NO_COLOR          with --color auto, no colours or styles
  CLICOLOR_FORCE    with --color auto, colours and styles even when not on a terminal
  TERM              with --color auto, TERM=dumb means no colours"
                .to_string(),
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
`cube-cli tables files` lists them with their sizes; every one can be rebuilt."
                .to_string(),
        ),
    ]
}

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
