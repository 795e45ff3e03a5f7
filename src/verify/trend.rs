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
    /// Disallowed by `/robots.txt`.
    Skipped,
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
    /// Skipped by robots.txt now.
    Skipped,
}

/// A URL's trend: its class, whether it is flaky, and its verdicts in the
/// kept runs, oldest first, this run's last.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trend {
    pub class: Class,
    /// It recovered from a failure (broken, then ok) within the kept runs.
    pub flaky: bool,
    /// In JSON one letter a run: `o` ok, `x` broken, `-` skipped, e.g.
    /// `"oox"` (a list would be a line a run in pretty-printed JSON, 30
    /// lines for each URL).
    #[serde(with = "letters")]
    pub recent: Vec<Verdict>,
}

/// [`Trend::recent`] as a string of letters.
mod letters {
    use super::Verdict;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &[Verdict], s: S) -> Result<S::Ok, S::Error> {
        let text: String = v
            .iter()
            .map(|v| match v {
                Verdict::Ok => 'o',
                Verdict::Broken => 'x',
                Verdict::Skipped => '-',
            })
            .collect();
        s.serialize_str(&text)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Verdict>, D::Error> {
        let text = String::deserialize(d)?;
        text.chars()
            .map(|c| match c {
                'o' => Ok(Verdict::Ok),
                'x' => Ok(Verdict::Broken),
                '-' => Ok(Verdict::Skipped),
                _ => Err(serde::de::Error::custom(
                    "recent: expected only the letters o, x and -",
                )),
            })
            .collect()
    }
}

impl Trend {
    pub fn is_new(&self) -> bool {
        self.class == Class::New
    }
}

/// How many URLs one run checked and found broken.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunCount {
    pub id: String,
    pub started: String,
    pub checked: usize,
    pub broken: usize,
}

/// Classify one URL's verdict now against its verdicts in the kept
/// earlier runs (oldest first).
pub fn classify(earlier: &[Verdict], now: Verdict) -> Trend {
    let mut recent = earlier.to_vec();
    recent.push(now);
    let class = match now {
        Verdict::Ok => Class::Passing,
        Verdict::Skipped => Class::Skipped,
        Verdict::Broken => match earlier.iter().rev().find(|v| **v != Verdict::Skipped) {
            Some(Verdict::Broken) => Class::Persistent,
            _ => Class::New,
        },
    };
    let checked: Vec<Verdict> = recent
        .iter()
        .copied()
        .filter(|v| *v != Verdict::Skipped)
        .collect();
    let flaky = checked
        .windows(2)
        .any(|w| w[0] == Verdict::Broken && w[1] == Verdict::Ok);
    Trend {
        class,
        flaky,
        recent,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::{Broken, Ok as Pass, Skipped};

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
