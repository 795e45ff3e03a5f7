//! What rules need from the configuration: the rules own this struct and
//! `config` fills it from `urldb.toml`, so rules never import `config`.

/// Everything rules need from the configuration.
#[derive(Debug, Clone)]
pub struct LintSettings {
    pub categories: Option<Vec<String>>,
    pub max_file_size: u64,
}

impl Default for LintSettings {
    fn default() -> Self {
        LintSettings {
            categories: None,
            max_file_size: DEFAULT_MAX_FILE_SIZE,
        }
    }
}

pub const DEFAULT_MAX_FILE_SIZE: u64 = 64 * 1024 * 1024;
