//! `urldb rules` and `urldb rule CODE`: the catalogue, from the rule files'
//! own documentation.

use std::io::Write;

use crate::app::{CommandError, ExitStatus};
use urldb_core::rules::{self, FixKind, docs::render};

/// The catalogue as a table with a header, as `ruff linter` prints one:
/// the code, the severity, `[*]` when `check --fix` or `fmt` repairs it,
/// whether it runs when nothing is selected (`off`: only with
/// `--extend-select` or `select`; `pyyaml`: on in `style = "pyyaml"`), and
/// what it finds.
pub(crate) fn list() -> Result<ExitStatus, CommandError> {
    use urldb_core::render::TextStyle;
    let mut out = urldb_output::gate::stdout(urldb_output::gate::Syntax::Text);
    let width = rules::ALL
        .iter()
        .map(|r| r.code.len())
        .max()
        .unwrap_or(0)
        .max("CODE".len());
    writeln!(out, "{:<width$}  SEVERITY  FIX  DEFAULT  SUMMARY", "CODE")?;
    for rule in rules::ALL {
        let fix = match rule.fix {
            FixKind::None => "   ",
            FixKind::Format | FixKind::Safe | FixKind::Sometimes => "[*]",
        };
        let default = match (
            rule.on_by_default(TextStyle::Readable),
            rule.on_by_default(TextStyle::Pyyaml),
        ) {
            (true, _) => "on",
            (false, true) => "pyyaml",
            (false, false) => "off",
        };
        writeln!(
            out,
            "{:<width$}  {:<8}  {fix}  {default:<7}  {}",
            rule.code,
            rule.severity.as_str(),
            rule.summary
        )?;
    }
    out.finish()?;
    Ok(ExitStatus::Success)
}

pub(crate) fn show(code: &str) -> Result<ExitStatus, CommandError> {
    let rule = rules::by_code(code).ok_or_else(|| urldb_core::selection::UnknownRule::new(code))?;
    let mut out = urldb_output::gate::stdout(urldb_output::gate::Syntax::Text);
    out.write_all(render(rule).as_bytes())?;
    out.finish()?;
    Ok(ExitStatus::Success)
}
