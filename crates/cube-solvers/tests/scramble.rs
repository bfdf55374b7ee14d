//! The state distribution of scrambles: chi-square tests of a few coordinates over many seeded
//! scrambles. The state is drawn before any solving, so it can never depend on the solver; this
//! checks that nothing between the draw and the written scramble changes it.

use cube_core::Cube;
use cube_solvers::scramble::{Event, Scrambler};
use cube_solvers::two_phase::TwoPhase;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Pearson's statistic of `counts` against the uniform distribution.
fn chi_square(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let expected = total as f64 / counts.len() as f64;
    counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum()
}

/// A generous threshold: the mean plus six standard deviations of chi-square with `df` degrees
/// of freedom (a false alarm is astronomically unlikely; a real bias of a few percent is not).
fn threshold(df: usize) -> f64 {
    df as f64 + 6.0 * (2.0 * df as f64).sqrt()
}

#[test]
fn scrambled_states_are_uniform_on_sampled_coordinates() {
    let scrambler = Scrambler::new(TwoPhase::new(crate::two_phase::large_tables()));
    let n = if cfg!(debug_assertions) { 150 } else { 900 };
    let mut corner_at_urf = [0u64; 8];
    let mut twist_at_urf = [0u64; 3];
    let mut edge_at_uf = [0u64; 12];
    let mut flip_at_uf = [0u64; 2];
    let mut parity = [0u64; 2];
    for seed in 0..n {
        let event = [Event::Cube333, Event::FewestMoves, Event::Blindfolded][seed as usize % 3];
        let scramble = scrambler.scramble(event, &mut ChaCha8Rng::seed_from_u64(seed));
        let state = Cube::SOLVED.apply_moves(&scramble.moves);
        assert_eq!(state, scramble.state);
        corner_at_urf[state.corner_perm()[0] as usize] += 1;
        twist_at_urf[state.corner_ori()[0] as usize] += 1;
        edge_at_uf[state.edge_perm()[1] as usize] += 1;
        flip_at_uf[state.edge_ori()[1] as usize] += 1;
        parity[state.corner_parity_odd() as usize] += 1;
    }
    for (name, counts) in [
        ("corner at URF", &corner_at_urf[..]),
        ("twist at URF", &twist_at_urf[..]),
        ("edge at UF", &edge_at_uf[..]),
        ("flip at UF", &flip_at_uf[..]),
        ("parity", &parity[..]),
    ] {
        let statistic = chi_square(counts);
        assert!(
            statistic < threshold(counts.len() - 1),
            "{name}: chi-square {statistic:.1} for {counts:?}"
        );
    }
}
