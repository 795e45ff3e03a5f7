//! `urldb.toml`: the configuration file's keys and their validation. It is
//! found and read by `urldb-store`'s `settings`, which resolves it with
//! the command line or the editor's settings.
//!
//! The field comments here are the user documentation of each key.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::Deserialize;
use serde::de::DeserializeOwned;

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
    /// `[verify]`, which `urldb-verify` reads and checks (a [`Section`]);
    /// here only its name is known, so that the file's other keys are
    /// checked whole.
    #[serde(default, rename = "verify")]
    _verify: serde::de::IgnoredAny,
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
    /// The nearest known name, when a key or a value is unknown: "did
    /// you mean `x`?".
    pub help: Option<String>,
    pub span: Option<std::ops::Range<usize>>,
}

/// A value the file holds that urldb refuses, found after serde read it
/// (a rule code, a glob, a header): what is wrong, and the text of the
/// file to point at.
#[derive(Debug)]
pub struct Invalid {
    message: String,
    at: String,
}

impl Invalid {
    pub fn new(message: impl Into<String>, at: impl Into<String>) -> Invalid {
        Invalid {
            message: message.into(),
            at: at.into(),
        }
    }

    /// The problem in the file `text`: the message escaped (what the file
    /// put in it may hold control characters), pointing at the first place
    /// the offending value's text appears.
    pub fn in_file(&self, text: &str) -> Problem {
        Problem::new(
            escaped_lines(&self.message),
            text.find(&self.at).map(|at| at..at + self.at.len()),
        )
    }
}

/// A table of `urldb.toml` that another crate owns and checks (`[verify]`
/// is `urldb-verify`'s). Whoever reads the file passes the sections it
/// knows to [`Config::from_text`], so that one error says every mistake
/// in the file; the section keeps what it read for its owner.
pub trait Section {
    /// Read this section of `text`, a file that is valid TOML (its keys
    /// read with [`read_keys`]), keeping what it holds; every mistake in it.
    fn read(&self, text: &str) -> Vec<Problem>;
}

/// `text`, valid TOML, read as `T` key by key: each entry that cannot be
/// read is said in `problems` (in the words of a TOML file) and left out,
/// so that one mistake does not hide the next. `None` when what is left
/// still cannot be read whole (the first reason said too).
pub fn read_keys<T: DeserializeOwned>(text: &str, problems: &mut Vec<Problem>) -> Option<T> {
    let (table, _) = toml::de::DeTable::parse_recoverable(text);
    let mut table = table.into_inner();
    prune::<T>(&mut table, &mut Vec::new(), problems);
    match T::deserialize(toml::de::Deserializer::from(toml::Spanned::new(
        0..text.len(),
        table,
    ))) {
        Ok(value) => Some(value),
        // Only mistakes of the whole together are left: say the first.
        Err(e) => {
            problems.push(Problem {
                span: e.span(),
                ..in_user_words(&[], "", e.message())
            });
            None
        }
    }
}

/// `path:line:col: message`, a line each (the language server shows this).
fn lines(path: &Path, text: &str, problems: &[Problem]) -> String {
    problems
        .iter()
        .map(|p| p.located(path, text))
        .collect::<Vec<_>>()
        .join("\n")
}

impl Problem {
    /// A problem with no suggestion.
    fn new(message: String, span: Option<std::ops::Range<usize>>) -> Problem {
        Problem {
            message,
            help: None,
            span,
        }
    }

    /// `path:line:col: message` (`path: message` without a place), the
    /// problem of the file `text` read from `path`; the suggestion on a
    /// line of its own.
    pub fn located(&self, path: &Path, text: &str) -> String {
        let shown = crate::source::shown_path(path);
        let place = match &self.span {
            Some(span) => {
                let (line, col) = line_col(text, span.start);
                format!("{shown}:{line}:{col}")
            }
            None => shown.to_string(),
        };
        match &self.help {
            Some(help) => format!("{place}: {}\n  {help}", self.message),
            None => format!("{place}: {}", self.message),
        }
    }
}

/// 1-based line and column (in characters) of byte `offset` of `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset.min(text.len())).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

pub use crate::rules::settings::{DEFAULT_MAX_FILE_SIZE, LintSettings};

impl Config {
    /// Validate the text of the configuration file at `path` (the path is
    /// only named in the error; `urldb-store` reads the file), with the
    /// `sections` other crates own: one error says every mistake in the
    /// file.
    pub fn from_text(
        path: &Path,
        text: &str,
        sections: &[&dyn Section],
    ) -> Result<Config, ConfigError> {
        let mut config =
            Config::parse_with(text, sections).map_err(|problems| ConfigError::Invalid {
                path: path.to_path_buf(),
                problems,
                text: text.to_string(),
            })?;
        config.warnings = gate_warnings(text);
        Ok(config)
    }

    /// [`Config::parse_with`] without other crates' sections.
    pub fn parse(text: &str) -> Result<Config, Vec<Problem>> {
        Config::parse_with(text, &[])
    }

    /// Parse and validate, with `sections`; the error is every problem
    /// found, each with its place when known. A syntax error stops the
    /// reading (what follows it cannot be trusted); otherwise each key is
    /// read on its own, so that one mistake does not hide the next
    /// (`docs/guide.md`, "Configuration").
    pub fn parse_with(text: &str, sections: &[&dyn Section]) -> Result<Config, Vec<Problem>> {
        let (_, syntax) = toml::de::DeTable::parse_recoverable(text);
        if !syntax.is_empty() {
            return Err(reported(
                syntax
                    .iter()
                    .map(|e| {
                        let message = escaped_lines(e.message().trim_end());
                        let first = e
                            .span()
                            .filter(|_| message == "duplicate key")
                            .and_then(|span| first_definition(text, span.start));
                        match first {
                            Some((line, Defined::Table(name))) => Problem::new(
                                format!(
                                    "duplicate table `{}`: already defined on line {line} \
                                     (write its keys under one header)",
                                    crate::text::escape(&name)
                                ),
                                e.span(),
                            ),
                            Some((line, Defined::Key(name))) => Problem::new(
                                format!(
                                    "duplicate key `{}`: already defined on line {line}",
                                    crate::text::escape(&name)
                                ),
                                e.span(),
                            ),
                            None => Problem::new(message, e.span()),
                        }
                    })
                    .collect(),
            ));
        }
        let mut problems = Vec::new();
        for section in sections {
            problems.extend(section.read(text));
        }
        let Some(mut config) = read_keys::<Config>(text, &mut problems) else {
            return Err(reported(problems));
        };
        for invalid in config.validate() {
            problems.push(invalid.in_file(text));
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
        if let Err(e) = crate::per_file_ignores::PerFileIgnores::new(&config.lint.per_file_ignores)
        {
            let needle = match &e {
                crate::per_file_ignores::BadPerFileIgnore::Glob { glob, .. } => glob.clone(),
                crate::per_file_ignores::BadPerFileIgnore::Rule(r) => format!("\"{}\"", r.code),
            };
            found.push(Invalid::new(e.to_string(), needle));
        }
        if let Err(e) = config.max_file_size() {
            found.push(Invalid::new(e.to_string(), "max-file-size"));
        }
        if let Err(e) = exclude_set(&config.exclude) {
            found.push(Invalid::new(e.to_string(), "exclude"));
        }
        found
    }

    /// `max-file-size`, at most [`MAX_FILE_SIZE_CAP`]: a pull request's
    /// `urldb.toml` cannot make every run (and an editor open on its
    /// checkout) read files of any size (`docs/security.md` §8).
    pub fn max_file_size(&self) -> Result<u64, NotASize> {
        match &self.max_file_size {
            None => Ok(DEFAULT_MAX_FILE_SIZE),
            Some(s) => match parse_size(s) {
                Some(n) if n <= MAX_FILE_SIZE_CAP => Ok(n),
                Some(_) => Err(NotASize::OverTheCap(s.clone())),
                None => Err(NotASize::NotASize(s.clone())),
            },
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

/// The largest `max-file-size` (1 GiB).
pub const MAX_FILE_SIZE_CAP: u64 = 1024 * 1024 * 1024;

/// `max-file-size` that is not a size, or over [`MAX_FILE_SIZE_CAP`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotASize {
    #[error("max-file-size: `{0}` is not a size (try \"64 MiB\" or \"500 kB\")")]
    NotASize(String),
    #[error(
        "max-file-size: `{0}` is too large; urldb reads files of at most 1 GiB \
         (try \"64 MiB\", the default, or \"1 GiB\")"
    )]
    OverTheCap(String),
}

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
        problems.push(Problem::new(
            format!(
                "and {more} more problem{} in this file",
                if more == 1 { "" } else { "s" }
            ),
            None,
        ));
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
fn prune<'i, T: DeserializeOwned>(
    table: &mut Table<'i>,
    path: &mut Vec<Key<'i>>,
    problems: &mut Vec<Problem>,
) {
    let keys: Vec<Key<'i>> = table.keys().cloned().collect();
    for key in keys {
        let Some(value) = table.get_mut(&key) else {
            continue;
        };
        if read_alone::<T>(path, &key, value).is_ok() {
            continue;
        }
        if path.len() < PRUNE_DEPTH
            && let toml::de::DeValue::Table(inner) = value.get_mut()
        {
            path.push(key.clone());
            prune::<T>(inner, path, problems);
            path.pop();
        }
        if let Err(e) = read_alone::<T>(path, &key, value) {
            let mut dotted: Vec<&str> = path.iter().map(|k| k.get_ref().as_ref()).collect();
            let said = if is_array_of_tables(value)
                && read_alone::<T>(path, &key, &empty_table(value.span())).is_ok()
            {
                // serde reads a struct from a sequence too, and then
                // speaks of the first table's first key.
                dotted.push(key.get_ref());
                let name = crate::text::escape(&dotted.join(".")).into_owned();
                Problem::new(
                    format!(
                        "{name}: `[[{name}]]` is an array of tables; write `[{name}]`, one table"
                    ),
                    None,
                )
            } else {
                in_user_words(&dotted, key.get_ref(), e.message())
            };
            problems.push(Problem {
                span: e.span(),
                ..said
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

/// The key `key` of the section at `path`, alone, read as a `T`.
fn read_alone<T: DeserializeOwned>(
    path: &[Key<'_>],
    key: &Key<'_>,
    value: &Value<'_>,
) -> Result<(), toml::de::Error> {
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
    T::deserialize(toml::de::Deserializer::from(toml::Spanned::new(
        value.span(),
        doc,
    )))
    .map(|_| ())
}

/// serde's message in the words of a TOML file: keys, tables, arrays and
/// the range of a number rather than fields, maps, sequences and `usize`;
/// the key a message is about in front (`verify.concurrency: ...`), and
/// the nearest name when a key or a value is unknown (`did you mean`). No
/// place yet: the caller knows it.
fn in_user_words(section: &[&str], key: &str, message: &str) -> Problem {
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
        let problem = did_you_mean(&format!("unknown key {unknown}{within}, {expected}"));
        // `exclude = []` appended at the end of the file lands in the last
        // table: say where top-level keys go.
        let name = unknown.trim_matches('`');
        if !section.is_empty() && TOP_LEVEL_KEYS.contains(&name) {
            return Problem {
                help: Some(format!(
                    "`{name}` is a top-level key: write it above the first table (`[lint]`); \
                     a key after `[{}]` belongs to that table",
                    section.join(".")
                )),
                ..problem
            };
        }
        return problem;
    }
    if let Some(rest) = message.strip_prefix("unknown variant ") {
        return did_you_mean(&format!("{prefix}unknown value {rest}"));
    }
    for kind in ["invalid type: ", "invalid value: "] {
        if let Some(rest) = message.strip_prefix(kind)
            && let Some((found, expected)) = rest.rsplit_once(", expected ")
        {
            return Problem::new(
                format!(
                    "{prefix}expected {}, found {}",
                    expected_words(expected),
                    found_words(found)
                ),
                None,
            );
        }
    }
    Problem::new(format!("{prefix}{message}"), None)
}

/// What serde expected, as a TOML file says it.
fn expected_words(expected: &str) -> String {
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

/// The keys of the file's top level (above its first table).
const TOP_LEVEL_KEYS: &[&str] = &[
    "root",
    "line-ending",
    "empty-metadata",
    "style",
    "max-file-size",
    "exclude",
];

/// The 1-based line where the key or table that a "duplicate key" at
/// byte `at` repeats was first defined: the same `[table]` header above
/// it, or the same key earlier in its table. A guess from the lines (a
/// dotted or quoted key is not looked for), `None` when none is found.
fn first_definition(text: &str, at: usize) -> Option<(usize, Defined)> {
    let start = text.get(..at)?.rfind('\n').map_or(0, |i| i + 1);
    let line = text.get(start..)?.lines().next()?;
    let bare = |l: &str| l.split('#').next().unwrap_or_default().trim().to_string();
    let here = bare(line);
    let earlier: Vec<(usize, String)> = text
        .get(..start)?
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, bare(l)))
        .collect();
    if here.starts_with('[') {
        let header: String = here.chars().filter(|c| !c.is_whitespace()).collect();
        let line = earlier.iter().find_map(|(n, l)| {
            let l: String = l.chars().filter(|c| !c.is_whitespace()).collect();
            (l == header).then_some(*n)
        })?;
        return Some((line, Defined::Table(header)));
    }
    let key = here.split('=').next()?.trim();
    let line = earlier
        .iter()
        .rev()
        .take_while(|(_, l)| !l.starts_with('['))
        .find_map(|(n, l)| {
            let (k, _) = l.split_once('=')?;
            (k.trim() == key).then_some(*n)
        })?;
    Some((line, Defined::Key(key.to_string())))
}

/// What a duplicate repeats: a `[table]` header, or a key.
enum Defined {
    Table(String),
    Key(String),
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
/// expected `a` or `b`"), with the nearest one as a suggestion.
fn did_you_mean(message: &str) -> Problem {
    let plain = || Problem::new(message.to_string(), None);
    let Some(rest) = message
        .split("unknown key `")
        .nth(1)
        .or_else(|| message.split("unknown value `").nth(1))
    else {
        return plain();
    };
    let Some(field) = rest.split('`').next() else {
        return plain();
    };
    let expected: Vec<&str> = rest
        .split("expected")
        .nth(1)
        .map(|list| list.split('`').skip(1).step_by(2).collect())
        .unwrap_or_default();
    match crate::suggest::closest(field, expected) {
        Some(best) => Problem {
            message: message.trim_end().to_string(),
            help: Some(format!("did you mean `{best}`?")),
            span: None,
        },
        None => plain(),
    }
}
