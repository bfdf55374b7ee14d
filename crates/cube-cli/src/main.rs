//! The `cube-cli` command-line tool.

fn main() {}
