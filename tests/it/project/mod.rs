//! The project as users meet it: the README and docs run as written, the
//! Action and pre-commit hooks, the wheel and the release, the schema, the
//! generator, the crate layering, the saved property-test failures, and
//! the `.yamllint` the docs give.

mod action;
mod annotation_paths;
mod coming_from;
mod docs;
mod first_hour;
mod generator;
mod layers;
mod packaging;
mod pre_commit;
mod python_module;
mod readme;
mod regressions;
mod release;
mod schema;
mod wheel;
mod yamllint;
