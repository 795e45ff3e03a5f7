//! `verify --format html`: one self-contained page for people (counts, a
//! filterable and sortable table of every URL, and, when the input has a
//! history, a chart of broken URLs per run and each URL's recent outcomes).
//!
//! The renderer takes its own plain input ([`HtmlPage`]), not the verify
//! run's types, so that any source of results (a run, merged reports, a
//! history file) can fill it. `docs/verify.md` describes the page.
//!
//! Every string of the input may come from a stranger (a `_path`, a file
//! name, what a server sent). Control characters are escaped as in the
//! human report ([`urldb_core::text::escape`]); text in the HTML is
//! entity-escaped (`html`); the rows the script shows travel in a JSON
//! data block that cannot end early (`script_json`); only `http`/`https`
//! URLs become links. The page's Content-Security-Policy allows no network
//! load at all and only the page's own script and style (by their SHA-256),
//! so even a value that slipped through could neither run nor fetch.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::{self, Write};
use std::time::Duration;

use base64::Engine as _;
use serde::Serialize;
use sha2::{Digest, Sha256};

pub use crate::results::Summary;
pub use crate::trend::RunCount;
use urldb_core::text::{escape, path_text};
use urldb_output::html;

/// The page's script and style, kept as files of their own to be read
/// and edited as what they are.
const SCRIPT: &str = include_str!("html.js");
const STYLE: &str = include_str!("html.css");

/// Everything the page shows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HtmlPage {
    /// The run's counts, as every verify format reports them.
    pub counts: Summary,
    /// Every URL, in database order (the page sorts broken ones first).
    pub rows: Vec<HtmlRow>,
    /// Broken URLs per run, oldest first, each named by its id; empty
    /// without a history (then no chart is drawn).
    pub runs: Vec<RunCount>,
    /// Files or records that could not be verified, as one line each.
    pub problems: Vec<String>,
}

/// One URL of the table.
#[derive(Debug, Clone, PartialEq)]
pub struct HtmlRow {
    pub url: String,
    /// The domain file and line of the record.
    pub file: String,
    pub line: usize,
    /// The last HTTP status received, if any.
    pub status: Option<u16>,
    pub verdict: PageVerdict,
    /// The stable name of the failure (`status`, `content-type`, ...).
    pub kind: Option<String>,
    /// Why it is broken or skipped; empty when it passed.
    pub reason: String,
    pub elapsed: Duration,
    /// Its outcomes in the latest runs, oldest first; empty without a history.
    pub recent: Vec<PageVerdict>,
    /// Its place in the history, when there is one.
    pub trend: Option<PageTrend>,
}

/// What became of a URL in one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PageVerdict {
    Ok,
    Broken,
    /// Broken without a request: the record's `_path` is at fault.
    NotChecked,
    /// Skipped by robots.txt.
    Skipped,
    /// Not requested: a `skip` entry of `urldb.toml`, or `skip-verify`.
    Excluded,
    /// Passed by a status `urldb.toml` accepts.
    Accepted,
    /// A bot wall answered.
    Blocked,
}

/// A broken URL's place in the history.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PageTrend {
    /// Broken now, not in the run before.
    New,
    /// Broken in this run and the ones before.
    Persistent,
    /// Changes between passing and broken.
    Flaky,
}

/// A row as the script reads it: every string already escaped for display.
#[derive(Serialize)]
struct JsonRow<'a> {
    url: Cow<'a, str>,
    /// Present only for an `http`/`https` URL.
    href: Option<String>,
    file: String,
    line: usize,
    status: Option<u16>,
    verdict: PageVerdict,
    kind: Option<Cow<'a, str>>,
    reason: Cow<'a, str>,
    ms: u128,
    recent: &'a [PageVerdict],
    trend: Option<PageTrend>,
}

/// Write the page.
pub fn render_html(out: &mut dyn Write, page: &HtmlPage) -> io::Result<()> {
    let c = &page.counts;
    let history = !page.runs.is_empty() || page.rows.iter().any(|r| !r.recent.is_empty());
    let urls = if c.urls == 1 { "URL" } else { "URLs" };
    let title = if c.broken == 0 {
        format!("urldb verify: all {} {urls} passed", c.urls)
    } else {
        format!("urldb verify: {} of {} {urls} broken", c.broken, c.urls)
    };
    // Everything but the rows: their JSON is written one row at a time,
    // so memory does not grow with a second copy of the table.
    let mut body = String::with_capacity(8192 + page.problems.len() * 128);
    let _ = writeln!(
        body,
        "<header><h1>{}</h1><p>{} in {:.2} s</p></header>",
        html(&title),
        summary_line(c),
        c.elapsed.as_secs_f64()
    );
    counts_section(&mut body, c);
    if !page.runs.is_empty() {
        chart(&mut body, &page.runs);
    }
    if !page.problems.is_empty() {
        body.push_str(
            "<section id=\"problems\"><h2>Not verified</h2><p>These files or records could not be read; <code>urldb check</code> explains why.</p><ul>\n",
        );
        for p in &page.problems {
            let _ = writeln!(body, "<li>{}</li>", html(&escape(p)));
        }
        body.push_str("</ul></section>\n");
    }
    table_section(&mut body, history);

    let mut out = io::BufWriter::with_capacity(64 * 1024, out);
    write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\">\n\
         <meta name=\"referrer\" content=\"no-referrer\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}\
         <script type=\"application/json\" id=\"urldb-data\">{{\"history\":{history},\"rows\":[",
        csp = content_security_policy(),
        title = html(&title),
    )?;
    for (i, row) in page.rows.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        out.write_all(script_json(&json_row(row))?.as_bytes())?;
    }
    write!(
        out,
        "]}}</script>\n<script>{SCRIPT}</script>\n</body>\n</html>\n"
    )?;
    out.flush()
}

/// No network load of any kind (`default-src 'none'` covers fetches,
/// images, fonts, frames), no base or form target, and only the page's
/// own script and style, named by their SHA-256 (CSP Level 3 hash
/// sources): an element injected into the page would not run.
fn content_security_policy() -> String {
    format!(
        "default-src 'none'; script-src '{}'; style-src '{}'; img-src data:; base-uri 'none'; form-action 'none'",
        sha256_source(SCRIPT),
        sha256_source(STYLE)
    )
}

fn sha256_source(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    format!(
        "sha256-{}",
        base64::engine::general_purpose::STANDARD.encode(digest.as_slice())
    )
}

fn summary_line(c: &Summary) -> String {
    let mut parts = vec![format!("{} ok", c.ok)];
    if c.not_checked > 0 {
        parts.push(format!("{} not checked", c.not_checked));
    }
    if c.accepted > 0 {
        parts.push(format!("{} accepted", c.accepted));
    }
    if c.blocked > 0 {
        parts.push(format!("{} blocked", c.blocked));
    }
    if c.skipped > 0 {
        parts.push(format!("{} skipped by urldb.toml", c.skipped));
    }
    if c.skipped_robots > 0 {
        parts.push(format!("{} skipped by robots.txt", c.skipped_robots));
    }
    if c.fresh > 0 {
        parts.push(format!("{} fresh, not checked", c.fresh));
    }
    if c.skipped_deprecated > 0 {
        parts.push(format!("{} deprecated not checked", c.skipped_deprecated));
    }
    parts.join(", ")
}

fn counts_section(body: &mut String, c: &Summary) {
    body.push_str("<section id=\"counts\" aria-label=\"Counts\">\n");
    let mut count = |id: &str, label: &str, n: usize, always: bool| {
        if always || n > 0 {
            let _ = writeln!(
                body,
                "<div class=\"count c-{id}\" id=\"count-{id}\"><span class=\"n\">{n}</span> <span class=\"label\">{label}</span></div>"
            );
        }
    };
    count("checked", "URLs", c.urls, true);
    count("ok", "ok", c.ok, true);
    count("broken", "broken", c.broken, true);
    count("not-checked", "not checked", c.not_checked, false);
    count("blocked", "blocked (bot wall)", c.blocked, false);
    count("accepted", "accepted", c.accepted, false);
    count("excluded", "skipped (urldb.toml)", c.skipped, false);
    count("fresh", "fresh (--max-age)", c.fresh, false);
    count("private", "private address", c.private, false);
    count("skipped", "skipped (robots.txt)", c.skipped_robots, false);
    count("deprecated", "deprecated", c.skipped_deprecated, false);
    count("problems", "not verified", c.problems, false);
    body.push_str("</section>\n");
    if c.private > 0 {
        body.push_str("<p class=\"note\">URLs that resolved only to loopback, private, link-local or metadata addresses were not fetched; <code>--allow-private</code> fetches them.</p>\n");
    }
}

/// Chart geometry: the SVG's own coordinate system (it scales to the page).
const CHART_W: usize = 720;
const CHART_H: usize = 160;
const CHART_TOP: usize = 16;
const CHART_BOTTOM: usize = 28;
const CHART_LEFT: usize = 36;

/// A bar chart of broken URLs per run, drawn as inline SVG.
fn chart(body: &mut String, runs: &[RunCount]) {
    let max = runs.iter().map(|r| r.broken).max().unwrap_or(0).max(1);
    let plot_w = CHART_W - CHART_LEFT;
    let plot_h = CHART_H - CHART_TOP - CHART_BOTTOM;
    let step = plot_w as f64 / runs.len() as f64;
    let bar = (step * 0.7).max(1.0);
    let base = (CHART_TOP + plot_h) as f64;
    let _ = write!(
        body,
        "<section id=\"history\"><h2>Broken URLs per run</h2>\n\
         <svg id=\"chart\" role=\"img\" viewBox=\"0 0 {CHART_W} {CHART_H}\" aria-labelledby=\"chart-title\">\
         <title id=\"chart-title\">Broken URLs in the last {} runs</title>\
         <line class=\"axis\" x1=\"{CHART_LEFT}\" y1=\"{base}\" x2=\"{CHART_W}\" y2=\"{base}\"/>\
         <text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{max}</text>\
         <text class=\"tick\" x=\"{}\" y=\"{base}\" text-anchor=\"end\">0</text>",
        runs.len(),
        CHART_LEFT - 6,
        CHART_TOP + 4,
        CHART_LEFT - 6,
    );
    for (i, run) in runs.iter().enumerate() {
        let h = plot_h as f64 * run.broken as f64 / max as f64;
        let x = CHART_LEFT as f64 + step * i as f64 + (step - bar) / 2.0;
        let label = html(&escape(&run.id)).into_owned();
        let _ = write!(
            body,
            "<rect class=\"bar\" x=\"{x:.1}\" y=\"{:.1}\" width=\"{bar:.1}\" height=\"{h:.1}\"><title>{label}: {} of {} URLs broken</title></rect>",
            base - h,
            run.broken,
            run.checked,
        );
    }
    // The first and the last run's names under the axis; every bar names
    // its own run on hover.
    let first = runs.first().map(|r| r.id.as_str()).unwrap_or_default();
    let last = runs.last().map(|r| r.id.as_str()).unwrap_or_default();
    let y = CHART_H - 8;
    let _ = write!(
        body,
        "<text class=\"tick\" x=\"{CHART_LEFT}\" y=\"{y}\">{}</text>",
        html(&escape(&clip(first, 40)))
    );
    if runs.len() > 1 {
        let _ = write!(
            body,
            "<text class=\"tick\" x=\"{CHART_W}\" y=\"{y}\" text-anchor=\"end\">{}</text>",
            html(&escape(&clip(last, 40)))
        );
    }
    body.push_str("</svg></section>\n");
}

/// At most `n` characters of `s`, marked with `…` when cut.
fn clip(s: &str, n: usize) -> Cow<'_, str> {
    match s.char_indices().nth(n) {
        Some((end, _)) => Cow::Owned(format!("{}…", &s[..end])),
        None => Cow::Borrowed(s),
    }
}

fn table_section(body: &mut String, history: bool) {
    body.push_str(
        "<section id=\"results\"><h2>URLs</h2>\n<div class=\"controls\">\
         <label>Show <select id=\"verdict\">\
         <option value=\"all\">all</option>\
         <option value=\"broken\">broken</option>\
         <option value=\"not-checked\">not checked</option>\
         <option value=\"blocked\">blocked</option>\
         <option value=\"ok\">ok</option>\
         <option value=\"accepted\">accepted</option>\
         <option value=\"excluded\">skipped (urldb.toml)</option>\
         <option value=\"skipped\">skipped (robots.txt)</option>",
    );
    if history {
        body.push_str(
            "<option value=\"new\">newly broken</option>\
             <option value=\"persistent\">persistently broken</option>\
             <option value=\"flaky\">flaky</option>",
        );
    }
    body.push_str(
        "</select></label> <label>Filter <input id=\"search\" type=\"search\" placeholder=\"URL, file, reason\" autocomplete=\"off\"></label> \
         <span id=\"shown\" aria-live=\"polite\"></span></div>\n\
         <table id=\"urls\"><thead><tr>",
    );
    let mut columns = vec![
        ("url", "URL"),
        ("location", "Record"),
        ("status", "Status"),
        ("verdict", "PageVerdict"),
        ("reason", "Reason"),
        ("elapsed", "Elapsed"),
    ];
    if history {
        columns.push(("recent", "Recent runs"));
    }
    for (key, label) in columns {
        if key == "recent" {
            let _ = write!(body, "<th data-key=\"{key}\">{label}</th>");
        } else {
            let _ = write!(
                body,
                "<th data-key=\"{key}\" aria-sort=\"none\"><button type=\"button\">{label}</button></th>"
            );
        }
    }
    body.push_str(
        "</tr></thead><tbody></tbody></table>\n\
         <noscript><p>The table needs JavaScript; <code>urldb verify --format json</code> gives the same results.</p></noscript>\n\
         </section>\n",
    );
}

fn json_row(row: &HtmlRow) -> JsonRow<'_> {
    JsonRow {
        url: escape(&row.url),
        // A record not checked has no URL of its own host (its `_path` is
        // at fault): its text is shown, never linked.
        href: if row.verdict == PageVerdict::NotChecked {
            None
        } else {
            href(&row.url)
        },
        file: path_text(&row.file),
        line: row.line,
        status: row.status,
        verdict: row.verdict,
        kind: row.kind.as_deref().map(escape),
        reason: escape(&row.reason),
        ms: row.elapsed.as_millis(),
        recent: &row.recent,
        trend: row.trend,
    }
}

/// The link target of a URL: only an `http` or `https` URL that is
/// already what the `url` crate makes of it (WHATWG URL: percent-encoded,
/// no control or space characters), so the link goes exactly where the
/// text says (a parser would drop a tab from a host, or read a backslash as `/`).
/// Anything else (`javascript:`, `data:`) is shown as text only.
fn href(url: &str) -> Option<String> {
    let parsed = url::Url::parse(url).ok()?;
    (matches!(parsed.scheme(), "http" | "https") && parsed.as_str() == url).then(|| url.to_string())
}

/// JSON that can sit inside `<script type="application/json">`: `<`, `>`
/// and `&` written as `\u003c` etc., so neither `</script>` nor `<!--`
/// can end or change the element, and U+2028/U+2029 as escapes too (the
/// JSON stays the same value for `JSON.parse`).
fn script_json<T: Serialize>(value: &T) -> io::Result<String> {
    let json = serde_json::to_string(value).map_err(io::Error::other)?;
    let mut out = String::with_capacity(json.len() + 64);
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    // `##[` can only be inside a JSON string (the structure has no `#`),
    // where `\u005b` is the same `[` to `JSON.parse` and none to a CI log.
    if out.contains("##") {
        out = out
            .replace("##[", "##\\u005b")
            .replace("##vso[", "##vso\\u005b");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_json_cannot_close_its_element() {
        let s = script_json(&"</script><!--<script>&\u{2028}").expect("json");
        assert!(!s.contains('<') && !s.contains('>') && !s.contains('&'));
        assert!(!s.contains('\u{2028}'));
        let back: String = serde_json::from_str(&s).expect("still JSON");
        assert_eq!(back, "</script><!--<script>&\u{2028}");
    }

    #[test]
    fn only_http_and_https_urls_are_links() {
        assert_eq!(
            href("https://example.com/a%20b").as_deref(),
            Some("https://example.com/a%20b")
        );
        assert!(href("http://example.com/").is_some());
        // Not what a browser would open: no link rather than another one.
        assert_eq!(href("https://example.com/a b"), None);
        assert_eq!(href("https://exa\tmple.com/"), None);
        assert_eq!(href("https://good.test\\@evil.test/"), None);
        for bad in [
            "javascript:alert(1)",
            "JavaScript:alert(1)",
            " javascript:alert(1)",
            "data:text/html,<script>alert(1)</script>",
            "vbscript:x",
            "file:///etc/passwd",
            "//evil.test/",
            "not a url",
        ] {
            assert_eq!(href(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_title_counts_in_words() {
        let page = |checked, broken| {
            let mut out = Vec::new();
            let counts = Summary {
                urls: checked,
                broken,
                ..Summary::default()
            };
            render_html(
                &mut out,
                &HtmlPage {
                    counts,
                    ..HtmlPage::default()
                },
            )
            .expect("render");
            String::from_utf8(out).expect("UTF-8")
        };
        assert!(page(1, 0).contains("<title>urldb verify: all 1 URL passed</title>"));
        assert!(page(0, 0).contains("<title>urldb verify: all 0 URLs passed</title>"));
        assert!(page(2, 1).contains("<title>urldb verify: 1 of 2 URLs broken</title>"));
    }

    #[test]
    fn clip_cuts_at_characters() {
        assert_eq!(clip("ééé", 2), "éé…");
        assert_eq!(clip("ab", 2), "ab");
    }
}
