//! `--shard K/N`: which URLs one of N matrix jobs checks. By host (the
//! default): whole origins, balanced by their estimated time, so that one
//! host is paced in one place; a host too large for one shard is split
//! over several, its limits divided among them ([`by_host`]). By URL
//! (`--shard-by url`): a stable hash of each URL's bytes (SHA-256, the
//! same on every machine, Rust version and run). Either way the N shards
//! together check every URL exactly once (`docs/verify.md`, "Shards").

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::plan::UrlCheck;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

/// Shard `index` (1-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// The URL is this shard's: the first 8 bytes of its SHA-256, as a
    /// big-endian number, modulo the shard count.
    pub fn contains(&self, url: &str) -> bool {
        bucket(url, self.count) == self.index - 1
    }
}

/// Which of `count` buckets (0-based) a URL falls in.
pub(crate) fn bucket(url: &str, count: u32) -> u32 {
    let digest = Sha256::digest(url.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    (u64::from_be_bytes(first) % u64::from(count.max(1))) as u32
}

/// A `--shard` that is not `K/N` with 1 <= K <= N.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{}` is not K/N with 1 <= K <= N (e.g. 2/4)", urldb_core::text::escape(.0))]
pub struct ShardError(String);

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError(s.to_string());
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u32 = k.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Serialize for Shard {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Shard {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Shard, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// `--shard` as given to `verify`: `K/N`, or `auto/N` (K from the
/// environment).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShardSpec {
    Fixed(Shard),
    /// `auto/N`: K is `JOB_COMPLETION_INDEX` + 1 (a Kubernetes Indexed Job's
    /// 0-based index).
    Auto(u32),
}

/// The variable `--shard auto/N` reads: a Kubernetes Indexed Job's
/// completion index, 0-based.
pub const JOB_INDEX: &str = "JOB_COMPLETION_INDEX";

impl FromStr for ShardSpec {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<ShardSpec, ShardError> {
        if let Some(n) = s.strip_prefix("auto/") {
            let count: u32 = n.trim().parse().map_err(|_| ShardError(s.to_string()))?;
            if count == 0 {
                return Err(ShardError(s.to_string()));
            }
            return Ok(ShardSpec::Auto(count));
        }
        s.parse().map(ShardSpec::Fixed)
    }
}

/// `--shard auto/N` without a usable `JOB_COMPLETION_INDEX`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "--shard auto/{count}: {JOB_INDEX} {}",
    match .value { None => "is not set (a Kubernetes Indexed Job sets it; elsewhere give K/N)".to_string(), Some(v) => format!("is `{}`, not an index from 0 to {}", urldb_core::text::escape(v), .count - 1) }
)]
pub struct AutoShardError {
    count: u32,
    value: Option<String>,
}

impl ShardSpec {
    /// The shard, reading `JOB_COMPLETION_INDEX` through `env` for
    /// `auto/N`.
    pub fn resolve(self, env: &dyn Fn(&str) -> Option<String>) -> Result<Shard, AutoShardError> {
        match self {
            ShardSpec::Fixed(shard) => Ok(shard),
            ShardSpec::Auto(count) => {
                let value = env(JOB_INDEX);
                match value.as_deref().map(|v| v.trim().parse::<u32>()) {
                    Some(Ok(i)) if i < count => Ok(Shard {
                        index: i + 1,
                        count,
                    }),
                    _ => Err(AutoShardError { count, value }),
                }
            }
        }
    }
}

/// What to assume of a host whose requests need not wait for an
/// interval: an answer in 100 ms.
const NOMINAL_LATENCY: Duration = Duration::from_millis(100);

/// This shard's part of a split by host.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HostSplit {
    /// For each check: this shard's.
    pub keep: Vec<bool>,
    /// The origins this shard shares with others, and among how many
    /// shards: its `--per-host` is divided by that, its interval
    /// multiplied.
    pub shares: BTreeMap<String, u32>,
}

/// Split `checks` by origin into `shard.count` shards and return
/// `shard`'s part. Each origin's estimated time is its requested URLs ×
/// its interval (`per_host_interval`, or its URLs' `interval` if longer),
/// or × 100 ms ÷ `per_host` when that is longer (an origin without an
/// interval is as fast as its slots); origins go, the longest first, to
/// the shard with the least time so far (ties: the lower shard, then the
/// origin's name), so every shard computes the same split from the same
/// plan. An origin longer than a shard's fair part (the total ÷ N) is
/// split over as many shards as it needs (at most N and at most
/// `per_host`), by a hash of each URL, with its limits divided: each part
/// keeps `per_host` ÷ parts in flight and parts × the interval. An origin
/// with an interval is never split: shards do not coordinate, so two of
/// them could send requests closer than it, and the interval bounds the
/// origin's time however it is split.
pub fn by_host(
    checks: &[UrlCheck],
    shard: Shard,
    per_host: usize,
    per_host_interval: Duration,
) -> HostSplit {
    let n = shard.count.max(1) as usize;
    // origin -> (its checks, its estimated time in nanoseconds).
    let mut hosts: BTreeMap<&str, (Vec<usize>, u128)> = BTreeMap::new();
    let mut paced: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
    let per_host = per_host.max(1);
    let slot = NOMINAL_LATENCY / u32::try_from(per_host).unwrap_or(u32::MAX);
    for (i, c) in checks.iter().enumerate() {
        let entry = hosts.entry(c.origin.as_str()).or_default();
        entry.0.push(i);
        if c.not_checked.is_none() && c.skip.is_none() {
            let interval = c
                .request
                .interval
                .unwrap_or_default()
                .max(per_host_interval);
            entry.1 += interval.max(slot).as_nanos();
            if !interval.is_zero() {
                paced.insert(c.origin.as_str());
            }
        }
    }
    let total: u128 = hosts.values().map(|(_, t)| t).sum();
    let fair = total.div_ceil(n as u128).max(1);
    let mut order: Vec<(&str, &(Vec<usize>, u128))> = hosts.iter().map(|(o, h)| (*o, h)).collect();
    order.sort_by(|a, b| b.1.1.cmp(&a.1.1).then(a.0.cmp(b.0)));
    let mut load = vec![0u128; n];
    let mut split = HostSplit {
        keep: vec![false; checks.len()],
        shares: BTreeMap::new(),
    };
    let ours = shard.index as usize - 1;
    for (origin, (members, time)) in order {
        let most = if paced.contains(origin) {
            1
        } else {
            n.min(per_host)
        };
        let parts = usize::try_from(time.div_ceil(fair))
            .unwrap_or(usize::MAX)
            .clamp(1, most);
        let mut least: Vec<usize> = (0..n).collect();
        least.sort_by_key(|&k| (load[k], k));
        let chosen = &least[..parts];
        let each = time / parts as u128;
        for &k in chosen {
            load[k] += each;
        }
        let Some(part) = chosen.iter().position(|&k| k == ours) else {
            continue;
        };
        for &i in members {
            let mine = parts == 1 || bucket(&checks[i].url, parts as u32) as usize == part;
            split.keep[i] = mine;
        }
        if parts > 1 {
            split
                .shares
                .insert(origin.to_string(), u32::try_from(parts).unwrap_or(u32::MAX));
        }
    }
    split
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_k_of_n_and_refuses_the_rest() {
        assert_eq!("2/3".parse(), Ok(Shard { index: 2, count: 3 }));
        assert_eq!("1/1".parse(), Ok(Shard { index: 1, count: 1 }));
        for bad in ["0/3", "4/3", "1/0", "3", "a/b", "-1/3", "1/3/4", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_hash_is_fixed() {
        // SHA-256("http://example.com/") starts 0x2a1b402420ef4657: the
        // split must never change between versions, or a matrix mixing
        // versions would skip and double URLs.
        assert_eq!(
            bucket("http://example.com/", u32::MAX),
            (0x2a1b402420ef4657_u64 % u64::from(u32::MAX)) as u32
        );
    }

    #[test]
    fn every_url_is_in_exactly_one_shard() {
        for i in 0..500 {
            let url = format!("https://example.com/{i}");
            let n = 1 + i % 7;
            let owners = (1..=n)
                .filter(|k| {
                    Shard {
                        index: *k,
                        count: n,
                    }
                    .contains(&url)
                })
                .count();
            assert_eq!(owners, 1, "{url} in {n} shards");
        }
    }
}

#[cfg(test)]
mod host_tests {
    use super::*;
    use std::sync::Arc;

    fn check(origin: &str, path: &str, interval: Option<Duration>) -> UrlCheck {
        UrlCheck {
            published: String::new(),
            url: format!("{origin}{path}"),
            origin: origin.to_string(),
            path: path.to_string(),
            file: std::path::PathBuf::from("x.yaml"),
            line: 1,
            expect: crate::plan::Expect {
                content_type: "text/html".into(),
                redirect_ok: false,
                content_type_change_ok: false,
                length: None,
                sha256: None,
            },
            not_checked: None,
            skip: None,
            request: Arc::new(crate::exceptions::Request {
                interval,
                ..crate::exceptions::Request::default()
            }),
        }
    }

    fn splits(checks: &[UrlCheck], n: u32, per_host: usize) -> Vec<HostSplit> {
        (1..=n)
            .map(|index| by_host(checks, Shard { index, count: n }, per_host, Duration::ZERO))
            .collect()
    }

    #[test]
    fn every_check_in_exactly_one_shard_and_hosts_whole() {
        // 40 hosts of 1 to 40 URLs each.
        let checks: Vec<UrlCheck> = (1..=40)
            .flat_map(|h| {
                (0..h).map(move |p| check(&format!("http://h{h}.test"), &format!("/{p}"), None))
            })
            .collect();
        let parts = splits(&checks, 4, 6);
        for (i, c) in checks.iter().enumerate() {
            let owners = parts.iter().filter(|s| s.keep[i]).count();
            assert_eq!(owners, 1, "{}", c.url);
        }
        // No host is split: none is more than a quarter of the work.
        assert!(parts.iter().all(|s| s.shares.is_empty()));
        let mut seen = BTreeMap::new();
        for (k, s) in parts.iter().enumerate() {
            for (i, c) in checks.iter().enumerate() {
                if s.keep[i] {
                    assert_eq!(
                        *seen.entry(c.origin.clone()).or_insert(k),
                        k,
                        "{}",
                        c.origin
                    );
                }
            }
        }
        // Balanced: 820 URLs, each shard within 10% of 205.
        for s in &parts {
            let n = s.keep.iter().filter(|k| **k).count();
            assert!((185..=225).contains(&n), "{n}");
        }
    }

    #[test]
    fn a_host_too_large_for_one_shard_is_split_with_its_limits_divided() {
        let mut checks: Vec<UrlCheck> = (0..300)
            .map(|p| check("http://big.test", &format!("/{p}"), None))
            .collect();
        checks.extend((0..30).map(|p| check("http://small.test", &format!("/{p}"), None)));
        let parts = splits(&checks, 3, 6);
        for i in 0..checks.len() {
            assert_eq!(parts.iter().filter(|s| s.keep[i]).count(), 1);
        }
        for s in &parts {
            assert_eq!(s.shares.get("http://big.test"), Some(&3));
            let n = s.keep[..300].iter().filter(|k| **k).count();
            assert!((60..=140).contains(&n), "{n}");
        }
        // Never over per-host parts: with --per-host 2, two shards.
        let parts = splits(&checks, 3, 2);
        let sharing: Vec<_> = parts
            .iter()
            .filter_map(|s| s.shares.get("http://big.test"))
            .collect();
        assert_eq!(sharing, [&2, &2]);
    }

    #[test]
    fn the_estimate_counts_a_host_interval() {
        // 10 URLs at 2 s outweigh 100 URLs at no interval (100 ms / 6).
        let mut checks: Vec<UrlCheck> = (0..10)
            .map(|p| {
                check(
                    "http://slow.test",
                    &format!("/{p}"),
                    Some(Duration::from_secs(2)),
                )
            })
            .collect();
        checks.extend((0..100).map(|p| check("http://fast.test", &format!("/{p}"), None)));
        checks.extend((0..100).map(|p| check("http://fast2.test", &format!("/{p}"), None)));
        let parts = splits(&checks, 2, 6);
        // slow.test (20 s) alone in one shard, both fast ones (3.3 s) in
        // the other; and, having an interval, never split.
        let slow_shard = parts.iter().position(|s| s.keep[0]).expect("a shard");
        assert!(parts[slow_shard].keep[10..].iter().all(|k| !k));
        assert!(parts[slow_shard].keep[..10].iter().all(|k| *k));
        assert!(parts.iter().all(|s| s.shares.is_empty()));
    }

    #[test]
    fn auto_reads_the_job_index() {
        let spec: ShardSpec = "auto/4".parse().expect("auto");
        let env = |v: Option<&'static str>| move |_: &str| v.map(str::to_string);
        assert_eq!(
            spec.resolve(&env(Some("0"))),
            Ok(Shard { index: 1, count: 4 })
        );
        assert_eq!(
            spec.resolve(&env(Some("3"))),
            Ok(Shard { index: 4, count: 4 })
        );
        assert!(spec.resolve(&env(Some("4"))).is_err());
        assert!(spec.resolve(&env(Some("x"))).is_err());
        assert!(
            spec.resolve(&env(None))
                .unwrap_err()
                .to_string()
                .contains("JOB_COMPLETION_INDEX is not set")
        );
        assert_eq!(
            "2/3".parse(),
            Ok(ShardSpec::Fixed(Shard { index: 2, count: 3 }))
        );
        assert!("auto/0".parse::<ShardSpec>().is_err());
        assert!("auto".parse::<ShardSpec>().is_err());
        // `check --shard` takes no `auto`.
        assert!("auto/3".parse::<Shard>().is_err());
    }
}
