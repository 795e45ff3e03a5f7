//! A URL's trend against the earlier runs of a history: new, persistent
//! or passing, and flaky (`docs/verify.md`, "History"). Plain data and one
//! pure function, below both the results model and the history file, so
//! any renderer can use them.

use serde::{Deserialize, Serialize};

/// What became of one URL, for machines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    Ok,
    Broken,
    /// Not requested: disallowed by `/robots.txt`, or skipped by
    /// `urldb.toml` or the record's `skip-verify`.
    Skipped,
    /// A bot wall answered (`docs/verify-exceptions.md`): neither ok nor broken.
    Blocked,
}

/// Where a URL stands against its history.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Class {
    /// Broken now, and not in the previous run that checked it (or never
    /// checked before).
    New,
    /// Broken now and in the previous run that checked it.
    Persistent,
    /// Passing now.
    Passing,
    /// Skipped now.
    Skipped,
    /// Blocked by a bot wall now.
    Blocked,
}

/// A URL's trend: its class, whether it is flaky, and its verdicts in the
/// kept runs, oldest first, this run's last.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trend {
    pub class: Class,
    /// It recovered from a failure (broken, then ok) within the kept runs.
    pub flaky: bool,
    /// In JSON one letter a run: `o` ok, `x` broken, `-` skipped, `b`
    /// blocked, e.g.
    /// `"oox"` (a list would be a line a run in pretty-printed JSON, 30
    /// lines for each URL).
    #[serde(with = "letters")]
    pub recent: Vec<Verdict>,
}

/// [`Trend::recent`] as a string of letters.
mod letters {
    use super::Verdict;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(v: &[Verdict], s: S) -> Result<S::Ok, S::Error> {
        let letter = |v: &Verdict| match v {
            Verdict::Ok => b'o',
            Verdict::Broken => b'x',
            Verdict::Skipped => b'-',
            Verdict::Blocked => b'b',
        };
        // Written for every URL of a report: on the stack when it fits
        // (the default keeps 30 runs).
        let mut small = [0u8; 64];
        let text = match small.get_mut(..v.len()) {
            Some(letters) => {
                for (l, v) in letters.iter_mut().zip(v) {
                    *l = letter(v);
                }
                letters
            }
            None => &mut v.iter().map(letter).collect::<Vec<u8>>()[..],
        };
        // Only ASCII letters were written.
        s.serialize_str(std::str::from_utf8(text).unwrap_or_default())
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Verdict>, D::Error> {
        let text = String::deserialize(d)?;
        text.chars()
            .map(|c| match c {
                'o' => Ok(Verdict::Ok),
                'x' => Ok(Verdict::Broken),
                '-' => Ok(Verdict::Skipped),
                'b' => Ok(Verdict::Blocked),
                _ => Err(serde::de::Error::custom(
                    "recent: expected only the letters o, x, - and b",
                )),
            })
            .collect()
    }
}

impl Verdict {
    /// The URL's own server answered for it: ok or broken.
    pub fn judged(self) -> bool {
        matches!(self, Verdict::Ok | Verdict::Broken)
    }
}

impl Trend {
    pub fn is_new(&self) -> bool {
        self.class == Class::New
    }
}

/// How many URLs one run checked and found broken.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunCount {
    pub id: String,
    pub started: String,
    pub checked: usize,
    pub broken: usize,
    /// Answered by a bot wall.
    #[serde(default)]
    pub blocked: usize,
    /// Not requested (robots.txt, `urldb.toml`, `skip-verify`).
    #[serde(default)]
    pub skipped: usize,
    /// Passed by a status `urldb.toml` accepts.
    #[serde(default)]
    pub accepted: usize,
}

/// Classify one URL's verdict now against its verdicts in the kept
/// earlier runs (oldest first).
pub(crate) fn classify(earlier: &[Verdict], now: Verdict) -> Trend {
    let mut recent = earlier.to_vec();
    recent.push(now);
    let class = match now {
        Verdict::Ok => Class::Passing,
        Verdict::Skipped => Class::Skipped,
        Verdict::Blocked => Class::Blocked,
        Verdict::Broken => match earlier.iter().rev().find(|v| v.judged()) {
            Some(Verdict::Broken) => Class::Persistent,
            _ => Class::New,
        },
    };
    // Broken, then ok, in the runs that judged it (skips and walls left out).
    let checked = recent.iter().filter(|v| v.judged());
    let flaky = checked
        .clone()
        .zip(checked.skip(1))
        .any(|(before, now)| *before == Verdict::Broken && *now == Verdict::Ok);
    Trend {
        class,
        flaky,
        recent,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::{Blocked, Broken, Ok as Pass, Skipped};

    #[test]
    fn classes() {
        assert_eq!(classify(&[], Broken).class, Class::New);
        assert_eq!(classify(&[Broken, Pass], Broken).class, Class::New);
        assert_eq!(classify(&[Pass, Broken], Broken).class, Class::Persistent);
        assert_eq!(
            classify(&[Broken, Skipped], Broken).class,
            Class::Persistent
        );
        assert_eq!(classify(&[Broken], Pass).class, Class::Passing);
        assert_eq!(
            classify(&[Broken, Blocked], Broken).class,
            Class::Persistent
        );
        assert_eq!(classify(&[Broken], Blocked).class, Class::Blocked);
        assert!(classify(&[Broken, Blocked], Pass).flaky);
    }

    #[test]
    fn recent_verdicts_are_letters_at_any_length() {
        for n in [0, 1, 64, 65, 200] {
            let earlier: Vec<Verdict> = [Pass, Broken, Skipped]
                .into_iter()
                .cycle()
                .take(n)
                .collect();
            let trend = classify(&earlier, Broken);
            let json = serde_json::to_string(&trend).expect("serialize");
            let letters: String = "ox-".chars().cycle().take(n).chain(['x']).collect();
            assert!(
                json.contains(&format!("\"recent\":\"{letters}\"")),
                "{json}"
            );
            assert_eq!(serde_json::from_str::<Trend>(&json).expect("parse"), trend);
        }
    }

    #[test]
    fn flaky_means_it_recovered_within_the_window() {
        assert!(classify(&[Broken], Pass).flaky);
        assert!(classify(&[Broken, Skipped], Pass).flaky);
        assert!(classify(&[Broken, Pass], Broken).flaky);
        assert!(!classify(&[Pass, Pass], Broken).flaky);
        assert!(!classify(&[Broken, Broken], Broken).flaky);
    }
}
