//! Editing the database by URL (`add`, `rm`, `import`): find the domain
//! file of a host by file stem or cname, insert or remove records, and
//! write each file once, atomically, as canonical text.
//!
//! Finding a host reads only the metadata document of each file (the text
//! before the second `---`), so a large database costs one short read per
//! file. Editing goes through the same parse, rules and renderer as `fmt`:
//! a file that `fmt` would refuse to rewrite (comments, syntax errors,
//! anchors...) is refused here too, and a new record must pass every rule
//! on its own before it is written.

use crate::read::{ReadError, Root};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::write::{self, Notes, WriteError};
use urldb_core::lint::{self, Options};
use urldb_core::model::domain::{
    self, CATEGORIES, CONTENT_LENGTH, CONTENT_SHA256, CONTENT_TYPE, PATH,
};
use urldb_core::model::node::{Document, Entry, Node, Scalar, Value};
use urldb_core::model::path::equivalence_key;
use urldb_core::render::render;
use urldb_core::rules::diagnostic::Severity;
use urldb_core::url::{Canonical, Scheme};

/// A domain file, as its metadata describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Domain {
    pub file: PathBuf,
    /// The primary domain (the file stem).
    pub name: String,
    pub case_sensitive_paths: bool,
    pub https: bool,
    pub cnames: Vec<String>,
}

impl Domain {
    /// A file to create for a host no file knows (`--create-domain`):
    /// named after the host, in the database root, `https` from the URL.
    pub fn new_file(root: &Path, url: &Canonical) -> Domain {
        Domain {
            file: root.join(format!("{}.yaml", url.host)),
            name: url.host.clone(),
            case_sensitive_paths: true,
            https: url.scheme == Scheme::Https,
            cnames: Vec::new(),
        }
    }

    /// The `_path` this domain stores for `url`: lowercased where paths
    /// are case-insensitive.
    pub fn path_for(&self, url: &Canonical) -> String {
        if self.case_sensitive_paths {
            url.path_and_query.clone()
        } else {
            url.case_folded_path_and_query()
        }
    }
}

/// Why a host has no domain file to go to.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LookupError {
    #[error("unknown host `{host}`: no file `{host}.yaml` and no file lists it in `cnames`{hint}")]
    Unknown { host: String, hint: String },
    #[error("host `{host}` is claimed by several files ({}); run `urldb check`", files.join(", "))]
    Ambiguous { host: String, files: Vec<String> },
}

/// Every domain file's host names, from their metadata.
#[derive(Debug, Default)]
pub struct HostIndex {
    domains: Vec<Domain>,
    by_host: HashMap<String, Vec<usize>>,
    /// Files whose metadata could not be read, and problems of the walk.
    pub errors: Vec<crate::database::FileError>,
}

impl HostIndex {
    /// Read the metadata of every domain file of the database.
    pub fn build(members: &crate::membership::Members) -> HostIndex {
        let root = members.root();
        let found = crate::discover::find_files(members);
        let mut index = HostIndex::default();
        for e in found.errors {
            index.errors.push(e.into());
        }
        for file in found.files {
            let name = urldb_core::rules::domain_of(&file);
            let domain = match crate::documents::read_metadata(root, &file) {
                Ok(docs) => Domain {
                    name,
                    case_sensitive_paths: domain::case_sensitive_paths(&docs),
                    https: domain::https(&docs),
                    cnames: domain::cnames(&docs)
                        .into_iter()
                        .map(String::from)
                        .collect(),
                    file,
                },
                // The stem still names the file; editing it will be refused
                // with the reason, which is more useful than "unknown host".
                Err(e) => {
                    index.errors.push(crate::database::FileError {
                        path: file.clone(),
                        problem: crate::database::FileProblem::Documents(std::sync::Arc::new(e)),
                    });
                    Domain {
                        name,
                        case_sensitive_paths: true,
                        https: false,
                        cnames: Vec::new(),
                        file,
                    }
                }
            };
            index.insert(domain);
        }
        index
    }

    fn insert(&mut self, domain: Domain) {
        let at = self.domains.len();
        let mut hosts = vec![domain.name.clone()];
        hosts.extend(domain.cnames.iter().cloned());
        hosts.sort();
        hosts.dedup();
        for host in hosts {
            self.by_host.entry(host).or_default().push(at);
        }
        self.domains.push(domain);
    }

    pub fn domains(&self) -> &[Domain] {
        &self.domains
    }

    /// The domain file `url` belongs in: the one whose name or cname is
    /// its host or, with `create`, a new file named after the host (`add`
    /// and `import` with `--create-domain`).
    pub fn domain_for(
        &self,
        root: &Path,
        url: &Canonical,
        create: bool,
    ) -> Result<Domain, LookupError> {
        match self.find(&url.host, Creating::Offered) {
            Ok(domain) => Ok(domain.clone()),
            Err(LookupError::Unknown { .. }) if create => Ok(Domain::new_file(root, url)),
            Err(e) => Err(e),
        }
    }

    /// The domain file of `host` (its stem or one of its cnames), for a
    /// command that cannot create one (`rm`): an unknown host's hint
    /// names no option of `add`.
    pub fn lookup(&self, host: &str) -> Result<&Domain, LookupError> {
        self.find(host, Creating::NotOffered)
    }

    fn find(&self, host: &str, creating: Creating) -> Result<&Domain, LookupError> {
        match self.by_host.get(host).map(Vec::as_slice) {
            Some([one]) => Ok(&self.domains[*one]),
            Some(many) if !many.is_empty() => Err(LookupError::Ambiguous {
                host: host.to_string(),
                files: many
                    .iter()
                    .map(|i| urldb_core::source::display_path(&self.domains[*i].file))
                    .collect(),
            }),
            _ => Err(LookupError::Unknown {
                host: host.to_string(),
                hint: self.hint(host, creating),
            }),
        }
    }

    /// "did you mean": the same host with or without `www.`; else, for
    /// `add` and `import`, the option that creates the file, and for `rm`
    /// the closest host the database has.
    fn hint(&self, host: &str, creating: Creating) -> String {
        let other = match host.strip_prefix("www.") {
            Some(bare) => bare.to_string(),
            None => format!("www.{host}"),
        };
        match self.by_host.get(&other).and_then(|v| v.first()) {
            Some(i) => format!(
                "; `{other}` is in {} (add `{host}` to its `cnames` if it serves the same site)",
                urldb_core::source::display_path(&self.domains[*i].file)
            ),
            None if creating == Creating::Offered => {
                " (use `--create-domain` to create it)".to_string()
            }
            None => match urldb_core::closest(host, self.by_host.keys().map(String::as_str)) {
                Some(best) => format!(" (did you mean `{best}`?)"),
                None => " (`urldb ls` lists the database's URLs)".to_string(),
            },
        }
    }
}

/// Whether the command that looks a host up can create its file
/// (`--create-domain`), so that a hint offers only what it accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Creating {
    Offered,
    NotOffered,
}

/// A record to insert. `path` is the `_path` as it will be written (already
/// lowercased for a case-insensitive domain).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewRecord {
    pub path: String,
    pub content_type: String,
    pub categories: Vec<String>,
    /// `content-length` and `content-sha256` (64 lowercase hex digits).
    pub digest: Option<(u64, String)>,
    /// Other keys, as scalars.
    pub extras: Vec<(String, Scalar)>,
}

impl NewRecord {
    fn document(&self) -> Document {
        let key = |k: &str| Node::new(Value::Scalar(Scalar::string(k)), 0..0);
        let scalar = |s: Scalar| Node::new(Value::Scalar(s), 0..0);
        let mut entries = vec![
            Entry {
                key: key(PATH),
                value: scalar(Scalar::string(&self.path)),
            },
            Entry {
                key: key(CONTENT_TYPE),
                value: scalar(Scalar::string(&self.content_type)),
            },
        ];
        let mut categories = self.categories.clone();
        categories.sort();
        categories.dedup();
        if !categories.is_empty() {
            entries.push(Entry {
                key: key(CATEGORIES),
                value: Node::new(
                    Value::Seq(
                        categories
                            .into_iter()
                            .map(|c| scalar(Scalar::string(c)))
                            .collect(),
                    ),
                    0..0,
                ),
            });
        }
        if let Some((length, sha256)) = &self.digest {
            entries.push(Entry {
                key: key(CONTENT_LENGTH),
                value: scalar(Scalar::plain(length.to_string())),
            });
            entries.push(Entry {
                key: key(CONTENT_SHA256),
                value: scalar(Scalar::string(sha256)),
            });
        }
        for (k, v) in &self.extras {
            entries.push(Entry {
                key: key(k),
                value: scalar(v.clone()),
            });
        }
        Document {
            root: Some(Node::new(Value::Map(entries), 0..0)),
            span: 0..0,
            explicit_start: true,
            ..Document::default()
        }
    }
}

/// What happened to one record of an edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    Added,
    /// An equivalent path is already there (it is left as it is), with
    /// its `content-type` when that is text.
    Exists {
        existing: String,
        content_type: Option<String>,
    },
    /// The record breaks a rule: (rule code, message).
    Invalid {
        code: &'static str,
        message: String,
    },
    /// The record whose `_path` is `stored` (the path given, or a
    /// spelling of it that names the same URL) was removed.
    Removed {
        stored: String,
    },
    NotFound,
    /// The record whose `_path` is `stored` now says its URL redirects
    /// (`urldb moved`).
    Redirected {
        stored: String,
    },
}

/// The result of editing one file.
#[derive(Debug)]
pub struct FileEdit {
    pub file: PathBuf,
    /// One change per record or path asked for, in the same order.
    pub changes: Vec<Change>,
    /// The file was written.
    pub written: bool,
    /// The file was not canonical before: it was written in canonical form.
    pub reformatted: bool,
}

/// Why a file could not be edited at all.
#[derive(Debug, thiserror::Error)]
pub enum EditError {
    #[error("{}: {source}", urldb_core::source::display_path(file))]
    Read { file: PathBuf, source: ReadError },
    #[error(
        "{}: not edited: it has a `{code}` finding that blocks rewriting it; run `urldb check {}`",
        urldb_core::source::display_path(file),
        urldb_core::source::display_path(file)
    )]
    Blocked { file: PathBuf, code: &'static str },
    #[error(
        "cannot create {}: `{domain}` is not a valid domain file name: {reason}",
        urldb_core::source::display_path(file)
    )]
    BadDomain {
        file: PathBuf,
        domain: String,
        reason: String,
    },
    #[error(
        "{}: `{path}` has the key `{key}`, which is not text; a moved record takes its keys along, so move it by hand",
        urldb_core::source::display_path(file)
    )]
    NotScalar {
        file: PathBuf,
        path: String,
        key: String,
    },
    #[error(transparent)]
    Write(#[from] WriteError),
}

/// A domain file as read for editing.
struct Loaded {
    raw: Vec<u8>,
    text: String,
    documents: Vec<Document>,
    canonical: bool,
}

impl Loaded {
    /// The file's edited `documents` written over the bytes read, when
    /// `written` (the lock re-checks them first, and is let go after), in
    /// canonical text.
    fn write_back(
        &self,
        file: &Path,
        documents: &[Document],
        changes: Vec<Change>,
        written: bool,
        options: &Options,
        lock: write::Lock<'_>,
    ) -> Result<FileEdit, EditError> {
        if written {
            let text = render(
                documents,
                &lint::render_options(&self.text, documents, options),
            );
            lock.replace(&self.raw, text.as_bytes())?;
        }
        Ok(FileEdit {
            file: file.to_path_buf(),
            changes,
            written,
            reformatted: written && !self.canonical,
        })
    }
}

/// The record whose `_path` is equivalent to `path` (as the file's
/// `case-sensitive-paths` compares): its document and its path as stored.
fn find_record(
    documents: &[Document],
    path: &str,
    case_sensitive: bool,
) -> Option<(usize, String)> {
    let key = equivalence_key(path, case_sensitive);
    domain::records(documents).find_map(|r| {
        let p = r.path()?;
        (equivalence_key(p, case_sensitive) == key).then(|| (r.doc, p.to_string()))
    })
}

fn load(root: &Root, file: &Path, options: &Options) -> Result<Loaded, EditError> {
    let raw = crate::database::read_file(root, file, options.settings.max_file_size).map_err(
        |source| EditError::Read {
            file: file.to_path_buf(),
            source,
        },
    )?;
    let checked = lint::check_bytes(file, &raw, options);
    let blocked = |code| EditError::Blocked {
        file: file.to_path_buf(),
        code,
    };
    if let Some(rule) = checked.blocked_by {
        return Err(blocked(rule.code));
    }
    // A tab PyYAML refuses (`yaml-syntax`): `fmt` would write spaces, so it
    // blocks no rewrite, but PyYAML does not read the file as it stands;
    // refused, as `ls`, `export` and `verify` refuse it
    // (`urldb_core::parse::read_whole`).
    if let Some(f) = checked.findings.iter().find(|f| f.rule.blocks_rewrite) {
        return Err(blocked(f.rule.code));
    }
    let (Some(documents), Some(canonical)) = (checked.documents.into_parsed(), checked.canonical)
    else {
        return Err(blocked("yaml-syntax"));
    };
    let canonical = canonical == checked.source.text;
    Ok(Loaded {
        raw,
        text: checked.source.text,
        documents,
        canonical,
    })
}

/// Insert `records` into the domain file `domain` (one write). When
/// `create` is set and the file does not exist, it is created (with
/// `https: true` when `create` says so). What the writer has to say
/// meanwhile goes to `notes`.
pub fn add_records(
    root: &Root,
    domain: &Domain,
    records: &[NewRecord],
    create: bool,
    options: &Options,
    notes: Notes<'_>,
) -> Result<FileEdit, EditError> {
    let file = &domain.file;
    // Held from before the read to the rename: a concurrent `add` waits,
    // then reads what this one wrote.
    let lock = write::Lock::acquire(file, notes)?;
    let existing = if create && std::fs::symlink_metadata(file).is_err() {
        if let Some(reason) = urldb_core::rules::hostname_problem(&domain.name) {
            return Err(EditError::BadDomain {
                file: file.clone(),
                domain: domain.name.clone(),
                reason,
            });
        }
        None
    } else {
        Some(load(root, file, options)?)
    };
    let mut documents = match &existing {
        Some(loaded) => loaded.documents.clone(),
        None => vec![new_metadata(domain.https)],
    };
    let case_sensitive = domain::case_sensitive_paths(&documents);
    let mut keys: HashMap<String, (String, Option<String>)> = domain::records(&documents)
        .filter_map(|r| {
            let path = r.path()?;
            let content_type = r
                .get("content-type")
                .and_then(|e| e.value.as_scalar())
                .map(|s| s.value.to_string());
            Some((
                equivalence_key(path, case_sensitive).into_owned(),
                (path.to_string(), content_type),
            ))
        })
        .collect();
    let mut changes = Vec::with_capacity(records.len());
    for record in records {
        let key = equivalence_key(&record.path, case_sensitive).into_owned();
        if let Some((existing, content_type)) = keys.get(&key) {
            changes.push(Change::Exists {
                existing: existing.clone(),
                content_type: content_type.clone(),
            });
            continue;
        }
        let document = record.document();
        if let Some((code, message)) = validate(&domain.name, &document, options) {
            changes.push(Change::Invalid { code, message });
            continue;
        }
        keys.insert(
            key,
            (record.path.clone(), Some(record.content_type.clone())),
        );
        documents.push(document);
        changes.push(Change::Added);
    }
    let changed = changes.contains(&Change::Added);
    let (written, reformatted) = match existing {
        Some(loaded) if changed => {
            let text = render(
                &documents,
                &lint::render_options(&loaded.text, &documents, options),
            );
            lock.replace(&loaded.raw, text.as_bytes())?;
            (true, !loaded.canonical)
        }
        Some(_) => (false, false),
        None if changed => {
            let text = render(&documents, &lint::render_options("", &documents, options));
            lock.create(text.as_bytes())?;
            (true, false)
        }
        None => (false, false),
    };
    Ok(FileEdit {
        file: file.clone(),
        changes,
        written,
        reformatted,
    })
}

/// Remove the records of `paths` (compared as equivalent paths) from the
/// domain file `domain` (one write).
pub fn remove_paths(
    root: &Root,
    domain: &Domain,
    paths: &[String],
    options: &Options,
    notes: Notes<'_>,
) -> Result<FileEdit, EditError> {
    let lock = write::Lock::acquire(&domain.file, notes)?;
    let loaded = load(root, &domain.file, options)?;
    let mut documents = loaded.documents.clone();
    let case_sensitive = domain::case_sensitive_paths(&documents);
    let mut changes = Vec::with_capacity(paths.len());
    for path in paths {
        let found = find_record(&documents, path, case_sensitive);
        match found {
            Some((doc, stored)) => {
                documents.remove(doc);
                changes.push(Change::Removed { stored });
            }
            None => changes.push(Change::NotFound),
        }
    }
    let written = changes.iter().any(|c| matches!(c, Change::Removed { .. }));
    loaded.write_back(&domain.file, &documents, changes, written, options, lock)
}

/// The record of `path` (compared as an equivalent path) in the domain
/// file `domain`, as a [`NewRecord`] that carries its keys elsewhere
/// (`urldb moved`); `None` when the file has no such record.
pub fn read_record(
    root: &Root,
    domain: &Domain,
    path: &str,
    options: &Options,
) -> Result<Option<NewRecord>, EditError> {
    let loaded = load(root, &domain.file, options)?;
    let case_sensitive = domain::case_sensitive_paths(&loaded.documents);
    let key = equivalence_key(path, case_sensitive);
    let Some(record) = domain::records(&loaded.documents).find(|r| {
        r.path()
            .is_some_and(|p| equivalence_key(p, case_sensitive) == key)
    }) else {
        return Ok(None);
    };
    let scalar = |k: &str| {
        record
            .get(k)
            .and_then(|e| e.value.as_scalar())
            .map(|s| s.value.trim().to_string())
    };
    let digest = match (scalar(CONTENT_LENGTH), scalar(CONTENT_SHA256)) {
        (Some(length), Some(sha256)) => domain::content_length(&length).map(|l| (l, sha256)),
        _ => None,
    };
    let mut extras = Vec::new();
    for entry in record.entries {
        let Some(name) = entry.key.as_scalar().map(|k| k.value.to_string()) else {
            continue;
        };
        if [
            PATH,
            CONTENT_TYPE,
            CATEGORIES,
            CONTENT_LENGTH,
            CONTENT_SHA256,
        ]
        .contains(&name.as_str())
        {
            continue;
        }
        match entry.value.as_scalar() {
            Some(value) => extras.push((name, value.clone())),
            None => {
                return Err(EditError::NotScalar {
                    file: domain.file.clone(),
                    path: path.to_string(),
                    key: name,
                });
            }
        }
    }
    Ok(Some(NewRecord {
        path: record.path().unwrap_or(path).to_string(),
        content_type: scalar(CONTENT_TYPE).unwrap_or_default(),
        categories: record.categories().map(str::to_string).collect(),
        digest,
        extras,
    }))
}

/// Make the records of `moves` (`_path` compared as an equivalent path,
/// and the redirect status its URL answers) redirect records, as `add`
/// writes one: `content-type: X-<status>-Redirect`, without
/// `content-length` and `content-sha256` (`verify` never reads a
/// redirect's body); their other keys stay. One write (`urldb moved`).
pub fn redirect_paths(
    root: &Root,
    domain: &Domain,
    moves: &[(String, u16)],
    options: &Options,
    notes: Notes<'_>,
) -> Result<FileEdit, EditError> {
    let lock = write::Lock::acquire(&domain.file, notes)?;
    let loaded = load(root, &domain.file, options)?;
    let mut documents = loaded.documents.clone();
    let case_sensitive = domain::case_sensitive_paths(&documents);
    let mut changes = Vec::with_capacity(moves.len());
    for (path, status) in moves {
        let found = find_record(&documents, path, case_sensitive);
        let Some((doc, stored)) = found else {
            changes.push(Change::NotFound);
            continue;
        };
        if let Some(Node {
            value: Value::Map(entries),
            ..
        }) = documents[doc].root.as_mut()
        {
            entries.retain(|e| {
                !e.key
                    .as_scalar()
                    .is_some_and(|k| k.value == CONTENT_LENGTH || k.value == CONTENT_SHA256)
            });
            for entry in entries.iter_mut() {
                if entry
                    .key
                    .as_scalar()
                    .is_some_and(|k| k.value == CONTENT_TYPE)
                {
                    entry.value = Node::new(
                        Value::Scalar(Scalar::string(format!("X-{status}-Redirect"))),
                        0..0,
                    );
                }
            }
        }
        changes.push(Change::Redirected { stored });
    }
    let written = changes
        .iter()
        .any(|c| matches!(c, Change::Redirected { .. }));
    loaded.write_back(&domain.file, &documents, changes, written, options, lock)
}

/// The metadata of a new domain file.
fn new_metadata(https: bool) -> Document {
    let root = https.then(|| {
        Node::new(
            Value::Map(vec![Entry {
                key: Node::new(Value::Scalar(Scalar::string(domain::HTTPS)), 0..0),
                value: Node::new(Value::Scalar(Scalar::plain("true")), 0..0),
            }]),
            0..0,
        )
    });
    Document {
        root,
        span: 0..0,
        explicit_start: true,
        ..Document::default()
    }
}

/// A new record must pass every enabled rule on its own: the first finding
/// (error or warning) that a file holding only it would get.
fn validate(
    domain_name: &str,
    record: &Document,
    options: &Options,
) -> Option<(&'static str, String)> {
    let documents = vec![new_metadata(false), record.clone()];
    let text = render(&documents, &lint::render_options("", &documents, options));
    let name = PathBuf::from(format!("{domain_name}.yaml"));
    let checked = lint::check_bytes(&name, text.as_bytes(), options);
    checked
        .findings
        .iter()
        // The file name is the caller's concern (`BadDomain`).
        .filter(|f| f.code() != "invalid-domain-name")
        .min_by_key(|f| f.severity != Severity::Error)
        .map(|f| (f.code(), f.message.clone()))
}
