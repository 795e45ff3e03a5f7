//! `urldb verify --format html` (`docs/verify.md`): the page against a
//! real HTTP server on 127.0.0.1 and hostile values, and the same page in
//! a real browser (Debian's `chromium`, driven by playwright-core).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

use crate::support::oracles::{locked, repo, target_tmp};
use crate::verify::outcomes::{Server, database, json, map_arg, record, verify};
use urldb_verify::output::{
    HtmlPage, HtmlRow, PageTrend, PageVerdict, RunCount, Summary, render_html,
};

const DATA_OPEN: &str = r#"<script type="application/json" id="urldb-data">"#;

/// The page's JSON data block, parsed.
fn data(page: &str) -> serde_json::Value {
    let start = page.find(DATA_OPEN).expect("a data block") + DATA_OPEN.len();
    let len = page[start..].find("</script>").expect("its end");
    serde_json::from_str(&page[start..start + len]).expect("the data block is JSON")
}

/// The number shown by the count `id`.
fn count(page: &str, id: &str) -> Option<usize> {
    let open = format!(r#"id="count-{id}"><span class="n">"#);
    let start = page.find(&open)? + open.len();
    let len = page[start..].find('<')?;
    page[start..start + len].parse().ok()
}

/// A database with every kind of verdict, two hostile server answers and
/// two hostile `_path`s (never requested: `path-invalid-char`).
fn mixed_database() -> tempfile::TempDir {
    database(
        "",
        &[
            &record("/ok", "text/html", &[]),
            &record("/missing", "text/html", &[]),
            &record("/also-ok", "text/plain", &["content-type-change-ok"]),
            &record("/down", "text/html", &[]),
            &record("/moved", "text/html", &[]),
            &record("/plain", "text/html", &[]),
            &record("/evil-type", "text/html", &[]),
            &record("/evil-redirect", "text/html", &[]),
            &record(
                "\"/</script><script>window.pwned=1</script>\"",
                "text/html",
                &[],
            ),
            &record("\"/a\\e[31m\\u2028<!--\"", "text/html", &[]),
            &record("/typed", "text/html", &[]),
        ],
    )
}

fn run_html(db: &Path, server: &Server) -> crate::verify::outcomes::Run {
    verify(
        db,
        &[
            "--allow-private",
            "--retries",
            "0",
            "--map",
            &map_arg(server),
            "--format",
            "html",
        ],
    )
}

#[test]
fn html_names_every_broken_url_with_the_counts() {
    let server = Server::start();
    let db = mixed_database();
    let page = run_html(db.path(), &server);
    assert_eq!(page.code, 1, "{}", page.stderr);
    // The same run as JSON says which URLs are broken.
    let reference = json(&verify(
        db.path(),
        &[
            "--allow-private",
            "--retries",
            "0",
            "--map",
            &map_arg(&server),
            "--format",
            "json",
        ],
    ));
    let broken: Vec<&str> = reference["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter(|r| r["outcome"] == "broken")
        .map(|r| r["url"].as_str().expect("url"))
        .collect();
    assert_eq!(broken.len(), 8, "{reference}");

    let data = data(&page.stdout);
    let rows = data["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 11);
    let shown_broken: Vec<String> = rows
        .iter()
        .filter(|r| r["verdict"] == "broken" || r["verdict"] == "not-checked")
        .map(|r| r["url"].as_str().expect("url").to_string())
        .collect();
    // Every broken URL, as the human report shows it (control characters
    // escaped), in database order.
    let expected: Vec<String> = broken
        .iter()
        .map(|u| urldb_core::text::escape(u).into_owned())
        .collect();
    assert_eq!(shown_broken, expected);
    let summary = &reference["summary"];
    assert_eq!(count(&page.stdout, "checked"), Some(11));
    assert_eq!(count(&page.stdout, "broken"), Some(8));
    assert_eq!(count(&page.stdout, "ok"), Some(3));
    assert_eq!(count(&page.stdout, "not-checked"), Some(2));
    assert_eq!(summary["not-checked"], 2);
    assert!(
        page.stdout
            .starts_with("<!DOCTYPE html>\n<html lang=\"en\">"),
        "{}",
        page.stdout
    );
    assert!(
        page.stdout
            .contains("<title>urldb verify: 8 of 11 URLs broken</title>")
    );
    // The record location and reason of one of them.
    let missing = rows
        .iter()
        .find(|r| r["url"].as_str().is_some_and(|u| u.ends_with("/missing")))
        .expect("/missing");
    assert_eq!(missing["file"], "example.test.yaml");
    assert_eq!(missing["line"], 6);
    assert_eq!(missing["status"], 404);
    assert_eq!(missing["reason"], "HTTP 404 Not Found");
}

#[test]
fn html_is_self_contained_and_hostile_values_stay_text() {
    let server = Server::start();
    let db = mixed_database();
    // A file whose name is markup, with a record that cannot be verified:
    // listed in the page's markup among the problems.
    std::fs::write(
        db.path().join("b<!--\"><img src=x>.test.yaml"),
        "---\n---\n_path: /a\n",
    )
    .expect("write");
    let run = run_html(db.path(), &server);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let page = run.stdout;
    assert_self_contained(&page);
    assert!(
        page.contains(
            "<li>error: b&lt;!--&quot;&gt;&lt;img src=x&gt;.test.yaml:3: record without a `content-type`</li>"
        ),
        "{page}"
    );
    assert_eq!(count(&page, "problems"), Some(1));
    let data = data(&page);
    let rows = data["rows"].as_array().expect("rows");
    let by_end = |end: &str| {
        rows.iter()
            .find(|r| r["url"].as_str().is_some_and(|u| u.ends_with(end)))
            .unwrap_or_else(|| panic!("a row for {end}: {data}"))
    };
    // What the server sent comes back as the same text, never markup.
    assert_eq!(
        by_end("/evil-type")["reason"],
        "content type `text/html</script><script>window.pwned=1</script><!--`, expected `text/html`"
    );
    let redirect = by_end("/evil-redirect")["reason"]
        .as_str()
        .expect("reason")
        .to_string();
    assert!(
        redirect.contains(r#"to javascript:window.pwned=1//"><img src=x>"#),
        "{redirect}"
    );
    // The control characters of a `_path` are escaped as in human output.
    let escaped = by_end("<!--")["url"].as_str().expect("url").to_string();
    assert!(
        !escaped.chars().any(urldb_core::text::needs_escape),
        "{escaped}"
    );
    for row in rows {
        let href = &row["href"];
        assert!(
            href.is_null() || href.as_str().is_some_and(|h| h.starts_with("http://")),
            "{row}"
        );
    }
}

/// No markup but the page's own: two scripts, no other element that runs
/// or loads anything, no comment, a data block with no `<`, `>` or `&` to
/// end it, and a policy that forbids network loads.
fn assert_self_contained(page: &str) {
    let start = page.find(DATA_OPEN).expect("a data block") + DATA_OPEN.len();
    let len = page[start..].find("</script>").expect("its end");
    let data = &page[start..start + len];
    assert!(!data.contains(['<', '>', '&']), "{data}");
    let markup = format!("{}{}", &page[..start], &page[start + len..]);
    assert_eq!(markup.matches("<script").count(), 2, "{markup}");
    assert_eq!(markup.matches("</script>").count(), 2, "{markup}");
    // Every tag is one the renderer writes, none loads anything or has
    // an event handler (text holds no `<`: it is `&lt;`). The page's own
    // style and script (constants of the build) are left out of the scan.
    let without = |text: &str, open: &str, close: &str| -> String {
        let start = text.find(open).expect("open") + open.len();
        let end = start + text[start..].find(close).expect("close");
        format!("{}{}", &text[..start], &text[end..])
    };
    let markup = without(
        &without(&markup, "<style>", "</style>"),
        "<script>",
        "</script>",
    );
    const TAGS: [&str; 35] = [
        "!DOCTYPE", "html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "p",
        "section", "div", "span", "code", "ul", "li", "svg", "line", "rect", "text", "label",
        "select", "option", "input", "table", "thead", "tbody", "tr", "th", "button", "noscript",
        "script", "a", "b",
    ];
    for (at, _) in markup.match_indices('<') {
        let tag = &markup[at + 1..at + 1 + markup[at..].find('>').expect("a tag ends") - 1];
        if tag.starts_with('/') {
            continue;
        }
        let name = tag
            .split(|c: char| c.is_whitespace() || c == '/')
            .next()
            .unwrap_or_default();
        assert!(TAGS.contains(&name), "<{tag}> in\n{markup}");
        for attribute in [" src=", " href=", " on", "javascript:"] {
            assert!(!tag.contains(attribute), "<{tag}> in\n{markup}");
        }
    }
    assert!(!markup.contains("<!--"), "{markup}");
    assert!(markup.contains(
        r#"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-"#
    ));
}

/// A page with a history, rendered from the renderer's own input (the
/// command has no history yet); every string hostile.
fn history_page() -> HtmlPage {
    let evil = "</script><script>window.pwned=1</script><!--\u{1b}[31m\u{2028}";
    let row = |url: &str, verdict, recent: Vec<PageVerdict>, trend| HtmlRow {
        url: url.to_string(),
        file: format!("example.test.yaml{evil}"),
        line: 3,
        status: Some(if verdict == PageVerdict::Ok { 200 } else { 404 }),
        verdict,
        kind: (verdict != PageVerdict::Ok).then(|| "status".to_string()),
        reason: if verdict == PageVerdict::Ok {
            String::new()
        } else {
            format!("HTTP 404 {evil}")
        },
        elapsed: Duration::from_millis(12),
        recent,
        trend,
    };
    use PageVerdict::{Broken, Ok};
    HtmlPage {
        counts: Summary {
            urls: 4,
            ok: 1,
            broken: 3,
            elapsed: Duration::from_millis(1500),
            ..Summary::default()
        },
        rows: vec![
            row(
                "https://example.test/fine",
                Ok,
                vec![Ok, Ok, Ok, Ok, Ok],
                None,
            ),
            row(
                "https://example.test/gone",
                Broken,
                vec![Broken, Broken, Broken, Broken, Broken],
                Some(PageTrend::Persistent),
            ),
            row(
                "https://example.test/new",
                Broken,
                vec![Ok, Ok, Ok, Ok, Broken],
                Some(PageTrend::New),
            ),
            row(
                "javascript:window.pwned=1",
                Broken,
                vec![Ok, Broken, Ok, Broken, Broken],
                Some(PageTrend::Flaky),
            ),
        ],
        runs: ["2026-11-19", "2026-11-20", "2026-11-21", "2026-11-22"]
            .iter()
            .enumerate()
            .map(|(i, d)| RunCount {
                id: format!("{d}{evil}"),
                started: format!("{d}T00:00:00.000Z"),
                broken: [1, 2, 1, 3][i],
                checked: 4,
                ..RunCount::default()
            })
            .chain(std::iter::once(RunCount {
                id: "latest".to_string(),
                started: "2026-11-23T00:00:00.000Z".to_string(),
                broken: 3,
                checked: 4,
                ..RunCount::default()
            }))
            .collect(),
        problems: vec![format!("error: bad.yaml{evil}")],
    }
}

fn render(page: &HtmlPage) -> String {
    let mut out = Vec::new();
    render_html(&mut out, page).expect("render");
    String::from_utf8(out).expect("UTF-8")
}

#[test]
fn html_history_draws_a_chart_marks_and_badges() {
    let page = render(&history_page());
    assert_self_contained(&page);
    // One bar per run, as tall as its count: 1, 2, 1, 3, 3 of at most 3.
    let heights: Vec<f64> = page
        .match_indices(r#"<rect class="bar""#)
        .map(|(at, _)| {
            let rest = &page[at..];
            let h = rest.find(r#"height=""#).expect("height") + 8;
            rest[h..h + rest[h..].find('"').expect("end")]
                .parse()
                .expect("a number")
        })
        .collect();
    assert_eq!(heights.len(), 5);
    let near = |a: f64, b: f64| (a - b).abs() < 0.2;
    assert!(
        heights[0] > 0.0
            && near(heights[1], heights[0] * 2.0)
            && near(heights[2], heights[0])
            && near(heights[3], heights[0] * 3.0)
            && near(heights[4], heights[3]),
        "{heights:?}"
    );
    // Each bar names its run, escaped.
    assert!(page.contains(
        "<title>2026-11-19&lt;/script&gt;&lt;script&gt;window.pwned=1&lt;/script&gt;&lt;!--\\x1b&#91;31m\\u{2028}: 1 of 4 URLs broken</title>"
    ), "{page}");
    assert!(page.contains(r#"<th data-key="recent">Recent runs</th>"#));
    assert!(page.contains(r#"<option value="flaky">flaky</option>"#));
    let data = data(&page);
    assert_eq!(data["history"], true);
    let rows = data["rows"].as_array().expect("rows");
    assert_eq!(rows[2]["trend"], "new");
    assert_eq!(
        rows[2]["recent"],
        serde_json::json!(["ok", "ok", "ok", "ok", "broken"])
    );
    assert_eq!(rows[3]["trend"], "flaky");
    // Not a link: only http(s) URLs are.
    assert!(rows[3]["href"].is_null());
    assert_eq!(rows[1]["href"], "https://example.test/gone");
    assert!(
        rows[1]["file"]
            .as_str()
            .is_some_and(|f| f.ends_with("<!--\\x1b[31m\\u{2028}")),
        "{}",
        rows[1]["file"]
    );

    // Without a history: no chart, no column, no trend filter.
    let mut plain = history_page();
    plain.runs.clear();
    for r in &mut plain.rows {
        r.recent.clear();
        r.trend = None;
    }
    let plain = render(&plain);
    assert!(!plain.contains("<svg"));
    assert!(!plain.contains("Recent runs"));
    assert!(!plain.contains(r#"value="flaky""#));
}

/// The page of a real run with `--history`, and of `urldb report` merging
/// that run's JSON: the history the command keeps reaches the page.
#[test]
fn html_of_a_run_with_history_and_of_a_report() {
    let server = Server::start();
    let db = database(
        "",
        &[
            &record("/ok", "text/html", &[]),
            &record("/missing", "text/html", &[]),
        ],
    );
    let history = db.path().join("history.jsonl");
    let history = history.to_str().expect("utf-8 path");
    let args = |format: &'static str| {
        vec![
            "--allow-private".to_string(),
            "--retries".to_string(),
            "0".to_string(),
            "--map".to_string(),
            map_arg(&server),
            "--history".to_string(),
            history.to_string(),
            "--format".to_string(),
            format.to_string(),
        ]
    };
    let first = args("json");
    let first = verify(
        db.path(),
        &first.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    assert_eq!(first.code, 1, "{}", first.stderr);
    let second = args("html");
    let second = verify(
        db.path(),
        &second.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    assert_eq!(second.code, 1, "{}", second.stderr);
    let page = &second.stdout;
    assert_self_contained(page);
    assert_eq!(page.matches(r#"<rect class="bar""#).count(), 2, "{page}");
    let data = data(page);
    assert_eq!(data["history"], true);
    let rows = data["rows"].as_array().expect("rows");
    let missing = rows
        .iter()
        .find(|r| r["url"].as_str().is_some_and(|u| u.ends_with("/missing")))
        .expect("the broken URL is a row");
    assert_eq!(missing["verdict"], "broken");
    assert_eq!(missing["trend"], "persistent");
    assert_eq!(missing["recent"], serde_json::json!(["broken", "broken"]));

    // `urldb report` draws the same page from the first run's JSON.
    let json_file = db.path().join("run.json");
    std::fs::write(&json_file, &first.stdout).expect("write the results");
    let out = crate::support::urldb()
        .current_dir(db.path())
        .args(["report", "--format", "html"])
        .arg(&json_file)
        .output()
        .expect("run urldb report");
    assert_eq!(out.status.code(), Some(1));
    let page = String::from_utf8(out.stdout).expect("utf-8");
    let data = self::data(&page);
    let broken: Vec<_> = data["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter(|r| r["verdict"] == "broken")
        .map(|r| r["url"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(broken.len(), 1, "{broken:?}");
    assert!(broken[0].ends_with("/missing"));
    assert_eq!(count(&page, "broken"), Some(1), "{page}");
}

/// playwright-core, pinned by `tests/it/browser/package-lock.json`,
/// installed once under `target/` (`npm ci`, under a lock, with a stamp).
fn playwright() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| locked("playwright", install_playwright))
}

fn install_playwright() -> PathBuf {
    let dir = target_tmp().join("playwright");
    let source = repo().join("tests/it/browser");
    let lock = std::fs::read_to_string(source.join("package-lock.json")).expect("the lock file");
    let stamp = dir.join("urldb-package-lock.json");
    if dir.join("node_modules/playwright-core").is_dir()
        && std::fs::read_to_string(&stamp).ok().as_deref() == Some(lock.as_str())
    {
        return dir;
    }
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create target/tmp/playwright");
    for file in ["package.json", "package-lock.json"] {
        std::fs::copy(source.join(file), dir.join(file)).expect("copy the npm manifest");
    }
    let out = Command::new("npm")
        .args(["ci", "--no-audit", "--no-fund", "--ignore-scripts"])
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .expect("run npm (the browser test needs Node.js and npm)");
    assert!(
        out.status.success(),
        "npm ci in {} failed (the npm registry must be reachable the first time):\n{}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::write(&stamp, &lock).expect("write the stamp");
    dir
}

/// Open `page` in Chromium with `tests/it/browser/verify_html.js`, which
/// drives it as a reader would and returns what it saw.
fn in_browser(page: &Path, mode: &str, screenshot: &Path) -> serde_json::Value {
    let out = Command::new("node")
        .arg(repo().join("tests/it/browser/verify_html.js"))
        .arg(mode)
        .arg(page)
        .arg(screenshot)
        .env("NODE_PATH", playwright().join("node_modules"))
        .stdin(Stdio::null())
        .output()
        .expect("run node");
    assert!(
        out.status.success(),
        "the browser script failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", String::from_utf8_lossy(&out.stdout)))
}

/// Rows as (url, verdict) texts.
fn rows_of(seen: &serde_json::Value) -> Vec<(String, String)> {
    seen.as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            (
                r["url"].as_str().expect("url").to_string(),
                r["verdict"].as_str().expect("verdict").to_string(),
            )
        })
        .collect()
}

/// The page in a real browser. Needs Debian's `chromium` package, so it is
/// left out of a plain `cargo test`: `cargo test --test it html -- --ignored`
/// runs it (`.ci/run` does). `URLDB_UPDATE_DOCS=1` also writes the
/// screenshot to `docs/verify-html.png`.
#[test]
#[ignore = "needs Chromium (Debian package `chromium`); run with --ignored"]
fn html_page_works_in_chromium() {
    let server = Server::start();
    let db = mixed_database();
    let run = run_html(db.path(), &server);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let out = tempfile::tempdir_in(target_tmp()).expect("tempdir");
    let file = out.path().join("verify.html");
    std::fs::write(&file, &run.stdout).expect("write the page");
    let shot = target_tmp().join("verify-html.png");
    let seen = in_browser(&file, "run", &shot);

    // Nothing was loaded but the page, nothing failed, the policy held.
    assert_eq!(seen["requests"], serde_json::json!([]), "{seen}");
    assert_eq!(seen["errors"], serde_json::json!([]), "{seen}");
    assert_eq!(seen["violations"], serde_json::json!([]), "{seen}");
    assert_eq!(seen["pwned"], false);
    assert_eq!(seen["scripts"], 2);
    assert_eq!(
        seen["counts"],
        serde_json::json!({"checked": "11", "ok": "3", "broken": "8"})
    );

    // All 11 rows, broken (and not checked) first, each group in database order.
    let initial = rows_of(&seen["initial"]);
    assert_eq!(initial.len(), 11);
    let verdicts: Vec<&str> = initial.iter().map(|(_, v)| v.as_str()).collect();
    assert_eq!(
        verdicts,
        [
            "broken",
            "broken",
            "broken",
            "broken",
            "broken",
            "broken",
            "not checked",
            "not checked",
            "ok",
            "ok",
            "ok"
        ]
    );
    assert!(initial[0].0.ends_with("/missing"), "{initial:?}");
    assert_eq!(seen["shown"], "11 of 11 URLs shown");

    // Filtered to broken ones: the 8; by text: the one row.
    assert_eq!(rows_of(&seen["broken"]).len(), 8);
    assert_eq!(seen["broken_shown"], "8 of 11 URLs shown");
    let searched = rows_of(&seen["searched"]);
    assert_eq!(searched.len(), 1, "{searched:?}");
    assert!(searched[0].0.ends_with("/down"));

    // Sorted by status: ascending, the ones without a status last; again:
    // descending.
    let status_of = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .expect("rows")
            .iter()
            .map(|r| r["status"].as_str().expect("status").to_string())
            .collect()
    };
    assert_eq!(
        status_of(&seen["by_status"]),
        [
            "200", "200", "200", "200", "200", "301", "301", "404", "503", "—", "—"
        ]
    );
    assert_eq!(seen["by_status_sort"], "ascending");
    assert_eq!(
        status_of(&seen["by_status_desc"]),
        [
            "—", "—", "503", "404", "301", "301", "200", "200", "200", "200", "200"
        ]
    );
    // Sorted by URL: in code-point order, as the script compares.
    let urls: Vec<String> = rows_of(&seen["by_url"]).into_iter().map(|r| r.0).collect();
    let mut sorted = urls.clone();
    sorted.sort();
    assert_eq!(urls, sorted);

    // The hostile values are on the page as text.
    let evil_type = seen["evil_reason"].as_str().expect("reason");
    assert_eq!(
        evil_type,
        "content type `text/html</script><script>window.pwned=1</script><!--`, expected `text/html`"
    );
    assert!(
        seen["evil_url"]
            .as_str()
            .is_some_and(|u| u.ends_with("</script><script>window.pwned=1</script>")),
        "{}",
        seen["evil_url"]
    );
    // Only http URLs became links.
    for href in seen["links"].as_array().expect("links") {
        assert!(
            href.as_str()
                .is_some_and(|h| h.starts_with("http://127.0.0.1:")),
            "{href}"
        );
    }

    if std::env::var_os("URLDB_UPDATE_DOCS").is_some() {
        std::fs::copy(&shot, repo().join("docs/verify-html.png")).expect("copy the screenshot");
    }

    // A page with a history: the chart, the marks and the badges.
    let file = out.path().join("history.html");
    std::fs::write(&file, render(&history_page())).expect("write the page");
    let seen = in_browser(
        &file,
        "history",
        &target_tmp().join("verify-html-history.png"),
    );
    assert_eq!(seen["requests"], serde_json::json!([]), "{seen}");
    assert_eq!(seen["errors"], serde_json::json!([]), "{seen}");
    assert_eq!(seen["violations"], serde_json::json!([]), "{seen}");
    assert_eq!(seen["pwned"], false);
    assert_eq!(seen["scripts"], 2);
    assert_eq!(seen["bars"], 5);
    assert_eq!(
        seen["marks"],
        serde_json::json!([
            ["broken", "broken", "broken", "broken", "broken"],
            ["ok", "ok", "ok", "ok", "broken"],
            ["ok", "broken", "ok", "broken", "broken"],
            ["ok", "ok", "ok", "ok", "ok"]
        ])
    );
    assert_eq!(
        seen["badges"],
        serde_json::json!(["persistent", "new", "flaky"])
    );
    assert_eq!(rows_of(&seen["flaky"]).len(), 1);
    assert!(
        seen["file"].as_str().is_some_and(|f| f
            .starts_with("example.test.yaml</script><script>window.pwned=1</script><!--\\x1b[31m")),
        "{}",
        seen["file"]
    );
}

/// The page is written like every format: a full disk is exit 2 with a
/// message, a reader gone before it is written a quiet exit 0 (as
/// `tests/it/check/output_errors.rs` has for the other commands).
#[test]
fn html_output_that_cannot_be_written() {
    let server = Server::start();
    let db = database("", &[&record("/ok", "text/html", &[])]);
    let args = [
        "verify",
        "--allow-private",
        "--map",
        &map_arg(&server),
        "--format",
        "html",
    ];
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let out = crate::support::urldb()
        .current_dir(db.path())
        .args(args)
        .stdin(Stdio::null())
        .stdout(full)
        .output()
        .expect("run urldb");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("cannot write the output") && !err.contains("panicked"),
        "{err}"
    );

    let mut child = crate::support::urldb()
        .current_dir(db.path())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn urldb");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.is_empty(), "{err}");
}
