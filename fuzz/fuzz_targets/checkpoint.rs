//! cube-solvers' Korf checkpoint reader (`Checkpoint::from_str`): any text is accepted or refused
//! cleanly, without a panic or a large allocation; an accepted checkpoint holds only solutions that
//! solve its cube, within its bounds, and prints back to the same checkpoint.
#![no_main]

use cube_solvers::korf::Checkpoint;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(checkpoint) = text.parse::<Checkpoint>() {
        assert!(checkpoint.bound <= 20);
        assert!(checkpoint.done.len() <= 43_254);
        for (_, moves) in &checkpoint.solutions {
            assert_eq!(moves.len(), checkpoint.bound);
            assert!(checkpoint.cube.apply_moves(moves).is_solved());
        }
        let again: Checkpoint = checkpoint
            .to_string()
            .parse()
            .expect("a printed checkpoint reads back");
        assert_eq!(again, checkpoint);
    }
});
