//! The library's modules import only from the layers below them: no
//! import circle beyond a module and its own children
//! (`tools/import_cycles.py`, which prints any circle it finds).

use crate::support::oracles;

#[test]
fn no_import_circle_between_modules() {
    let out = std::process::Command::new(oracles::python())
        .arg(oracles::repo().join("tools/import_cycles.py"))
        .arg(oracles::repo().join("src"))
        .output()
        .expect("run tools/import_cycles.py");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{report}");
    assert!(report.contains(" 0 circle(s)"), "{report}");
}
