//! URLs in and out of the database: canonicalization of what users type
//! ([`canonical`]), a record's URL built from its parts ([`build`]) and
//! the data.txt draft's path matching ([`matching`]). Every command that
//! takes a URL goes through [`canonicalize`], and every command that
//! prints, exports or requests a record's URL through [`Origin::url_of`];
//! the rules and each deviation from `url-normalize` are in `docs/urls.md`.

pub(crate) mod build;
pub(crate) mod canonical;
pub(crate) mod matching;

pub use build::{BuildError, Origin, Why, build_url};
pub use canonical::{Canonical, Note, Scheme, UrlError, canonicalize, canonicalize_given};
pub use matching::matches;
