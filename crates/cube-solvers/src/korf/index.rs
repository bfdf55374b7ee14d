//! The pattern-database indexes the search computes per node: cube-tables' fast forms
//! ([`cube_tables::pdb::EdgeIndexer`], [`cube_tables::pdb::corner_coord`]), which live next to the
//! indexes they must equal.

pub(crate) use cube_tables::pdb::{EdgeIndexer, corner_coord};
