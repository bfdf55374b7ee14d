//! The `cube-cli` command-line tool: see `cube-cli --help` and the user guide, docs/cli.md.
//!
//! `args.rs` holds the raw clap arguments; `input.rs` turns STATE arguments into cube states
//! (detecting the format, reading standard input, batches); `output.rs` prints reports as text
//! or JSON and maps failures to exit codes; `table_dir.rs` is the table directory every command
//! shares; `method_tables.rs` is the run's cache of the methods' tables; `signals.rs` the one
//! handler of SIGINT and SIGTERM; `cmd/` has one module per subcommand; `request.rs` checks a
//! command line into a `Request` and runs it; `serve.rs` is `cube-cli serve`, the web app and its
//! JSON API, which builds the same requests from JSON bodies.

mod args;
mod cmd;
mod input;
mod method_tables;
mod output;
mod record;
mod request;
mod serve;
mod session;
mod signals;
mod table_dir;
mod tiers;

use std::process::ExitCode;

use clap::Parser;

use crate::args::Cli;
use crate::request::Request;
use crate::session::Session;

fn main() -> ExitCode {
    // First, so that a signal during a bake removes its temporary files.
    signals::install();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return ExitCode::from(output::print_clap(&e)),
    };
    output::set_color(cli.global.color);
    let json = cli.global.json;
    let request = match Request::new(cli) {
        Ok(request) => request,
        Err(refusal) => return ExitCode::from(refusal.print(json)),
    };
    let code = match request::run(&request, &Session::Terminal) {
        Ok(code) => code,
        Err(e) => output::print_failure(json, &e),
    };
    // After the results, so that they are never lost behind a failed checkpoint.
    output::print_warnings();
    ExitCode::from(code)
}
