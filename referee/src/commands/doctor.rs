//! `arbiter doctor`: which containment layers work here.

use std::process::ExitCode;

use arbiter_sandbox::{doctor, Containment};

pub fn run() -> anyhow::Result<ExitCode> {
    let containment = Containment::detect();
    print!("{}", doctor::render(&containment));
    Ok(ExitCode::SUCCESS)
}
