//! URL identity, as every command uses it: canonicalization, the path
//! equivalence, and the differential test against url-normalize.

mod canonical;
mod path_equivalence;
mod reserved;
mod url_normalize;
