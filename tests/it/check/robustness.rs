//! Bad input gets a finding or a clear error, never a panic or a hang.

use crate::support;

use std::path::Path;
use std::time::{Duration, Instant};

use support::run_in;

fn db(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, bytes) in files {
        std::fs::write(dir.path().join(name), bytes).expect("write");
    }
    dir
}

/// Run `check --format json`: the codes found, the exit code, stderr.
fn check(dir: &Path) -> (Vec<String>, Option<i32>, String) {
    let out = run_in(dir, &["check", "--format", "json"]);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "panic: {stderr}");
    let json: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
    let codes = json
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|f| f["code"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    (codes, out.status.code(), stderr)
}

#[test]
fn invalid_utf8() {
    let dir = db(&[(
        "example.com.yaml",
        b"---\n---\n_path: /caf\xe9\ncontent-type: text/html\n",
    )]);
    let (codes, status, _) = check(dir.path());
    assert!(codes.contains(&"invalid-utf8".to_string()), "{codes:?}");
    assert_eq!(status, Some(1));
    // fmt leaves it alone.
    let out = run_in(dir.path(), &["fmt"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        std::fs::read(dir.path().join("example.com.yaml")).expect("read"),
        b"---\n---\n_path: /caf\xe9\ncontent-type: text/html\n"
    );
}

#[test]
fn empty_file() {
    let dir = db(&[("example.com.yaml", b"")]);
    let (codes, status, _) = check(dir.path());
    assert_eq!(codes, vec!["empty-file".to_string()]);
    assert_eq!(status, Some(1));
}

#[test]
fn nesting_five_thousand_deep() {
    let depth = 5000;
    let text = format!(
        "---\n---\n_path: /a\ncontent-type: text/html\nx: {}{}\n",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let dir = db(&[("example.com.yaml", text.as_bytes())]);
    let (codes, status, _) = check(dir.path());
    assert!(codes.contains(&"nesting-too-deep".to_string()), "{codes:?}");
    assert_eq!(status, Some(1));
    let block: String = (0..depth)
        .map(|i| format!("{}- \n", "  ".repeat(i)))
        .collect();
    let dir = db(&[(
        "example.com.yaml",
        format!("---\n---\nx:\n{block}").as_bytes(),
    )]);
    let (codes, _, _) = check(dir.path());
    assert!(codes.contains(&"nesting-too-deep".to_string()), "{codes:?}");
    assert!(!codes.contains(&"yaml-syntax".to_string()), "{codes:?}");
}

#[test]
fn billion_laughs_is_refused_quickly() {
    let text = r#"---
---
_path: /a
content-type: text/html
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
"#;
    let dir = db(&[("example.com.yaml", text.as_bytes())]);
    let start = Instant::now();
    let (codes, status, _) = check(dir.path());
    assert!(start.elapsed() < Duration::from_secs(10));
    assert!(codes.contains(&"yaml-alias".to_string()), "{codes:?}");
    assert_eq!(status, Some(1));
    let out = run_in(dir.path(), &["fmt"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("example.com.yaml")).expect("read"),
        text
    );
}

#[test]
fn hundred_megabyte_file_is_not_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("example.com.yaml");
    let file = std::fs::File::create(&path).expect("create");
    file.set_len(100 * 1024 * 1024).expect("set_len");
    let (codes, status, _) = check(dir.path());
    assert_eq!(codes, vec!["file-too-large".to_string()]);
    assert_eq!(status, Some(1));
}

#[test]
fn large_file_under_the_limit_is_checked() {
    // 8 MB of records: read and checked, no finding.
    let mut text = String::from("---\n");
    for i in 0..100_000 {
        text.push_str(&format!(
            "---\n_path: /page/{i:06}\ncontent-type: text/html\n"
        ));
    }
    let dir = db(&[("example.com.yaml", text.as_bytes())]);
    let (codes, status, _) = check(dir.path());
    assert!(codes.is_empty(), "{:?}", &codes[..codes.len().min(5)]);
    assert_eq!(status, Some(0));
}

#[test]
fn directory_named_like_a_domain_file() {
    let dir = db(&[(
        "example.com.yaml",
        b"---\n---\n_path: /\ncontent-type: text/html\n",
    )]);
    std::fs::create_dir(dir.path().join("x.yaml")).expect("mkdir");
    std::fs::write(
        dir.path().join("x.yaml/inner.org.yaml"),
        "---\n---\n_path: /\ncontent-type: text/html\n",
    )
    .expect("write");
    let (codes, status, stderr) = check(dir.path());
    assert!(codes.is_empty(), "{codes:?} {stderr}");
    assert_eq!(status, Some(0));
    // Files inside it can still be named on the command line.
    let out = run_in(
        dir.path(),
        &["check", "x.yaml/inner.org.yaml", "example.com.yaml"],
    );
    assert_eq!(out.status.code(), Some(0));
}

#[cfg(unix)]
#[test]
fn unreadable_file_is_an_io_error_and_the_rest_is_checked() {
    use std::os::unix::fs::PermissionsExt;
    let dir = db(&[
        (
            "a.com.yaml",
            b"---\n---\n_path: /caf%c3\ncontent-type: text/html\n",
        ),
        (
            "b.com.yaml",
            b"---\n---\n_path: /\ncontent-type: text/html\n",
        ),
    ]);
    let locked = dir.path().join("b.com.yaml");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    if std::fs::read(&locked).is_ok() {
        // Running as root, permissions do not stop reads: a link to nothing
        // is a domain file nobody can read.
        std::fs::remove_file(&locked).expect("rm");
        std::os::unix::fs::symlink(dir.path().join("gone.yaml"), &locked).expect("symlink");
    }
    let (codes, status, stderr) = check(dir.path());
    assert_eq!(status, Some(2));
    assert!(stderr.contains("b.com.yaml"), "{stderr}");
    assert!(
        codes.contains(&"path-escape-case".to_string()),
        "the readable file is still checked"
    );
}

#[test]
fn truncated_and_odd_files_never_panic() {
    let base = "---\ncnames:\n- www.example.com\nhttps: true\n---\n_path: \"/a b\"\ncategories: [x, 'y']\ncontent-type: text/html\nn: |\n  lit\n---\n_path: /b\ncontent-type: text/html\n";
    for cut in 0..base.len() {
        let dir = db(&[("example.com.yaml", &base.as_bytes()[..cut])]);
        let (_, status, stderr) = check(dir.path());
        assert!(
            matches!(status, Some(0 | 1)),
            "cut at {cut}: {status:?} {stderr}"
        );
    }
    for odd in [
        &b"\0\0\0"[..],
        b"---\r---\r_path: /\rcontent-type: a/b\r",
        b"\t",
        b"--- |\n  x\n",
        b"- a\n- b\n",
        b"{",
        b"'",
    ] {
        let dir = db(&[("example.com.yaml", odd)]);
        let (_, status, stderr) = check(dir.path());
        assert!(
            matches!(status, Some(0 | 1)),
            "{odd:?}: {status:?} {stderr}"
        );
    }
}

#[cfg(unix)]
#[test]
fn fmt_does_not_write_through_a_symlinked_domain_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let outside = tempfile::tempdir().expect("tempdir");
    let target = outside.path().join("real.yaml");
    let messy = "---\n---\ncontent-type: text/html\n_path: /\n";
    std::fs::write(&target, messy).expect("write");
    std::os::unix::fs::symlink(&target, dir.path().join("example.com.yaml")).expect("symlink");
    let out = run_in(dir.path(), &["fmt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("symbolic link"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&target).expect("read"), messy);
}
