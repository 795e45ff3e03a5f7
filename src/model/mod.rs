//! What a domain file means: the spanned YAML tree ([`node`]) and the typed
//! view of metadata and records over it ([`domain`]).

pub mod domain;
pub mod media_type;
pub mod node;
pub mod normal;
pub mod path;
