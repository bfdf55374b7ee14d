//! Project automation: `cargo xtask bake-tables`, `cargo xtask verify-tables`.

fn main() {}
