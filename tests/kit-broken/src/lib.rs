//! Take-away (a pile of 21 stones, take 1 to 3, whoever takes the last wins) that breaks on
//! purpose when the ply numbered `at` is played, as its config says:
//! `{"fail": "trap" | "loop" | "alloc" | "liar" | "long" | "clicks", "at": 3}`.
//! - `trap`: panics (a wasm trap);
//! - `loop`: never returns (the host's fuel runs out);
//! - `alloc`: allocates without end (the host's memory limit);
//! - `liar`: from then on lists only a move that it refuses to play;
//! - `long`: from then on lists a move longer than the host carries;
//! - `clicks`: from then on says every move is clicked on the same cell.
//!
//! With `"min_seed": N` it breaks only in games whose seed is at least N: a fault the
//! conformance check's playouts (seeds 1 to 20) never meet, as a rare position would, so that
//! a match accepts it and meets it mid-game. Without `fail` it is a correct game. Tests only:
//! never a proof game.

use arbiter_game::view::{Grid, Shape, View};
use arbiter_game::{config_number, export_game, Clicks, Game, Json, Outcome, Seat, Turn, Viewer};

#[derive(Clone, Debug)]
pub struct Broken {
    stones: u32,
    seat: Seat,
    ply: usize,
    fail: Option<String>,
    at: usize,
}

impl Broken {
    fn failing(&self, kind: &str) -> bool {
        self.fail.as_deref() == Some(kind) && self.ply >= self.at
    }
}

impl Game for Broken {
    type Move = String;
    const NAME: &'static str = "broken";
    const VERSION: &'static str = "0.1.0";
    const CONFIG_KEYS: Option<&'static [&'static str]> = Some(&["fail", "at", "min_seed"]);

    fn new(config: &Json, seed: u64) -> Result<Self, String> {
        let min_seed = config.get("min_seed").and_then(Json::as_u64).unwrap_or(0);
        let fail = config
            .get("fail")
            .and_then(Json::as_str)
            .filter(|_| seed >= min_seed)
            .map(str::to_string);
        let at = config_number(config, "at", 3, 0..=100)?;
        Ok(Broken {
            stones: 21,
            seat: 0,
            ply: 0,
            fail,
            at,
        })
    }

    fn turn(&self) -> Turn {
        Turn::of((self.stones > 0).then_some(self.seat))
    }

    fn legal_moves(&self, _seat: Seat, out: &mut Vec<String>) {
        if self.failing("liar") {
            // Its only listed move, so that whatever a bot picks, the module refuses it.
            out.push("9".into());
            return;
        }
        out.extend((1..=3).filter(|&n| n <= self.stones).map(|n| n.to_string()));
        if self.failing("long") {
            out.push("x".repeat(40));
        }
    }

    fn play(&mut self, mv: &String) -> Result<(), String> {
        if self.ply + 1 >= self.at {
            match self.fail.as_deref() {
                Some("trap") => panic!("broken on purpose"),
                Some("loop") =>
                {
                    #[allow(clippy::empty_loop)]
                    loop {}
                }
                Some("alloc") => {
                    let mut hoard: Vec<Vec<u8>> = Vec::new();
                    loop {
                        hoard.push(vec![1; 1 << 20]);
                    }
                }
                _ => {}
            }
        }
        let n: u32 = mv.parse().map_err(|_| format!("{mv:?} is not a number"))?;
        if self.stones == 0 || !(1..=3).contains(&n) || n > self.stones {
            return Err(format!("take 1 to {} stones", self.stones.min(3)));
        }
        self.stones -= n;
        self.ply += 1;
        if self.stones > 0 {
            self.seat = 1 - self.seat;
        }
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.stones == 0)
            .then(|| Outcome::decided(Some(self.seat), self.scores(), "took the last stone"))
    }

    fn scores(&self) -> Vec<i64> {
        (0..2)
            .map(|s| i64::from(self.stones == 0 && s == self.seat))
            .collect()
    }

    fn parse_move(&self, text: &str) -> Result<String, String> {
        Ok(text.trim().to_string())
    }

    fn format_move(&self, mv: &String) -> String {
        mv.clone()
    }

    fn tell(&self, _seat: Seat) -> String {
        format!("STONES {}", self.stones)
    }

    /// Taking n stones is a click on the n-th cell of the top row.
    fn clicks(&self, _seat: Seat, mv: &String) -> Option<Clicks> {
        let n: u16 = mv.parse().ok()?;
        match self.failing("clicks") {
            true => Some(Clicks::Cells(vec![[0, 0]])),
            false => Some(Clicks::Cells(vec![[n.saturating_sub(1), 0]])),
        }
    }

    fn view(&self, _viewer: Viewer) -> View {
        let mut v = View::board(Grid::Cells, 7, 3);
        for i in 0..self.stones {
            v.piece((i % 7) as u16, (i / 7) as u16, Shape::Disc, None);
        }
        v.text.push(format!("{} stones left", self.stones));
        v
    }
}

export_game!(Broken);
