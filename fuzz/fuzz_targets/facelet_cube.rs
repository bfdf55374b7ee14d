//! cube-core's `FaceletCube::to_cube` and `to_cube_solvable` on arbitrary 54 bytes: never
//! panics, and a legal result draws back to the same stickers up to the colour names.
#![no_main]

use cube_core::FaceletCube;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(bytes) = <[u8; 54]>::try_from(data) else {
        return;
    };
    let stickers = FaceletCube::new(bytes);
    let _ = stickers.problems();
    if let Ok(cube) = stickers.to_cube_solvable() {
        assert!(cube.is_solvable());
        assert_eq!(FaceletCube::from_cube(&cube).to_cube_solvable(), Ok(cube));
    }
    let _ = stickers.to_cube();
});
