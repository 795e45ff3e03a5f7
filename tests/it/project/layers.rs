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
