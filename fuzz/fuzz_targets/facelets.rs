//! Facelet strings: any text decodes or fails cleanly, and agrees with cube-core's reader.
#![no_main]

use cube_core::FaceletCube;
use cube_encode::facelet;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let ours = facelet::decode(text);
    let trimmed = text.trim_ascii();
    if let Ok(bytes) = <[u8; 54]>::try_from(trimmed.as_bytes())
        && trimmed.is_ascii()
    {
        let core = FaceletCube::new(bytes).to_cube();
        let mirror = matches!(ours, Err(cube_encode::DecodeError::CentresNotARotation));
        assert_eq!(ours.is_ok(), core.is_ok() && !mirror);
        if let (Ok(state), Ok(seen)) = (&ours, core) {
            if state
                .orientation()
                .is_none_or(|r| r == cube_core::Symmetry::IDENTITY)
            {
                assert_eq!(state.cube(), seen);
            }
        }
    }
    if let Ok(state) = ours {
        let again = facelet::decode(&facelet::encode(&state)).map(|s| s.cube());
        assert_eq!(again, Ok(state.cube()));
    }
});
