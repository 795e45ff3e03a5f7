//! Generate a large, realistic URL database for benchmarks and tests.
//!
//! docs/dev/performance.md measures `urldb check` and `urldb fmt --check` on a
//! generated database of 1,000,000 records in 10,000 files (about 110 MB);
//! this program writes it, deterministically: the same arguments give the
//! same bytes on every machine and every run (a splitmix64 generator, no
//! floating point, no hash-order dependence).
//!
//! ```sh
//! cargo run --release --example gen_db -- OUT_DIR --records 1000000 --files 10000 --seed 1 [--dirty PERCENT]
//! ```
//!
//! Every file is `OUT_DIR/<domain>.yaml` and holds the canonical text that
//! `urldb fmt` writes (= PyYAML's `yaml.dump_all(docs, explicit_start=True,
//! sort_keys=True)` with an empty metadata document as a bare `---` line):
//! metadata with `case-sensitive-paths`, `cnames` and `https`, then records
//! sorted by `_path` with `categories`, `content-length` + `content-sha256`
//! (static files) and `content-type`, keys in code-point order. Paths are
//! unique, in canonical percent-encoding, never equivalent to each other,
//! lowercase on `case-sensitive-paths: false` domains: `urldb check` has
//! nothing to say about a clean database. `tests/generator.rs` holds the
//! output to that and to PyYAML, byte for byte.
//!
//! `--dirty PERCENT` writes that share of the files (spread evenly, chosen
//! without randomness) in a valid but non-canonical layout: double-quoted
//! scalars, flow and indented sequences, keys, records, categories and
//! cnames out of order, `--- {}`. The data are the same as without
//! `--dirty` (the layout has its own random stream), so `urldb fmt` turns a
//! dirty database into the clean one byte for byte, and the dirty files
//! measure the general YAML path (every dirty file has at least one
//! double-quoted scalar, which the canonical fast reader declines).
//!
//! At the end it prints `files`, `records`, `bytes`, `largest` (file and
//! size) and `dirty`, one `key: value` line each, for `bench/compare.py`.

// A benchmark tool's own output, never database text: no gate needed.
#![allow(clippy::disallowed_macros, clippy::disallowed_methods)]

use std::collections::HashSet;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

#[derive(Parser)]
#[command(about = "Write a deterministic, realistic URL database (for benchmarks and tests)")]
struct Args {
    /// The directory to write (created; must be empty if it exists)
    out_dir: PathBuf,
    /// Total number of records, spread unevenly over the files
    #[arg(long, default_value_t = 1_000_000)]
    records: u64,
    /// Number of domain files
    #[arg(long, default_value_t = 10_000)]
    files: u64,
    /// Seed of the generator: the same seed gives the same bytes
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Percentage of the files written in a valid but non-canonical layout
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=100))]
    dirty: u64,
}

/// splitmix64: tiny, fast, and the same numbers everywhere.
struct Rng(u64);

impl Rng {
    /// An independent stream for (seed, purpose, index).
    fn stream(seed: u64, purpose: u64, index: u64) -> Self {
        let mut r = Rng(seed ^ purpose.wrapping_mul(0xD6E8_FEB8_6659_FD93));
        let a = r.next();
        let mut r = Rng(a ^ index.wrapping_mul(0xA076_1D64_78BD_642F));
        r.next();
        r
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (n > 0).
    fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next()) * u128::from(n)) >> 64) as u64
    }

    /// `lo..=hi`.
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

// Purposes of the random streams.
const SIZES: u64 = 1;
const CONTENT: u64 = 2;
const LAYOUT: u64 = 3;

const PREFIXES: &[&str] = &[
    "site", "site", "site", "shop", "docs", "blog", "news", "api", "media", "app",
];
const TLDS: &[&str] = &[
    ".example",
    ".example",
    ".example.com",
    ".example.org",
    ".example.net",
];

const SECTIONS: &[&str] = &[
    "about",
    "blog",
    "docs",
    "news",
    "products",
    "help",
    "support",
    "shop",
    "wiki",
    "en",
    "fr",
    "de",
    "media",
    "forum",
    "user",
    "2019",
    "2021",
    "archive",
    "services",
    "events",
    "press",
    "community",
];
const WORDS: &[&str] = &[
    "about",
    "news",
    "products",
    "services",
    "contact",
    "team",
    "careers",
    "press",
    "support",
    "pricing",
    "features",
    "archive",
    "events",
    "gallery",
    "faq",
    "terms",
    "privacy",
    "downloads",
    "guide",
    "tutorial",
    "reference",
    "install",
    "release-notes",
    "changelog",
    "community",
    "partners",
    "history",
    "jobs",
    "getting-started",
    "overview",
    "security",
    "roadmap",
    "summer-sale",
    "annual-report",
    "index",
    "user_guide",
    "v2.1",
    "hello-world",
];
const CAPITALIZED: &[&str] = &[
    "Main_Page",
    "About",
    "Help",
    "Special:Search",
    "File:Logo.png",
    "Category:News",
    "Talk:Home",
    "Annual_Report",
    "Privacy_Policy",
    "User:Admin",
];
const SCRIPTS: &[&str] = &[
    "index.php",
    "view.php",
    "item.asp",
    "show.cgi",
    "page.jsp",
    "article",
];
const LANGS: &[&str] = &["en", "fr", "de", "es", "ja", "pt-BR", "zh-Hant"];
const HTML: &[&str] = &[
    "text/html",
    "text/html",
    "text/html",
    "text/html; charset=utf-8",
    "text/html; charset=utf-8",
    "text/html; charset=iso-8859-1",
];
const ESCAPED_WORDS: &[&str] = &[
    "Caf%C3%A9",
    "r%C3%A9sum%C3%A9",
    "na%C3%AFve",
    "%E2%82%AC-prices",
    "%E6%97%A5%E6%9C%AC",
    "a%2Fb",
    "%22quoted%22",
    "%3Cangle%3E",
    "%5Bbrackets%5D",
    "50%25-off",
];
const CATEGORIES: &[&str] = &[
    "coreapp",
    "frontend",
    "frontend",
    "docs",
    "graphics",
    "static",
    "api",
    "seo",
    "legacy",
    "deprecated",
    "content-type-change-ok",
    "2024",
    "2025",
];

struct Record {
    path: String,
    categories: Vec<&'static str>,
    /// `content-length` and `content-sha256`.
    statics: Option<(u64, String)>,
    content_type: &'static str,
}

struct Domain {
    name: String,
    case_sensitive: bool,
    cnames: Vec<String>,
    https: bool,
    records: Vec<Record>,
}

fn domain_name(rng: &mut Rng, index: u64) -> String {
    format!("{}{index:05}{}", rng.pick(PREFIXES), rng.pick(TLDS))
}

fn hex(rng: &mut Rng, digits: usize) -> String {
    let mut s = String::with_capacity(digits + 16);
    while s.len() < digits {
        let _ = write!(s, "{:016x}", rng.next());
    }
    s.truncate(digits);
    s
}

/// 64 lowercase hex digits, never all decimal digits (PyYAML would quote
/// that one as an integer-looking string).
fn sha256(rng: &mut Rng) -> String {
    loop {
        let s = hex(rng, 64);
        if !s.bytes().all(|b| b.is_ascii_digit()) {
            return s;
        }
    }
}

/// A random record (its path not yet unique or lowercased).
fn record(rng: &mut Rng) -> Record {
    let mut categories: Vec<&'static str> = Vec::new();
    let mut statics = None;
    let mut path = String::with_capacity(64);
    let sec = rng.pick(SECTIONS);
    let content_type: &'static str = match rng.below(100) {
        // An HTML page.
        0..=29 => {
            match rng.below(4) {
                0 => {
                    let _ = write!(
                        path,
                        "/{sec}/{}-{}.html",
                        rng.pick(WORDS),
                        rng.below(10_000)
                    );
                }
                1 => {
                    let _ = write!(path, "/{sec}/{}/{}.html", rng.pick(WORDS), rng.pick(WORDS));
                }
                2 => {
                    let _ = write!(
                        path,
                        "/{sec}/{}/{}/{}-{}.htm",
                        rng.range(2005, 2026),
                        rng.range(1, 12),
                        rng.pick(WORDS),
                        rng.below(1000)
                    );
                }
                _ => {
                    let _ = write!(path, "/{sec}/{}", rng.pick(WORDS));
                    if rng.chance(40) {
                        let _ = write!(path, "-{}", rng.below(100_000));
                    }
                }
            }
            if rng.chance(50) {
                categories.push("frontend");
            }
            rng.pick(HTML)
        }
        // A directory index.
        30..=39 => {
            let _ = write!(path, "/{sec}/{}/", rng.pick(WORDS));
            if rng.chance(50) {
                let _ = write!(path, "{}/", rng.below(5000));
            }
            rng.pick(HTML)
        }
        // A query string.
        40..=51 => {
            match rng.below(3) {
                0 => {
                    let _ = write!(
                        path,
                        "/{sec}/{}?id={}&lang={}",
                        rng.pick(SCRIPTS),
                        rng.below(100_000),
                        rng.pick(LANGS)
                    );
                }
                1 => {
                    let _ = write!(
                        path,
                        "/search?q={}+{}&page={}",
                        rng.pick(WORDS),
                        rng.pick(WORDS),
                        rng.range(1, 50)
                    );
                }
                _ => {
                    let _ = write!(
                        path,
                        "/{sec}/list?sort=date&tags={},{}&offset={}",
                        rng.pick(WORDS),
                        rng.pick(WORDS),
                        rng.below(100) * 20
                    );
                }
            }
            if rng.chance(30) {
                categories.push("coreapp");
            }
            rng.pick(HTML)
        }
        // `;params`.
        52..=54 => {
            let _ = write!(
                path,
                "/{sec}/{};jsessionid={}",
                rng.pick(WORDS),
                hex(rng, 16).to_ascii_uppercase()
            );
            if rng.chance(30) {
                let _ = write!(path, "?ref={}", rng.pick(WORDS));
            }
            "text/html"
        }
        // Percent-escapes and the rarer characters of a path.
        55..=60 => match rng.below(5) {
            0 => {
                let _ = write!(
                    path,
                    "/downloads/{}%20{}%20{}.pdf",
                    rng.pick(WORDS),
                    rng.pick(WORDS),
                    rng.range(1990, 2026)
                );
                let len = rng.range(10_000, 5_000_000);
                statics = Some((len, sha256(rng)));
                "application/pdf"
            }
            1 => {
                let _ = write!(
                    path,
                    "/{sec}/{}_{}",
                    rng.pick(ESCAPED_WORDS),
                    rng.below(10_000)
                );
                rng.pick(HTML)
            }
            2 => {
                let _ = write!(
                    path,
                    "/wiki/{}_({})",
                    rng.pick(CAPITALIZED),
                    rng.pick(WORDS)
                );
                "text/html; charset=utf-8"
            }
            3 => {
                let _ = write!(
                    path,
                    "/blog/what's-new-in-{}!-{}",
                    rng.range(2010, 2026),
                    rng.below(1000)
                );
                "text/html"
            }
            _ => {
                let _ = write!(
                    path,
                    "/@{}/{}*{}$~{}",
                    rng.pick(WORDS),
                    rng.pick(WORDS),
                    rng.below(100),
                    rng.below(100)
                );
                "text/html"
            }
        },
        // A static file: length and digest.
        61..=82 => {
            let (ty, len) = match rng.below(8) {
                0 | 1 => {
                    let _ = write!(
                        path,
                        "/images/{}-{}.png",
                        rng.pick(WORDS),
                        rng.below(10_000)
                    );
                    categories.push("graphics");
                    ("image/png", rng.range(200, 900_000))
                }
                2 => {
                    let _ = write!(path, "/media/{}/{}.jpg", rng.range(2010, 2026), hex(rng, 8));
                    categories.push("graphics");
                    ("image/jpeg", rng.range(5_000, 4_000_000))
                }
                3 => {
                    let _ = write!(path, "/static/css/{}.{}.css", rng.pick(WORDS), hex(rng, 8));
                    ("text/css", rng.range(300, 200_000))
                }
                4 => {
                    let _ = write!(path, "/static/js/{}.{}.js", rng.pick(WORDS), hex(rng, 8));
                    ("application/javascript", rng.range(300, 900_000))
                }
                5 => {
                    path.push_str(
                        ["/favicon.ico", "/robots.txt", "/.well-known/security.txt"]
                            [rng.below(3) as usize],
                    );
                    match path.as_str() {
                        "/favicon.ico" => ("image/x-icon", rng.range(300, 20_000)),
                        _ => ("text/plain", rng.range(0, 3_000)),
                    }
                }
                6 => {
                    let _ = write!(
                        path,
                        "/downloads/{}-{}.{}.{}.tar.gz",
                        rng.pick(WORDS),
                        rng.range(0, 9),
                        rng.range(0, 30),
                        rng.range(0, 9)
                    );
                    ("application/gzip", rng.range(10_000, 90_000_000))
                }
                _ => {
                    let _ = write!(path, "/fonts/{}-{}.woff2", rng.pick(WORDS), rng.below(900));
                    ("font/woff2", rng.range(10_000, 200_000))
                }
            };
            categories.push("static");
            statics = Some((len, sha256(rng)));
            ty
        }
        // An API endpoint.
        83..=91 => {
            let _ = write!(
                path,
                "/api/v{}/{}/{}",
                rng.range(1, 3),
                rng.pick(WORDS),
                rng.below(1_000_000)
            );
            if rng.chance(30) {
                let _ = write!(path, "?format=json&fields=id,name");
            }
            categories.push("api");
            if rng.chance(5) {
                categories.push("content-type-change-ok");
            }
            "application/json"
        }
        // A redirect, as the reference tool stores it.
        _ => {
            let _ = write!(path, "/old/{}-{}.html", rng.pick(WORDS), rng.below(100_000));
            if rng.chance(50) {
                categories.push("redirect-ok");
            }
            if rng.chance(70) {
                "X-301-Redirect"
            } else {
                ["X-302-Redirect", "X-307-Redirect", "X-308-Redirect"][rng.below(3) as usize]
            }
        }
    };
    if rng.chance(20) {
        categories.push(rng.pick(CATEGORIES));
    }
    if rng.chance(3) {
        categories.push("deprecated");
    }
    categories.sort_unstable();
    categories.dedup();
    Record {
        path,
        categories,
        statics,
        content_type,
    }
}

/// Lowercase a path before its query, keeping the hex digits of escapes
/// uppercase (what `case-sensitive-paths: false` asks for).
fn lowercase_head(path: &mut String) {
    let head = path.find('?').unwrap_or(path.len());
    let mut bytes = std::mem::take(path).into_bytes();
    let mut i = 0;
    while i < head {
        if bytes[i] == b'%' {
            i += 3;
        } else {
            bytes[i] = bytes[i].to_ascii_lowercase();
            i += 1;
        }
    }
    *path = String::from_utf8(bytes).expect("ASCII");
}

fn domain(seed: u64, index: u64, records: u64) -> Domain {
    let mut rng = Rng::stream(seed, CONTENT, index);
    let name = domain_name(&mut rng, index);
    let case_sensitive = !rng.chance(8);
    let https = rng.chance(70);
    let cnames = match rng.below(10) {
        0..=2 => vec![],
        3..=7 => vec![format!("www.{name}")],
        _ => vec![format!("m.{name}"), format!("www.{name}")],
    };
    let mut seen: HashSet<String> = HashSet::with_capacity(records as usize);
    let mut list = Vec::with_capacity(records as usize);
    while (list.len() as u64) < records {
        let mut r = record(&mut rng);
        if !case_sensitive {
            lowercase_head(&mut r.path);
        }
        if seen.insert(r.path.clone()) {
            list.push(r);
        }
    }
    list.sort_unstable_by(|a, b| a.path.as_bytes().cmp(b.path.as_bytes()));
    Domain {
        name,
        case_sensitive,
        cnames,
        https,
        records: list,
    }
}

/// A string scalar as PyYAML writes it. The generator's vocabulary needs
/// quotes only for integer-looking strings (`'2024'`).
fn scalar(out: &mut String, s: &str) {
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        out.push('\'');
        out.push_str(s);
        out.push('\'');
    } else {
        out.push_str(s);
    }
}

/// The canonical text of a domain file.
fn canonical(d: &Domain, out: &mut String) {
    out.push_str("---");
    if d.case_sensitive && d.cnames.is_empty() && !d.https {
        out.push('\n');
    } else {
        out.push('\n');
        if !d.case_sensitive {
            out.push_str("case-sensitive-paths: false\n");
        }
        if !d.cnames.is_empty() {
            out.push_str("cnames:\n");
            for c in &d.cnames {
                out.push_str("- ");
                out.push_str(c);
                out.push('\n');
            }
        }
        if d.https {
            out.push_str("https: true\n");
        }
    }
    for r in &d.records {
        out.push_str("---\n_path: ");
        out.push_str(&r.path);
        out.push('\n');
        if !r.categories.is_empty() {
            out.push_str("categories:\n");
            for c in &r.categories {
                out.push_str("- ");
                scalar(out, c);
                out.push('\n');
            }
        }
        if let Some((len, sha)) = &r.statics {
            let _ = write!(out, "content-length: {len}\ncontent-sha256: {sha}\n");
        }
        out.push_str("content-type: ");
        out.push_str(r.content_type);
        out.push('\n');
    }
}

/// A sequence in one of the layouts YAML allows.
fn sequence(out: &mut String, key: &str, items: &[&str], rng: &mut Rng) {
    out.push_str(key);
    match rng.below(3) {
        0 => {
            out.push_str(": [");
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                scalar(out, item);
            }
            out.push_str("]\n");
        }
        1 => {
            out.push_str(":\n");
            for item in items {
                out.push_str("  - ");
                scalar(out, item);
                out.push('\n');
            }
        }
        _ => {
            out.push_str(":\n");
            for item in items {
                out.push_str("- \"");
                out.push_str(item);
                out.push_str("\"\n");
            }
        }
    }
}

/// The same data in a valid, non-canonical layout.
fn dirty(d: &Domain, seed: u64, index: u64, out: &mut String) {
    let mut rng = Rng::stream(seed, LAYOUT, index);
    // Metadata.
    let empty = d.case_sensitive && d.cnames.is_empty() && !d.https;
    if empty {
        out.push_str("--- {}\n");
    } else if rng.chance(30) {
        // Flow mapping, cnames reversed.
        out.push_str("--- {");
        let mut parts: Vec<String> = Vec::new();
        if d.https {
            parts.push("https: true".into());
        }
        if !d.cnames.is_empty() {
            let rev: Vec<&str> = d.cnames.iter().rev().map(String::as_str).collect();
            parts.push(format!("cnames: [{}]", rev.join(", ")));
        }
        if !d.case_sensitive {
            parts.push("case-sensitive-paths: false".into());
        }
        out.push_str(&parts.join(", "));
        out.push_str("}\n");
    } else {
        out.push_str("---\n");
        if d.https && rng.chance(50) {
            out.push_str("https: true\n");
        }
        let https_written = out.ends_with("https: true\n");
        if !d.case_sensitive {
            out.push_str("case-sensitive-paths: false\n");
        }
        if !d.cnames.is_empty() {
            let mut cnames: Vec<&str> = d.cnames.iter().map(String::as_str).collect();
            if rng.chance(50) {
                cnames.reverse();
            }
            sequence(out, "cnames", &cnames, &mut rng);
        }
        if d.https && !https_written {
            out.push_str("https: true\n");
        }
    }
    // Records, some pairs swapped.
    let mut order: Vec<usize> = (0..d.records.len()).collect();
    let mut i = 1;
    while i < order.len() {
        if rng.chance(10) {
            order.swap(i - 1, i);
            i += 2;
        } else {
            i += 1;
        }
    }
    for (n, &at) in order.iter().enumerate() {
        let r = &d.records[at];
        out.push_str("---\n");
        // The first record always has a double-quoted path: the fast reader
        // declines the file and the general path reads it.
        let mutate = n == 0 || rng.chance(25);
        let mut fields: Vec<String> = Vec::with_capacity(5);
        let quote_path = n == 0 || (mutate && rng.chance(40));
        fields.push(if quote_path {
            format!("_path: \"{}\"\n", r.path)
        } else if mutate && rng.chance(20) {
            format!("_path:   {}\n", r.path)
        } else {
            format!("_path: {}\n", r.path)
        });
        if !r.categories.is_empty() {
            let mut f = String::new();
            let mut cats = r.categories.clone();
            if mutate && rng.chance(50) {
                cats.reverse();
            }
            if mutate {
                sequence(&mut f, "categories", &cats, &mut rng);
            } else {
                f.push_str("categories:\n");
                for c in &cats {
                    f.push_str("- ");
                    scalar(&mut f, c);
                    f.push('\n');
                }
            }
            fields.push(f);
        }
        if let Some((len, sha)) = &r.statics {
            fields.push(format!("content-length: {len}\n"));
            if mutate && rng.chance(30) {
                fields.push(format!("content-sha256: '{sha}'\n"));
            } else {
                fields.push(format!("content-sha256: {sha}\n"));
            }
        }
        if mutate && rng.chance(40) {
            fields.push(format!("content-type: \"{}\"\n", r.content_type));
        } else {
            fields.push(format!("content-type: {}\n", r.content_type));
        }
        if mutate && rng.chance(40) {
            // content-type first, the rest after it.
            fields.rotate_right(1);
        }
        for f in fields {
            out.push_str(&f);
        }
    }
}

/// Records per file: uneven (a few files are ten times the others), at
/// least one each when there are enough, exactly `records` in total.
fn sizes(seed: u64, files: u64, records: u64) -> Vec<u64> {
    let mut rng = Rng::stream(seed, SIZES, 0);
    let weights: Vec<u64> = (0..files)
        .map(|_| {
            let w = rng.range(1, 100);
            if rng.chance(2) { w * 10 } else { w }
        })
        .collect();
    let floor = u64::from(records >= files);
    let spread = records - floor * files;
    let total: u128 = weights.iter().map(|&w| u128::from(w)).sum();
    let mut acc: u128 = 0;
    let mut given: u64 = 0;
    weights
        .iter()
        .map(|&w| {
            acc += u128::from(w);
            let upto = (u128::from(spread) * acc / total) as u64;
            let n = upto - given;
            given = upto;
            floor + n
        })
        .collect()
}

fn run(args: &Args) -> Result<(), String> {
    if args.files == 0 {
        return Err("--files must be at least 1".into());
    }
    let out_dir = &args.out_dir;
    if out_dir.exists() {
        let mut entries = std::fs::read_dir(out_dir)
            .map_err(|e| format!("cannot read {}: {e}", out_dir.display()))?;
        if entries.next().is_some() {
            return Err(format!(
                "{} is not empty: give a new or empty directory",
                out_dir.display()
            ));
        }
    } else {
        std::fs::create_dir_all(out_dir)
            .map_err(|e| format!("cannot create {}: {e}", out_dir.display()))?;
    }
    let counts = sizes(args.seed, args.files, args.records);
    let (mut bytes, mut records, mut dirty_files) = (0u64, 0u64, 0u64);
    let mut largest = (String::new(), 0usize);
    let mut text = String::new();
    for (index, &count) in (0u64..).zip(&counts) {
        let d = domain(args.seed, index, count);
        text.clear();
        // Exactly `files * dirty / 100` files, spread evenly.
        let is_dirty = (index + 1) * args.dirty / 100 > index * args.dirty / 100;
        if is_dirty {
            dirty(&d, args.seed, index, &mut text);
            dirty_files += 1;
        } else {
            canonical(&d, &mut text);
        }
        let file = format!("{}.yaml", d.name);
        std::fs::write(out_dir.join(&file), text.as_bytes())
            .map_err(|e| format!("cannot write {file}: {e}"))?;
        bytes += text.len() as u64;
        records += d.records.len() as u64;
        if text.len() > largest.1 {
            largest = (file, text.len());
        }
    }
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(
        stdout,
        "files: {}\nrecords: {records}\nbytes: {bytes}\nlargest: {} {}\ndirty: {dirty_files}",
        counts.len(),
        largest.0,
        largest.1
    );
    Ok(())
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gen_db: {e}");
            ExitCode::from(2)
        }
    }
}
