//! `urldb fmt`: comments kept, idempotence, PyYAML byte for byte, and
//! writing without losing data.

mod ci;
mod comments;
mod faults;
mod properties;
mod pyyaml_differential;
mod pyyaml_style;
