//! Solving methods for the 3x3x3 cube.
