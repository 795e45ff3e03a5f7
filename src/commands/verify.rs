//! `urldb verify`: fetch every URL of the database and check that it still
//! answers as its record says (`docs/verify.md`).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};

use crate::app::FailOnArg;
use crate::app::{CommandError, Context, ExitStatus};
use urldb_output::gate::{self, Syntax};
use urldb_verify::config::VerifyConfig;
use urldb_verify::history;
use urldb_verify::output;
use urldb_verify::plan::{self, PlanOptions, Target};
use urldb_verify::results::{Results, RunInfo};
use urldb_verify::{CheckResult, Outcome, RunOptions};
use urldb_verify::{Client, ClientOptions};

#[derive(Debug, Args)]
pub(crate) struct VerifyArgs {
    /// Domain files or directories to verify (default: the database that governs the working directory, whole, and every database below it).
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub filter: super::records::FilterArgs,
    /// Only the records added or changed since REV (a key verify reads, or their domain's `https` or `cnames`), as the working tree has them.
    #[arg(long, value_name = "REV", conflicts_with = "staged")]
    pub since: Option<String>,
    /// Only the records added or changed in the index since HEAD, as staged.
    #[arg(long)]
    pub staged: bool,
    /// Send a domain's requests to another host: `DOMAIN=[SCHEME://]HOST[:PORT]`; repeatable.
    #[arg(long, value_name = "DOMAIN=HOST", value_parser = plan::parse_map)]
    pub map: Vec<(String, Target)>,
    /// Read maps from FILE: one `DOMAIN=[SCHEME://]HOST[:PORT]` a line, `#` comments; `--map` wins over it, and it over urldb.toml's `[verify.map]`.
    #[arg(long, value_name = "FILE")]
    pub map_file: Option<PathBuf>,
    /// Requests in flight at once [default: `[verify] concurrency`, else 32].
    #[arg(long, value_name = "N")]
    pub concurrency: Option<usize>,
    /// Requests in flight at once to one host.
    #[arg(long, value_name = "N", default_value_t = 6)]
    pub per_host: usize,
    /// The shortest time between two requests to one host, e.g. `1s`, `250ms` (a host's `interval` in urldb.toml, its robots.txt `Crawl-delay` or its rate limit may ask more).
    #[arg(long, value_name = "DURATION", value_parser = parse_interval)]
    pub per_host_interval: Option<Duration>,
    /// Limit for connecting and for the response head, and the longest pause in a body, e.g. `10s`, `500ms` [default: `[verify] timeout`, else 30s].
    #[arg(long, value_name = "DURATION")]
    pub timeout: Option<String>,
    /// Extra tries after a connection error, a 5xx or a 429, at most 10 [default: `[verify] retries`, else 2].
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u32).range(..=i64::from(urldb_verify::config::MAX_RETRIES)))]
    pub retries: Option<u32>,
    /// Let urldb.toml's `env:NAME` headers for HOST read the environment variable NAME; repeatable, comma-separated (also `URLDB_ALLOW_ENV`). A bare NAME (any host urldb.toml names) only with `--config-from`.
    #[arg(long, value_name = "NAME=HOST", value_delimiter = ',')]
    pub allow_env: Vec<urldb_verify::AllowEnv>,
    /// The largest body read for a static record, e.g. `100 MiB`.
    #[arg(long, value_name = "SIZE", default_value = "1 GiB")]
    pub max_body: String,
    /// Also check each domain's cnames.
    #[arg(long)]
    pub cnames: bool,
    /// Check both http:// and https:// whatever the domain's `https` says.
    #[arg(long)]
    pub both_schemes: bool,
    /// Skip paths that the host's /robots.txt disallows.
    #[arg(long)]
    pub respect_robots: bool,
    /// Also connect to loopback, private, link-local and metadata addresses.
    #[arg(long)]
    pub allow_private: bool,
    /// Follow a permanent redirect (301, 308) that a record does not accept, and compare what is there: the same bytes prove a move (`moved`), the same media type is a candidate (`moved?`).
    #[arg(long)]
    pub follow_moves: bool,
    /// For a broken URL, look for a copy in a web archive: a byte-identical capture for a record with `content-sha256`, one of the same media type (unverified) for a page. Never a URL of a host with headers of its own in urldb.toml, nor of a private host.
    #[arg(long)]
    pub archive: bool,
    /// The web archive `--archive` asks, a Wayback CDX API [default: `[verify] archive-url`, else https://web.archive.org].
    #[arg(long, value_name = "URL", requires = "archive")]
    pub archive_url: Option<String>,
    /// Output format [default: `URLDB_FORMAT`, else human].
    #[arg(long, value_enum)]
    pub format: Option<VerifyFormat>,
    /// `--format human`: also a table of each host's figures (requests, median latency, 429s and 5xx, robots.txt skips, the final interval); json and markdown always have them.
    #[arg(long)]
    pub host_stats: bool,
    #[command(flatten)]
    pub summary_limit: super::shared_args::SummaryLimitArg,
    /// Check only shard K of N (`K/N`) for a CI matrix: whole hosts, balanced by their estimated time (a host too large for one shard is split, its limits divided); `auto/N` takes K from JOB_COMPLETION_INDEX (Kubernetes Indexed Jobs, 0-based).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<urldb_verify::ShardSpec>,
    /// How `--shard` splits: by host (each host paced in one shard) or by URL (a hash of each URL, as before).
    #[arg(long, value_enum, default_value_t = ShardBy::Host, requires = "shard")]
    pub shard_by: ShardBy,
    /// Read earlier runs from this JSON-lines file, then add this run's results to it.
    #[arg(long, value_name = "FILE")]
    pub history: Option<PathBuf>,
    /// Runs kept in the history file, this one included.
    #[arg(long, value_name = "N", default_value_t = history::DEFAULT_KEEP, requires = "history")]
    pub history_keep: usize,
    /// With --history: skip URLs that passed within this age (`7d`, `12h`, `30m`) and check the rest, the longest unchecked first.
    #[arg(long, value_name = "AGE", requires = "history", value_parser = parse_age)]
    pub max_age: Option<Duration>,
    /// This run's id in the history (the shards of one CI run share it) [default: the start time].
    #[arg(long, value_name = "ID")]
    pub run_id: Option<String>,
    /// What exits 1: any broken URL, or only newly broken ones (every one, without history); `blocked` adds URLs a bot wall answered. Comma-separated or repeated.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "any")]
    pub fail_on: Vec<FailOnArg>,
    #[command(flatten)]
    pub shared: crate::app::DbOutputArgs,
    #[command(flatten)]
    pub verbose: crate::app::VerboseArg,
}

/// `--shard-by`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ShardBy {
    /// Whole hosts per shard.
    Host,
    /// A stable hash of each URL.
    Url,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum VerifyFormat {
    /// One line per broken URL and a summary.
    Human,
    /// One JSON document with every result.
    Json,
    /// JUnit XML, one test case per URL.
    Junit,
    /// GitHub Actions annotations on the records of broken URLs.
    Github,
    /// A Markdown summary for a CI job page ($GITHUB_STEP_SUMMARY).
    Markdown,
    /// One self-contained HTML page: counts and a filterable, sortable table.
    Html,
}

/// Write `results` in `format` to standard output (`verify` and `report`).
pub(crate) fn write_results(
    format: VerifyFormat,
    results: &Results,
    quiet: bool,
    summary_limit: usize,
) -> Result<(), CommandError> {
    let syntax = match format {
        VerifyFormat::Json => Syntax::Json,
        VerifyFormat::Junit | VerifyFormat::Html => Syntax::Xml,
        VerifyFormat::Human | VerifyFormat::Github | VerifyFormat::Markdown => Syntax::Text,
    };
    let mut out = gate::stdout(syntax);
    match format {
        VerifyFormat::Human => output::write_human(&mut out, results, quiet)?,
        VerifyFormat::Json => output::write_json(&mut out, results)?,
        VerifyFormat::Junit => output::write_junit(&mut out, results)?,
        VerifyFormat::Github => {
            output::write_github(&mut out, results, &crate::output::github::annotation_root())?
        }
        VerifyFormat::Markdown => output::write_markdown(&mut out, results, summary_limit)?,
        VerifyFormat::Html => output::render_html(&mut out, &output::html_page(results))?,
    }
    out.finish()?;
    Ok(())
}

/// `--host-stats`: each origin's figures after the human report.
fn write_host_stats(results: &Results) -> Result<(), CommandError> {
    let mut out = gate::stdout(Syntax::Text);
    output::write_host_stats(&mut out, results)?;
    out.finish()?;
    Ok(())
}

const DEFAULT_CONCURRENCY: usize = 32;
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
const DEFAULT_RETRIES: u32 = 2;

/// `--format`, else `URLDB_FORMAT` (which the Action sets for every
/// command), as `check` and `fmt` read it: verify's own formats, and
/// `check`'s (`full` and `concise` are `human`, `sarif` too: verify has
/// no SARIF); any other value is an error (`docs/verify.md`).
fn format(args: &VerifyArgs) -> Result<VerifyFormat, CommandError> {
    use clap::ValueEnum;
    super::shared_args::format_or_variable(args.format, VerifyFormat::Human, |value| {
        VerifyFormat::from_str(value, false).ok().or_else(|| {
            crate::output::Format::from_str(value, false)
                .ok()
                .map(|_| VerifyFormat::Human)
        })
    })
}

pub(crate) fn run(ctx: &Context, args: &VerifyArgs) -> Result<ExitStatus, CommandError> {
    let format = format(args)?;
    let parts = super::targets::targets(ctx, &args.paths)?;
    super::records::require_named_files(&args.paths, &parts, "verify")?;
    let databases: Vec<(urldb_store::Database, VerifyConfig)> =
        parts.iter().map(|p| ctx.database(p.database)).collect();
    let mut settings = settings(args, run_level(ctx, &databases)?, ctx.owners_config)?;
    // A `--map` names a domain of this run; a map file or `[verify.map]`
    // may name the whole database's while the run takes a part of it.
    if !settings.plan.filters.domains.is_empty() || !args.map.is_empty() {
        let known = super::records::known_hosts(ctx, &parts);
        let named = urldb_store::require_known("--domain", &settings.plan.filters.domains, &known)
            .and_then(|()| {
                urldb_store::require_known("--map", args.map.iter().map(|(d, _)| d), &known)
            });
        named?;
    }
    if args.follow_moves {
        // A redirect may reach a private address only on a host the run
        // was told about: the database's own, or one `--map` sends.
        let mut trusted = super::records::known_hosts(ctx, &parts);
        trusted.extend(settings.plan.maps.keys().cloned());
        settings.run.follow_moves = Some(urldb_verify::FollowMoves {
            maps: settings.plan.maps.clone(),
            trusted,
        });
    }
    super::records::require_selecting(ctx, &parts, &settings.plan.filters)?;
    let mut errors = Vec::new();
    for part in &parts {
        errors.extend(part.targets.errors.iter().cloned());
    }
    super::notes::print_errors(&errors);
    let mut plan = match change_sides(args) {
        // Only what changed (`--since`, `--staged`): the change set of
        // every database the run covers, each judged with its own
        // exceptions.
        Some((sides, option)) => {
            let sets = super::targets::change_sets(ctx, &args.paths, &sides, option)?;
            let mut plan = plan::Plan::default();
            for (i, set) in &sets {
                if sets.len() > 1 {
                    let (_, verify) = ctx.database(*i);
                    settings.plan.exceptions = exceptions(&verify, args, ctx.owners_config)?;
                }
                let files: Vec<&urldb_store::FileChange> = set.files.iter().collect();
                let one = plan::plan_changes(&files, &settings.plan);
                plan.checks.extend(one.checks);
                plan.problems.extend(one.problems);
                plan.deprecated += one.deprecated;
            }
            // (The work tree's walk said its problems with the targets'.)
            if plan.checks.is_empty() && plan.problems.is_empty() {
                if !ctx.quiet {
                    urldb_output::say!("note: {}", nothing_changed(args));
                }
                return Ok(if errors.is_empty() {
                    ExitStatus::Success
                } else {
                    ExitStatus::Error
                });
            }
            plan
        }
        // Each database's records with its own exceptions (`[verify]` and
        // its per-host sections): the run's keys are one for all.
        None => {
            let mut plan = plan::Plan::default();
            for (part, (database, verify)) in parts.iter().zip(&databases) {
                if parts.len() > 1 {
                    settings.plan.exceptions = exceptions(verify, args, ctx.owners_config)?;
                }
                let max_file_size = database
                    .settings
                    .config
                    .max_file_size()
                    .unwrap_or(urldb_core::config::DEFAULT_MAX_FILE_SIZE);
                let one = plan::plan(
                    &database.settings.root,
                    &part.targets.checked,
                    &settings.plan,
                    max_file_size,
                );
                plan.checks.extend(one.checks);
                plan.problems.extend(one.problems);
                plan.deprecated += one.deprecated;
            }
            plan
        }
    };
    let shard = args
        .shard
        .map(|s| s.resolve(&|name| std::env::var(name).ok()))
        .transpose()?;
    if let Some(shard) = shard {
        let before = plan.checks.len();
        match args.shard_by {
            ShardBy::Url => plan.checks.retain(|c| shard.contains(&c.url)),
            ShardBy::Host => {
                let split = urldb_verify::shard_by_host(
                    &plan.checks,
                    shard,
                    settings.run.per_host,
                    settings.run.per_host_interval,
                );
                let mut keep = split.keep.into_iter();
                plan.checks.retain(|_| keep.next().unwrap_or(false));
                settings.run.shares = split.shares;
            }
        }
        if plan.checks.is_empty() && before > 0 {
            super::notes::note_nothing_selected(
                ctx,
                &format!("--shard {shard}: none of the {before} URLs falls in this shard"),
            );
        }
    }
    for problem in &plan.problems {
        urldb_output::say!("{}", output::problem_line(problem));
    }

    let client = Client::new(settings.client);
    let progress = progress_bar(ctx, plan.checks.len() as u64);
    let verbose = ctx.verbose && format == VerifyFormat::Human;
    let on_result = |check: &plan::UrlCheck, result: &CheckResult| {
        if let Some(bar) = &progress {
            bar.inc(1);
            if matches!(result.outcome, Outcome::Broken(_)) {
                bar.set_message("broken");
            }
        }
        if verbose && result.outcome == Outcome::Ok {
            let line = format!(
                "ok {} ({} ms)",
                urldb_core::text::escape(&check.url),
                result.elapsed.as_millis()
            );
            match &progress {
                Some(bar) => bar.println(line),
                None => urldb_output::say!("{line}"),
            }
        }
    };
    let now = jiff::Timestamp::now();
    let start = Instant::now();
    // Milliseconds, always three digits: the text sorts as the time does.
    let started = format!("{now:.3}");
    let run_id = args.run_id.clone().unwrap_or_else(|| started.clone());
    // Read before the URLs are fetched: a history that cannot be used
    // stops the run before it costs anything.
    let earlier = match args.history.as_deref() {
        Some(path) => Some(history::History::read(path, now)?),
        None => None,
    };
    if let (Some(h), Some(path)) = (&earlier, &args.history) {
        for warning in h.warnings() {
            urldb_output::say!("warning: {warning}");
        }
        if h.more_warnings() > 0 {
            urldb_output::say!(
                "warning: {} more malformed lines in {} skipped",
                h.more_warnings(),
                urldb_core::source::shown_path(path)
            );
        }
    }
    if let (Some(age), Some(h)) = (args.max_age, &earlier) {
        fresh_first(&mut plan, h, age, now);
        if plan.checks.is_empty() && plan.fresh > 0 {
            super::notes::note_nothing_selected(
                ctx,
                &format!(
                    "--max-age: all {} URLs passed within that age; none is requested",
                    plan.fresh
                ),
            );
        }
    }
    if args.archive {
        let archive = archive_options(args, &databases, &plan, earlier.as_ref(), &started)?;
        // Every shard asks the archive: each keeps its share of the pace,
        // so that N shards at once ask it no faster than one run.
        if let (Some(shard), Ok(base)) = (shard, url::Url::parse(&archive.base)) {
            settings
                .run
                .shares
                .insert(base.origin().ascii_serialization(), shard.count);
        }
        settings.run.archive = Some(archive);
    }
    let urldb_verify::RunOutput {
        results: checks,
        hosts,
    } = urldb_verify::run(&plan.checks, &client, &settings.run, &on_result);
    if let Some(bar) = &progress {
        bar.finish_and_clear();
    }
    say_maps_without_tls(&plan.checks, &checks, &settings.plan.maps);
    let run = RunInfo {
        id: run_id,
        started,
        shard,
        elapsed_ms: u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX),
    };
    let mut results = Results::of_run(&plan, &checks, run);
    results.hosts = hosts
        .iter()
        .map(urldb_verify::results::HostStats::from)
        .collect();
    if let Some(h) = &earlier {
        h.judge(&mut results, args.history_keep);
    }
    let mut written = write_results(format, &results, ctx.quiet, args.summary_limit.bytes());
    if written.is_ok() && args.host_stats && format == VerifyFormat::Human {
        written = write_host_stats(&results);
    }
    // The report is out before the lines are added; a failure to add them
    // is still exit 2.
    if let (Some(path), Some(run)) = (&args.history, results.runs.first()) {
        history::append_after(
            path,
            earlier.as_ref().unwrap_or(&history::History::default()),
            run,
            &results.results,
            args.history_keep,
            &super::notes::write_note,
        )?;
    }
    // A history of a million URLs is two million allocations; the process
    // ends after this run, and freeing them one by one costs a quarter of
    // a second (`docs/dev/performance.md`, "The history's size").
    std::mem::forget(earlier);
    written?;
    Ok(if !errors.is_empty() {
        ExitStatus::Error
    } else {
        crate::app::verify_exit_status(results.conclusion(crate::app::fail_on(&args.fail_on)))
    })
}

/// `--archive`: the archive (the command line's, else `[verify]
/// archive-url` of the run's configuration, guarded whatever
/// `--allow-private` says, else the Internet Archive), the hosts never
/// sent (those with headers of their own in any database's `[verify]`),
/// and the lookups the history keeps.
fn archive_options(
    args: &VerifyArgs,
    databases: &[(urldb_store::Database, VerifyConfig)],
    plan: &plan::Plan,
    earlier: Option<&history::History>,
    now: &str,
) -> Result<urldb_verify::ArchiveOptions, CommandError> {
    let configured = databases.iter().find_map(|(_, c)| c.archive_url.clone());
    let (base, guarded) = match (&args.archive_url, configured) {
        (Some(given), _) => (given.clone(), false),
        (None, Some(configured)) => (configured, true),
        (None, None) => (urldb_verify::DEFAULT_ARCHIVE.to_string(), false),
    };
    if !url::Url::parse(&base)
        .is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some())
    {
        return Err(CommandError::ArchiveUrl(base));
    }
    let mut never = std::collections::BTreeSet::new();
    for (_, config) in databases {
        for (key, section) in &config.domains {
            if !section.headers.is_empty()
                && let Ok(host) = urldb_verify::config::domain_key(key)
            {
                never.insert(host);
            }
        }
    }
    let known = match earlier {
        Some(h) => plan
            .checks
            .iter()
            .filter_map(|c| Some((c.url.clone(), h.archived(&c.url)?)))
            .collect(),
        None => std::collections::HashMap::new(),
    };
    Ok(urldb_verify::ArchiveOptions {
        base,
        guarded,
        never,
        known,
        now: now.to_string(),
    })
}

/// A `--map DOMAIN=HOST:PORT` (no scheme) whose https requests met a
/// server that does not speak TLS: the map that works, once per map.
fn say_maps_without_tls(
    planned: &[plan::UrlCheck],
    checks: &[CheckResult],
    maps: &BTreeMap<String, Target>,
) {
    use urldb_verify::{Failure, FetchError};
    let mut said = std::collections::BTreeSet::new();
    for (check, result) in planned.iter().zip(checks) {
        if result.outcome != Outcome::Broken(Failure::NoAnswer(FetchError::NotTls)) {
            continue;
        }
        let Some(authority) = check.origin.strip_prefix("https://") else {
            continue;
        };
        for (domain, target) in maps {
            if target.scheme.is_none() && target.authority == authority && said.insert(domain) {
                urldb_output::say!(
                    "note: --map {}={}: that server does not speak TLS; write `--map {}=http://{}` \
                     to ask it over http",
                    urldb_core::text::escape(domain),
                    urldb_core::text::escape(&target.authority),
                    urldb_core::text::escape(domain),
                    urldb_core::text::escape(&target.authority)
                );
            }
        }
    }
}

/// With `--since` or `--staged`: the two versions compared, and the
/// option a message names.
fn change_sides(args: &VerifyArgs) -> Option<(urldb_store::Sides, &'static str)> {
    use urldb_store::{Side, Sides};
    match (&args.since, args.staged) {
        (Some(rev), _) => Some((
            Sides {
                old: Side::Revision(rev.clone()),
                new: Side::WorkTree,
            },
            "--since",
        )),
        (None, true) => Some((
            Sides {
                old: Side::Head,
                new: Side::Index,
            },
            "--staged",
        )),
        (None, false) => None,
    }
}

/// The one note of a `--since` or `--staged` run that selects no record.
fn nothing_changed(args: &VerifyArgs) -> String {
    match &args.since {
        Some(rev) => format!("no record changed since {}", urldb_core::text::escape(rev)),
        None => "no record changed in the index since HEAD".to_string(),
    }
}

struct Settings {
    plan: PlanOptions,
    client: ClientOptions,
    run: RunOptions,
}

/// The `[verify]` whose run-level keys (`concurrency`, `timeout`,
/// `retries`: how the run is made, not what it accepts) a run over these
/// databases takes: theirs when they agree (with one database, its own;
/// with `--config`, that file's), else none, exit 2 (`docs/verify.md`).
fn run_level<'a>(
    ctx: &'a Context,
    databases: &'a [(urldb_store::Database, VerifyConfig)],
) -> Result<&'a VerifyConfig, CommandError> {
    let Some((first_db, first)) = databases.first() else {
        return Ok(&ctx.verify);
    };
    let keys = |c: &VerifyConfig| (c.concurrency, c.timeout.clone(), c.retries, c.maps());
    match databases.iter().find(|(_, c)| keys(c) != keys(first)) {
        Some((other_db, _)) if !ctx.config_given => Err(CommandError::RunLevelKeys {
            first: first_db.settings.config_path.clone().unwrap_or_default(),
            other: other_db.settings.config_path.clone().unwrap_or_default(),
        }),
        _ => Ok(first),
    }
}

/// The exceptions of one database's `[verify]`: `env:` values read here,
/// once, and only those the run allows; no message shows one.
fn exceptions(
    config: &VerifyConfig,
    args: &VerifyArgs,
    owners_config: bool,
) -> Result<urldb_verify::Exceptions, CommandError> {
    // `env:` values are read here, once, and only those the run allows;
    // no message shows one.
    Ok(urldb_verify::Exceptions::resolve(
        config,
        &allowed_env(&args.allow_env, owners_config)?,
        &|name| std::env::var(name).ok(),
    )?)
}

/// Command line over `[verify]` (`config`, the run-level one) over the
/// defaults.
fn settings(
    args: &VerifyArgs,
    config: &VerifyConfig,
    owners_config: bool,
) -> Result<Settings, CommandError> {
    let timeout = crate::app::timeout(args.timeout.as_deref(), config, DEFAULT_TIMEOUT)?;
    let concurrency = args
        .concurrency
        .or(config.concurrency)
        .unwrap_or(DEFAULT_CONCURRENCY);
    if concurrency == 0 {
        return Err(CommandError::Zero("concurrency"));
    }
    // Each request in flight is a thread: one cap for threads from any
    // source (`urldb.toml` comes with a pull request), as for `--threads`.
    let concurrency = if concurrency > crate::app::MAX_THREADS {
        urldb_output::say!(
            "note: concurrency {concurrency} is more than urldb runs at once; using {}",
            crate::app::MAX_THREADS
        );
        crate::app::MAX_THREADS
    } else {
        concurrency
    };
    if args.history_keep == 0 {
        return Err(CommandError::Zero("--history-keep"));
    }
    if args.per_host == 0 {
        return Err(CommandError::Zero("--per-host"));
    }
    let max_body = urldb_core::config::parse_size(&args.max_body)
        .ok_or_else(|| CommandError::MaxBody(args.max_body.clone()))?;
    let (maps, unowned_maps) = maps(args, config, owners_config)?;
    Ok(Settings {
        plan: PlanOptions {
            filters: args.filter.filter()?,
            maps,
            unowned_maps,
            cnames: args.cnames,
            both_schemes: args.both_schemes,
            exceptions: exceptions(config, args, owners_config)?,
        },
        client: ClientOptions {
            timeout,
            // A static file may be large: allow it time, but not forever.
            body_timeout: Some(timeout.saturating_mul(10).max(Duration::from_secs(60))),
            allow_private: args.allow_private,
            max_body,
            idle_per_host: args.per_host,
            ..ClientOptions::default()
        },
        run: RunOptions {
            concurrency,
            per_host: args.per_host,
            retries: args.retries.or(config.retries).unwrap_or(DEFAULT_RETRIES),
            respect_robots: args.respect_robots,
            per_host_interval: args.per_host_interval.unwrap_or_default(),
            ..RunOptions::default()
        },
    })
}

/// The run's maps: `--map` over `--map-file` over `[verify.map]`, domain
/// by domain; and the domains that only `[verify.map]` maps, when that
/// file is not the owner's (read without `--config-from`): no credential
/// is sent where those lead (`docs/security.md`, "Who controls what").
fn maps(
    args: &VerifyArgs,
    config: &VerifyConfig,
    owners_config: bool,
) -> Result<(BTreeMap<String, Target>, std::collections::BTreeSet<String>), CommandError> {
    let mut maps = config.maps();
    let mut unowned: std::collections::BTreeSet<String> = if owners_config {
        Default::default()
    } else {
        maps.keys().cloned().collect()
    };
    let mut runners = BTreeMap::new();
    if let Some(path) = &args.map_file {
        runners.extend(plan::read_map_file(path)?);
    }
    runners.extend(args.map.iter().cloned());
    for (domain, target) in runners {
        unowned.remove(&domain);
        maps.insert(domain, target);
    }
    Ok((maps, unowned))
}

/// The environment variable that adds to `--allow-env`: entries
/// (`NAME=HOST`, `NAME`) separated by commas or white space (the Action's
/// `allow-env` input sets it).
const ALLOW_ENV: &str = "URLDB_ALLOW_ENV";

/// The variables `env:` headers may read, and for which hosts:
/// `--allow-env` and `URLDB_ALLOW_ENV`, both chosen by whoever runs urldb,
/// never by `urldb.toml` (`docs/verify-exceptions.md`, "Secrets"). A bare
/// name lets `urldb.toml` choose the host only when it is the owner's
/// (`owners_config`: read with `--config-from`).
fn allowed_env(
    given: &[urldb_verify::AllowEnv],
    owners_config: bool,
) -> Result<urldb_verify::Allowed, CommandError> {
    let mut entries = given.to_vec();
    if let Some(value) = std::env::var_os(ALLOW_ENV) {
        let value = value.to_str().ok_or(CommandError::AllowEnvNotText)?;
        for entry in value.split(|c: char| c == ',' || c.is_whitespace()) {
            if !entry.is_empty() {
                entries.push(entry.parse().map_err(CommandError::AllowEnv)?);
            }
        }
    }
    Ok(urldb_verify::Allowed::new(entries, owners_config))
}

/// `--max-age`: leave out the URLs whose latest verdict is a pass within
/// `age` before `now` (counted as fresh), and order the rest by when they
/// were last judged, never first: a run cut short has checked the
/// longest-unchecked URLs.
fn fresh_first(
    plan: &mut plan::Plan,
    history: &history::History,
    age: Duration,
    now: jiff::Timestamp,
) {
    let age = jiff::SignedDuration::try_from(age).unwrap_or(jiff::SignedDuration::MAX);
    let cutoff = now.checked_sub(age).unwrap_or(jiff::Timestamp::MIN);
    let before = plan.checks.len();
    // A URL not requested (skipped, not checked) is never fresh.
    plan.checks.retain(|c| {
        c.skip.is_some()
            || c.not_checked.is_some()
            || history.passed_last(&c.url).is_none_or(|t| t < cutoff)
    });
    plan.fresh = before - plan.checks.len();
    plan.checks
        .sort_by_cached_key(|c| history.last_judged(&c.url));
}

/// `7d`, `12h`, `30m`, `90s`, `2w`: a whole number and a unit.
fn parse_age(text: &str) -> Result<Duration, NotAnAge> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let n: u64 = number.parse().map_err(|_| NotAnAge(t.to_string()))?;
    let unit_secs = match unit.trim() {
        "s" => 1,
        "m" | "min" => 60,
        "h" => 3600,
        "d" => 86_400,
        "w" => 7 * 86_400,
        _ => return Err(NotAnAge(t.to_string())),
    };
    n.checked_mul(unit_secs)
        .filter(|&s| s > 0)
        .map(Duration::from_secs)
        .ok_or_else(|| NotAnAge(t.to_string()))
}

/// `--per-host-interval`: `1s`, `250ms`, `1.5s`, `2m` (as `timeout`).
fn parse_interval(text: &str) -> Result<Duration, NotAnInterval> {
    urldb_verify::config::parse_duration(text).ok_or_else(|| NotAnInterval(text.to_string()))
}

/// A `--per-host-interval` that is not a duration.
#[derive(Debug, thiserror::Error)]
#[error("`{}` is not a duration like 1s or 250ms", urldb_core::text::escape(.0))]
struct NotAnInterval(String);

/// A `--max-age` that is not a whole number and a unit.
#[derive(Debug, thiserror::Error)]
#[error("`{}` is not an age like 7d, 12h or 30m", urldb_core::text::escape(.0))]
struct NotAnAge(String);

/// A progress bar on stderr when a person is watching: a terminal, not
/// `--quiet`, not CI.
fn progress_bar(ctx: &Context, len: u64) -> Option<indicatif::ProgressBar> {
    let watching = urldb_output::gate::stderr_is_terminal()
        && !ctx.quiet
        && std::env::var_os("CI").is_none_or(|v| v.is_empty());
    if !watching || len == 0 {
        return None;
    }
    let bar = indicatif::ProgressBar::new(len);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} URLs {per_sec} {msg}",
    ) {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(200));
    Some(bar)
}
