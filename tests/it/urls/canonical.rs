//! URL canonicalization (`docs/urls.md`) and the data.txt draft's path
//! matching: the tables of the documents it follows, idempotence (a property test), and every error.

use proptest::prelude::*;
use urldb_core::url::{Canonical, Note, Scheme, UrlError, canonicalize, matches};

fn canon(input: &str) -> Canonical {
    match canonicalize(input) {
        Ok(c) => c,
        Err(e) => panic!("{input}: {e}"),
    }
}

fn url(input: &str) -> String {
    canon(input).to_string()
}

/// The data.txt draft, section 3.2.2: record path, URL path, matches.
#[test]
fn data_txt_draft_matching_table() {
    let table = [
        ("/tmp", "/tmp", true),
        ("/tmp", "/tmp.html", true),
        ("/tmp", "/tmp/a.html", true),
        ("/tmp/", "/tmp", false),
        ("/tmp/", "/tmp/", true),
        ("/tmp/", "/tmp/a.html", true),
        ("/a%3cd.html", "/a%3cd.html", true),
        ("/a%3Cd.html", "/a%3cd.html", true),
        ("/a%3cd.html", "/a%3Cd.html", true),
        ("/a%3Cd.html", "/a%3Cd.html", true),
        ("/a%2fb.html", "/a%2fb.html", true),
        ("/a%2fb.html", "/a/b.html", false),
        ("/a/b.html", "/a%2fb.html", false),
        ("/a/b.html", "/a/b.html", true),
        ("/%7ejoe/index.html", "/~joe/index.html", true),
        ("/~joe/index.html", "/%7Ejoe/index.html", true),
    ];
    for (pattern, path, expected) in table {
        assert_eq!(matches(pattern, path), expected, "{pattern} vs {path}");
    }
}

/// The data.txt draft, section 4: the rules for "other" robots of www.fict.org,
/// evaluated in order, first match wins, no match = allowed.
#[test]
fn data_txt_draft_example_matrix_for_other_robots() {
    let rules = [
        (false, "/org/plans.html"),
        (true, "/org/"),
        (true, "/serv"),
        (true, "/~mak"),
        (false, "/"),
    ];
    let allowed = |path: &str| {
        path == "/robots.txt"
            || rules
                .iter()
                .find(|(_, pattern)| matches(pattern, path))
                .is_none_or(|(allow, _)| *allow)
    };
    let matrix = [
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
    for (path, expected) in matrix {
        assert_eq!(allowed(path), expected, "{path}");
    }
}

#[test]
fn matching_never_decodes_twice_and_empty_pattern_matches_all() {
    // `%252F` is `%2F` as text, not an encoded slash, and not `/`.
    assert!(!matches("/a%2F", "/a%252F"));
    assert!(!matches("/a/", "/a%252F"));
    assert!(matches("/a%25", "/a%252F"));
    assert!(matches("", "/anything"));
    assert!(!matches("/a", ""));
    // A bad escape is compared as the text it is.
    assert!(matches("/100%", "/100%zz"));
}

/// WWWOFFLE's URL notes ("String to URL Conversion"), rule by rule.
#[test]
fn wwwoffle_protocol() {
    // 1) No protocol: http (with a note).
    let c = canon("example.com/a");
    assert_eq!(c.scheme, Scheme::Http);
    assert!(c.notes.contains(&Note::SchemeAssumed));
    assert_eq!(url("//example.com/a"), "http://example.com/a");
    // 2a) The protocol is not case sensitive: lowercase.
    assert_eq!(url("HTTPS://example.com/"), "https://example.com/");
    assert_eq!(url("hTtP://example.com/"), "http://example.com/");
    assert!(
        !canon("http://example.com/")
            .notes
            .contains(&Note::SchemeAssumed)
    );
}

#[test]
fn wwwoffle_username_and_password_cannot_be_stored() {
    for input in [
        "http://user:password@example.com/",
        "http://user@example.com/",
        "http://us%40er:p%3Ass@example.com/",
    ] {
        assert!(
            matches!(canonicalize(input), Err(UrlError::UserInfo { .. })),
            "{input}"
        );
    }
}

#[test]
fn wwwoffle_hostname_and_port() {
    // Hostname: lowercase.
    assert_eq!(
        url("http://WWW.Example.COM/Path"),
        "http://www.example.com/Path"
    );
    // Default port removed, with a note.
    let c = canon("http://example.com:80/a");
    assert_eq!(c.to_string(), "http://example.com/a");
    assert!(c.notes.contains(&Note::DefaultPortRemoved(80)));
    assert_eq!(url("https://example.com:443/"), "https://example.com/");
    assert_eq!(url("https://example.com:0443/"), "https://example.com/");
    assert_eq!(url("http://example.com:/"), "http://example.com/");
    // Another port is kept by WWWOFFLE; a domain file cannot hold it.
    assert_eq!(
        canonicalize("http://example.com:8080/"),
        Err(UrlError::Port { port: 8080 })
    );
    assert_eq!(
        canonicalize("https://example.com:80/"),
        Err(UrlError::Port { port: 80 })
    );
    assert_eq!(
        canonicalize("example.com:443/a"),
        Err(UrlError::Port { port: 443 })
    );
}

#[test]
fn wwwoffle_pathname() {
    // 1) No path: `/`.
    assert_eq!(url("http://example.com"), "http://example.com/");
    assert_eq!(url("http://example.com?a=1"), "http://example.com/?a=1");
    // 2) Decoded (URLDecodeGeneric) then encoded (URLEncodePath): one
    // canonical spelling whatever the user agent wrote.
    for spelling in [
        "http://example.com/~joe/a%20b",
        "http://example.com/%7ejoe/a b",
        "http://example.com/%7Ejoe/a%20b",
    ] {
        assert_eq!(url(spelling), "http://example.com/~joe/a%20b", "{spelling}");
    }
    assert_eq!(
        url("http://example.com/caf%c3%a9"),
        "http://example.com/caf%C3%A9"
    );
    assert_eq!(
        url("http://example.com/café"),
        "http://example.com/caf%C3%A9"
    );
    // Parameters (`;`) are part of the path (version 2.9).
    assert_eq!(
        url("http://example.com/a;p=1/b"),
        "http://example.com/a;p=1/b"
    );
    // Escapes of reserved characters keep their meaning: `%2F` is not `/`.
    assert_eq!(url("http://example.com/a%2fb"), "http://example.com/a%2Fb");
    assert_eq!(url("http://example.com/a%3fb"), "http://example.com/a%3Fb");
}

#[test]
fn wwwoffle_arguments() {
    // Recoded to one canonical form, parameter order kept.
    assert_eq!(
        url("http://example.com/s?q=a b&lang=%65n&z=1"),
        "http://example.com/s?q=a%20b&lang=en&z=1"
    );
    // `&amp;` for `&` (valid HTML for an href) is replaced.
    let c = canon("http://example.com/s?a=1&amp;b=2");
    assert_eq!(c.path_and_query, "/s?a=1&b=2");
    assert!(c.notes.contains(&Note::AmpersandEntity));
    // `+` and `%2B` stay distinct (a `+` may be a space to the server).
    assert_eq!(
        url("http://example.com/?q=a+b%2bc"),
        "http://example.com/?q=a+b%2Bc"
    );
    // An empty query, and empty parameters, are dropped.
    assert_eq!(url("http://example.com/a?"), "http://example.com/a");
    assert_eq!(
        url("http://example.com/a?&&x=1&"),
        "http://example.com/a?x=1"
    );
}

/// WWWOFFLE's URL notes: "If URL encoding is performed twice on the same data then
/// errors occur". Each spelling is decoded once and encoded once.
#[test]
fn wwwoffle_never_encodes_or_decodes_twice() {
    assert_eq!(
        url("http://example.com/100%25"),
        "http://example.com/100%25"
    );
    assert_eq!(url("http://example.com/%2541"), "http://example.com/%2541");
    assert_eq!(url("http://example.com/100%"), "http://example.com/100%25");
    assert_eq!(
        url("http://example.com/?a=%25%32%35"),
        "http://example.com/?a=%2525"
    );
    assert_eq!(
        url("http://example.com/?a=1&amp;amp;b=2"),
        "http://example.com/?a=1&b=2"
    );
}

#[test]
fn fragments_are_removed_with_a_note() {
    let c = canon("http://example.com/a?b=1#top");
    assert_eq!(c.path_and_query, "/a?b=1");
    assert!(c.notes.contains(&Note::FragmentRemoved("top".to_string())));
    assert_eq!(url("http://example.com/#!/app"), "http://example.com/");
}

#[test]
fn hosts() {
    assert_eq!(canon("http://Example.COM./").host, "example.com");
    assert_eq!(
        canon("http://BÜCHER.example/").host,
        "xn--bcher-kva.example"
    );
    assert_eq!(canon("http://127.0.0.1/").host, "127.0.0.1");
    assert_eq!(canon("http://[::1]/").host, "[::1]");
    assert_eq!(canon("localhost/a").host, "localhost");
}

#[test]
fn dot_segments_are_removed() {
    assert_eq!(
        url("http://example.com/a/b/../c/./d"),
        "http://example.com/a/c/d"
    );
    assert_eq!(url("http://example.com/../../a"), "http://example.com/a");
    assert_eq!(url("http://example.com/a/%2e%2E/b"), "http://example.com/b");
    assert_eq!(url("http://example.com/a/.."), "http://example.com/");
}

#[test]
fn case_folding_keeps_escapes_and_query() {
    let c = canon("http://example.com/Foo/B%c3%a9?Q=X");
    assert_eq!(c.case_folded_path_and_query(), "/foo/b%C3%A9?Q=X");
    assert_eq!(c.path(), "/Foo/B%C3%A9");
    assert_eq!(c.query(), Some("Q=X"));
}

#[test]
fn errors_have_clear_messages() {
    type IsKind = fn(&UrlError) -> bool;
    let cases: [(&str, IsKind, &str); 10] = [
        (
            "example.com:/a",
            |e| matches!(e, UrlError::UnsupportedScheme { .. }),
            "`example.com:` URLs cannot be stored",
        ),
        ("", |e| matches!(e, UrlError::Empty), "empty"),
        ("  \t", |e| matches!(e, UrlError::Empty), "empty"),
        (
            "/just/a/path",
            |e| matches!(e, UrlError::NoHost { .. }),
            "no host",
        ),
        (
            "http:///",
            |e| matches!(e, UrlError::NoHost { .. }),
            "no host",
        ),
        (
            "ftp://example.com/",
            |e| matches!(e, UrlError::UnsupportedScheme { .. }),
            "`ftp:` URLs cannot be stored",
        ),
        (
            "mailto:joe@example.com",
            |e| matches!(e, UrlError::UnsupportedScheme { .. }),
            "http and https",
        ),
        (
            "http://example.com:99999/",
            |e| matches!(e, UrlError::InvalidPort { .. }),
            "invalid port",
        ),
        (
            "http://example.com:8o/",
            |e| matches!(e, UrlError::InvalidPort { .. }),
            "invalid port `8o`",
        ),
        (
            "http://exa mple.com/",
            |e| matches!(e, UrlError::InvalidHost { .. }),
            "invalid host",
        ),
    ];
    for (input, kind, text) in cases {
        let err = canonicalize(input).expect_err(input);
        assert!(kind(&err), "{input}: {err:?}");
        assert!(err.to_string().contains(text), "{input}: {err}");
    }
    let port = canonicalize("http://example.com:8080/").expect_err("port");
    assert!(
        port.to_string().contains("port 8080 cannot be stored"),
        "{port}"
    );
    let user = canonicalize("http://joe:secret@example.com/").expect_err("userinfo");
    assert!(user.to_string().contains("user name or password"), "{user}");
}

#[test]
fn canonical_paths_pass_the_path_rules() {
    let inputs = [
        "http://example.com/a b/<x>/{y}|\\^`/[z]/\"q\"/é/%zz",
        "http://example.com/?k=[1]&v=<2>&w=a=b",
    ];
    for input in inputs {
        let path = canon(input).path_and_query;
        let file = format!("---\n---\n_path: '{path}'\ncontent-type: text/html\n");
        let checked = urldb_core::lint::check_bytes(
            std::path::Path::new("example.com.yaml"),
            file.as_bytes(),
            &urldb_core::lint::Options::default(),
        );
        // Only the `_path` rules: the quoting above is not the canonical one.
        let path_findings: Vec<&str> = checked
            .findings
            .iter()
            .map(|f| f.code())
            .filter(|code| code.starts_with("path-"))
            .collect();
        assert!(
            path_findings.is_empty(),
            "{input} -> {path}: {path_findings:?}"
        );
    }
}

/// Characters a URL may be made of, weighted toward the tricky ones.
fn url_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("%".to_string()),
        Just("%2f".to_string()),
        Just("%2e".to_string()),
        Just("&amp;".to_string()),
        Just("amp;".to_string()),
        Just("/./".to_string()),
        Just("/../".to_string()),
        Just("//".to_string()),
        Just("?".to_string()),
        Just("#".to_string()),
        Just("&".to_string()),
        Just("=".to_string()),
        "%[0-9a-fA-F]{2}",
        "[a-zA-Z0-9 ~!$'()*+,;:@\\[\\]<>\"{}|^`\\\\-]{1,3}",
        "[\\u{80}-\\u{10FFFF}]",
    ];
    prop::collection::vec(piece, 0..12).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(crate::support::property_config(2000))]

    /// canon(canon(u)) = canon(u), and the second run has nothing to say.
    #[test]
    fn canonicalization_is_idempotent(host in "[a-zA-Z][a-zA-Z0-9]{0,5}\\.[a-z]{2,3}", rest in url_text()) {
        let input = format!("http://{host}/{rest}");
        if let Ok(first) = canonicalize(&input) {
            let again = canonicalize(&first.to_string());
            prop_assert_eq!(again.as_ref().map(|c| c.to_string()), Ok(first.to_string()));
            prop_assert_eq!(again.map(|c| c.notes), Ok(Vec::new()));
        }
    }

    /// A canonical path and its case-folded form are equal, by the data.txt draft's matching, to
    /// themselves and need no further change.
    #[test]
    fn case_folding_is_idempotent(rest in url_text()) {
        if let Ok(c) = canonicalize(&format!("http://example.com/{rest}")) {
            let folded = c.case_folded_path_and_query();
            let again = canon(&format!("http://example.com{folded}"));
            prop_assert_eq!(&again.path_and_query, &folded);
            prop_assert_eq!(again.case_folded_path_and_query(), folded.clone());
            prop_assert!(matches(&folded, &folded));
        }
    }
}
