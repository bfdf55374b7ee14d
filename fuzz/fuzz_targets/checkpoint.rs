//! cube-solvers' Korf checkpoint reader (`Checkpoint::from_str`): any text is accepted or refused
//! cleanly, without a panic or a large allocation; an accepted checkpoint holds only solutions that
//! solve its cube, within its bounds, and prints back to the same checkpoint. Each input is also
//! tried sealed with a correct checksum line, as a forger would, so that the field checks behind
//! the checksum are fuzzed too.
#![no_main]

use cube_solvers::korf::Checkpoint;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    check(text);
    let body = if text.ends_with('\n') || text.is_empty() {
        text.to_string()
    } else {
        format!("{text}\n")
    };
    let hash = cube_tables::payload_hash(body.as_bytes());
    check(&format!("{body}checksum {hash:#018x}\n"));
});

fn check(text: &str) {
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
}
