//! Text → model: the YAML event parser with spans ([`tree`]), YAML 1.1
//! implicit types ([`resolve`]) and the comment scanner ([`comments`]).

pub mod comments;
pub mod fast;
pub mod resolve;
pub mod tree;
