//! One module per subcommand; each turns one [`Input`](crate::input::Input) into an
//! [`Outcome`](crate::output::Outcome).

pub mod check;
pub mod completions;
pub mod convert;
pub mod fmc;
pub mod optimal;
pub mod scramble;
pub mod show;
pub mod solve;
pub mod tables;
pub mod verify;
