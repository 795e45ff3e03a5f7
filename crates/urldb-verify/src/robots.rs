//! `--respect-robots`: `/robots.txt` read once per origin, its record for
//! urldb chosen and applied as the data.txt draft (the robots.txt draft's
//! format and matching; `docs/verify.md`) says.
//!
//! - The record to obey is the first whose `User-agent` value contains
//!   `urldb` (case-insensitive), else the first with `*`, else none (all
//!   allowed).
//! - Its `Allow` / `Disallow` lines are tried in order; the first whose
//!   path matches ([`urldb_core::url::matches`]: prefix match after `%xx`
//!   decoding, `%2F` kept apart) decides. No match: allowed. An empty
//!   `Disallow:` allows everything.
//! - `/robots.txt` itself is always allowed.
//! - A `/robots.txt` that is missing, redirects, fails or is not answered
//!   allows everything (the draft only defines the 2xx case; see
//!   docs/verify.md).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::http::{BodyMode, Client};

/// The product token urldb looks for in `User-agent` lines.
pub(crate) const TOKEN: &str = "urldb";

/// How much of a `/robots.txt` is read; the draft asks robots to bound it.
const MAX_ROBOTS: u64 = 512 * 1024;

#[derive(Debug, Clone, PartialEq, Eq)]
enum Rule {
    Allow(String),
    Disallow(String),
}

/// The rules that apply to urldb on one origin.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RobotsRules {
    rules: Vec<Rule>,
}

impl RobotsRules {
    /// Parse a robots.txt and keep the record urldb must obey.
    pub fn parse(text: &str) -> RobotsRules {
        struct Record {
            agents: Vec<String>,
            rules: Vec<Rule>,
        }
        let mut records: Vec<Record> = Vec::new();
        // In a record: the agent lines are done once a rule line is seen.
        let mut open = false;
        let mut in_rules = false;
        let text = text.replace("\r\n", "\n");
        for raw in text.split(['\n', '\r']) {
            let line = raw.split('#').next().unwrap_or_default().trim();
            if line.is_empty() {
                // A blank line ends a record (the draft, 3.2); a comment-only
                // line does not.
                if raw.trim().is_empty() && in_rules {
                    open = false;
                    in_rules = false;
                }
                continue;
            }
            let Some((field, value)) = line.split_once(':') else {
                continue;
            };
            let value = value.trim();
            match field.trim().to_ascii_lowercase().as_str() {
                "user-agent" => {
                    if !open || in_rules {
                        records.push(Record {
                            agents: Vec::new(),
                            rules: Vec::new(),
                        });
                        open = true;
                        in_rules = false;
                    }
                    if let Some(r) = records.last_mut() {
                        r.agents.push(value.to_ascii_lowercase());
                    }
                }
                "allow" | "disallow" if open => {
                    in_rules = true;
                    if value.is_empty() {
                        continue;
                    }
                    let rule = if field.trim().eq_ignore_ascii_case("allow") {
                        Rule::Allow(value.to_string())
                    } else {
                        Rule::Disallow(value.to_string())
                    };
                    if let Some(r) = records.last_mut() {
                        r.rules.push(rule);
                    }
                }
                _ => {}
            }
        }
        let ours = records
            .iter()
            .position(|r| r.agents.iter().any(|a| a.contains(TOKEN)))
            .or_else(|| {
                records
                    .iter()
                    .position(|r| r.agents.iter().any(|a| a == "*"))
            });
        RobotsRules {
            rules: ours
                .map(|i| std::mem::take(&mut records[i].rules))
                .unwrap_or_default(),
        }
    }

    /// May urldb fetch `path` (the URL's path and query)?
    pub fn allowed(&self, path: &str) -> bool {
        if path == "/robots.txt" {
            return true;
        }
        for rule in &self.rules {
            match rule {
                Rule::Allow(p) if urldb_core::url::matches(p, path) => return true,
                Rule::Disallow(p) if urldb_core::url::matches(p, path) => return false,
                _ => {}
            }
        }
        true
    }
}

/// One `/robots.txt` per origin, fetched by the first check that needs it
/// while the others for that origin wait.
#[derive(Debug, Default)]
pub(crate) struct RobotsCache {
    origins: Mutex<HashMap<String, Arc<OnceLock<RobotsRules>>>>,
}

impl RobotsCache {
    pub(crate) fn allowed(&self, client: &Client, origin: &str, path: &str) -> bool {
        let cell = {
            let mut origins = self.origins.lock().unwrap_or_else(|p| p.into_inner());
            Arc::clone(origins.entry(origin.to_string()).or_default())
        };
        cell.get_or_init(|| fetch(client, origin)).allowed(path)
    }
}

fn fetch(client: &Client, origin: &str) -> RobotsRules {
    let url = format!("{origin}/robots.txt");
    match client.get(&url, BodyMode::Collect(MAX_ROBOTS), None) {
        Ok(r) if (200..300).contains(&r.status) => {
            RobotsRules::parse(&String::from_utf8_lossy(&r.bytes.unwrap_or_default()))
        }
        _ => RobotsRules::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The data.txt draft, section 4 (the robots.txt draft's example).
    const FICT: &str = "# /robots.txt for http://www.fict.org/\n# comments to webmaster@fict.org\n\nUser-agent: unhipbot\nDisallow: /\n\nUser-agent: webcrawler\nUser-agent: excite\nDisallow:\n\nUser-agent: *\nDisallow: /org/plans.html\nAllow: /org/\nAllow: /serv\nAllow: /~mak\nDisallow: /\n";

    #[test]
    fn the_drafts_example_for_other_robots() {
        let rules = RobotsRules::parse(FICT);
        let expected = [
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
        ];
        for (path, allowed) in expected {
            assert_eq!(rules.allowed(path), allowed, "{path}");
        }
    }

    #[test]
    fn a_record_naming_urldb_wins_over_star() {
        let text = "User-agent: *\nDisallow: /\n\nUser-agent: URLDB-checker\nDisallow: /private\n";
        let rules = RobotsRules::parse(text);
        assert!(rules.allowed("/public"));
        assert!(!rules.allowed("/private/x"));
    }

    #[test]
    fn an_empty_disallow_allows_everything() {
        let rules = RobotsRules::parse("User-agent: urldb\nDisallow:\n");
        assert!(rules.allowed("/anything"));
    }

    #[test]
    fn crlf_line_ends_do_not_split_records() {
        let rules =
            RobotsRules::parse("User-agent: *\r\nDisallow: /a\r\n# note\r\nDisallow: /b\r\n");
        assert!(!rules.allowed("/a"));
        assert!(!rules.allowed("/b"));
    }

    #[test]
    fn cr_only_line_ends_and_comments_are_accepted() {
        let rules = RobotsRules::parse("User-agent: * # all\rDisallow: /tmp # no\r");
        assert!(!rules.allowed("/tmp/a"));
        assert!(rules.allowed("/tm"));
    }

    #[test]
    fn no_record_or_rules_outside_a_record_allow_all() {
        assert!(RobotsRules::parse("").allowed("/x"));
        assert!(RobotsRules::parse("Disallow: /\n").allowed("/x"));
        assert!(RobotsRules::parse("User-agent: other\nDisallow: /\n").allowed("/x"));
        // A blank line ends the record: the later rule belongs to none.
        let rules = RobotsRules::parse("User-agent: *\nDisallow: /a\n\nDisallow: /b\n");
        assert!(!rules.allowed("/a"));
        assert!(rules.allowed("/b"));
    }
}
