//! "Did you mean": the nearest known word to a mistyped one, for rule
//! codes, configuration and metadata keys, categories, domain names. The
//! lowest layer, so that rules, configuration and commands all use the one
//! definition of "close enough".

/// The candidate closest to `word`, when it is close enough to be a typo
/// (Jaro-Winkler similarity above 0.8).
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(word, c), c))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}
