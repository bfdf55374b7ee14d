//! The bounds loop's settings ([`Driver`], built by `SearchConfig::driver`) and what the workers of
//! a bound share ([`Shared`], [`Abort`]); the canonical prefixes and their order by density.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use cube_core::{Cube, Symmetry};
use cube_tables::{Metric, Tier};

use super::symmetric::position_symmetries;
use super::{Checkpoint, CheckpointError};
use crate::cancel::Clock;
use crate::search::{AFTER, NO_MOVE};
use crate::two_phase::TwoPhase;
use crate::{Limits, Stop};

/// The longest search in the half-turn metric: every position is solved in 20 moves (God's
/// number; [`Metric::diameter`] for either metric).
pub(crate) const MAX_DEPTH: usize = Metric::Htm.diameter();

/// The step from one bound to the next: 2 in the quarter-turn metric, where every quarter turn
/// flips the parity of the corner permutation, so that a solution's length has the parity of the
/// position's.
pub(super) fn bound_step(metric: Metric) -> usize {
    match metric {
        Metric::Htm => 1,
        Metric::Qtm => 2,
    }
}

/// What the workers of one bound share: the method's lookups `M`, and what stops them.
pub(crate) struct Shared<'a, M> {
    pub(crate) method: &'a M,
    pub(crate) stop: &'a Stop,
    pub(crate) clock: &'a Clock,
    /// The two-phase solver has a solution of this bound's length: stop.
    pub(crate) upper_found: &'a AtomicBool,
    /// Prefixes after this index cannot contribute to the wanted solutions.
    pub(crate) cutoff: AtomicUsize,
    /// The stop flag was raised or the time budget ran out.
    pub(crate) halted: AtomicBool,
    /// Only one prefix of each orbit under the position's symmetries is searched: the move after a
    /// prefix may then be any move on another face, whatever the canonical order of opposite
    /// faces says (see `Driver::symmetric_starts`).
    pub(crate) any_face_after_prefix: bool,
}

impl<M> Shared<'_, M> {
    /// Polls the stop flag, the clock and the cut-off for a worker searching the prefix of search
    /// rank `prefix_rank`: why it must end early, if it must.
    #[inline]
    pub(crate) fn poll(&self, prefix_rank: usize) -> Option<Abort> {
        if self.halted.load(Ordering::Relaxed)
            || self.stop.is_stopped()
            || self.upper_found.load(Ordering::Relaxed)
            || self.clock.expired()
        {
            self.halted.store(true, Ordering::Relaxed);
            Some(Abort::Halted)
        } else if self.cutoff.load(Ordering::Relaxed) < prefix_rank {
            Some(Abort::Cutoff)
        } else {
            None
        }
    }
}

/// Why a prefix search ended early.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Abort {
    /// It ran to the end.
    #[default]
    No,
    /// It found as many solutions as wanted.
    Enough,
    /// Later prefixes were no longer needed.
    Cutoff,
    /// Stop flag or time budget.
    Halted,
}

/// `order` by the density of each prefix at the bound below (`below`: the nodes under each), largest
/// first (a stable sort): its nodes over the number of canonical continuations of its last move.
pub(super) fn by_density(prefixes: &[Vec<u8>], below: &[u64], mut order: Vec<usize>) -> Vec<usize> {
    // Canonical sequences of 8 moves after each move: their ratio is the limit's, to a few ppm.
    let continuations: [f64; 19] = std::array::from_fn(|m| {
        let mut counts = [0f64; 19];
        counts[m] = 1.0;
        for _ in 0..8 {
            let mut next = [0f64; 19];
            for (prev, &n) in counts.iter().enumerate() {
                let mut mask = AFTER[prev];
                while mask != 0 {
                    next[mask.trailing_zeros() as usize] += n;
                    mask &= mask - 1;
                }
            }
            counts = next;
        }
        counts.iter().sum()
    });
    let density = |i: usize| {
        let last = prefixes[i].last().map_or(NO_MOVE, |&m| usize::from(m));
        below[i] as f64 / continuations[last]
    };
    order.sort_by(|&a, &b| density(b).total_cmp(&density(a)));
    order
}

/// The fewest face turns of a sequence of length `length` in `metric`: in quarter turns, half of
/// it (rounded up), all half turns.
pub(crate) fn shortest_in_face_turns(length: usize, metric: Metric) -> usize {
    match metric {
        Metric::Htm => length,
        Metric::Qtm => length.div_ceil(2),
    }
}

/// Every canonical move sequence of `len` moves, in search order.
pub(crate) fn canonical_sequences(len: usize) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut path = Vec::with_capacity(len);
    fn walk(path: &mut Vec<u8>, len: usize, prev: usize, out: &mut Vec<Vec<u8>>) {
        if path.len() == len {
            out.push(path.clone());
            return;
        }
        let mut mask = AFTER[prev];
        while mask != 0 {
            let m = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            path.push(m as u8);
            walk(path, len, m, out);
            path.pop();
        }
    }
    walk(&mut path, len, NO_MOVE, &mut out);
    out
}

/// The settings of the bounds loop, built by [`SearchConfig::driver`](super::SearchConfig::driver) for each family's search.
#[derive(Clone, Debug)]
pub(crate) struct Driver {
    pub(crate) prefix_depth: usize,
    /// The two-phase solver of the upper bound, when one is asked for.
    pub(crate) upper_bound: Option<TwoPhase>,
    pub(crate) upper_bound_budget: Duration,
    pub(crate) concurrent_upper_bound: bool,
    /// How long the search runs before that helper starts.
    pub(crate) helper_delay: Duration,
    pub(crate) distinct_up_to_symmetry: bool,
    /// What a checkpoint records of the tables and lookups, and a resumed search must match.
    pub(crate) tier: Tier,
    pub(crate) inverse: bool,
    pub(crate) symmetric: bool,
    /// Search one prefix of each orbit of prefixes under the symmetries of the position (and
    /// re-emit the solutions conjugated): prefixes `p` and `s(p)` lead to conjugate positions,
    /// `x·s(p) = s (x·p) s⁻¹` when `s x s⁻¹ = x`. The method's worker must honour
    /// [`Shared::any_face_after_prefix`]: conjugating a prefix can reorder the
    /// opposite faces at its end.
    pub(crate) symmetric_starts: bool,
    /// The ordered bounds, if any.
    pub(crate) ordered: Option<Ordered>,
}

/// From bound [`Ordered::from`] on, bounds are split into prefixes of [`Ordered::prefix_depth`]
/// moves and searched in decreasing density at the bound below: the nodes under the prefix there,
/// over the number of canonical continuations of its last move (a prefix ending on the first of
/// two opposite faces has more). A dense prefix holds more of the bound's near-solutions, so the
/// first solution of the last bound comes sooner. The first ordered bound of a search, with no
/// bound below it over the same prefixes, is searched by slack instead: the method's lower bound
/// at the end of each prefix, smallest first. Ties keep canonical order. Prefix indexes
/// (checkpoints, results) stay canonical; solutions are taken in search order, which depends only
/// on the position and the tables (a resumed search searches the bound below again for its
/// densities).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ordered {
    pub(crate) from: usize,
    pub(crate) prefix_depth: usize,
}

impl Driver {
    /// The length of the prefixes bound `bound` (in `metric`) is split into: at most the fewest
    /// face turns of a solution of that length (the bound, or half of it in quarter turns).
    pub(crate) fn prefix_depth_at(&self, bound: usize, metric: Metric) -> usize {
        match self.ordered {
            Some(ordered) if bound >= ordered.from => ordered.prefix_depth,
            _ => self.prefix_depth,
        }
        .min(shortest_in_face_turns(bound, metric))
    }

    /// Whether bound `bound` is searched in density order: it and the bound below are ordered
    /// bounds with the same prefixes, and the bound below is searched first (`first` is the first
    /// bound of the search from scratch).
    pub(super) fn density_ordered(&self, bound: usize, first: usize) -> bool {
        self.ordered
            .is_some_and(|ordered| bound > ordered.from.max(first))
            && self.prefix_depth_at(bound - 1, Metric::Htm)
                == self.prefix_depth_at(bound, Metric::Htm)
    }

    /// The symmetries whose orbits of prefixes are searched once (none unless asked for).
    pub(super) fn start_symmetries(&self, cube: &Cube) -> Vec<Symmetry> {
        if self.symmetric_starts {
            position_symmetries(cube)
        } else {
            Vec::new()
        }
    }

    /// The number of solutions a search with `limits` looks for (`usize::MAX` for all).
    pub(super) fn wanted(&self, limits: &Limits) -> usize {
        if self.distinct_up_to_symmetry || limits.n_solutions == usize::MAX {
            usize::MAX
        } else {
            limits.n_solutions.max(1)
        }
    }

    /// Whether `checkpoint` comes from a search of `cube` like this one: the tier and everything
    /// that decides which prefixes were searched and what they found.
    pub(super) fn check_checkpoint(
        &self,
        checkpoint: &Checkpoint,
        cube: &Cube,
        limits: &Limits,
        metric: Metric,
    ) -> Result<(), CheckpointError> {
        let mismatch = |field, message: String| Err(CheckpointError::new(None, field, message));
        if checkpoint.cube != *cube {
            return mismatch("cube", "the checkpoint is of another position".to_string());
        }
        if checkpoint.metric != metric {
            return mismatch(
                "metric",
                format!(
                    "taken by a search in the {} metric, this one counts in {metric} (--metric {})",
                    checkpoint.metric, checkpoint.metric
                ),
            );
        }
        if checkpoint.tier != self.tier {
            return mismatch(
                "tier",
                format!(
                    "taken with the {} tables, this search uses {}",
                    checkpoint.tier, self.tier
                ),
            );
        }
        let prefix_depth = self.prefix_depth_at(checkpoint.bound, metric);
        if checkpoint.prefix_depth != prefix_depth {
            return mismatch(
                "prefix-depth",
                format!(
                    "taken with prefixes of {} moves, this search splits bound {} into prefixes of {prefix_depth}",
                    checkpoint.prefix_depth, checkpoint.bound
                ),
            );
        }
        let wanted = self.wanted(limits);
        if checkpoint.n_solutions != wanted {
            let text = |n: usize| {
                if n == usize::MAX {
                    "all solutions".to_string()
                } else {
                    format!("{n} solution{}", if n == 1 { "" } else { "s" })
                }
            };
            return mismatch(
                "solutions-wanted",
                format!(
                    "taken by a search for {}, this one looks for {}",
                    text(checkpoint.n_solutions),
                    text(wanted)
                ),
            );
        }
        if (checkpoint.inverse, checkpoint.symmetric) != (self.inverse, self.symmetric) {
            return mismatch(
                "lookups",
                "taken with other lookups (inverse, symmetric) than this search's".to_string(),
            );
        }
        if checkpoint.symmetric_starts != self.symmetric_starts {
            let what = |one_per_orbit| {
                if one_per_orbit {
                    "one prefix per orbit under the position's symmetries"
                } else {
                    "every prefix"
                }
            };
            return mismatch(
                "starts",
                format!(
                    "taken by a search of {}, this one searches {}",
                    what(checkpoint.symmetric_starts),
                    what(self.symmetric_starts)
                ),
            );
        }
        Ok(())
    }
}
