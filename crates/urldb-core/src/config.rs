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
    /// What the file asks that cannot be done, said and then left: each
    /// the line it is on (1-based) and the message.
    #[serde(skip)]
    pub warnings: Vec<(usize, String)>,
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
    /// Statuses that pass for every host (`docs/verify-exceptions.md`).
    #[serde(default)]
    pub accept: Vec<StatusSpec>,
    /// URLs and path patterns never requested, on any host.
    #[serde(default)]
    pub skip: Vec<String>,
    /// The `User-Agent` sent instead of `urldb/VERSION`.
    pub user_agent: Option<String>,
    /// Request headers sent to every host (no `env:` values here).
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    /// The exceptions of one host (a domain file's name or a cname), on
    /// top of those above: `[verify.domains."example.org"]`.
    #[serde(default)]
    pub domains: BTreeMap<String, VerifyExceptions>,
}

/// What `verify` accepts, skips and sends for one host
/// (`[verify.domains."HOST"]`), or, as [`VerifyConfig::exceptions`], for
/// every host.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct VerifyExceptions {
    /// Statuses that pass whatever the record says: numbers or ranges,
    /// `[403, 429, "500-599"]`.
    #[serde(default)]
    pub accept: Vec<StatusSpec>,
    /// URLs never requested: robots.txt-style path patterns (`/private/`,
    /// a prefix match after `%xx` decoding) or, in `[verify]` only, URLs
    /// (`https://example.org/login`: that host, paths starting so).
    #[serde(default)]
    pub skip: Vec<String>,
    /// The `User-Agent` sent instead of `urldb/VERSION`.
    pub user_agent: Option<String>,
    /// Request headers: `{ Accept-Language = "en" }`. A value
    /// `"env:NAME"` is read from the environment when `verify` runs and
    /// never printed; it is allowed only for one host
    /// (`[verify.domains."HOST"]`).
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
}

impl VerifyConfig {
    /// The exceptions of `[verify]` itself, for every host.
    pub fn exceptions(&self) -> VerifyExceptions {
        VerifyExceptions {
            accept: self.accept.clone(),
            skip: self.skip.clone(),
            user_agent: self.user_agent.clone(),
            headers: self.headers.clone(),
        }
    }
}

/// One entry of `accept`: a status or a range of them (`"500-599"`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum StatusSpec {
    Status(i64),
    Range(String),
}

impl StatusSpec {
    /// The statuses named, or the error (what is wrong, the text to point at).
    pub fn range(&self) -> Result<std::ops::RangeInclusive<u16>, String> {
        let status = |n: i64| {
            u16::try_from(n)
                .ok()
                .filter(|n| (100..=599).contains(n))
                .ok_or_else(|| format!("`{n}` is not an HTTP status (100 to 599)"))
        };
        match self {
            StatusSpec::Status(n) => status(*n).map(|s| s..=s),
            StatusSpec::Range(text) => {
                let not = || format!("`{text}` is not a status or a range like \"500-599\"");
                let (low, high) = match text.split_once('-') {
                    Some((l, h)) => (l.trim(), h.trim()),
                    None => (text.trim(), text.trim()),
                };
                let parse = |t: &str| t.parse::<i64>().map_err(|_| not());
                let (low, high) = (status(parse(low)?)?, status(parse(high)?)?);
                if low > high {
                    return Err(not());
                }
                Ok(low..=high)
            }
        }
    }
}

/// The most retries `[verify] retries` and `--retries` take: with each
/// wait at most 30 s, a URL that never answers costs at most five minutes
/// of waiting (`docs/security.md`, "Work and output are bounded").
pub const MAX_RETRIES: u32 = 10;

/// The prefix of a header value read from the environment.
pub const ENV_PREFIX: &str = "env:";

/// Headers urldb sets itself, or that would change what is judged
/// (`Accept-Encoding` would make bodies compressed), or that name another
/// host: never taken from the configuration.
const RESERVED_HEADERS: [&str; 9] = [
    "host",
    "content-length",
    "transfer-encoding",
    "connection",
    "accept-encoding",
    "te",
    "upgrade",
    "user-agent",
    "proxy-authorization",
];

/// Headers whose name alone makes them credentials (RFC 9110, section
/// 11.6.2; RFC 6265, section 5.4), whatever their value: like a value from
/// the environment, they belong to one host and go over https only.
pub const CREDENTIAL_HEADERS: [&str; 2] = ["authorization", "cookie"];

/// A header value written in the file: visible ASCII, spaces and tabs
/// inside; no line break can end the header early.
pub fn is_header_value(s: &str) -> bool {
    s.bytes().all(|b| b == b'\t' || (b' '..=b'~').contains(&b)) && s.trim() == s
}

/// `env:NAME`: the variable's name, when it is one.
pub fn env_name(value: &str) -> Option<&str> {
    value.strip_prefix(ENV_PREFIX)
}

impl VerifyExceptions {
    /// Check what serde cannot; `host` is the section's host (`None` for
    /// `[verify]`). The error comes with the text to point at.
    fn validate(&self, section: &str, host: Option<&str>) -> Result<(), (String, String)> {
        for spec in &self.accept {
            spec.range().map_err(|e| {
                let needle = match spec {
                    StatusSpec::Status(n) => n.to_string(),
                    StatusSpec::Range(t) => format!("\"{t}\""),
                };
                (format!("{section}.accept: {e}"), needle)
            })?;
        }
        for skip in &self.skip {
            SkipPattern::parse(skip, host.is_some())
                .map_err(|e| (format!("{section}.skip: {e}"), format!("\"{skip}\"")))?;
        }
        if let Some(agent) = &self.user_agent
            && (agent.is_empty() || !is_header_value(agent) || env_name(agent).is_some())
        {
            return Err((
                format!(
                    "{section}.user-agent: expected printable ASCII text (no line breaks, no `env:`)"
                ),
                "user-agent".to_string(),
            ));
        }
        for (name, value) in &self.headers {
            let at = || name.clone();
            // A header name is an HTTP token (RFC 9110, section 5.6.2).
            if !crate::model::media_type::is_token(name) {
                return Err((
                    format!(
                        "{section}.headers: `{}` is not a header name",
                        crate::text::escape(name)
                    ),
                    at(),
                ));
            }
            if RESERVED_HEADERS.contains(&name.to_ascii_lowercase().as_str()) {
                return Err((
                    format!(
                        "{section}.headers: `{name}` is set by urldb itself{}",
                        if name.eq_ignore_ascii_case("user-agent") {
                            " (use `user-agent = ...`)"
                        } else {
                            ""
                        }
                    ),
                    at(),
                ));
            }
            if host.is_none() && CREDENTIAL_HEADERS.contains(&name.to_ascii_lowercase().as_str()) {
                return Err((
                    format!(
                        "{section}.headers.{name}: a credential belongs to one host: \
                         put it under [verify.domains.\"HOST\"]"
                    ),
                    at(),
                ));
            }
            // The value is never quoted in an error: it may be a secret.
            match env_name(value) {
                Some(_) if host.is_none() => {
                    return Err((
                        format!(
                            "{section}.headers.{name}: a value from the environment belongs to one host: \
                             put it under [verify.domains.\"HOST\"]"
                        ),
                        at(),
                    ));
                }
                Some(var) if !is_env_name(var) => {
                    return Err((
                        format!(
                            "{section}.headers.{name}: `env:` must be followed by a variable name (letters, digits, `_`)"
                        ),
                        at(),
                    ));
                }
                Some(_) => {}
                None if !is_header_value(value) => {
                    return Err((
                        format!(
                            "{section}.headers.{name}: the value must be printable ASCII, without line breaks or surrounding spaces"
                        ),
                        at(),
                    ));
                }
                None => {}
            }
        }
        Ok(())
    }
}

/// A name `env:` and `--allow-env` take: letters, digits and `_`, not
/// starting with a digit.
pub fn is_env_name(s: &str) -> bool {
    s.bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// One `skip` entry, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkipPattern {
    /// The host a URL entry names; `None` for a path pattern.
    pub host: Option<String>,
    /// The scheme a URL entry names.
    pub scheme: Option<String>,
    /// A robots.txt-style path pattern (`crate::url::matches`).
    pub path: String,
}

impl SkipPattern {
    /// `/path-prefix`, or (outside a host's section) a URL.
    pub fn parse(text: &str, in_host_section: bool) -> Result<SkipPattern, String> {
        if text.starts_with('/') {
            if text.chars().any(char::is_control) {
                return Err(format!(
                    "`{}` holds a control character",
                    crate::text::escape(text)
                ));
            }
            return Ok(SkipPattern {
                host: None,
                scheme: None,
                path: text.to_string(),
            });
        }
        let lower = text.to_ascii_lowercase();
        if !(lower.starts_with("http://") || lower.starts_with("https://")) {
            return Err(format!(
                "`{}` is neither a path pattern (starting with `/`) nor an http(s) URL",
                crate::text::escape(text)
            ));
        }
        if in_host_section {
            return Err(format!(
                "`{}`: a host's section skips paths (`/...`); URLs go in [verify] skip",
                crate::text::escape(text)
            ));
        }
        let url = crate::url::canonicalize_given(text).map_err(|e| e.to_string())?;
        Ok(SkipPattern {
            host: Some(url.host.clone()),
            scheme: Some(url.scheme.as_str().to_string()),
            path: url.path_and_query.clone(),
        })
    }
}

/// A `[verify.domains]` key as a host: lowercase, IDN as A-labels, no
/// trailing dot.
pub fn domain_key(key: &str) -> Result<String, String> {
    let url = crate::url::canonicalize_given(key).map_err(|e| e.to_string())?;
    if url.path_and_query != "/" || key.contains(['/', ':', '@', '?', '#']) {
        return Err(format!("`{}` is not a host name", crate::text::escape(key)));
    }
    Ok(url.host)
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
        let mut config = Config::parse(text).map_err(|(message, span)| ConfigError::Invalid {
            path: path.to_path_buf(),
            message,
            span,
            text: text.to_string(),
        })?;
        config.warnings = gate_warnings(text);
        Ok(config)
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
        if let Some(n) = config.verify.retries
            && n > MAX_RETRIES
        {
            return Err((
                format!(
                    "verify.retries: {n} is too many; urldb tries a URL again at most \
                     {MAX_RETRIES} times (each wait is at most 30 s)"
                ),
                "retries".to_string(),
            ));
        }
        if config.verify.concurrency == Some(0) {
            return Err((
                "verify.concurrency must be at least 1".to_string(),
                "concurrency".to_string(),
            ));
        }
        config.verify.exceptions().validate("verify", None)?;
        let mut hosts = std::collections::BTreeSet::new();
        for (key, section) in &config.verify.domains {
            let needle = format!("\"{key}\"");
            let host =
                domain_key(key).map_err(|e| (format!("verify.domains: {e}"), needle.clone()))?;
            if !hosts.insert(host.clone()) {
                return Err((format!("verify.domains: `{host}` has two sections"), needle));
            }
            section.validate(&format!("verify.domains.\"{host}\""), Some(&host))?;
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

/// What `[lint]` asks of gate findings (`rules::gate_findings`), which
/// are always checked and always errors: turning one off (`ignore`,
/// `per-file-ignores`) or making it a warning (`severity`). Each is said
/// with its line (1-based); the run goes on, the gate unchanged. `text` is
/// valid (read by [`Config::parse`] already).
pub fn gate_warnings(text: &str) -> Vec<(usize, String)> {
    use crate::rules::gate_findings::always;
    use toml::Spanned;
    #[derive(Default, Deserialize)]
    struct File {
        #[serde(default)]
        lint: Lint,
    }
    #[derive(Default, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    struct Lint {
        #[serde(default)]
        ignore: Vec<Spanned<String>>,
        #[serde(default)]
        severity: BTreeMap<Spanned<String>, Severity>,
        #[serde(default)]
        per_file_ignores: BTreeMap<String, Vec<Spanned<String>>>,
    }
    let Ok(file) = toml::from_str::<File>(text) else {
        return Vec::new();
    };
    let at = |span: std::ops::Range<usize>| {
        text.get(..span.start)
            .map_or(0, |t| t.matches('\n').count())
            + 1
    };
    let mut out = Vec::new();
    for code in &file.lint.ignore {
        if always(code.get_ref()) {
            out.push((
                at(code.span()),
                format!(
                    "`[lint] ignore` names `{}`, a gate finding: it is always checked and \
                 reported (see docs/suppressions.md, \"Gate findings\")",
                    code.get_ref()
                ),
            ));
        }
    }
    for (code, severity) in &file.lint.severity {
        if always(code.get_ref()) && *severity == Severity::Warning {
            out.push((
                at(code.span()),
                format!(
                    "`[lint] severity` cannot make `{}` a warning: it is a gate finding, \
                 always an error",
                    code.get_ref()
                ),
            ));
        }
    }
    for (glob, codes) in &file.lint.per_file_ignores {
        for code in codes {
            if always(code.get_ref()) {
                out.push((
                    at(code.span()),
                    format!(
                        "`[lint.per-file-ignores]` cannot turn `{}` off for \"{glob}\": it is a \
                     gate finding, always checked",
                        code.get_ref()
                    ),
                ));
            }
        }
    }
    out.sort();
    out
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

/// `text` as a TOML string, quoted and escaped (for the `urldb.toml` that
/// `urldb init` writes, which names files found on disk).
pub fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
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

#[cfg(test)]
mod verify_tests {
    use super::*;

    fn parse(text: &str) -> Result<Config, String> {
        Config::parse(text).map_err(|(m, _)| m)
    }

    #[test]
    fn statuses_and_ranges() {
        let c = parse("[verify]\naccept = [403, \"500-503\", \"429\"]\n").expect("valid");
        let ranges: Vec<_> = c.verify.accept.iter().map(|s| s.range()).collect();
        assert_eq!(ranges, [Ok(403..=403), Ok(500..=503), Ok(429..=429)]);
        for bad in ["[99]", "[600]", "[\"503-500\"]", "[\"5xx\"]", "[-1]"] {
            let e = parse(&format!("[verify]\naccept = {bad}\n")).unwrap_err();
            assert!(e.starts_with("verify.accept: "), "{bad}: {e}");
        }
    }

    #[test]
    fn secrets_belong_to_one_host_and_are_never_quoted() {
        let ok = "[verify.domains.\"Example.ORG.\"]\nheaders = { Authorization = \"env:GITHUB_TOKEN\" }\n";
        let c = parse(ok).expect("valid");
        assert!(c.verify.domains.contains_key("Example.ORG."));
        let e = parse("[verify]\nheaders = { Authorization = \"env:TOKEN\" }\n").unwrap_err();
        assert!(e.contains("belongs to one host"), "{e}");
        let e = parse("[verify]\nheaders = { cookie = \"a=b\" }\n").unwrap_err();
        assert!(e.contains("a credential belongs to one host"), "{e}");
        let e = parse("[verify]\nheaders = { X-A = \"se cret\\n\" }\n").unwrap_err();
        assert!(!e.contains("se cret"), "{e}");
        for bad in ["Host", "user-agent", "Accept-Encoding", "a b"] {
            let text = format!("[verify]\nheaders = {{ \"{bad}\" = \"x\" }}\n");
            assert!(parse(&text).is_err(), "{bad}");
        }
        let e = parse("[verify.domains.\"a.test\"]\nheaders = { A = \"env:1X\" }\n").unwrap_err();
        assert!(e.contains("variable name"), "{e}");
        let e = parse("[verify.domains.\"a.test\"]\n[verify.domains.\"A.test\"]\n").unwrap_err();
        assert!(e.contains("two sections"), "{e}");
        assert!(parse("[verify.domains.\"a.test/x\"]\n").is_err());
    }

    #[test]
    fn skip_patterns() {
        assert_eq!(
            SkipPattern::parse("https://Example.org/login", false),
            Ok(SkipPattern {
                host: Some("example.org".into()),
                scheme: Some("https".into()),
                path: "/login".into()
            })
        );
        assert!(SkipPattern::parse("https://example.org/x", true).is_err());
        assert!(SkipPattern::parse("login", false).is_err());
        assert!(SkipPattern::parse("/a\nb", false).is_err());
        assert!(parse("[verify]\nskip = [\"/private/\", \"http://a.test/b\"]\n").is_ok());
        assert!(parse("[verify]\nuser-agent = \"a\\nb\"\n").is_err());
    }
}
