//! Random-state scrambles in the style of the WCA's TNoodle 4b3.
//!
//! A scramble starts from a uniformly random legal state ([`Cube::random`]), redrawn while it can
//! be solved in fewer than 2 moves (REFERENCE.md, "WCA random-state scrambles"), and is written
//! as the inverse of a two-phase solution: canonical, at most 21 moves, 20 whenever the solver
//! finds one (it always has so far). The state depends only on the random number generator,
//! never on the solver: the solver only chooses how to write it down.
//!
//! - [`Event::Cube333`] (`333`): the plain scramble.
//! - [`Event::FewestMoves`] (`333fm`): padded with `R' U' F` before and after; the scramble never
//!   starts on the F-B axis nor ends on the R-L axis, so nothing cancels across the padding.
//! - [`Event::Blindfolded`] (`333bf`): followed by a random whole-cube orientation written as up
//!   to two wide turns; the scramble never ends on the axis of the first wide turn.
//!
//! ```
//! use cube_solvers::scramble::{Event, Scrambler};
//! use rand::SeedableRng;
//!
//! let mut rng = rand::rngs::StdRng::seed_from_u64(2024);
//! let scramble = Scrambler::default().scramble(Event::FewestMoves, &mut rng);
//! let text = scramble.alg.to_string();
//! assert!(text.starts_with("R' U' F ") && text.ends_with(" R' U' F"));
//! ```

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use cube_core::{Alg, Cube, Move, MoveSet, Subgroup};
use rand::Rng;

use crate::two_phase::{EndMoves, TwoPhase};
use crate::{Limits, Stop};

/// A WCA event scrambled with a random state of the 3x3x3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// `333`: 3x3x3 Cube.
    Cube333,
    /// `333fm`: 3x3x3 Fewest Moves.
    FewestMoves,
    /// `333bf`: 3x3x3 Blindfolded.
    Blindfolded,
}

impl Event {
    /// The WCA event id: `333`, `333fm` or `333bf`.
    pub fn id(self) -> &'static str {
        match self {
            Event::Cube333 => "333",
            Event::FewestMoves => "333fm",
            Event::Blindfolded => "333bf",
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// An event id other than `333`, `333fm` and `333bf`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseEventError(String);

impl fmt::Display for ParseEventError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown event {:?}, expected 333 (also 333oh, 333ft), 333fm or 333bf",
            self.0
        )
    }
}

impl std::error::Error for ParseEventError {}

impl FromStr for Event {
    type Err = ParseEventError;

    fn from_str(s: &str) -> Result<Event, ParseEventError> {
        match s {
            // One-handed and with feet are scrambled as the 3x3x3 Cube, as the CLI reads them.
            "333" | "333oh" | "333ft" => Ok(Event::Cube333),
            "333fm" => Ok(Event::FewestMoves),
            "333bf" => Ok(Event::Blindfolded),
            _ => Err(ParseEventError(s.to_string())),
        }
    }
}

/// Configuration of a [`Scrambler`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The longest scramble (of the random-state part).
    pub max_length: usize,
    /// Stop at the first solution this short.
    pub target_length: usize,
    /// With a budget, a scramble of up to `max_length` moves is accepted once the budget is
    /// spent (the first found, if the budget ran out before any); the text may then depend on the
    /// machine's speed (the state never does). Without one (the default), the search runs until
    /// it reaches `target_length`, with no deadline (it takes milliseconds), so the text depends
    /// only on the seed, however busy the machine.
    pub time_budget: Option<Duration>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_length: 21,
            target_length: 20,
            time_budget: None,
        }
    }
}

/// One scramble.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scramble {
    /// The scramble as written, padding and wide turns included.
    pub alg: Alg,
    /// The uniformly random state that the random-state part leads to (before any padding or
    /// reorientation).
    pub state: Cube,
    /// The random-state part: canonical face turns.
    pub moves: Vec<Move>,
}

/// Makes scrambles with a two-phase solver (cheap to clone: its tables are shared).
/// [`Scrambler::default`] builds the small two-phase tables; with the large ones the same seed
/// gives the same scramble, faster.
#[derive(Clone, Debug, Default)]
pub struct Scrambler {
    config: Config,
    solver: TwoPhase,
}

/// The padding of a fewest-moves scramble.
const FMC_PADDING: [Move; 3] = [Move::R3, Move::U3, Move::F1];

/// Turns that bring a face to U (or none), then turns about U (or none): 6 x 4 = 24 orientations.
const ORIENT_TOP: [&str; 6] = ["", "Rw", "Rw2", "Rw'", "Fw", "Fw'"];
const ORIENT_FRONT: [&str; 4] = ["", "Uw", "Uw2", "Uw'"];

fn moves_off_axis(axis: usize) -> MoveSet {
    MoveSet::from_iter(Move::ALL.into_iter().filter(|m| m.face().axis() != axis))
}

impl Scrambler {
    /// A scrambler over `solver` with the default configuration.
    pub fn new(solver: TwoPhase) -> Scrambler {
        Scrambler::with_config(solver, Config::default())
    }

    /// A scrambler over `solver` with `config`.
    pub fn with_config(solver: TwoPhase, config: Config) -> Scrambler {
        Scrambler { config, solver }
    }

    /// A uniformly random state that needs at least 2 moves.
    pub fn random_state<R: Rng + ?Sized>(rng: &mut R) -> Cube {
        loop {
            let cube = Cube::random(rng);
            let trivial = cube.is_solved() || Move::ALL.iter().any(|&m| cube == Cube::from_move(m));
            if !trivial {
                return cube;
            }
        }
    }

    /// A scramble for `event` from `rng` (the same seed gives the same state, and without a
    /// time budget the same text).
    pub fn scramble<R: Rng + ?Sized>(&self, event: Event, rng: &mut R) -> Scramble {
        let state = Scrambler::random_state(rng);
        self.write(event, state, rng)
    }

    /// A scramble of a state drawn uniformly from `subgroup` ([`Cube::random_in`]; the solved
    /// cube too, as an empty scramble), written as a [`Event::Cube333`] scramble is: to practise
    /// a fewest-moves step from where the earlier steps leave the cube, as nissy's
    /// `scramble TYPE`. The same seed gives the same state. These states are short and have
    /// many solutions of one length, so which one the two-phase search meets first, the text,
    /// may depend on its tables (small or large).
    ///
    /// ```
    /// use cube_core::{Cube, Subgroup};
    /// use cube_solvers::scramble::Scrambler;
    /// use rand::SeedableRng;
    ///
    /// let mut rng = rand::rngs::StdRng::seed_from_u64(33);
    /// let scramble = Scrambler::default().subgroup_scramble(Subgroup::Dr, &mut rng);
    /// assert!(Subgroup::Dr.contains(&Cube::SOLVED.apply_alg(&scramble.alg)));
    /// ```
    pub fn subgroup_scramble<R: Rng + ?Sized>(&self, subgroup: Subgroup, rng: &mut R) -> Scramble {
        let state = Cube::random_in(subgroup, rng);
        self.write(Event::Cube333, state, rng)
    }

    /// The scramble of `state` for `event` (the blindfolded orientation drawn from `rng`).
    fn write<R: Rng + ?Sized>(&self, event: Event, state: Cube, rng: &mut R) -> Scramble {
        // Restrictions on the scramble S; the solution is S⁻¹, so its first move is the inverse
        // of S's last and its last move the inverse of S's first.
        let (scramble_first, scramble_last, suffix) = match event {
            Event::Cube333 => (MoveSet::ALL, MoveSet::ALL, String::new()),
            Event::FewestMoves => (moves_off_axis(2), moves_off_axis(1), String::new()),
            Event::Blindfolded => {
                let top = ORIENT_TOP[rng.random_range(0..6)];
                let front = ORIENT_FRONT[rng.random_range(0..4)];
                let first_wide = if top.is_empty() { front } else { top };
                let last = match first_wide.chars().next() {
                    Some('R') => moves_off_axis(1),
                    Some('F') => moves_off_axis(2),
                    Some('U') => moves_off_axis(0),
                    _ => MoveSet::ALL,
                };
                let suffix = [top, front]
                    .iter()
                    .filter(|t| !t.is_empty())
                    .copied()
                    .collect::<Vec<_>>();
                (MoveSet::ALL, last, suffix.join(" "))
            }
        };
        let ends = EndMoves {
            first: inverse_set(scramble_last),
            last: inverse_set(scramble_first),
        };
        let limits = Limits {
            max_length: Some(self.config.max_length),
            target_length: Some(self.config.target_length),
            // No budget is no deadline (a budget too long for the clock): the solver's own
            // default budget would make the text depend on the machine's load.
            time_budget: Some(self.config.time_budget.unwrap_or(Duration::MAX)),
            ..Limits::default()
        };
        let solve = |limits: &Limits| {
            self.solver
                .solve_with_ends(&state, limits, &Stop::new(), ends)
                .expect("a random state is solvable and nothing stops the search")
                .into_iter()
                .next()
        };
        // A budget spent before any solution: the first of at most `max_length` moves.
        let first = || {
            solve(&Limits {
                target_length: Some(self.config.max_length),
                time_budget: Some(Duration::MAX),
                ..limits.clone()
            })
        };
        let solution = solve(&limits)
            .or_else(first)
            .expect("two-phase finds a solution of at most 21 moves for every state");
        let inverse: Vec<Move> = solution.moves.iter().rev().map(|m| m.inverse()).collect();
        let moves = cube_core::simplify(&inverse);
        debug_assert_eq!(moves.len(), inverse.len());
        let mut text = Alg::from_moves(&moves).to_string();
        match event {
            Event::Cube333 => {}
            Event::FewestMoves => {
                let padding = Alg::from_moves(&FMC_PADDING).to_string();
                text = format!("{padding} {text} {padding}");
            }
            Event::Blindfolded if !suffix.is_empty() => text = format!("{text} {suffix}"),
            Event::Blindfolded => {}
        }
        let alg = text.parse().expect("face and wide turns parse");
        Scramble { alg, state, moves }
    }
}

fn inverse_set(set: MoveSet) -> MoveSet {
    set.iter().map(Move::inverse).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn scrambles_reach_the_drawn_state() {
        let scrambler = Scrambler::default();
        for seed in 0..20u64 {
            for event in [Event::Cube333, Event::FewestMoves, Event::Blindfolded] {
                let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
                let scramble = scrambler.scramble(event, &mut rng);
                let mut again = rand::rngs::StdRng::seed_from_u64(seed);
                assert_eq!(scramble.state, Scrambler::random_state(&mut again));
                assert_eq!(Cube::SOLVED.apply_moves(&scramble.moves), scramble.state);
                assert!(scramble.moves.len() <= 21 && scramble.moves.len() >= 2);
                assert!(cube_core::is_canonical(&scramble.moves));
                let all = scramble.alg.moves();
                match event {
                    Event::Cube333 => assert_eq!(all, scramble.moves),
                    Event::FewestMoves => {
                        assert_eq!(
                            cube_core::simplify(&all).len(),
                            all.len(),
                            "{}",
                            scramble.alg
                        );
                        assert_eq!(&all[..3], &FMC_PADDING);
                        assert_eq!(&all[all.len() - 3..], &FMC_PADDING);
                        assert_eq!(&all[3..all.len() - 3], &scramble.moves[..]);
                    }
                    Event::Blindfolded => {
                        let expanded = scramble.alg.expand();
                        assert_eq!(&expanded.moves[..scramble.moves.len()], &scramble.moves[..]);
                    }
                }
            }
        }
    }

    // See: issue 31, item 3: a time budget now bounds the two-phase search, first solution
    // included; a scrambler whose budget runs out before any solution still writes one.
    #[test]
    fn i31_3_a_budget_spent_before_any_solution_still_scrambles() {
        let config = Config {
            time_budget: Some(Duration::from_nanos(1)),
            ..Config::default()
        };
        let scrambler = Scrambler::with_config(TwoPhase::default(), config);
        let mut rng = rand::rngs::StdRng::seed_from_u64(31);
        for _ in 0..5 {
            let scramble = scrambler.scramble(Event::Cube333, &mut rng);
            assert_eq!(Cube::SOLVED.apply_moves(&scramble.moves), scramble.state);
            assert!(scramble.moves.len() <= 21);
        }
    }

    #[test]
    fn subgroup_scrambles_make_a_state_of_the_subgroup() {
        let scrambler = Scrambler::default();
        for subgroup in Subgroup::ALL {
            for seed in 0..10u64 {
                let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
                let scramble = scrambler.subgroup_scramble(subgroup, &mut rng);
                let mut again = rand::rngs::StdRng::seed_from_u64(seed);
                assert_eq!(scramble.state, Cube::random_in(subgroup, &mut again));
                assert_eq!(Cube::SOLVED.apply_alg(&scramble.alg), scramble.state);
                assert!(subgroup.contains(&scramble.state), "{subgroup}");
                assert!(scramble.moves.len() <= 21);
            }
        }
    }

    #[test]
    fn event_ids_round_trip() {
        for event in [Event::Cube333, Event::FewestMoves, Event::Blindfolded] {
            assert_eq!(event.id().parse::<Event>(), Ok(event));
        }
        assert!("444".parse::<Event>().is_err());
        assert_eq!("333oh".parse::<Event>(), Ok(Event::Cube333));
        assert_eq!("333ft".parse::<Event>(), Ok(Event::Cube333));
    }
}
