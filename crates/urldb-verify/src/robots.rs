//! `--respect-robots`: `/robots.txt` read once per origin and applied as
//! RFC 9309 (the Robots Exclusion Protocol) says; `docs/verify.md` lists
//! where that differs from the 1996 draft that `ls --match` still follows.
//!
//! - Groups (RFC 9309 2.1): one or more `User-agent` lines and the rules
//!   after them, up to the next `User-agent` line that follows a rule.
//!   Blank lines, comments and other lines (`Sitemap`, unknown ones) end
//!   nothing; rules before the first `User-agent` belong to no group.
//! - Which groups apply (2.2.1): those whose `User-agent` value names the
//!   product token `urldb` (the value's leading run of letters, `_` and
//!   `-`, compared case-insensitively: `urldb/2` and `URLdb bot` name it,
//!   `urldb-checker` does not), merged; else every `*` group, merged; else
//!   none (all allowed).
//! - Which rule decides (2.2.2): of the `Allow` / `Disallow` rules whose
//!   pattern matches the path, the longest (in octets, see [`Pattern`]);
//!   `Allow` wins a tie; no match, allowed. An empty pattern matches
//!   nothing. `/robots.txt` itself is always allowed.
//! - Patterns (2.2.3): `*` is any run of octets, a final `$` ends the
//!   path; every other octet is compared after decoding `%xx` escapes the
//!   way every command compares paths (`urldb_core::model::path::octets`,
//!   `docs/urls.md`): so `%2A` is a literal `*` and `%24` a literal `$`.
//! - `Crawl-delay` (no part of RFC 9309, widely written) is read from the
//!   groups that apply: the largest value, in seconds.
//! - Fetching (2.3.1): 2xx, the rules (at most [`MAX_ROBOTS`] read, 2.5);
//!   up to five redirects followed; a 4xx but 429 ("unavailable"), or more
//!   redirects, allows everything; a 429, a 5xx or no answer
//!   ("unreachable") disallows everything.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use crate::http::{BodyMode, Client};

/// The product token urldb looks for in `User-agent` lines.
pub(crate) const TOKEN: &str = "urldb";

/// How much of a `/robots.txt` is read: RFC 9309 2.5 asks for at least
/// 500 KiB; what follows is not read.
const MAX_ROBOTS: u64 = 512 * 1024;

/// Redirects followed for `/robots.txt` (RFC 9309 2.3.1.2: at least five).
const MAX_REDIRECTS: usize = 5;

/// One octet of a pattern or a path, as compared: a decoded octet below
/// 0x100, or one of the escapes `octets` keeps (`%2F`, `%3F`, `%23`,
/// `%25`) as 0x100 plus its octet, so that no wildcard ends inside one.
type Unit = u16;

fn units(text: &str) -> Vec<Unit> {
    let bytes = urldb_core::model::path::octets(text);
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        // `octets` writes a `%` only as the start of one of its escapes,
        // in uppercase hex.
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (b, hex) {
            (b'%', Some(octet)) => {
                out.push(0x100 | Unit::from(octet));
                i += 3;
            }
            _ => {
                out.push(Unit::from(b));
                i += 1;
            }
        }
    }
    out
}

/// An `Allow` / `Disallow` path pattern: literal runs between `*`s, and
/// whether a final `$` anchors it at the path's end.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Pattern {
    pieces: Vec<Vec<Unit>>,
    anchored: bool,
    /// How specific it is (RFC 9309 2.2.2, "the most octets"): its octets
    /// after decoding, each `*` and the `$` counting one.
    length: usize,
}

impl Pattern {
    fn new(text: &str) -> Pattern {
        let (body, anchored) = match text.strip_suffix('$') {
            Some(body) => (body, true),
            None => (text, false),
        };
        let pieces: Vec<Vec<Unit>> = body.split('*').map(units).collect();
        let length =
            pieces.iter().map(Vec::len).sum::<usize>() + (pieces.len() - 1) + usize::from(anchored);
        Pattern {
            pieces,
            anchored,
            length,
        }
    }

    /// Does it match `path` (already in [`units`])? The first piece must
    /// start the path; each next one is found at its leftmost place after
    /// the one before (leftmost is never worse for what follows); with
    /// `$`, the last one must end the path.
    fn matches(&self, path: &[Unit]) -> bool {
        let Some((first, rest)) = self.pieces.split_first() else {
            return true;
        };
        if !path.starts_with(first) {
            return false;
        }
        let mut at = first.len();
        let Some((last, middle)) = rest.split_last() else {
            return !self.anchored || at == path.len();
        };
        for piece in middle {
            match find(&path[at..], piece) {
                Some(i) => at += i + piece.len(),
                None => return false,
            }
        }
        if self.anchored {
            path.len() - at >= last.len() && path.ends_with(last)
        } else {
            find(&path[at..], last).is_some()
        }
    }
}

fn find(haystack: &[Unit], needle: &[Unit]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Rule {
    allow: bool,
    pattern: Pattern,
}

/// The rules that apply to urldb on one origin.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RobotsRules {
    rules: Vec<Rule>,
    crawl_delay: Option<Duration>,
}

/// Whom a `User-agent` value names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Agent {
    Us,
    Anyone,
    Other,
}

/// RFC 9309 2.2.1: the product token is the value's leading letters, `_`
/// and `-`, matched case-insensitively; `*` (alone or before a space)
/// is every crawler.
fn agent(value: &str) -> Agent {
    if value == "*"
        || value
            .strip_prefix('*')
            .is_some_and(|r| r.starts_with([' ', '\t']))
    {
        return Agent::Anyone;
    }
    let end = value
        .find(|c: char| !(c.is_ascii_alphabetic() || c == '_' || c == '-'))
        .unwrap_or(value.len());
    if value[..end].eq_ignore_ascii_case(TOKEN) {
        Agent::Us
    } else {
        Agent::Other
    }
}

/// A line's field and value: `field: value`, or (as Google's parser
/// accepts) `field value` when the line has no colon.
fn field_of(line: &str) -> Option<(String, &str)> {
    let (field, value) = match line.split_once(':') {
        Some(pair) => pair,
        None => line.split_once([' ', '\t'])?,
    };
    Some((field.trim().to_ascii_lowercase(), value.trim()))
}

/// `Crawl-delay: N`: a non-negative number of seconds, decimals allowed.
fn crawl_delay(value: &str) -> Option<Duration> {
    let seconds: f64 = value.parse().ok()?;
    (seconds.is_finite() && seconds >= 0.0)
        .then(|| Duration::try_from_secs_f64(seconds).ok())
        .flatten()
}

impl RobotsRules {
    /// Parse a robots.txt and keep the groups urldb must obey.
    pub fn parse(text: &str) -> RobotsRules {
        #[derive(Default)]
        struct Group {
            agents: Vec<Agent>,
            rules: Vec<Rule>,
            crawl_delay: Option<Duration>,
        }
        let mut groups: Vec<Group> = Vec::new();
        // A `User-agent` line after a rule starts a new group.
        let mut after_rule = true;
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        for raw in text.split(['\n', '\r']) {
            let line = raw.split('#').next().unwrap_or_default().trim();
            let Some((field, value)) = field_of(line) else {
                continue;
            };
            match field.as_str() {
                "user-agent" => {
                    if after_rule {
                        groups.push(Group::default());
                        after_rule = false;
                    }
                    if let Some(g) = groups.last_mut() {
                        g.agents.push(agent(value));
                    }
                }
                "allow" | "disallow" => {
                    after_rule = true;
                    let Some(g) = groups.last_mut() else {
                        continue;
                    };
                    if !value.is_empty() {
                        g.rules.push(Rule {
                            allow: field == "allow",
                            pattern: Pattern::new(value),
                        });
                    }
                }
                // Read as a member of its group, like a rule: a
                // `User-agent` after it starts another group.
                "crawl-delay" => {
                    after_rule = true;
                    if let (Some(g), Some(delay)) = (groups.last_mut(), crawl_delay(value)) {
                        g.crawl_delay = g.crawl_delay.max(Some(delay));
                    }
                }
                _ => {}
            }
        }
        let ours = |who: Agent| groups.iter().any(|g| g.agents.contains(&who));
        let who = if ours(Agent::Us) {
            Agent::Us
        } else {
            Agent::Anyone
        };
        let mut rules = RobotsRules::default();
        for g in groups.into_iter().filter(|g| g.agents.contains(&who)) {
            rules.rules.extend(g.rules);
            rules.crawl_delay = rules.crawl_delay.max(g.crawl_delay);
        }
        rules
    }

    /// Parse the bytes of a robots.txt: a leading UTF-8 byte order mark,
    /// whole or cut, is skipped (as Google's parser does); other bytes
    /// that are not UTF-8 match nothing a path holds.
    fn parse_bytes(bytes: &[u8]) -> RobotsRules {
        let bom = [0xEF, 0xBB, 0xBF];
        let skip = (0..=3)
            .rev()
            .find(|&n| bytes.starts_with(&bom[..n]))
            .unwrap_or(0);
        RobotsRules::parse(&String::from_utf8_lossy(&bytes[skip..]))
    }

    /// May urldb fetch `path` (the URL's path and query)?
    pub fn allowed(&self, path: &str) -> bool {
        if path == "/robots.txt" {
            return true;
        }
        let path = units(path);
        // The longest match; of two as long, `Allow`.
        let mut best: Option<(usize, bool)> = None;
        for rule in &self.rules {
            if rule.pattern.length == 0 || !rule.pattern.matches(&path) {
                continue;
            }
            let this = (rule.pattern.length, rule.allow);
            if best.is_none_or(|b| this > b) {
                best = Some(this);
            }
        }
        best.is_none_or(|(_, allow)| allow)
    }

    /// The `Crawl-delay` of the groups that apply, if any.
    pub fn crawl_delay(&self) -> Option<Duration> {
        self.crawl_delay
    }
}

/// Why `/robots.txt` keeps urldb from a URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RobotsDenial {
    /// A rule disallows the path.
    Disallowed,
    /// `/robots.txt` could not be read (a 429, a 5xx, no answer): RFC 9309
    /// 2.3.1.4 says to assume everything disallowed.
    Unreachable(String),
}

impl fmt::Display for RobotsDenial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RobotsDenial::Disallowed => f.write_str("disallowed by robots.txt"),
            RobotsDenial::Unreachable(why) => write!(
                f,
                "robots.txt unreachable ({why}): everything disallowed (RFC 9309 2.3.1.4)"
            ),
        }
    }
}

/// What `/robots.txt` said for one origin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Robots {
    Rules(RobotsRules),
    /// RFC 9309 2.3.1.3: none to obey (a 4xx, too many redirects).
    Unavailable,
    Unreachable(String),
}

impl Robots {
    /// The `Crawl-delay` of the groups urldb obeys.
    pub(crate) fn crawl_delay(&self) -> Option<Duration> {
        match self {
            Robots::Rules(rules) => rules.crawl_delay(),
            Robots::Unavailable | Robots::Unreachable(_) => None,
        }
    }

    pub(crate) fn denial(&self, path: &str) -> Option<RobotsDenial> {
        match self {
            Robots::Rules(rules) if !rules.allowed(path) => Some(RobotsDenial::Disallowed),
            Robots::Rules(_) | Robots::Unavailable => None,
            Robots::Unreachable(_) if path == "/robots.txt" => None,
            Robots::Unreachable(why) => Some(RobotsDenial::Unreachable(why.clone())),
        }
    }
}

/// One `/robots.txt` per origin, fetched by the first check that needs it
/// while the others for that origin wait.
#[derive(Debug, Default)]
pub(crate) struct RobotsCache {
    origins: Mutex<HashMap<String, Arc<OnceLock<Robots>>>>,
}

impl RobotsCache {
    /// What robots.txt says for `origin`, fetched at the first call
    /// (`before` is called before each request it makes: the origin's
    /// pace).
    pub(crate) fn get(
        &self,
        client: &Client,
        origin: &str,
        before: &dyn Fn(),
    ) -> Arc<OnceLock<Robots>> {
        let cell = {
            let mut origins = self.origins.lock().unwrap_or_else(|p| p.into_inner());
            Arc::clone(origins.entry(origin.to_string()).or_default())
        };
        cell.get_or_init(|| fetch(client, origin, before));
        cell
    }
}

fn fetch(client: &Client, origin: &str, before: &dyn Fn()) -> Robots {
    let mut url = format!("{origin}/robots.txt");
    for _ in 0..=MAX_REDIRECTS {
        before();
        let r = match client.get(&url, BodyMode::Collect(MAX_ROBOTS), None) {
            Ok(r) => r,
            Err(e) => return Robots::Unreachable(e.to_string()),
        };
        match r.status {
            200..=299 => {
                return Robots::Rules(RobotsRules::parse_bytes(&r.bytes.unwrap_or_default()));
            }
            300..=399 => match r.location.as_deref().and_then(|l| redirect(&url, l)) {
                Some(next) => url = next,
                None => return Robots::Unavailable,
            },
            429 | 500..=599 => return Robots::Unreachable(format!("HTTP {}", r.status)),
            _ => return Robots::Unavailable,
        }
    }
    Robots::Unavailable
}

/// The URL a `Location` leads to from `base`, if it is http or https.
fn redirect(base: &str, location: &str) -> Option<String> {
    let next = url::Url::parse(base).ok()?.join(location).ok()?;
    matches!(next.scheme(), "http" | "https").then(|| next.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(robots.txt, path, allowed)` cases for urldb.
    fn check(text: &str, cases: &[(&str, bool)]) {
        let rules = RobotsRules::parse(text);
        for (path, allowed) in cases {
            assert_eq!(rules.allowed(path), *allowed, "{path} in\n{text}");
        }
    }

    /// The same cases for a robots.txt written for "FooBot" (Google's
    /// suite's agent), asked as urldb.
    fn check_foobot(text: &str, cases: &[(&str, bool)]) {
        check(&text.replace("FooBot", "urldb"), cases);
    }

    // RFC 9309's examples.

    /// Section 5.1, "Simple Example".
    const RFC_SIMPLE: &str = "User-Agent: *\nDisallow: *.gif$\nDisallow: /example/\nAllow: /publications/\n\nUser-Agent: foobot\nDisallow:/\nAllow:/example/page.html\nAllow:/example/allowed.gif\n\nUser-Agent: barbot\nUser-Agent: bazbot\nDisallow: /example/page.html\n\nUser-Agent: quxbot\n\nEOF\n";

    #[test]
    fn rfc_9309_simple_example() {
        let as_agent = |name: &str| {
            RFC_SIMPLE.replace(&format!("User-Agent: {name}\n"), "User-Agent: urldb\n")
        };
        // As any crawler: the `*` group.
        check(
            RFC_SIMPLE,
            &[
                ("/a.gif", false),
                // Longer than `*.gif$`: the `Allow` wins.
                ("/publications/a.gif", true),
                ("/example/", false),
                ("/example/page.html", false),
                ("/publications/", true),
                ("/a.gifx", true),
                ("/other", true),
            ],
        );
        check(
            &as_agent("foobot"),
            &[
                ("/example/page.html", true),
                ("/example/allowed.gif", true),
                ("/example/", false),
                ("/", false),
                ("/publications/", false),
            ],
        );
        // barbot and bazbot share a group.
        for name in ["barbot", "bazbot"] {
            check(
                &as_agent(name),
                &[
                    ("/example/page.html", false),
                    ("/example/", true),
                    ("/a.gif", true),
                ],
            );
        }
        // quxbot's group has no rules: everything allowed.
        check(
            &as_agent("quxbot"),
            &[("/example/page.html", true), ("/a.gif", true)],
        );
    }

    /// Section 5.2, "Longest Match".
    #[test]
    fn rfc_9309_longest_match() {
        check(
            "User-Agent: urldb\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n",
            &[
                ("/example/page/", true),
                ("/example/page/a.html", true),
                ("/example/page/disallowed.gif", false),
            ],
        );
    }

    /// Section 2.2.2's table of encodings and 2.2.3's special characters
    /// written as escapes.
    #[test]
    fn rfc_9309_percent_encoding() {
        let rule = |pattern: &str| format!("User-agent: urldb\nDisallow: /\nAllow: {pattern}\n");
        check(&rule("/foo/bar?baz=quz"), &[("/foo/bar?baz=quz", true)]);
        check(
            &rule("/foo/bar?baz=https://foo.bar"),
            &[
                ("/foo/bar?baz=https://foo.bar", true),
                ("/foo/bar?baz=https%3A//foo.bar", true),
            ],
        );
        check(
            &rule("/foo/bar/ツ"),
            &[("/foo/bar/%E3%83%84", true), ("/foo/bar/ツ", true)],
        );
        check(
            &rule("/foo/bar/%E3%83%84"),
            &[("/foo/bar/%e3%83%84", true), ("/foo/bar/ツ", true)],
        );
        // Escapes of unreserved characters are decoded (Google's parser
        // compares them as written, and does not match `/foo/bar/baz`).
        check(
            &rule("/foo/bar/%62%61%7A"),
            &[("/foo/bar/baz", true), ("/foo/bar/%62%61%7A", true)],
        );
        check(
            &rule("/path/file-with-a-%2A.html"),
            &[
                ("/path/file-with-a-*.html", true),
                ("/path/file-with-a-x.html", false),
            ],
        );
        check(
            &rule("/path/foo-%24"),
            &[("/path/foo-$", true), ("/path/foo-", false)],
        );
        // An encoded slash stays apart from `/`.
        check(&rule("/a%2Fb"), &[("/a%2fb", true), ("/a/b", false)]);
    }

    #[test]
    fn robots_txt_itself_is_always_allowed() {
        check(
            "User-agent: *\nDisallow: /\n",
            &[("/robots.txt", true), ("/x", false)],
        );
        let unreachable = Robots::Unreachable("HTTP 503".into());
        assert_eq!(unreachable.denial("/robots.txt"), None);
        assert!(matches!(
            unreachable.denial("/x"),
            Some(RobotsDenial::Unreachable(_))
        ));
        assert_eq!(Robots::Unavailable.denial("/x"), None);
    }

    // Cases in the style of Google's robots_test.cc (its `ID_` tests,
    // which follow the standard), with "FooBot" as the agent.

    #[test]
    fn line_syntax() {
        check_foobot("user-agent: FooBot\ndisallow: /\n", &[("/x/y", false)]);
        check_foobot("foo: FooBot\nbar: /\n", &[("/x/y", true)]);
        // A missing colon is accepted, as Google's parser does.
        check_foobot("user-agent FooBot\ndisallow /\n", &[("/x/y", false)]);
    }

    #[test]
    fn groups() {
        let text = "allow: /foo/bar/\n\nuser-agent: FooBot\ndisallow: /\nallow: /x/\nuser-agent: BarBot\ndisallow: /\nallow: /y/\n\n\nallow: /w/\nuser-agent: BazBot\n\nuser-agent: FooBot\nallow: /z/\ndisallow: /\n";
        let as_ = |bot: &str| text.replace(bot, "urldb");
        check(
            &as_("FooBot"),
            &[
                ("/x/a", true),
                ("/z/a", true),
                ("/y/a", false),
                ("/foo/bar/", false),
            ],
        );
        check(
            &as_("BarBot"),
            &[
                ("/y/a", true),
                ("/w/a", true),
                ("/z/a", false),
                ("/foo/bar/", false),
            ],
        );
        check(&as_("BazBot"), &[("/z/a", true), ("/foo/bar/", false)]);
    }

    #[test]
    fn other_lines_do_not_end_the_agents() {
        check_foobot(
            "User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n",
            &[("/", false)],
        );
        check_foobot(
            "User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n",
            &[("/", false)],
        );
    }

    #[test]
    fn field_names_are_case_insensitive() {
        for text in [
            "USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n",
            "user-agent: FooBot\nallow: /x/\ndisallow: /\n",
            "uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n",
        ] {
            check_foobot(text, &[("/x/y", true), ("/a/b", false)]);
        }
    }

    #[test]
    fn the_agent_is_the_product_token_case_insensitive() {
        for agent in [
            "URLDB",
            "urldb",
            "UrLdB",
            "urldb bot",
            "urldb/2.1",
            "URLDB BAR",
        ] {
            let text = format!(
                "User-agent: *\nDisallow: /\n\nUser-agent: {agent}\nAllow: /x/\nDisallow: /\n"
            );
            check(&text, &[("/x/y", true), ("/a/b", false)]);
        }
        // Another product token: the `*` group applies.
        for agent in ["urldb-checker", "URLDB_bot", "xurldb", "urldbx", "url db"] {
            let text = format!("User-agent: *\nDisallow: /\n\nUser-agent: {agent}\nAllow: /\n");
            check(&text, &[("/x/y", false)]);
        }
    }

    #[test]
    fn global_groups_are_secondary() {
        check_foobot("", &[("/x/y", true)]);
        check_foobot(
            "user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n",
            &[("/x/y", false)],
        );
        check(
            "user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n",
            &[("/x/y", true)],
        );
        check(
            "user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\nuser-agent: BazBot\ndisallow: /\n",
            &[("/x/y", true)],
        );
        check_foobot(
            "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n",
            &[("/x/page", true), ("/y/page", false)],
        );
    }

    #[test]
    fn paths_are_case_sensitive() {
        check_foobot("user-agent: FooBot\ndisallow: /x/\n", &[("/x/y", false)]);
        check_foobot("user-agent: FooBot\ndisallow: /X/\n", &[("/x/y", true)]);
    }

    #[test]
    fn longest_match() {
        let p = "/x/page.html";
        check_foobot(
            "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n",
            &[(p, true)],
        );
        check_foobot(
            "user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/page.html\n",
            &[(p, true)],
        );
        check_foobot("user-agent: FooBot\ndisallow: \nallow: \n", &[(p, true)]);
        check_foobot(
            "user-agent: FooBot\ndisallow: /\nallow: /\n",
            &[("/", true)],
        );
        check_foobot(
            "user-agent: FooBot\ndisallow: /x\nallow: /x/\n",
            &[("/x", false), ("/x/", true)],
        );
        check_foobot(
            "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/\n",
            &[(p, false)],
        );
        check_foobot(
            "user-agent: FooBot\nallow: /page\ndisallow: /*.html\n",
            &[("/page.html", false), ("/page", true)],
        );
        check_foobot(
            "user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n",
            &[(p, true), ("/x/y.html", false)],
        );
    }

    #[test]
    fn special_characters() {
        check_foobot(
            "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n",
            &[
                ("/foo/bar/quz", false),
                ("/foo/quz", true),
                ("/foo//quz", true),
                ("/foo/bax/quz", true),
            ],
        );
        check_foobot(
            "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n",
            &[
                ("/foo/bar", false),
                ("/foo/bar/qux", true),
                ("/foo/bar/", true),
                ("/foo/bar/baz", true),
            ],
        );
        check_foobot(
            "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n",
            &[("/foo/bar", true), ("/foo/quz", false)],
        );
    }

    /// Google's "documentation checks": the examples of its robots.txt
    /// guide.
    #[test]
    fn documentation_examples() {
        let allow = |p: &str| format!("user-agent: FooBot\ndisallow: /\nallow: {p}\n");
        check_foobot(
            &allow("/fish"),
            &[
                ("/bar", false),
                ("/fish", true),
                ("/fish.html", true),
                ("/fish/salmon.html", true),
                ("/fishheads", true),
                ("/fishheads/yummy.html", true),
                ("/fish.html?id=anything", true),
                ("/Fish.asp", false),
                ("/catfish", false),
                ("/?id=fish", false),
            ],
        );
        check_foobot(
            &allow("/fish*"),
            &[("/fish", true), ("/fishheads", true), ("/catfish", false)],
        );
        check_foobot(
            &allow("/fish/"),
            &[
                ("/fish/", true),
                ("/fish/?id=anything", true),
                ("/fish/salmon.htm", true),
                ("/fish", false),
                ("/fish.html", false),
                ("/Fish/Salmon.asp", false),
            ],
        );
        check_foobot(
            &allow("/*.php"),
            &[
                ("/filename.php", true),
                ("/folder/filename.php", true),
                ("/folder/filename.php?parameters", true),
                ("/folder/any.php.file.html", true),
                ("/filename.php/", true),
                ("/index?f=filename.php/", true),
                ("/php/", false),
                ("/index?php", false),
                ("/windows.PHP", false),
            ],
        );
        check_foobot(
            &allow("/*.php$"),
            &[
                ("/filename.php", true),
                ("/folder/filename.php", true),
                ("/filename.php?parameters", false),
                ("/filename.php/", false),
                ("/filename.php5", false),
                ("/php/", false),
                ("/filename?php", false),
                ("/aaaphpaaa", false),
                ("//windows.PHP", false),
            ],
        );
        check_foobot(
            &allow("/fish*.php"),
            &[
                ("/bar", false),
                ("/fish.php", true),
                ("/fishheads/catfish.php?parameters", true),
                ("/Fish.PHP", false),
            ],
        );
        // "Order of precedence for group-member records".
        check_foobot(
            "user-agent: FooBot\nallow: /p\ndisallow: /\n",
            &[("/page", true)],
        );
        check_foobot(
            "user-agent: FooBot\nallow: /folder\ndisallow: /folder\n",
            &[("/folder/page", true)],
        );
        check_foobot(
            "user-agent: FooBot\nallow: /page\ndisallow: /*.htm\n",
            &[("/page.htm", false)],
        );
        check_foobot(
            "user-agent: FooBot\nallow: /$\ndisallow: /\n",
            &[("/", true), ("/page.html", false)],
        );
    }

    #[test]
    fn byte_order_marks_and_line_ends() {
        let allowed = |bytes: &[u8]| {
            let rules = RobotsRules::parse_bytes(bytes);
            (rules.allowed("/AnyValue"), rules.allowed("/x"))
        };
        assert_eq!(
            allowed(b"\xEF\xBB\xBFUser-Agent: urldb\nAllow: /AnyValue\nDisallow: /\n"),
            (true, false)
        );
        assert_eq!(
            allowed(b"\xEF\xBBUser-Agent: urldb\nDisallow: /\n"),
            (false, false)
        );
        assert_eq!(
            allowed(b"\xEFUser-Agent: urldb\nDisallow: /\n"),
            (false, false)
        );
        // A mark elsewhere is no mark: the line's field is unknown.
        assert_eq!(
            allowed(b"User-Agent: urldb\n\xEF\xBB\xBFDisallow: /\n"),
            (true, true)
        );
        check(
            "User-agent: *\r\nDisallow: /a\r\n# note\r\nDisallow: /b\r\n",
            &[("/a", false), ("/b", false)],
        );
        check(
            "User-agent: * # all\rDisallow: /tmp # no\r",
            &[("/tmp/a", false), ("/tm", true)],
        );
    }

    #[test]
    fn rules_outside_a_group_and_blank_lines() {
        check("Disallow: /\n", &[("/x", true)]);
        check("User-agent: other\nDisallow: /\n", &[("/x", true)]);
        // A blank line ends no group (RFC 9309 2.1; the draft ended a
        // record there).
        check(
            "User-agent: *\nDisallow: /a\n\nDisallow: /b\n",
            &[("/a", false), ("/b", false)],
        );
    }

    #[test]
    fn crawl_delay_is_read_from_the_groups_that_apply() {
        let delay = |text: &str| RobotsRules::parse(text).crawl_delay();
        assert_eq!(
            delay("User-agent: *\nCrawl-delay: 2\n"),
            Some(Duration::from_secs(2))
        );
        assert_eq!(
            delay("User-agent: *\nCrawl-delay: 0.5\nDisallow: /x\n"),
            Some(Duration::from_millis(500))
        );
        assert_eq!(
            delay(
                "User-agent: *\nCrawl-delay: 9\n\nUser-agent: urldb\nCrawl-delay: 3\nUser-agent: urldb\nDisallow: /a\nCrawl-delay: 4\n"
            ),
            Some(Duration::from_secs(4))
        );
        assert_eq!(delay("User-agent: other\nCrawl-delay: 9\n"), None);
        // A group of `*` with a delay and no rule does not take the next
        // agent's group in.
        let text = "User-agent: *\nCrawl-delay: 10\n\nUser-agent: other\nDisallow: /x\n";
        assert_eq!(delay(text), Some(Duration::from_secs(10)));
        check(text, &[("/x", true)]);
        for bad in ["-1", "soon", "NaN", "inf", ""] {
            assert_eq!(
                delay(&format!("User-agent: *\nCrawl-delay: {bad}\n")),
                None,
                "{bad}"
            );
        }
    }

    #[test]
    fn the_drafts_example_still_reads_the_same() {
        // The robots.txt draft's example: with longest match instead of
        // first match, its answers for other robots do not change.
        let fict = "# /robots.txt for http://www.fict.org/\n# comments to webmaster@fict.org\n\nUser-agent: unhipbot\nDisallow: /\n\nUser-agent: webcrawler\nUser-agent: excite\nDisallow:\n\nUser-agent: *\nDisallow: /org/plans.html\nAllow: /org/\nAllow: /serv\nAllow: /~mak\nDisallow: /\n";
        check(
            fict,
            &[
                ("/", false),
                ("/index.html", false),
                ("/robots.txt", true),
                ("/server.html", true),
                ("/services/fast.html", true),
                ("/services/slow.html", true),
                ("/orgo.gif", false),
                ("/org/about.html", true),
                ("/org/plans.html", false),
                ("/%7Ejim/jim.html", false),
                ("/%7Emak/mak.html", true),
            ],
        );
    }

    /// Google's robots.txt matcher (`RobotsMatchStrategy::Matches`), as an
    /// independent model: the set of path positions the pattern so far
    /// can reach; `*` reaches every later one; a final `$` asks for the
    /// end.
    fn model(pattern: &str, path: &str) -> bool {
        let (path, pattern) = (path.as_bytes(), pattern.as_bytes());
        let mut reach = vec![0usize];
        for (i, &c) in pattern.iter().enumerate() {
            if c == b'$' && i + 1 == pattern.len() {
                return reach.contains(&path.len());
            }
            if c == b'*' {
                let from = reach.iter().copied().min().unwrap_or(0);
                reach = (from..=path.len()).collect();
            } else {
                reach = reach
                    .into_iter()
                    .filter(|&p| path.get(p) == Some(&c))
                    .map(|p| p + 1)
                    .collect();
                if reach.is_empty() {
                    return false;
                }
            }
        }
        true
    }

    proptest::proptest! {
        // A fixed seed: the same cases on every run (tests/it/support,
        // `property_config`, says why).
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 4096,
            rng_seed: proptest::test_runner::RngSeed::Fixed(58),
            ..proptest::prelude::ProptestConfig::default()
        })]

        /// Without escapes (where urldb decodes and Google does not), the
        /// matcher agrees with Google's on any pattern and path.
        #[test]
        fn the_matcher_agrees_with_googles(pattern in "/[ab/*$]{0,7}", path in "/[ab/*$]{0,9}") {
            let ours = Pattern::new(&pattern).matches(&units(&path));
            proptest::prop_assert_eq!(ours, model(&pattern, &path), "{} on {}", pattern, path);
        }
    }

    #[test]
    fn redirects_resolve_against_the_url() {
        assert_eq!(
            redirect("http://a.test/robots.txt", "/r2").as_deref(),
            Some("http://a.test/r2")
        );
        assert_eq!(
            redirect("http://a.test/robots.txt", "https://b.test/robots.txt").as_deref(),
            Some("https://b.test/robots.txt")
        );
        assert_eq!(redirect("http://a.test/robots.txt", "ftp://b.test/x"), None);
    }
}
