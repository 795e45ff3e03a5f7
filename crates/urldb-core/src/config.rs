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
    /// The line of `root` in the file (for messages about its directory).
    #[serde(skip)]
    pub root_line: Option<usize>,
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
    /// The statuses named, or what is wrong.
    pub fn range(&self) -> Result<std::ops::RangeInclusive<u16>, StatusError> {
        let status = |n: i64| {
            u16::try_from(n)
                .ok()
                .filter(|n| (100..=599).contains(n))
                .ok_or(StatusError::NotAStatus(n))
        };
        match self {
            StatusSpec::Status(n) => status(*n).map(|s| s..=s),
            StatusSpec::Range(text) => {
                let not = || StatusError::NotARange(text.clone());
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

/// An `accept` entry that names no status.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StatusError {
    #[error("`{0}` is not an HTTP status (100 to 599)")]
    NotAStatus(i64),
    #[error("`{0}` is not a status or a range like \"500-599\"")]
    NotARange(String),
}

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
    fn validate(&self, section: &str, host: Option<&str>) -> Result<(), Invalid> {
        for spec in &self.accept {
            spec.range().map_err(|e| {
                let needle = match spec {
                    StatusSpec::Status(n) => n.to_string(),
                    StatusSpec::Range(t) => format!("\"{t}\""),
                };
                Invalid::new(format!("{section}.accept: {e}"), needle)
            })?;
        }
        for skip in &self.skip {
            SkipPattern::parse(skip, host.is_some())
                .map_err(|e| Invalid::new(format!("{section}.skip: {e}"), format!("\"{skip}\"")))?;
        }
        if let Some(agent) = &self.user_agent
            && (agent.is_empty() || !is_header_value(agent) || env_name(agent).is_some())
        {
            return Err(Invalid::new(
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
                return Err(Invalid::new(
                    format!(
                        "{section}.headers: `{}` is not a header name",
                        crate::text::escape(name)
                    ),
                    at(),
                ));
            }
            if RESERVED_HEADERS.contains(&name.to_ascii_lowercase().as_str()) {
                return Err(Invalid::new(
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
                return Err(Invalid::new(
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
                    return Err(Invalid::new(
                        format!(
                            "{section}.headers.{name}: a value from the environment belongs to one host: \
                             put it under [verify.domains.\"HOST\"]"
                        ),
                        at(),
                    ));
                }
                Some(var) if !is_env_name(var) => {
                    return Err(Invalid::new(
                        format!(
                            "{section}.headers.{name}: `env:` must be followed by a variable name (letters, digits, `_`)"
                        ),
                        at(),
                    ));
                }
                Some(_) => {}
                None if !is_header_value(value) => {
                    return Err(Invalid::new(
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
    pub fn parse(text: &str, in_host_section: bool) -> Result<SkipPattern, SkipError> {
        if text.starts_with('/') {
            if text.chars().any(char::is_control) {
                return Err(SkipError::Control(text.to_string()));
            }
            return Ok(SkipPattern {
                host: None,
                scheme: None,
                path: text.to_string(),
            });
        }
        let lower = text.to_ascii_lowercase();
        if !(lower.starts_with("http://") || lower.starts_with("https://")) {
            return Err(SkipError::Neither(text.to_string()));
        }
        if in_host_section {
            return Err(SkipError::UrlInHostSection(text.to_string()));
        }
        let url = crate::url::canonicalize_given(text)?;
        Ok(SkipPattern {
            host: Some(url.host.clone()),
            scheme: Some(url.scheme.as_str().to_string()),
            path: url.path_and_query.clone(),
        })
    }
}

/// A `skip` entry that is neither a path pattern nor a URL to skip.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SkipError {
    #[error("`{}` holds a control character", crate::text::escape(.0))]
    Control(String),
    #[error(
        "`{}` is neither a path pattern (starting with `/`) nor an http(s) URL",
        crate::text::escape(.0)
    )]
    Neither(String),
    #[error(
        "`{}`: a host's section skips paths (`/...`); URLs go in [verify] skip",
        crate::text::escape(.0)
    )]
    UrlInHostSection(String),
    #[error(transparent)]
    Url(#[from] crate::url::UrlError),
}

/// A `[verify.domains]` key as a host: lowercase, IDN as A-labels, no
/// trailing dot.
pub fn domain_key(key: &str) -> Result<String, DomainKeyError> {
    let url = crate::url::canonicalize_given(key)?;
    if url.path_and_query != "/" || key.contains(['/', ':', '@', '?', '#']) {
        return Err(DomainKeyError::NotAHost(key.to_string()));
    }
    Ok(url.host)
}

/// A `[verify.domains]` key that names no host.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DomainKeyError {
    #[error(transparent)]
    Url(#[from] crate::url::UrlError),
    #[error("`{}` is not a host name", crate::text::escape(.0))]
    NotAHost(String),
}

/// An invalid configuration file: every problem found in it, each with
/// its place when known. Always exit code 2.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{}", lines(.path, .text, .problems))]
    Invalid {
        path: PathBuf,
        /// In the order of the file.
        problems: Vec<Problem>,
        text: String,
    },
}

/// One mistake in `urldb.toml`: what is wrong, and where in the file when
/// known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub message: String,
    pub span: Option<std::ops::Range<usize>>,
}

/// `path:line:col: message`, a line each (the language server shows this).
fn lines(path: &Path, text: &str, problems: &[Problem]) -> String {
    let shown = crate::source::shown_path(path);
    let mut out = String::new();
    for (i, p) in problems.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        match &p.span {
            Some(span) => {
                let (line, col) = line_col(text, span.start);
                out.push_str(&format!("{shown}:{line}:{col}: {}", p.message));
            }
            None => out.push_str(&format!("{shown}: {}", p.message)),
        }
    }
    out
}

/// 1-based line and column (in characters) of byte `offset` of `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset.min(text.len())).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

impl ConfigError {
    /// The error as a report with the offending TOML line, like a finding:
    /// one report per problem.
    pub fn render(&self, color: bool) -> String {
        let ConfigError::Invalid {
            path,
            problems,
            text,
        } = self;
        let mut out = String::new();
        for problem in problems {
            out.push_str(&render_one(path, text, problem, color));
        }
        out
    }
}

fn render_one(path: &Path, text: &str, problem: &Problem, color: bool) -> String {
    let plain = || {
        format!(
            "error: {}\n",
            lines(path, text, std::slice::from_ref(problem))
        )
    };
    let Some(span) = &problem.span else {
        return plain();
    };
    let (headline, help) = match problem.message.split_once("\n  did you mean") {
        Some((head, rest)) => (head.to_string(), Some(format!("did you mean{rest}"))),
        None => (problem.message.clone(), None),
    };
    // The file's lines as human output shows them (control characters
    // visible), the span moved with them.
    let (shown, span) = visible(text, span.clone());
    let mut diag = miette::MietteDiagnostic::new(headline.trim_end().to_string())
        .with_severity(miette::Severity::Error)
        .with_label(miette::LabeledSpan::at(span, "here"));
    if let Some(help) = help {
        diag = diag.with_help(help);
    }
    let report = miette::Report::new(diag).with_source_code(miette::NamedSource::new(
        &*crate::text::escape(&path.display().to_string()),
        shown,
    ));
    let theme = if color {
        miette::GraphicalTheme::unicode()
    } else {
        miette::GraphicalTheme::unicode_nocolor()
    };
    let mut out = String::new();
    let handler = miette::GraphicalReportHandler::new_themed(theme).with_width(100);
    if handler.render_report(&mut out, report.as_ref()).is_err() {
        return plain();
    }
    out
}

/// `text` with its control characters written visibly, as
/// [`crate::text::escape`] does (line breaks kept), and `span` moved to the
/// same characters.
fn visible(text: &str, span: std::ops::Range<usize>) -> (String, std::ops::Range<usize>) {
    let mut out = String::with_capacity(text.len());
    let (mut start, mut end) = (None, None);
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if i == span.start {
            start = Some(out.len());
        }
        if i == span.end {
            end = Some(out.len());
        }
        let line_break =
            c == '\n' || (c == '\r' && chars.peek().is_some_and(|&(_, next)| next == '\n'));
        if line_break || !crate::text::needs_escape(c) {
            out.push(c);
        } else {
            crate::text::push_escaped(&mut out, c);
        }
    }
    let start = start.unwrap_or(out.len());
    let end = end.unwrap_or(out.len()).max(start);
    (out, start..end)
}

pub use crate::rules::settings::{DEFAULT_MAX_FILE_SIZE, LintSettings};

/// A value the file holds that urldb refuses: what is wrong, and the text
/// of the file to point at.
#[derive(Debug)]
struct Invalid {
    message: String,
    at: String,
}

impl Invalid {
    fn new(message: impl Into<String>, at: impl Into<String>) -> Invalid {
        Invalid {
            message: message.into(),
            at: at.into(),
        }
    }
}

impl Config {
    /// Validate the text of the configuration file at `path` (the path is
    /// only named in the error; `urldb-store` reads the file).
    pub fn from_text(path: &Path, text: &str) -> Result<Config, ConfigError> {
        let mut config = Config::parse(text).map_err(|problems| ConfigError::Invalid {
            path: path.to_path_buf(),
            problems,
            text: text.to_string(),
        })?;
        config.warnings = gate_warnings(text);
        Ok(config)
    }

    /// Parse and validate; the error is every problem found, each with its
    /// place when known. A syntax error stops the reading (what follows it
    /// cannot be trusted); otherwise each key is read on its own, so that
    /// one mistake does not hide the next (`docs/guide.md`, "Configuration").
    pub fn parse(text: &str) -> Result<Config, Vec<Problem>> {
        let (table, syntax) = toml::de::DeTable::parse_recoverable(text);
        if !syntax.is_empty() {
            return Err(reported(
                syntax
                    .iter()
                    .map(|e| Problem {
                        message: escaped_lines(e.message().trim_end()),
                        span: e.span(),
                    })
                    .collect(),
            ));
        }
        let mut table = table.into_inner();
        let mut problems = Vec::new();
        prune(&mut table, &mut Vec::new(), &mut problems);
        let mut config = match Config::deserialize(toml::de::Deserializer::from(
            toml::Spanned::new(0..text.len(), table),
        )) {
            Ok(config) => config,
            // Only mistakes of the whole together are left: say the first.
            Err(e) => {
                problems.push(Problem {
                    message: in_user_words(&[], "", e.message()),
                    span: e.span(),
                });
                return Err(reported(problems));
            }
        };
        for invalid in config.validate() {
            // Point at the offending value: the first place its text appears.
            let span = text.find(&invalid.at).map(|at| at..at + invalid.at.len());
            problems.push(Problem {
                message: escaped_lines(&invalid.message),
                span,
            });
        }
        if !problems.is_empty() {
            return Err(reported(problems));
        }
        config.root_line = root_line(text);
        Ok(config)
    }

    /// Check what serde cannot: rule codes, sizes, globs. Each problem
    /// comes with the text to point at in the file.
    fn validate(&self) -> Vec<Invalid> {
        let config = self;
        let mut found = Vec::new();
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
                found.push(Invalid::new(
                    UnknownRule::new(code).to_string(),
                    format!("\"{code}\""),
                ));
            }
        }
        if let Err(e) =
            crate::suppress::per_file::PerFileIgnores::new(&config.lint.per_file_ignores)
        {
            let needle = match &e {
                crate::suppress::per_file::BadPerFileIgnore::Glob { glob, .. } => glob.clone(),
                crate::suppress::per_file::BadPerFileIgnore::Rule(r) => format!("\"{}\"", r.code),
            };
            found.push(Invalid::new(e.to_string(), needle));
        }
        if let Err(e) = config.max_file_size() {
            found.push(Invalid::new(e.to_string(), "max-file-size"));
        }
        if let Err(e) = exclude_set(&config.exclude) {
            found.push(Invalid::new(e.to_string(), "exclude"));
        }
        // `[verify]` is checked here too, not first when `verify` runs.
        if let Some(t) = &config.verify.timeout
            && parse_duration(t).is_none()
        {
            found.push(Invalid::new(
                format!("verify.timeout: `{t}` is not a duration (try \"30s\" or \"500ms\")"),
                "timeout",
            ));
        }
        if let Some(n) = config.verify.retries
            && n > MAX_RETRIES
        {
            found.push(Invalid::new(
                format!(
                    "verify.retries: {n} is too many; urldb tries a URL again at most \
                     {MAX_RETRIES} times (each wait is at most 30 s)"
                ),
                "retries",
            ));
        }
        if config.verify.concurrency == Some(0) {
            found.push(Invalid::new(
                "verify.concurrency must be at least 1",
                "concurrency",
            ));
        }
        if let Err(e) = config.verify.exceptions().validate("verify", None) {
            found.push(e);
        }
        let mut hosts = std::collections::BTreeSet::new();
        for (key, section) in &config.verify.domains {
            let needle = format!("\"{key}\"");
            let host = match domain_key(key) {
                Ok(host) => host,
                Err(e) => {
                    found.push(Invalid::new(format!("verify.domains: {e}"), needle));
                    continue;
                }
            };
            if !hosts.insert(host.clone()) {
                found.push(Invalid::new(
                    format!("verify.domains: `{host}` has two sections"),
                    needle,
                ));
                continue;
            }
            if let Err(e) = section.validate(&format!("verify.domains.\"{host}\""), Some(&host)) {
                found.push(e);
            }
        }
        found
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

type Table<'i> = toml::de::DeTable<'i>;
type Key<'i> = toml::Spanned<toml::de::DeString<'i>>;
type Value<'i> = toml::Spanned<toml::de::DeValue<'i>>;

/// The most problems said of one file; the rest are counted (a file of
/// mistakes cannot flood the log: `docs/security.md`, "Budgets").
pub const MAX_PROBLEMS: usize = 20;

/// `problems` in the order of the file, at most [`MAX_PROBLEMS`] of them
/// and a count of the rest.
fn reported(mut problems: Vec<Problem>) -> Vec<Problem> {
    problems.sort_by_key(|p| p.span.as_ref().map_or(usize::MAX, |s| s.start));
    if problems.len() > MAX_PROBLEMS {
        let more = problems.len() - MAX_PROBLEMS;
        problems.truncate(MAX_PROBLEMS);
        problems.push(Problem {
            message: format!(
                "and {more} more problem{} in this file",
                if more == 1 { "" } else { "s" }
            ),
            span: None,
        });
    }
    problems
}

/// `text` escaped line by line: what the file put in a message shows its
/// control characters visibly, and the message's own line breaks stay.
fn escaped_lines(text: &str) -> String {
    text.split('\n')
        .map(|line| crate::text::escape(line).into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

/// How deep sections are read key by key (`[verify.domains."HOST"]` is 3).
const PRUNE_DEPTH: usize = 3;

/// Remove from `table` (the section at `path`) every entry that cannot be
/// read, each said as a problem; a section is read key by key, so that two
/// mistakes in it are both said.
fn prune<'i>(table: &mut Table<'i>, path: &mut Vec<Key<'i>>, problems: &mut Vec<Problem>) {
    let keys: Vec<Key<'i>> = table.keys().cloned().collect();
    for key in keys {
        let Some(value) = table.get_mut(&key) else {
            continue;
        };
        if read_alone(path, &key, value).is_ok() {
            continue;
        }
        if path.len() < PRUNE_DEPTH
            && let toml::de::DeValue::Table(inner) = value.get_mut()
        {
            path.push(key.clone());
            prune(inner, path, problems);
            path.pop();
        }
        if let Err(e) = read_alone(path, &key, value) {
            let mut dotted: Vec<&str> = path.iter().map(|k| k.get_ref().as_ref()).collect();
            let message = if is_array_of_tables(value)
                && read_alone(path, &key, &empty_table(value.span())).is_ok()
            {
                // serde reads a struct from a sequence too, and then
                // speaks of the first table's first key.
                dotted.push(key.get_ref());
                let name = crate::text::escape(&dotted.join(".")).into_owned();
                format!("{name}: `[[{name}]]` is an array of tables; write `[{name}]`, one table")
            } else {
                in_user_words(&dotted, key.get_ref(), e.message())
            };
            problems.push(Problem {
                message,
                span: e.span(),
            });
            table.remove(&key);
        }
    }
}

fn is_array_of_tables(value: &Value<'_>) -> bool {
    match value.get_ref() {
        toml::de::DeValue::Array(items) => items
            .iter()
            .all(|i| matches!(i.get_ref(), toml::de::DeValue::Table(_))),
        _ => false,
    }
}

fn empty_table<'i>(span: std::ops::Range<usize>) -> Value<'i> {
    toml::Spanned::new(span, toml::de::DeValue::Table(Table::new()))
}

/// The key `key` of the section at `path`, alone, read as a configuration.
fn read_alone(path: &[Key<'_>], key: &Key<'_>, value: &Value<'_>) -> Result<(), toml::de::Error> {
    let mut doc = Table::new();
    doc.insert(key.clone(), value.clone());
    for outer in path.iter().rev() {
        let mut section = Table::new();
        section.insert(
            outer.clone(),
            toml::Spanned::new(value.span(), toml::de::DeValue::Table(doc)),
        );
        doc = section;
    }
    Config::deserialize(toml::de::Deserializer::from(toml::Spanned::new(
        value.span(),
        doc,
    )))
    .map(|_| ())
}

/// serde's message in the words of a TOML file: keys, tables, arrays and
/// the range of a number rather than fields, maps, sequences and `usize`;
/// the key a message is about in front (`verify.concurrency: ...`), and
/// the nearest name when a key or a value is unknown (`did you mean`).
fn in_user_words(section: &[&str], key: &str, message: &str) -> String {
    // Keys and values are the file's: escaped (`crate::text::escape`).
    let message = &*crate::text::escape(message);
    let section: Vec<String> = section
        .iter()
        .map(|k| crate::text::escape(k).into_owned())
        .collect();
    let key = crate::text::escape(key);
    let mut dotted: Vec<&str> = section.iter().map(String::as_str).collect();
    dotted.push(&key);
    let name = dotted.join(".");
    let prefix = if name.is_empty() {
        String::new()
    } else {
        format!("{name}: ")
    };
    if let Some(rest) = message.strip_prefix("unknown field ") {
        let within = if section.is_empty() {
            String::new()
        } else {
            format!(" in [{}]", section.join("."))
        };
        let (unknown, expected) = rest.split_once(", ").unwrap_or((rest, ""));
        return did_you_mean(&format!("unknown key {unknown}{within}, {expected}"));
    }
    if let Some(rest) = message.strip_prefix("unknown variant ") {
        return did_you_mean(&format!("{prefix}unknown value {rest}"));
    }
    if message.starts_with("data did not match any variant of untagged enum StatusSpec") {
        return format!(
            "{prefix}expected a status (an integer such as 403) or a range (a string such as \"500-599\")"
        );
    }
    for kind in ["invalid type: ", "invalid value: "] {
        if let Some(rest) = message.strip_prefix(kind)
            && let Some((found, expected)) = rest.rsplit_once(", expected ")
        {
            return format!(
                "{prefix}expected {}, found {}",
                expected_words(&name, expected),
                found_words(found)
            );
        }
    }
    format!("{prefix}{message}")
}

/// What serde expected, as a TOML file says it.
fn expected_words(key: &str, expected: &str) -> String {
    if key == "verify.concurrency" {
        // 0 is refused; more than 256 run as 256 (`docs/security.md`).
        return "an integer from 1 to 256".to_string();
    }
    match expected {
        e if e.starts_with("struct ") || e == "a map" => "a table".to_string(),
        "a sequence" => "an array".to_string(),
        "a boolean" => "true or false".to_string(),
        "usize" | "u64" | "u32" | "u16" | "u8" => "an integer from 0 up".to_string(),
        "i64" | "i32" => "an integer".to_string(),
        "a string" | "a borrowed string" => "a string".to_string(),
        "path string" => "a string (a path)".to_string(),
        other => other.to_string(),
    }
}

/// What serde found, as a TOML file says it.
fn found_words(found: &str) -> String {
    let quoted = |prefix: &str| {
        found
            .strip_prefix(prefix)
            .map(|v| v.trim_matches('`').to_string())
    };
    match found {
        "map" => "a table".to_string(),
        "sequence" => "an array".to_string(),
        f if f.starts_with("string ") => format!("the string {}", &f["string ".len()..]),
        _ => quoted("integer ")
            .or_else(|| quoted("floating point "))
            .or_else(|| quoted("boolean "))
            .unwrap_or_else(|| found.to_string()),
    }
}

/// The 1-based line of the `root` key, for messages about the directory it
/// names.
fn root_line(text: &str) -> Option<usize> {
    let (table, _) = toml::de::DeTable::parse_recoverable(text);
    let table = table.into_inner();
    let (key, _) = table.get_key_value("root")?;
    Some(line_col(text, key.span().start).0)
}

/// "unknown key `x`, expected one of `a`, `b`" (or "unknown value `x`,
/// expected `a` or `b`"): add the nearest one as a suggestion.
fn did_you_mean(message: &str) -> String {
    let Some(rest) = message
        .split("unknown key `")
        .nth(1)
        .or_else(|| message.split("unknown value `").nth(1))
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
        Config::parse(text).map_err(|problems| problems[0].message.clone())
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
