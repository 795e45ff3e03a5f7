//! What rules need from the configuration: the rules own this struct and
//! `config` fills it from `urldb.toml`, so rules never import `config`.

use crate::render::TextStyle;

/// Everything rules need from the configuration.
#[derive(Debug, Clone)]
pub struct LintSettings {
    pub categories: Option<Vec<String>>,
    pub max_file_size: u64,
    /// The canonical text's style (`style` in `urldb.toml`). Part of the
    /// options the cache is keyed by, so a verdict under one style is never
    /// reused under the other.
    pub style: TextStyle,
}

impl Default for LintSettings {
    fn default() -> Self {
        LintSettings {
            categories: None,
            max_file_size: DEFAULT_MAX_FILE_SIZE,
            style: TextStyle::Readable,
        }
    }
}

pub const DEFAULT_MAX_FILE_SIZE: u64 = 64 * 1024 * 1024;
