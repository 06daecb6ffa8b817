//! Prints what a jailed shell sees (for eyeballing the jail by hand).
use std::time::{Duration, Instant};

use arbiter_sandbox::{BotCommand, BotProcess, Containment, Limits, ReadEvent};

fn main() {
    let c = Containment::detect();
    print!("{}", arbiter_sandbox::doctor::render(&c));
    let script = std::env::args().nth(1).unwrap_or_else(|| "id; ls /; ls /proc; cat /etc/passwd; hostname; env; echo x > /tmp/f && ls -la /tmp; ls /dev".into());
    let scratch = tempfile::tempdir().expect("tempdir");
    let limits = Limits {
        scratch_dir: Some(scratch.path().to_path_buf()),
        ..Limits::default()
    };
    let cmd = BotCommand::new("sh").arg("-c").arg(script);
    let mut bot = match BotProcess::spawn(&cmd, &limits, &c) {
        Ok(b) => b,
        Err(e) => {
            println!("spawn error: {e}");
            return;
        }
    };
    let until = Instant::now() + Duration::from_secs(5);
    loop {
        match bot.read_line(until) {
            ReadEvent::Line(l) => println!("| {}", String::from_utf8_lossy(&l)),
            other => {
                println!("{other:?}");
                break;
            }
        }
    }
    let exit = bot.finish(Duration::from_secs(1));
    println!("stderr: {}", String::from_utf8_lossy(&bot.stderr_tail()));
    println!("{exit:?}");
}
