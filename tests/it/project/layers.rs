//! Each crate's modules import only from the layers below them: no
//! import circle beyond a module and its own children
//! (`tools/import_cycles.py`, which prints any circle it finds). Between
//! crates, Cargo itself refuses a circle.

use crate::support::oracles;

#[test]
fn no_import_circle_between_modules() {
    let repo = oracles::repo();
    let mut sources = vec![repo.join("src")];
    for entry in std::fs::read_dir(repo.join("crates")).expect("crates/") {
        sources.push(entry.expect("crate").path().join("src"));
    }
    assert!(sources.len() >= 5, "{sources:?}");
    for src in sources {
        let out = std::process::Command::new(oracles::python())
            .arg(repo.join("tools/import_cycles.py"))
            .arg(&src)
            .output()
            .expect("run tools/import_cycles.py");
        let report = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{}: {report}", src.display());
        assert!(
            report.contains(" 0 circle(s)"),
            "{}: {report}",
            src.display()
        );
    }
}

/// The cycle tool reads a whole file: an import after a test module
/// counts, an import inside one does not.
#[test]
fn the_cycle_tool_sees_code_after_a_test_module() {
    let tool = |files: &[(&str, &str)]| {
        let dir = tempfile::tempdir().expect("tempdir");
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).expect("write");
        }
        let out = std::process::Command::new(oracles::python())
            .arg(oracles::repo().join("tools/import_cycles.py"))
            .arg(dir.path())
            .output()
            .expect("run tools/import_cycles.py");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let a = "use crate::b::Thing;\npub struct Other;\n";
    let after = "pub struct Thing;\n\n#[cfg(test)]\nmod tests {\n    fn f() { let _ = \"}\"; }\n}\n\nuse crate::a::Other;\n";
    let report = tool(&[("a.rs", a), ("b.rs", after)]);
    assert!(report.contains("circle of 2 modules: a, b"), "{report}");
    let inside = "pub struct Thing;\n\n#[cfg(test)]\nmod tests {\n    use crate::a::Other;\n}\n";
    let report = tool(&[("a.rs", a), ("b.rs", inside)]);
    assert!(report.contains(" 0 circle(s)"), "{report}");
}
