//! [`TIERS`]: the catalogue of the optimal tiers, one row each (name, family, metric, header code,
//! the family's parts, bake time, whether a search bakes it on first use, its rank as a default).
//! [`Tier`] reads its row for everything: its name ([`Display`](fmt::Display),
//! [`FromStr`]), its code in a table header, the lists of tiers, its bake time and the defaults.
//! A tier of an existing family is one row here. A family is its folder with one
//! [`TierFamily`](super::TierFamily) impl, one [`Family`] variant, its rows here and its row of
//! `tier::FAMILIES`; in cube-solvers, its module with one `SearchFamily` impl and its row of
//! `SEARCHES` (`.ci/family-counts` checks that a family's names appear nowhere else).

use std::fmt;
use std::str::FromStr;

use crate::file::id::{Metric, Tier};

/// The optimal method a tier's tables serve: what decides its tables, its bake and its search
/// (through its [`TierFamily`](super::TierFamily) impl, [`super::family()`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Korf's pattern databases: the corner database and two edge-subset databases.
    Korf,
    /// The sym48 search over one H48 table (and the corner database's symmetry reduction).
    H48,
    /// nxopt's search over one table of an nx subgroup (and the corner database's symmetry
    /// reduction), in either metric.
    Nx,
}

/// One row of [`TIERS`]: everything the toolkit says about a tier apart from its tables, which
/// its family's [`TierFamily`](super::TierFamily) impl derives from [`TierRow::parts`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TierRow {
    /// The name: the value of `--tier`, `Display` and `FromStr`.
    pub name: &'static str,
    /// The method its tables serve.
    pub family: Family,
    /// The metric of its tables' distances.
    pub metric: Metric,
    /// Its code in a table header (docs/tables.md): never 0 (no tier), unique.
    pub code: u32,
    /// What its family makes its tables of: Korf's edge count, H48's flip count, nx's EO and
    /// EP numbers.
    pub parts: [u8; 2],
    /// How long a bake takes on this project's 2-core machine, as measured in
    /// docs/perf-log/bakes.md and docs/perf-log/optimal-nx.md (the current figures in
    /// docs/PERFORMANCE.md): what the front ends tell before a bake (the CLI's messages, the
    /// help of its `--tier` and the README's table of tiers, which cube-cli's test
    /// `readme::the_tier_table_is_the_cli_s` keeps equal to it; the Python package's warning
    /// before a bake on first use).
    pub bake_time: &'static str,
    /// Whether a search that asks for it bakes it when it is missing (seconds, or an H48 tier),
    /// rather than saying how to bake it.
    pub baked_on_first_use: bool,
    /// Its rank among the tiers a search in its metric uses when none is named: the ready tier
    /// of the highest rank answers; 0 for a tier used only when named. The ranks follow the
    /// measured cost per table size (GB x s x threads by totals over nissy-core's 17- and
    /// 18-movers, docs/PERFORMANCE.md "Default tier"): h4, h5, h6, then h7 (not measured), the
    /// nx tiers measured (nx-eo3ep1, nx-eo2ep2), the Korf tiers last.
    pub default_rank: u8,
    /// What the help says of its use beside its family, size and bake time: `for tests`, or
    /// nothing.
    pub note: &'static str,
}

/// Declares the named handles of the tiers ([`Tier::Edge6`], ...) and [`TIERS`] from one list.
macro_rules! catalogue {
    ($($(#[$doc:meta])* $handle:ident = (
        $name:expr, $family:expr, $metric:expr, $code:expr, $parts:expr, $bake_time:expr,
        $first_use:expr, $rank:expr, $note:expr $(,)?
    ),)*) => {
        /// The row index of each named tier.
        #[repr(u8)]
        enum Index {
            $($handle,)*
        }

        /// The named tiers: each is its row of [`TIERS`].
        #[allow(non_upper_case_globals)]
        impl Tier {
            $($(#[$doc])* pub const $handle: Tier = Tier(Index::$handle as u8);)*
        }

        /// Every optimal tier, one row each: Korf's smallest first, then the H48 ones smallest
        /// first, then the nx ones (half-turn, then quarter-turn metric, smallest first).
        pub const TIERS: &[TierRow] = &[$(TierRow {
            name: $name,
            family: $family,
            metric: $metric,
            code: $code,
            parts: $parts,
            bake_time: $bake_time,
            baked_on_first_use: $first_use,
            default_rank: $rank,
            note: $note,
        },)*];
    };
}

use Family::{H48, Korf, Nx};
use Metric::{Htm, Qtm};

// Korf's codes are the edge count, H48's 16 + the flip count, nx's 32 (48 in the quarter-turn
// metric) + 4 (EO - 1) + EP - 1. The bake times: 6edge 3.59 s with the corners; 7edge 15.3 s at
// load 2.9 (39 s at load 6); 8edge 310 s; h0 16.8 s with the corner database; h4..h7 one pass
// that bakes any of them or all four, 599.5 s for all four; nx-eo1ep1 22.3 s and 20.3 s
// (quarter turns) without the corner database; quiet, the corner database there, nx-eo2ep1 30.7 s
// and 23.7 s, nx-eo1ep2 48.1 s and 39.9 s, nx-eo1ep3 131 s and 128 s; nx-eo3ep1, each dense row
// written by one worker, 156 s and 130 s (PERFORMANCE.md; 396 s and 322 s before, on a machine
// with half the L3); nx-eo2ep2, four bits per coset on 24 GiB, 19 min 47 s (the search 1,149 s,
// the pack and write 38 s; 18.0 GiB peak) and 13 min 55 s (18.4 GiB peak).
// The columns: name, family, metric, code, parts, bake time, baked on first use, default rank,
// note.
catalogue! {
    /// Edge tables over 6 edges (tens of megabytes).
    Edge6 = ("6edge", Korf, Htm, 6, [6, 0], "about 4 s", true, 1, ""),
    /// Edge tables over 7 edges (hundreds of megabytes).
    Edge7 = ("7edge", Korf, Htm, 7, [7, 0], "about 15 s", false, 2, ""),
    /// Edge tables over 8 edges (gigabytes).
    Edge8 = ("8edge", Korf, Htm, 8, [8, 0], "about 5 minutes", false, 3, ""),
    /// The H48 table without flips (30 MB), for tests.
    H0 = ("h0", H48, Htm, 16, [0, 0], "about 17 s", true, 0, "for tests"),
    /// The H48 table with 4 flips (486 MB).
    H4 = ("h4", H48, Htm, 20, [4, 0], "about 10 minutes", true, 9, ""),
    /// The H48 table with 5 flips (973 MB).
    H5 = ("h5", H48, Htm, 21, [5, 0], "about 10 minutes", true, 8, ""),
    /// The H48 table with 6 flips (1.95 GB).
    H6 = ("h6", H48, Htm, 22, [6, 0], "about 10 minutes", true, 7, ""),
    /// The H48 table with 7 flips (3.89 GB).
    H7 = ("h7", H48, Htm, 23, [7, 0], "about 10 minutes", true, 6, ""),
    /// nxopt's EO1 EP1 table, half-turn metric (20.3 MB), for tests.
    NxEo1Ep1 = ("nx-eo1ep1", Nx, Htm, 32, [1, 1], "about 25 s", true, 0, ""),
    /// nxopt's EO2 EP1 table, half-turn metric (325 MB).
    NxEo2Ep1 = ("nx-eo2ep1", Nx, Htm, 36, [2, 1], "about 30 s", false, 0, ""),
    /// nxopt's EO1 EP2 table, half-turn metric (487 MB).
    NxEo1Ep2 = ("nx-eo1ep2", Nx, Htm, 33, [1, 2], "about 50 s", false, 0, ""),
    /// nxopt's EO1 EP3 table, half-turn metric (1.42 GB).
    NxEo1Ep3 = ("nx-eo1ep3", Nx, Htm, 34, [1, 3], "about 2 minutes", false, 0, ""),
    /// nxopt's EO3 EP1 table, half-turn metric (2.60 GB; vcube's coordinate 112).
    NxEo3Ep1 = ("nx-eo3ep1", Nx, Htm, 40, [3, 1], "about 3 minutes", false, 5, ""),
    /// nxopt's EO2 EP2 table, half-turn metric (7.79 GB).
    NxEo2Ep2 = ("nx-eo2ep2", Nx, Htm, 37, [2, 2], "about 20 minutes", false, 4, ""),
    /// nxopt's EO1 EP1 table, quarter-turn metric (20.3 MB), for tests.
    NxEo1Ep1Qtm = ("nx-eo1ep1-qtm", Nx, Qtm, 48, [1, 1], "about 25 s", true, 1, ""),
    /// nxopt's EO2 EP1 table, quarter-turn metric (325 MB).
    NxEo2Ep1Qtm = ("nx-eo2ep1-qtm", Nx, Qtm, 52, [2, 1], "about 30 s", false, 2, ""),
    /// nxopt's EO1 EP2 table, quarter-turn metric (487 MB).
    NxEo1Ep2Qtm = ("nx-eo1ep2-qtm", Nx, Qtm, 49, [1, 2], "about 50 s", false, 3, ""),
    /// nxopt's EO1 EP3 table, quarter-turn metric (1.42 GB).
    NxEo1Ep3Qtm = ("nx-eo1ep3-qtm", Nx, Qtm, 50, [1, 3], "about 2 minutes", false, 4, ""),
    /// nxopt's EO3 EP1 table, quarter-turn metric (2.60 GB).
    NxEo3Ep1Qtm = ("nx-eo3ep1-qtm", Nx, Qtm, 56, [3, 1], "about 3 minutes", false, 6, ""),
    /// nxopt's EO2 EP2 table, quarter-turn metric (7.79 GB).
    NxEo2Ep2Qtm = ("nx-eo2ep2-qtm", Nx, Qtm, 53, [2, 2], "about 15 minutes", false, 5, ""),
}

// Every row's code is unique and not 0, every name unique: checked when the crate compiles.
const _: () = {
    let mut i = 0;
    while i < TIERS.len() {
        assert!(TIERS[i].code != 0, "a tier code is never 0");
        let mut j = i + 1;
        while j < TIERS.len() {
            assert!(TIERS[i].code != TIERS[j].code, "two tiers share a code");
            assert!(
                !same(TIERS[i].name, TIERS[j].name),
                "two tiers share a name"
            );
            j += 1;
        }
        i += 1;
    }
};

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

impl Tier {
    /// Every tier, in the order of [`TIERS`].
    pub const ALL: [Tier; TIERS.len()] = {
        let mut all = [Tier(0); TIERS.len()];
        let mut i = 0;
        while i < TIERS.len() {
            all[i] = Tier(i as u8);
            i += 1;
        }
        all
    };

    /// The tier's row of [`TIERS`].
    pub const fn row(self) -> &'static TierRow {
        &TIERS[self.0 as usize]
    }

    /// The tier's name: `6edge`, `h5`, `nx-eo1ep1-qtm`.
    pub const fn name(self) -> &'static str {
        self.row().name
    }

    /// The family of the tier: the one place a tier's method is decided.
    pub const fn family(self) -> Family {
        self.row().family
    }

    /// The metric of the tier's tables: the quarter-turn metric for the `-qtm` nx tiers, else
    /// the half-turn metric.
    pub const fn metric(self) -> Metric {
        self.row().metric
    }

    /// What the tier's family makes its tables of ([`TierRow::parts`]).
    pub const fn parts(self) -> [u8; 2] {
        self.row().parts
    }

    /// The tiers of `family`, in the order of [`TIERS`].
    pub fn of(family: Family) -> impl DoubleEndedIterator<Item = Tier> {
        Tier::ALL.into_iter().filter(move |t| t.family() == family)
    }

    /// The tier of the same family and parts in `metric`: itself when it counts in `metric`,
    /// `nx-eo1ep1-qtm` for `nx-eo1ep1` in the quarter-turn metric; `None` when the family has no
    /// such tier (the Korf and H48 tables count half turns only).
    pub fn in_metric(self, metric: Metric) -> Option<Tier> {
        Tier::ALL.into_iter().find(|t| {
            t.family() == self.family() && t.parts() == self.parts() && t.metric() == metric
        })
    }

    /// The code of a tier in a table header ([`TierRow::code`]); 0 for none.
    pub(crate) fn code(tier: Option<Tier>) -> u32 {
        tier.map_or(0, |t| t.row().code)
    }

    /// The tier of a header code; `Err(())` for an unknown code.
    pub(crate) fn from_code(code: u32) -> Result<Option<Tier>, ()> {
        if code == 0 {
            return Ok(None);
        }
        Tier::ALL
            .into_iter()
            .find(|tier| tier.row().code == code)
            .map(Some)
            .ok_or(())
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tier({})", self.name())
    }
}

/// The error from parsing a [`Tier`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseTierError {
    input: String,
}

impl fmt::Display for ParseTierError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown tier {:?} (use {})", self.input, names())
    }
}

/// The tiers' names as a message lists them: `6edge, 7edge, ... or nx-eo2ep2-qtm`.
pub fn names() -> String {
    let names: Vec<&str> = TIERS.iter().map(|row| row.name).collect();
    match names.split_last() {
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

impl std::error::Error for ParseTierError {}

impl FromStr for Tier {
    type Err = ParseTierError;

    fn from_str(s: &str) -> Result<Tier, ParseTierError> {
        Tier::ALL
            .into_iter()
            .find(|tier| tier.name() == s)
            .ok_or_else(|| ParseTierError {
                input: s.to_string(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiers() {
        for tier in Tier::ALL {
            assert_eq!(tier.to_string().parse::<Tier>(), Ok(tier));
            assert_eq!(Tier::from_code(Tier::code(Some(tier))), Ok(Some(tier)));
        }
        let count = |family| Tier::of(family).count();
        assert_eq!(
            (count(Family::Korf), count(Family::H48), count(Family::Nx)),
            (3, 5, 12)
        );
        assert_eq!(Tier::NxEo3Ep1.to_string(), "nx-eo3ep1");
        assert_eq!(Tier::NxEo1Ep1Qtm.to_string(), "nx-eo1ep1-qtm");
        assert_eq!(Tier::NxEo1Ep1Qtm.metric(), Metric::Qtm);
        assert_eq!(Tier::H5.metric(), Metric::Htm);
        assert_eq!(Tier::H5.family(), Family::H48);
        assert_eq!(Tier::Edge8.family(), Family::Korf);
        assert_eq!(Tier::NxEo2Ep2Qtm.family(), Family::Nx);
        assert_eq!(
            Tier::NxEo2Ep1.in_metric(Metric::Qtm),
            Some(Tier::NxEo2Ep1Qtm)
        );
        assert_eq!(
            Tier::NxEo2Ep1Qtm.in_metric(Metric::Htm),
            Some(Tier::NxEo2Ep1)
        );
        assert_eq!(
            Tier::NxEo2Ep1Qtm.in_metric(Metric::Qtm),
            Some(Tier::NxEo2Ep1Qtm)
        );
        assert_eq!(Tier::H5.in_metric(Metric::Qtm), None);
        assert_eq!(Tier::Edge7.in_metric(Metric::Htm), Some(Tier::Edge7));
        assert_eq!(Tier::Edge7.to_string(), "7edge");
        assert_eq!(Tier::H5.to_string(), "h5");
        // The codes of docs/tables.md.
        assert_eq!(Tier::code(Some(Tier::Edge6)), 6);
        assert_eq!(Tier::code(Some(Tier::H0)), 16);
        assert_eq!(Tier::code(Some(Tier::H7)), 23);
        assert_eq!(Tier::code(Some(Tier::NxEo2Ep2)), 37);
        assert_eq!(Tier::code(Some(Tier::NxEo3Ep1Qtm)), 56);
        assert!("9edge".parse::<Tier>().is_err());
        assert!("h3".parse::<Tier>().is_err());
        assert_eq!(Tier::from_code(0), Ok(None));
        assert_eq!(Tier::from_code(5), Err(()));
        assert_eq!(Tier::from_code(17), Err(()));
        assert_eq!(
            "h9".parse::<Tier>().unwrap_err().to_string(),
            "unknown tier \"h9\" (use 6edge, 7edge, 8edge, h0, h4, h5, h6, h7, nx-eo1ep1, \
             nx-eo2ep1, nx-eo1ep2, nx-eo1ep3, nx-eo3ep1, nx-eo2ep2, nx-eo1ep1-qtm, nx-eo2ep1-qtm, \
             nx-eo1ep2-qtm, nx-eo1ep3-qtm, nx-eo3ep1-qtm or nx-eo2ep2-qtm)"
        );
    }
}
