//! `--format markdown` stays inside the limits of where CI puts it:
//! GitHub drops a job summary over 1 MiB whole, and an issue or comment
//! body holds 65,536 characters. A stranger's database decides how long
//! its URLs and file names are and how many records fail.

use crate::support;

use std::io::Write;

use support::run_in;

#[test]
fn a_markdown_summary_fits_githubs_limits() {
    let server = support::http::listen(|mut stream, _| {
        let _ = stream
            .write_all(b"HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    });
    let db = tempfile::tempdir().expect("tempdir");
    // One 1.2 MB path (a URL twice its size in the summary before), a
    // thousand broken URLs, and three hundred files that do not parse.
    let mut text = format!(
        "---\n---\n_path: /{}\ncontent-type: text/html\n",
        "a".repeat(1_200_000)
    );
    for i in 0..1000 {
        text.push_str(&format!("---\n_path: /p{i:04}\ncontent-type: text/html\n"));
    }
    std::fs::write(db.path().join("example.org.yaml"), text).expect("write");
    for i in 0..300 {
        let name = format!("bad{i}-{}.org.yaml", "n".repeat(200));
        std::fs::write(db.path().join(name), "---\n---\n_path: [\n").expect("write");
    }
    let map = format!("example.org=http://127.0.0.1:{}", server.port);
    let verify = |extra: &[&str]| {
        let mut args = vec![
            "verify",
            "--allow-private",
            "--retries",
            "0",
            "--map",
            &map,
            "--format",
            "markdown",
        ];
        args.extend_from_slice(extra);
        let out = run_in(db.path(), &args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("UTF-8")
    };

    let summary = verify(&[]);
    assert!(summary.len() <= 1 << 20, "{} bytes", summary.len());
    assert!(
        summary.contains("**1001 of 1001 URLs broken.**"),
        "{}",
        &summary[..400]
    );
    // The long URL is shown cut, and what did not fit is counted.
    assert!(summary.contains(&format!("/{}", "a".repeat(200))));
    assert!(summary.contains("aaa…` "), "{}", &summary[..2000]);
    assert!(!summary.contains(&"a".repeat(400)));
    assert!(summary.contains("### Not verified"));
    assert!(
        summary.lines().any(|l| l.starts_with("- … and ")),
        "nothing left out?"
    );

    let body = verify(&["--summary-limit", "65536"]);
    assert!(body.len() <= 65536, "{} bytes", body.len());
    assert!(body.chars().count() <= 65536);
    assert!(
        body.contains("### Not verified"),
        "a later list lost its heading"
    );
    let left_out: usize = body
        .lines()
        .filter_map(|l| {
            l.strip_prefix("- … and ")?
                .strip_suffix(" more")?
                .parse::<usize>()
                .ok()
        })
        .sum();
    let listed = body.lines().filter(|l| l.starts_with("- `")).count();
    assert_eq!(
        listed + left_out,
        1001 + 300,
        "every URL and problem listed or counted"
    );

    let refused = run_in(db.path(), &["verify", "--summary-limit", "100"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--summary-limit"));
}
