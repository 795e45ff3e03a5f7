//! What a domain file means: the spanned YAML tree ([`node`]), how its plain
//! scalars are typed ([`resolve`], YAML 1.1 as PyYAML reads it) and the
//! typed view of metadata and records over it ([`domain`]). The model
//! imports nothing above it: the parser builds it, the renderer writes it.

pub mod domain;
pub mod media_type;
pub mod node;
/// The meaning of a file independent of layout, which the tests and the
/// fuzz targets compare (`parse(fmt(x)) = parse(x)`): no command needs it.
#[cfg(feature = "testing")]
pub mod normal;
pub mod path;
pub mod resolve;
