//! Criterion benchmarks across the workspace live in `benches/benches/`; this library is empty.
