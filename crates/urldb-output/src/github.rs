//! GitHub workflow commands' escaping (`::error file=…::message`): the
//! runner reads `%`, CR and LF specially in a message, and `:` and `,` too
//! in a property. The GitHub Actions toolkit's `escapeData` and
//! `escapeProperty` do the same.

/// Escape a GitHub workflow command's message (the text after `::`).
pub fn github_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escape a GitHub workflow command's property value (`file=`, `title=`).
pub fn github_property(s: &str) -> String {
    github_data(s).replace(':', "%3A").replace(',', "%2C")
}
