//! `urldb fmt`: comments kept, idempotence, PyYAML byte for byte, and
//! writing without losing data.

mod comments;
mod faults;
mod properties;
mod pyyaml_differential;
mod pyyaml_style;
