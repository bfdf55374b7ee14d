//! Cube state formats: Twizzle binary, H48 text, facelet strings and cubing.js pattern JSON.
