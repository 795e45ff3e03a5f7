//! `urldb add`: canonicalize URLs, ask the server what they are (unless
//! told), and insert their records in their domain files (one write per
//! file).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::app::{CommandError, Context, ExitStatus};
use urldb_core::url::{Canonical, Scheme};
use urldb_store::{Change, Domain, HostIndex, NewRecord};
use urldb_verify::plan::{self, Target};
use urldb_verify::{BodyMode, Client, ClientOptions, FetchError};

#[derive(Debug, Args)]
pub(crate) struct AddArgs {
    /// URLs to add.
    #[arg(required = true, value_name = "URL")]
    pub urls: Vec<String>,
    /// A category of the new records; repeatable.
    #[arg(short = 'c', long = "category", value_name = "CATEGORY")]
    pub categories: Vec<String>,
    /// The content type to record, instead of asking the server.
    #[arg(long, value_name = "TYPE")]
    pub content_type: Option<String>,
    /// Download each body and record its `content-length` and `content-sha256`.
    #[arg(long = "static")]
    pub static_: bool,
    /// Create `HOST.yaml` for a host that no domain file knows.
    #[arg(long)]
    pub create_domain: bool,
    /// Ask another host: `DOMAIN=[SCHEME://]HOST[:PORT]` (e.g. a staging server); repeatable.
    #[arg(long, value_name = "DOMAIN=HOST", value_parser = plan::parse_map)]
    pub map: Vec<(String, Target)>,
    /// Also connect to loopback, private, link-local and metadata addresses
    /// (a staging server on this machine or network), as `verify` does.
    #[arg(long)]
    pub allow_private: bool,
    /// Limit for connecting, for the response head and for each pause in a body, e.g. `10s` [default: `[verify] timeout`, else 30s].
    #[arg(long, value_name = "DURATION")]
    pub timeout: Option<String>,
    #[command(flatten)]
    pub shared: crate::app::DbOutputArgs,
}

const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// One URL on its way in.
struct Pending {
    input: String,
    url: Canonical,
    domain: Domain,
    path: String,
}

pub(crate) fn run(ctx: &Context, args: &AddArgs) -> Result<ExitStatus, CommandError> {
    super::targets::one_database(ctx)?;
    let options = ctx.options(None)?;
    let timeout = crate::app::timeout(args.timeout.as_deref(), &ctx.verify, DEFAULT_TIMEOUT)?;
    let index = HostIndex::build(&ctx.members);
    let mut status = ExitStatus::Success;
    let mut pending = Vec::new();
    for input in &args.urls {
        let Some(url) = super::by_url::canonical(input, &mut status) else {
            continue;
        };
        if !ctx.quiet {
            for note in &url.notes {
                urldb_output::say!("note: {input}: {note}");
            }
        }
        let domain = match index.domain_for(&ctx.root, &url, args.create_domain) {
            Ok(d) => d,
            Err(e) => {
                super::by_url::unplaced(input, &e, &mut status);
                continue;
            }
        };
        let path = domain.path_for(&url);
        pending.push(Pending {
            input: input.clone(),
            url,
            domain,
            path,
        });
    }

    // A `--map` for a domain neither the database nor the URLs name would
    // be ignored, and the real host asked instead.
    let named: std::collections::BTreeSet<String> = index
        .domains()
        .iter()
        .flat_map(|d| std::iter::once(d.name.clone()).chain(d.cnames.iter().cloned()))
        .chain(pending.iter().map(|p| p.url.host.clone()))
        .collect();
    urldb_store::require_known("--map", args.map.iter().map(|(d, _)| d), &named)?;
    let client = (args.content_type.is_none() || args.static_).then(|| {
        Client::new(ClientOptions {
            timeout,
            // The same guard as `verify`'s: a URL pasted from elsewhere, or
            // a script's `add`, does not reach this machine's or network's
            // services unless the run says so.
            allow_private: args.allow_private,
            max_body: u64::MAX,
            ..ClientOptions::default()
        })
    });
    let maps: BTreeMap<String, Target> = args.map.iter().cloned().collect();
    let mut per_file: BTreeMap<PathBuf, (Domain, Vec<(Pending, NewRecord)>)> = BTreeMap::new();
    for item in pending {
        let record = match &client {
            None => Ok((args.content_type.clone().unwrap_or_default(), None)),
            Some(client) => probe(client, &item, &maps, args, ctx.quiet),
        };
        let (content_type, digest) = match record {
            Ok(r) => r,
            Err(message) => {
                urldb_output::say!("error: {}: {message}", item.input);
                status = status.worse(ExitStatus::Failure);
                continue;
            }
        };
        let record = NewRecord {
            path: item.path.clone(),
            content_type,
            categories: args.categories.clone(),
            digest,
            extras: Vec::new(),
        };
        per_file
            .entry(item.domain.file.clone())
            .or_insert_with(|| (item.domain.clone(), Vec::new()))
            .1
            .push((item, record));
    }

    for (domain, items) in per_file.values() {
        let records: Vec<NewRecord> = items.iter().map(|(_, r)| r.clone()).collect();
        let Some(result) = super::by_url::add_to_file(
            ctx,
            domain,
            &records,
            args.create_domain,
            &options,
            &mut status,
        ) else {
            continue;
        };
        status = status.worse(print_file_outcome(ctx, &result, items));
    }
    Ok(status)
}

/// Print what happened to each URL of one file; the status it earns.
fn print_file_outcome(
    ctx: &Context,
    result: &urldb_store::FileEdit,
    items: &[(Pending, NewRecord)],
) -> ExitStatus {
    let file = urldb_core::source::shown_path(&result.file);
    let mut status = ExitStatus::Success;
    for ((item, record), change) in items.iter().zip(&result.changes) {
        match change {
            Change::Added if !ctx.quiet => {
                let escape = |s: &str| urldb_core::text::escape(s).into_owned();
                // The path as stored, and the URL as given when its path
                // is spelt otherwise (case folded, escapes normalized).
                let given = if item.url.path_and_query == record.path {
                    String::new()
                } else {
                    format!(", given as {}", escape(&item.input))
                };
                urldb_output::say!(
                    "added {} to {file} ({}{given})",
                    escape(&record.path),
                    escape(&record.content_type)
                );
                if item.url.scheme == Scheme::Https && !item.domain.https {
                    urldb_output::say!(
                        "note: {}: {file} has no `https: true`; its URLs are checked over http",
                        item.input
                    );
                }
            }
            // Asked to store another type than the record has: said even
            // with `-q`, since the database does not hold what was asked.
            Change::Exists {
                existing,
                content_type: Some(stored),
            } if *stored != record.content_type => {
                let escape = |s: &str| urldb_core::text::escape(s).into_owned();
                urldb_output::say!(
                    "warning: {}: already in {file} as `{}` with content-type `{}`, not `{}`; \
                     left as it is (edit the record's `content-type` to change it)",
                    item.input,
                    escape(existing),
                    escape(stored),
                    escape(&record.content_type)
                );
            }
            Change::Exists { existing, .. } if !ctx.quiet => {
                urldb_output::say!(
                    "{}: already in {file} as `{existing}`; left as it is",
                    item.input
                );
            }
            Change::Invalid { code, message } => {
                urldb_output::say!("error: {}: not added: {message} [{code}]", item.input);
                status = ExitStatus::Failure;
            }
            _ => {}
        }
    }
    if result.reformatted && !ctx.quiet {
        urldb_output::say!("note: {file} was not canonical; it was written in canonical form");
    }
    status
}

/// Ask the server: the content type to record (`X-<status>-Redirect` for a
/// redirect) and, for `--static`, the body's length and SHA-256.
#[allow(clippy::type_complexity)]
fn probe(
    client: &Client,
    item: &Pending,
    maps: &BTreeMap<String, Target>,
    args: &AddArgs,
    quiet: bool,
) -> Result<(String, Option<(u64, String)>), ProbeError> {
    let target = maps
        .get(&item.url.host)
        .or_else(|| maps.get(&item.domain.name));
    let scheme = target
        .and_then(|t| t.scheme.clone())
        .unwrap_or_else(|| item.url.scheme.to_string());
    let authority = target.map_or(item.url.host.as_str(), |t| t.authority.as_str());
    let (fetch_url, _) = plan::build_url(&scheme, authority, &item.path)?;
    // Named in a message only when `--map` sent the request elsewhere: the
    // URL itself is the message's subject already.
    let asked = target.map(|_| fetch_url.clone());
    let mode = if args.static_ {
        BodyMode::Digest
    } else {
        BodyMode::Ignore
    };
    let bar = (args.static_ && !quiet && urldb_output::gate::stderr_is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.set_style(
            indicatif::ProgressStyle::with_template("{spinner} {msg} {bytes} ({bytes_per_sec})")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
        );
        bar.set_message(item.input.clone());
        bar
    });
    let progress = |n: u64| {
        if let Some(bar) = &bar {
            bar.set_position(n);
        }
    };
    let response = client.get(
        &fetch_url,
        mode,
        bar.as_ref().map(|_| &progress as &dyn Fn(u64)),
    );
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let response = response.map_err(|source| match (&source, target) {
        // `--map HOST=127.0.0.1:8080` to a plain-http server: the map
        // that works.
        (FetchError::NotTls, Some(t)) if t.scheme.is_none() => ProbeError::NotTls {
            asked: asked.clone(),
            map: format!("{}=http://{}", item.domain.name, t.authority),
        },
        _ => ProbeError::Fetch {
            asked: asked.clone(),
            source,
            static_: args.static_,
        },
    })?;
    let status = response.status;
    if (300..400).contains(&status) {
        // The reference tool's record of a redirect, `--static` or not: the
        // marker, without a length or digest. `verify` judges a redirect by
        // its status and never reads its body, so a digest of it would
        // promise nothing (docs/coming-from-wwturldb.md).
        if args.static_ && !quiet {
            urldb_output::say!(
                "note: {}: a redirect ({status}{}); recorded without content-length and content-sha256",
                item.input,
                response
                    .location
                    .as_deref()
                    .map(|l| format!(" to {}", urldb_core::text::escape(l)))
                    .unwrap_or_default()
            );
        }
        let content_type = args
            .content_type
            .clone()
            .unwrap_or_else(|| format!("X-{status}-Redirect"));
        return Ok((content_type, None));
    }
    if !(200..300).contains(&status) {
        return Err(ProbeError::Status { asked, status });
    }
    let content_type = match &args.content_type {
        Some(t) => t.clone(),
        None => match response.content_type.as_deref().map(media_type) {
            Some(t) if !t.is_empty() => t,
            _ => return Err(ProbeError::NoContentType { asked }),
        },
    };
    let digest = response.body.map(|d| (d.length, d.sha256_hex));
    Ok((content_type, digest))
}

/// Why one URL could not be probed: reported for that URL (its subject,
/// named once by the caller), and the others go on. `asked`: the URL
/// requested instead, when `--map` sent it elsewhere.
#[derive(Debug, thiserror::Error)]
enum ProbeError {
    #[error(transparent)]
    Url(#[from] plan::UrlError),
    #[error("{}{source}; {}", via(.asked), fetch_hint(.source, *.static_))]
    Fetch {
        asked: Option<String>,
        source: FetchError,
        static_: bool,
    },
    #[error(
        "{}that server does not speak TLS; write `--map {}` to ask it over http",
        via(.asked),
        urldb_core::text::escape(.map)
    )]
    NotTls { asked: Option<String>, map: String },
    #[error("{}the server answers HTTP {status}; not added", via(.asked))]
    Status { asked: Option<String>, status: u16 },
    #[error(
        "{}the server sends no Content-Type; give one with --content-type",
        via(.asked)
    )]
    NoContentType { asked: Option<String> },
}

/// `URL (from --map): ` when the request went elsewhere.
fn via(asked: &Option<String>) -> String {
    asked
        .as_deref()
        .map(|url| format!("{} (from --map): ", urldb_core::text::escape(url)))
        .unwrap_or_default()
}

/// What to do when the server could not be asked. Without `--static`,
/// `--content-type` adds the record with no request at all (offline, or a
/// host that is not up yet).
fn fetch_hint(error: &FetchError, static_: bool) -> &'static str {
    match (error, static_) {
        (FetchError::Timeout(_), false) => {
            "try a longer --timeout, or give the content type with --content-type \
             to add it without asking the server"
        }
        (FetchError::Timeout(_), true) => "try a longer --timeout",
        (FetchError::PrivateAddress { .. }, _) => {
            "pass --allow-private to ask a server on this machine or network"
        }
        (_, false) => {
            "to add it without asking the server, give its content type with \
             --content-type (e.g. --content-type text/html)"
        }
        (_, true) => "--static reads the body from the server, which must answer",
    }
}

/// The media type of a Content-Type header: parameters dropped, type and
/// subtype lowercase (they are case-insensitive, and the format wants them
/// lowercase).
fn media_type(header: &str) -> String {
    urldb_core::model::media_type::essence(header).to_ascii_lowercase()
}
