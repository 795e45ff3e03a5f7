//! `--shard K/N`: which URLs one of N matrix jobs checks. The split is by
//! a stable hash of each URL's bytes (SHA-256, the same on every machine,
//! Rust version and run), not by file, so one large domain file is spread
//! over every shard too; the N shards together check every URL exactly
//! once (`docs/verify.md`).

use std::fmt;
use std::str::FromStr;

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
