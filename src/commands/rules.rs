//! `urldb rules` and `urldb rule CODE`: the catalogue, from the rule files'
//! own documentation.

use crate::app::ExitStatus;
use crate::rules::{self, FixKind, docs::render};

pub fn list() -> ExitStatus {
    let width = rules::ALL.iter().map(|r| r.code.len()).max().unwrap_or(0);
    for rule in rules::ALL {
        let fix = match rule.fix {
            FixKind::None => "   ",
            FixKind::Format | FixKind::Safe | FixKind::Sometimes => "[*]",
        };
        println!(
            "{:<width$}  {:<7}  {fix}  {}",
            rule.code,
            rule.severity.as_str(),
            rule.summary
        );
    }
    ExitStatus::Success
}

pub fn show(code: &str) -> ExitStatus {
    match rules::by_code(code) {
        Some(rule) => {
            print!("{}", render(rule));
            ExitStatus::Success
        }
        None => {
            eprintln!("error: {}", crate::config::unknown_rule_message(code));
            ExitStatus::Error
        }
    }
}
