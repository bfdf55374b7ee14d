//! [`KorfFamily`]: the Korf tiers' [`SearchFamily`] impl: a tier's pattern databases, loaded as one
//! [`PdbSet`], searched by [`Korf`].

use std::borrow::Cow;
use std::path::Path;

use cube_tables::corners::SymCorners;
use cube_tables::pdb::PdbSet;
use cube_tables::{Anonymous, Mapped, PruneTable, TableError, Tier};

use super::Korf;
use crate::optimal::{Configs, FamilyTables, OptimalSearch, OptimalTables, SearchFamily};
use crate::two_phase::TwoPhase;

/// The Korf family: the corner database and two edge databases of a tier, its seeds installed
/// first.
pub(crate) struct KorfFamily;

impl SearchFamily for KorfFamily {
    fn load_anonymous(
        &self,
        dir: &Path,
        tier: Tier,
        check: bool,
    ) -> Result<OptimalTables<Anonymous>, TableError> {
        let set = if check {
            PdbSet::load_anonymous(dir, tier)
        } else {
            PdbSet::load_anonymous_unchecked(dir, tier)
        }?;
        with_corners(dir, set)
    }

    #[allow(unsafe_code)]
    unsafe fn open_mapped(
        &self,
        dir: &Path,
        tier: Tier,
    ) -> Result<OptimalTables<Mapped>, TableError> {
        // SAFETY: the caller's promise, passed on.
        let set = unsafe { PdbSet::open_mapped(dir, tier) }?;
        std::iter::once(set.corners())
            .chain(set.edges())
            .try_for_each(PruneTable::check_payload_hash)?;
        with_corners(dir, set)
    }
}

/// The tables of `set` with the reduction of its own corner database (cached in `dir`).
fn with_corners<T: AsRef<[u8]> + Send + Sync + 'static>(
    dir: &Path,
    set: PdbSet<T>,
) -> Result<OptimalTables<T>, TableError> {
    let corners = SymCorners::load_or_build(dir, set.corners())?;
    Ok(OptimalTables::with(Box::new(set), corners))
}

impl<T: AsRef<[u8]> + Send + Sync> FamilyTables<T> for PdbSet<T> {
    fn tier(&self) -> Tier {
        PdbSet::tier(self)
    }

    fn searcher<'a>(
        &'a self,
        corners: &'a SymCorners,
        two_phase: TwoPhase,
        configs: &Configs,
    ) -> Box<dyn OptimalSearch + 'a> {
        Box::new(
            Korf::with_corners(self, Cow::Borrowed(corners), configs.korf.clone())
                .with_two_phase(two_phase),
        )
    }
}
