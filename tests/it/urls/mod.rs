//! URL identity, as every command uses it: canonicalization, the path
//! equivalence, a record's URL built from its parts, and the differential
//! test against url-normalize.

mod builder;
mod canonical;
mod path_equivalence;
mod reserved;
mod url_normalize;
