//! Text → model: the YAML event parser with spans ([`tree`]), the fast
//! reader for canonical text ([`fast`]) and the comment scanner
//! ([`comments`]). How a plain scalar is typed (YAML 1.1) belongs to the
//! model: [`crate::model::resolve`].

pub(crate) mod comments;
pub mod fast;
pub mod tree;
