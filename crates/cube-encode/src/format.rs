//! [`Format`], the names of the crate's text formats: a leaf module, which the readers, the
//! detection and the errors all import (and which imports none of them).

use std::fmt;
use std::str::FromStr;

/// A text format of a cube state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Format {
    /// An algorithm applied to the solved cube (cube-core's notation).
    Alg,
    /// 54 facelets in Kociemba's order ([`facelet`](crate::facelet)).
    Facelets,
    /// nissy-core's H48 text ([`h48`](crate::h48)).
    H48,
    /// Reid's piece string, Singmaster positional notation ([`reid`](crate::reid)).
    Reid,
    /// nissy-core's B32 text ([`b32`](crate::b32)).
    B32,
    /// Twizzle binary as 22 hex digits ([`twizzle`](crate::twizzle)).
    TwizzleHex,
    /// cubing.js pattern JSON ([`kpattern`](crate::kpattern)).
    PatternJson,
}

impl Format {
    /// All formats.
    pub const ALL: [Format; 7] = [
        Format::Alg,
        Format::Facelets,
        Format::H48,
        Format::Reid,
        Format::B32,
        Format::TwizzleHex,
        Format::PatternJson,
    ];

    /// The format's name, as [`FromStr`] reads it: `alg`, `facelets`, `h48`, `reid`, `b32`,
    /// `twizzle-hex`, `pattern-json`.
    pub const fn name(self) -> &'static str {
        match self {
            Format::Alg => "alg",
            Format::Facelets => "facelets",
            Format::H48 => "h48",
            Format::Reid => "reid",
            Format::B32 => "b32",
            Format::TwizzleHex => "twizzle-hex",
            Format::PatternJson => "pattern-json",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown format name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownFormat(pub String);

impl fmt::Display for UnknownFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown format {:?}: expected alg, facelets, h48, reid, b32, twizzle-hex or pattern-json",
            self.0
        )
    }
}

impl std::error::Error for UnknownFormat {}

impl FromStr for Format {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Format, UnknownFormat> {
        Format::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| UnknownFormat(s.to_string()))
    }
}
