//! Uniform random legal states: of the whole cube, or of one of the subgroups FMC practice
//! starts from ([`Subgroup`]).

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use rand::Rng;

use crate::cubie::Cube;
use crate::moves::Move;
use crate::perm::permutation_parity_odd;

/// A subgroup of the cube's states to draw a random state from, as nissy's `scramble TYPE`
/// (nissy-classic: `eo`, `dr`, `htr`, `corners`, `edges`). Every one is drawn uniformly by
/// [`Cube::random_in`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Subgroup {
    /// Edge orientation solved on F/B: every edge flip 0 (F and B quarter turns flip edges),
    /// the rest uniformly random: 2^-11 of all states.
    Eo,
    /// Domino reduction on U/D: edges oriented on F/B, corners oriented on U/D and the E-slice
    /// edges (FR FL BL BR) in the E slice, the states of `<U, D, R2, L2, F2, B2>`:
    /// 19,508,428,800.
    Dr,
    /// Half-turn reduction: the states of `<U2, D2, R2, L2, F2, B2>`, 663,552.
    Htr,
    /// Corners only: the edges solved, the corners uniformly random (an even permutation, as
    /// the solved edges are).
    Corners,
    /// Edges only: the corners solved, the edges uniformly random (an even permutation).
    Edges,
}

impl Subgroup {
    /// Every subgroup, in the order of the help.
    pub const ALL: [Subgroup; 5] = [
        Subgroup::Eo,
        Subgroup::Dr,
        Subgroup::Htr,
        Subgroup::Corners,
        Subgroup::Edges,
    ];

    /// The name: `eo`, `dr`, `htr`, `corners` or `edges`.
    pub const fn name(self) -> &'static str {
        match self {
            Subgroup::Eo => "eo",
            Subgroup::Dr => "dr",
            Subgroup::Htr => "htr",
            Subgroup::Corners => "corners",
            Subgroup::Edges => "edges",
        }
    }

    /// Whether `cube` is in the subgroup.
    ///
    /// ```
    /// use cube_core::{Alg, Cube, Subgroup};
    /// let dr = Cube::SOLVED.apply_alg(&"R2 U F2 D'".parse::<Alg>().unwrap());
    /// assert!(Subgroup::Dr.contains(&dr) && !Subgroup::Htr.contains(&dr));
    /// ```
    pub fn contains(self, cube: &Cube) -> bool {
        let (cp, co, ep, eo) = (
            cube.corner_perm(),
            cube.corner_ori(),
            cube.edge_perm(),
            cube.edge_ori(),
        );
        let corners_solved = cp == IDENTITY_8 && co == [0; 8];
        let edges_solved = ep == IDENTITY_12 && eo == [0; 12];
        let dr = co == [0; 8] && eo == [0; 12] && ep[8..].iter().all(|&e| e >= 8);
        match self {
            Subgroup::Eo => eo == [0; 12],
            Subgroup::Dr => dr,
            Subgroup::Htr => {
                dr && ep
                    .iter()
                    .enumerate()
                    .all(|(i, &e)| slice(e) == slice(i as u8))
                    && !cube.edge_parity_odd()
                    && htr_corners().contains(&cp)
            }
            Subgroup::Corners => edges_solved,
            Subgroup::Edges => corners_solved,
        }
    }
}

impl fmt::Display for Subgroup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name other than those of the [`Subgroup`]s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSubgroupError(String);

impl fmt::Display for ParseSubgroupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Subgroup::ALL.iter().map(|s| s.name()).collect();
        write!(
            f,
            "unknown scramble type {:?}, expected one of: {}",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for ParseSubgroupError {}

impl FromStr for Subgroup {
    type Err = ParseSubgroupError;

    fn from_str(s: &str) -> Result<Subgroup, ParseSubgroupError> {
        Subgroup::ALL
            .into_iter()
            .find(|g| g.name() == s)
            .ok_or_else(|| ParseSubgroupError(s.to_string()))
    }
}

const IDENTITY_8: [u8; 8] = [0, 1, 2, 3, 4, 5, 6, 7];
const IDENTITY_12: [u8; 12] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];

/// The slice of edge (or edge position) `e`: 0 for the S slice (UR UL DR DL), 1 for the M slice
/// (UF UB DF DB), 2 for the E slice (FR FL BL BR).
fn slice(e: u8) -> u8 {
    if e >= 8 { 2 } else { e % 2 }
}

/// The 96 corner permutations of the half-turn group, found breadth-first from the solved cube
/// by the six half turns (once per process), in the order found.
fn htr_corners() -> &'static [[u8; 8]] {
    static CORNERS: OnceLock<Vec<[u8; 8]>> = OnceLock::new();
    CORNERS.get_or_init(find_htr_corners)
}

fn find_htr_corners() -> Vec<[u8; 8]> {
    let half_turns = Move::ALL.into_iter().filter(|m| m.is_half_turn());
    let generators: Vec<Cube> = half_turns.map(Cube::from_move).collect();
    let mut found = vec![Cube::SOLVED];
    let mut next = 0;
    while next < found.len() {
        let cube = found[next];
        next += 1;
        for generator in &generators {
            let reached = cube.compose(generator);
            // Edges solved, so that the corners alone tell the states apart.
            let corners = Cube::from_parts(reached.corner_perm(), [0; 8], IDENTITY_12, [0; 12])
                .expect("a corner permutation and solved edges are well formed");
            if !found.contains(&corners) {
                found.push(corners);
            }
        }
    }
    found.iter().map(Cube::corner_perm).collect()
}

impl Cube {
    /// A uniformly random legal state: every one of the 43,252,003,274,489,856,000 states is
    /// equally likely.
    ///
    /// Both permutations are uniform (Fisher-Yates); if their parities differ, two edges are
    /// swapped, a bijection between the odd and even halves that keeps the distribution uniform.
    /// Seven twists and eleven flips are uniform and the last of each fixes the sum.
    ///
    /// ```
    /// use cube_core::Cube;
    /// use rand::SeedableRng;
    /// let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    /// let cube = Cube::random(&mut rng);
    /// assert!(cube.is_solvable());
    /// ```
    pub fn random<R: Rng + ?Sized>(rng: &mut R) -> Cube {
        let mut cp = IDENTITY_8;
        let mut ep = IDENTITY_12;
        shuffle(&mut cp, rng);
        shuffle(&mut ep, rng);
        if permutation_parity_odd(&cp) != permutation_parity_odd(&ep) {
            ep.swap(10, 11);
        }
        let co = random_orientation::<8, R>(3, rng);
        let eo = random_orientation::<12, R>(2, rng);
        Cube::from_parts(cp, co, ep, eo).expect("random pieces are permutations in range")
    }

    /// A uniformly random state of `subgroup`: every state of it is equally likely (the solved
    /// cube too).
    ///
    /// The free parts are drawn as [`Cube::random`] draws them; a parity that does not match
    /// is fixed by swapping two pieces that the subgroup lets move (two E-slice edges for
    /// [`Subgroup::Dr`], two edges of one slice for [`Subgroup::Htr`], two corners for
    /// [`Subgroup::Corners`], two edges for [`Subgroup::Edges`]), a bijection between the two
    /// halves, so that the distribution stays uniform. [`Subgroup::Htr`] draws its corners from
    /// the 96 permutations of the half-turn group and each slice's edges among that slice's
    /// positions: the states of the group are exactly those with an even edge permutation
    /// (every half turn is even on the corners and swaps two pairs of edges of two slices).
    ///
    /// ```
    /// use cube_core::{Cube, Subgroup};
    /// use rand::SeedableRng;
    /// let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    /// let dr = Cube::random_in(Subgroup::Dr, &mut rng);
    /// assert!(dr.is_solvable() && Subgroup::Dr.contains(&dr));
    /// ```
    pub fn random_in<R: Rng + ?Sized>(subgroup: Subgroup, rng: &mut R) -> Cube {
        let mut cp = IDENTITY_8;
        let mut ep = IDENTITY_12;
        let mut co = [0; 8];
        let mut eo = [0; 12];
        match subgroup {
            Subgroup::Eo => {
                shuffle(&mut cp, rng);
                shuffle(&mut ep, rng);
                co = random_orientation::<8, R>(3, rng);
            }
            Subgroup::Dr => {
                shuffle(&mut cp, rng);
                shuffle(&mut ep[..8], rng);
                shuffle(&mut ep[8..], rng);
            }
            Subgroup::Htr => {
                let corners = htr_corners();
                cp = corners[rng.random_range(0..corners.len())];
                // The S, M and E slices' positions.
                for positions in [[0, 2, 4, 6], [1, 3, 5, 7], [8, 9, 10, 11]] {
                    let mut pieces = positions.map(|p| ep[p]);
                    shuffle(&mut pieces, rng);
                    for (p, piece) in positions.into_iter().zip(pieces) {
                        ep[p] = piece;
                    }
                }
            }
            Subgroup::Corners => {
                shuffle(&mut cp, rng);
                co = random_orientation::<8, R>(3, rng);
            }
            Subgroup::Edges => {
                shuffle(&mut ep, rng);
                eo = random_orientation::<12, R>(2, rng);
            }
        }
        if permutation_parity_odd(&cp) != permutation_parity_odd(&ep) {
            match subgroup {
                Subgroup::Corners => cp.swap(0, 1),
                // Two E-slice edges: in the E slice for DR and HTR, anywhere for the others.
                _ => ep.swap(10, 11),
            }
        }
        Cube::from_parts(cp, co, ep, eo).expect("random pieces are permutations in range")
    }
}

/// `N` orientations modulo `modulus` with a sum of 0: the first `N - 1` uniform, the last
/// fixing the sum.
fn random_orientation<const N: usize, R: Rng + ?Sized>(modulus: u8, rng: &mut R) -> [u8; N] {
    let mut ori = [0u8; N];
    for o in &mut ori[..N - 1] {
        *o = rng.random_range(0..modulus);
    }
    let sum: u32 = ori.iter().map(|&o| u32::from(o)).sum();
    ori[N - 1] = ((u32::from(modulus) - sum % u32::from(modulus)) % u32::from(modulus)) as u8;
    ori
}

fn shuffle<R: Rng + ?Sized>(items: &mut [u8], rng: &mut R) {
    for i in (1..items.len()).rev() {
        let j = rng.random_range(0..=i);
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use rand::SeedableRng;
    use rand::rngs::StdRng;

    use super::*;

    /// Every state of the half-turn group, breadth-first from the solved cube.
    fn half_turn_group() -> HashSet<Cube> {
        let generators: Vec<Cube> = Move::ALL
            .into_iter()
            .filter(|m| m.is_half_turn())
            .map(Cube::from_move)
            .collect();
        let mut seen = HashSet::from([Cube::SOLVED]);
        let mut frontier = vec![Cube::SOLVED];
        while let Some(cube) = frontier.pop() {
            for generator in &generators {
                let next = cube.compose(generator);
                if seen.insert(next) {
                    frontier.push(next);
                }
            }
        }
        seen
    }

    #[test]
    fn the_half_turn_group_is_what_htr_draws_and_contains() {
        let group = half_turn_group();
        // The order of the square group, as the literature gives it (2^13 3^4).
        assert_eq!(group.len(), 663_552);
        assert_eq!(htr_corners().len(), 96);
        assert!(group.iter().all(|cube| Subgroup::Htr.contains(cube)));
        let mut rng = StdRng::seed_from_u64(33);
        for _ in 0..2000 {
            assert!(group.contains(&Cube::random_in(Subgroup::Htr, &mut rng)));
        }
        // A DR state outside the group: a quarter turn of U.
        assert!(!Subgroup::Htr.contains(&Cube::from_move(Move::U1)));
    }

    #[test]
    fn random_states_of_a_subgroup_are_in_it() {
        let mut rng = StdRng::seed_from_u64(1);
        for subgroup in Subgroup::ALL {
            for _ in 0..500 {
                let cube = Cube::random_in(subgroup, &mut rng);
                assert!(cube.is_solvable(), "{subgroup}");
                assert!(subgroup.contains(&cube), "{subgroup}");
                let (cp, co, ep, eo) = (
                    cube.corner_perm(),
                    cube.corner_ori(),
                    cube.edge_perm(),
                    cube.edge_ori(),
                );
                match subgroup {
                    Subgroup::Eo => assert_eq!(eo, [0; 12]),
                    Subgroup::Dr | Subgroup::Htr => {
                        assert_eq!((co, eo), ([0; 8], [0; 12]));
                        assert!(ep[8..].iter().all(|&e| e >= 8));
                    }
                    Subgroup::Corners => assert_eq!((ep, eo), (IDENTITY_12, [0; 12])),
                    Subgroup::Edges => assert_eq!((cp, co), (IDENTITY_8, [0; 8])),
                }
            }
        }
        // The subgroups' own moves keep their states in them.
        let dr_moves = [Move::U1, Move::D3, Move::R2, Move::F2];
        let dr = Cube::SOLVED.apply_moves(&dr_moves);
        assert!(Subgroup::Dr.contains(&dr) && Subgroup::Eo.contains(&dr));
        assert!(!Subgroup::Dr.contains(&Cube::from_move(Move::R1)));
        assert!(!Subgroup::Eo.contains(&Cube::from_move(Move::F1)));
        assert!(Subgroup::Eo.contains(&Cube::from_move(Move::R1)));
    }

    /// Pearson's statistic of `counts` against a uniform distribution.
    fn chi_square(counts: &[u64]) -> f64 {
        let total: u64 = counts.iter().sum();
        let expected = total as f64 / counts.len() as f64;
        counts
            .iter()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum()
    }

    /// With a fixed seed the statistics are fixed numbers: the bounds are the 0.1% critical
    /// values of the chi-square distribution, so a biased sampler fails and a sound one never
    /// flakes.
    #[test]
    fn subgroup_states_are_uniform_on_small_coordinates() {
        const N: usize = 20_000;
        let mut rng = StdRng::seed_from_u64(2026);
        // (subgroup, coordinate, number of values, critical value at 0.1% for values - 1 degrees
        // of freedom)
        type Coordinate = fn(&Cube) -> usize;
        let cases: [(Subgroup, Coordinate, usize, f64); 7] = [
            // Where corner URF is and how it is twisted: 24 values, 23 degrees of freedom.
            (Subgroup::Eo, |c| corner_of(c, 0), 24, 49.73),
            (Subgroup::Corners, |c| corner_of(c, 0), 24, 49.73),
            // Where edge FR is among the E-slice positions: 4 values.
            (Subgroup::Dr, |c| edge_at(c, 8) - 8, 4, 16.27),
            // Which corner permutation of the 96.
            (
                Subgroup::Htr,
                |c| {
                    let cp = c.corner_perm();
                    htr_corners().iter().position(|&p| p == cp).unwrap()
                },
                96,
                134.64,
            ),
            // Which M-slice edge is at UF: 4 values.
            (Subgroup::Htr, |c| c.edge_perm()[1] as usize / 2, 4, 16.27),
            // Where edge UR is and how it is flipped: 24 values.
            (
                Subgroup::Edges,
                |c| edge_at(c, 0) * 2 + c.edge_ori()[edge_at(c, 0)] as usize,
                24,
                49.73,
            ),
            // The permutation parity of the corners: 2 values, even and odd alike.
            (Subgroup::Dr, |c| c.corner_parity_odd() as usize, 2, 10.83),
        ];
        for (subgroup, coordinate, values, critical) in cases {
            let mut counts = vec![0u64; values];
            for _ in 0..N {
                counts[coordinate(&Cube::random_in(subgroup, &mut rng))] += 1;
            }
            let statistic = chi_square(&counts);
            assert!(
                statistic < critical,
                "{subgroup}: chi-square {statistic} >= {critical} over {counts:?}"
            );
        }
    }

    /// The position of corner piece `piece` times 3 plus its twist.
    fn corner_of(cube: &Cube, piece: u8) -> usize {
        let at = cube.corner_perm().iter().position(|&p| p == piece).unwrap();
        at * 3 + cube.corner_ori()[at] as usize
    }

    /// The position of edge piece `piece`.
    fn edge_at(cube: &Cube, piece: u8) -> usize {
        cube.edge_perm().iter().position(|&p| p == piece).unwrap()
    }

    #[test]
    fn seeds_reproduce_and_names_read() {
        for subgroup in Subgroup::ALL {
            let a = Cube::random_in(subgroup, &mut StdRng::seed_from_u64(5));
            let b = Cube::random_in(subgroup, &mut StdRng::seed_from_u64(5));
            assert_eq!(a, b);
        }
        assert_eq!("htr".parse(), Ok(Subgroup::Htr));
        let unknown = "drud".parse::<Subgroup>().unwrap_err().to_string();
        assert!(unknown.contains("eo, dr, htr, corners, edges"), "{unknown}");
    }
}
