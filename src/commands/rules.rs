//! `urldb rules` and `urldb rule CODE`: the catalogue, from the rule files'
//! own documentation.

use std::io::Write;

use crate::app::{CommandError, ExitStatus};
use urldb_core::rules::{self, FixKind, docs::render};

pub(crate) fn list() -> Result<ExitStatus, CommandError> {
    let mut out = urldb_output::gate::stdout(urldb_output::gate::Syntax::Text);
    let width = rules::ALL.iter().map(|r| r.code.len()).max().unwrap_or(0);
    for rule in rules::ALL {
        let fix = match rule.fix {
            FixKind::None => "   ",
            FixKind::Format | FixKind::Safe | FixKind::Sometimes => "[*]",
        };
        writeln!(
            out,
            "{:<width$}  {:<7}  {fix}  {}",
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
