//! URLs in and out of the database: canonicalization of what users type
//! ([`canonical`]) and the data.txt draft's path matching
//! ([`matching`]). Every command that takes a URL goes through
//! [`canonicalize`]; the rules and each deviation from `url-normalize` are
//! in `docs/urls.md`.

pub mod canonical;
pub mod matching;

pub use canonical::{Canonical, Note, Scheme, UrlError, canonicalize, canonicalize_given};
pub use matching::matches;
