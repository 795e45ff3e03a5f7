//! `urldb.toml`: the configuration file's keys and their validation. It is
//! found and read by `urldb-store`'s `settings`, which resolves it with
//! the command line or the editor's settings.
//!
//! The field comments here are the user documentation of each key.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::Deserialize;

use crate::render::{EmptyMetadata, TextStyle};
use crate::rules::diagnostic::Severity;
use crate::selection::UnknownRule;

pub const FILE_NAME: &str = "urldb.toml";

/// `urldb.toml` is read no further than this.
pub const MAX_CONFIG_SIZE: u64 = 1 << 20;

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Config {
    /// The database directory, relative to the configuration file.
    pub root: Option<PathBuf>,
    /// `auto` keeps each file's line endings (new files get LF), or `lf`,
    /// `crlf`, `native`.
    #[serde(default)]
    pub line_ending: LineEnding,
    /// How an empty metadata document is written: `bare` (`---`) or
    /// `braces` (`--- {}`). Files already in either form keep it.
    #[serde(default)]
    pub empty_metadata: EmptyMetadata,
    /// How strings are written: `readable` (UTF-8, one line per value) or
    /// `pyyaml` (byte for byte what PyYAML writes by default: non-ASCII
    /// escaped, lines folded at 80 columns). See `docs/format.md`.
    #[serde(default)]
    pub style: TextStyle,
    /// Larger files are not read (`file-too-large`), e.g. `"64 MiB"`.
    pub max_file_size: Option<String>,
    /// Globs (relative to the database root) of files and directories to skip.
    #[serde(default)]
    pub exclude: Vec<String>,
    #[serde(default)]
    pub lint: LintConfig,
    #[serde(default)]
    pub verify: VerifyConfig,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LineEnding {
    #[default]
    Auto,
    Lf,
    Crlf,
    Native,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct LintConfig {
    /// Rule codes to enable (`"ALL"` for every rule). The default is
    /// every rule but those off by default (`yaml-comment`).
    pub select: Option<Vec<String>>,
    /// Rule codes to add to `select`.
    #[serde(default)]
    pub extend_select: Vec<String>,
    /// Rule codes to disable.
    #[serde(default)]
    pub ignore: Vec<String>,
    /// Per-rule severity overrides: `{ suspicious-key = "error" }`.
    #[serde(default)]
    pub severity: BTreeMap<String, Severity>,
    /// A closed vocabulary of categories (enables `unknown-category`).
    pub categories: Option<Vec<String>>,
    /// Rule codes turned off in some files: globs (relative to the
    /// database root) to codes, `{ "legacy/**" = ["path-case"] }`.
    #[serde(default)]
    pub per_file_ignores: BTreeMap<String, Vec<String>>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct VerifyConfig {
    pub concurrency: Option<usize>,
    pub timeout: Option<String>,
    pub retries: Option<u32>,
}

/// A configuration problem: always exit code 2.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {message}")]
    Read { path: PathBuf, message: String },
    #[error("{path}: {message}")]
    Invalid {
        path: PathBuf,
        message: String,
        /// Where in the file, when known, and the file's text.
        span: Option<std::ops::Range<usize>>,
        text: String,
    },
}

impl ConfigError {
    /// The error as a report with the offending TOML line, like a finding.
    pub fn render(&self, color: bool) -> String {
        let ConfigError::Invalid {
            path,
            message,
            span: Some(span),
            text,
        } = self
        else {
            return format!("error: {self}");
        };
        let (headline, help) = match message.split_once("\n  did you mean") {
            Some((head, rest)) => (head.to_string(), Some(format!("did you mean{rest}"))),
            None => (message.clone(), None),
        };
        let mut diag = miette::MietteDiagnostic::new(headline.trim_end().to_string())
            .with_severity(miette::Severity::Error)
            .with_label(miette::LabeledSpan::at(span.clone(), "here"));
        if let Some(help) = help {
            diag = diag.with_help(help);
        }
        let report = miette::Report::new(diag).with_source_code(miette::NamedSource::new(
            path.display().to_string(),
            text.clone(),
        ));
        let theme = if color {
            miette::GraphicalTheme::unicode()
        } else {
            miette::GraphicalTheme::unicode_nocolor()
        };
        let mut out = String::new();
        let handler = miette::GraphicalReportHandler::new_themed(theme).with_width(100);
        if handler.render_report(&mut out, report.as_ref()).is_err() {
            return format!("error: {self}");
        }
        out
    }
}

pub use crate::rules::settings::{DEFAULT_MAX_FILE_SIZE, LintSettings};

impl Config {
    /// Validate the text of the configuration file at `path` (the path is
    /// only named in the error; `urldb-store` reads the file).
    pub fn from_text(path: &Path, text: &str) -> Result<Config, ConfigError> {
        Config::parse(text).map_err(|(message, span)| ConfigError::Invalid {
            path: path.to_path_buf(),
            message,
            span,
            text: text.to_string(),
        })
    }

    /// Parse and validate; an error says what and, when it can, where.
    pub fn parse(text: &str) -> Result<Config, (String, Option<std::ops::Range<usize>>)> {
        let config: Config =
            toml::from_str(text).map_err(|e| (did_you_mean(e.message()), e.span()))?;
        config.validate().map_err(|(message, needle)| {
            // Point at the offending value: the first place its text appears.
            let span = text.find(&needle).map(|at| at..at + needle.len());
            (message, span)
        })?;
        Ok(config)
    }

    /// Check what serde cannot: rule codes, sizes, globs. The error comes
    /// with the text to point at in the file.
    fn validate(&self) -> Result<(), (String, String)> {
        let config = self;
        for code in config
            .lint
            .select
            .iter()
            .flatten()
            .chain(&config.lint.extend_select)
            .chain(&config.lint.ignore)
            .chain(config.lint.severity.keys())
        {
            if code != "ALL" && crate::rules::by_code(code).is_none() {
                return Err((UnknownRule::new(code).to_string(), format!("\"{code}\"")));
            }
        }
        if let Err(e) = crate::suppress::PerFileIgnores::new(&config.lint.per_file_ignores) {
            let needle = match &e {
                crate::suppress::BadPerFileIgnore::Glob { glob, .. } => glob.clone(),
                crate::suppress::BadPerFileIgnore::Rule(r) => format!("\"{}\"", r.code),
            };
            return Err((e.to_string(), needle));
        }
        config
            .max_file_size()
            .map_err(|e| (e.to_string(), "max-file-size".to_string()))?;
        exclude_set(&config.exclude).map_err(|e| (e.to_string(), "exclude".to_string()))?;
        // `[verify]` is checked here too, not first when `verify` runs.
        if let Some(t) = &config.verify.timeout
            && parse_duration(t).is_none()
        {
            return Err((
                format!("verify.timeout: `{t}` is not a duration (try \"30s\" or \"500ms\")"),
                "timeout".to_string(),
            ));
        }
        if config.verify.concurrency == Some(0) {
            return Err((
                "verify.concurrency must be at least 1".to_string(),
                "concurrency".to_string(),
            ));
        }
        Ok(())
    }

    pub fn max_file_size(&self) -> Result<u64, NotASize> {
        match &self.max_file_size {
            None => Ok(DEFAULT_MAX_FILE_SIZE),
            Some(s) => parse_size(s).ok_or_else(|| NotASize(s.clone())),
        }
    }

    pub fn lint_settings(&self) -> LintSettings {
        LintSettings {
            categories: self.lint.categories.clone(),
            max_file_size: self.max_file_size().unwrap_or(DEFAULT_MAX_FILE_SIZE),
            style: self.style,
        }
    }
}

/// `max-file-size` that is not a size.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("max-file-size: `{0}` is not a size (try \"64 MiB\" or \"500 kB\")")]
pub struct NotASize(pub String);

/// An `exclude` glob that does not compile.
#[derive(Debug, thiserror::Error)]
pub enum BadExclude {
    #[error("exclude: invalid glob `{glob}`: {source}")]
    Glob {
        glob: String,
        source: globset::Error,
    },
    #[error("exclude: {0}")]
    Set(globset::Error),
}

/// Compile `exclude` globs (relative to the database root).
pub fn exclude_set(globs: &[String]) -> Result<GlobSet, BadExclude> {
    let mut builder = GlobSetBuilder::new();
    for g in globs {
        let glob = Glob::new(g).map_err(|source| BadExclude::Glob {
            glob: g.clone(),
            source,
        })?;
        builder.add(glob);
    }
    builder.build().map_err(BadExclude::Set)
}

/// `30s`, `500ms`, `2m`, `1.5s`, or a plain number of seconds.
pub fn parse_duration(text: &str) -> Option<std::time::Duration> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let n: f64 = number.parse().ok()?;
    let secs = match unit.trim() {
        "" | "s" => n,
        "ms" => n / 1000.0,
        "m" | "min" => n * 60.0,
        _ => return None,
    };
    (secs.is_finite() && secs > 0.0 && secs < 86_400.0)
        .then(|| std::time::Duration::from_secs_f64(secs))
}

/// `"64 MiB"`, `"500kB"`, `"1048576"`.
pub fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let split = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let n: u64 = num.parse().ok()?;
    let mult: u64 = match unit.trim() {
        "" | "B" => 1,
        "kB" | "KB" => 1000,
        "KiB" => 1024,
        "MB" => 1000 * 1000,
        "MiB" => 1024 * 1024,
        "GB" => 1000 * 1000 * 1000,
        "GiB" => 1024 * 1024 * 1024,
        _ => return None,
    };
    n.checked_mul(mult)
}

/// serde says "unknown field `x`, expected one of `a`, `b`" (or "unknown
/// variant `x`, expected `a` or `b`" for a value): add the nearest one as
/// a suggestion.
fn did_you_mean(message: &str) -> String {
    let Some(rest) = message
        .split("unknown field `")
        .nth(1)
        .or_else(|| message.split("unknown variant `").nth(1))
    else {
        return message.to_string();
    };
    let Some(field) = rest.split('`').next() else {
        return message.to_string();
    };
    let expected: Vec<&str> = rest
        .split("expected")
        .nth(1)
        .map(|list| list.split('`').skip(1).step_by(2).collect())
        .unwrap_or_default();
    match crate::suggest::closest(field, expected) {
        Some(best) => format!("{}\n  did you mean `{best}`?", message.trim_end()),
        None => message.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn durations() {
        assert_eq!(
            super::parse_duration("30s"),
            Some(std::time::Duration::from_secs(30))
        );
        assert_eq!(
            super::parse_duration("30"),
            Some(std::time::Duration::from_secs(30))
        );
        assert_eq!(
            super::parse_duration("500ms"),
            Some(std::time::Duration::from_millis(500))
        );
        assert_eq!(
            super::parse_duration("2m"),
            Some(std::time::Duration::from_secs(120))
        );
        assert_eq!(
            super::parse_duration("1.5s"),
            Some(std::time::Duration::from_millis(1500))
        );
        assert_eq!(super::parse_duration("0s"), None);
        assert_eq!(super::parse_duration("soon"), None);
        assert_eq!(super::parse_duration("3h"), None);
        assert_eq!(super::parse_duration(""), None);
    }
}
