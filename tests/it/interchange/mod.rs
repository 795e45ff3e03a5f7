//! `urldb export`, `import` and `ls`: the URI-Catalogue both ways.

mod catalogue_round_trip;
mod export_import;
