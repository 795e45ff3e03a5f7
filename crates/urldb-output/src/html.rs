//! Text in HTML (`verify --format html`'s page).

use std::borrow::Cow;

/// `s` as HTML text or a quoted attribute value: the five characters
/// HTML reads as markup become references, and `[` too.
pub fn html(s: &str) -> Cow<'_, str> {
    if !s.contains(['&', '<', '>', '"', '\'', '[']) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // No `##[` in the page: a CI log that shows it must not read a
            // runner command in it (docs/security.md).
            '[' => out.push_str("&#91;"),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_escapes_the_five_characters() {
        assert_eq!(
            html(r#"<a href="x" title='y'>&</a>"#),
            "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;"
        );
        assert_eq!(html("##[error]"), "##&#91;error]");
        assert!(matches!(html("plain"), Cow::Borrowed(_)));
    }
}
