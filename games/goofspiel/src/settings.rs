//! The config: OpenSpiel's parameters under OpenSpiel's names.

use arbiter_game::{config_number, players, Json};

/// The most cards a game may have: hands are bit sets of a `u32`, and a seat's hidden bids
/// are redrawn by a search whose cost grows with the cards.
pub const MAX_CARDS: usize = 26;

/// The order the prize cards come up in (OpenSpiel's `points_order`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PointsOrder {
    /// Shuffled from the seed (OpenSpiel's chance node before each round).
    Random,
    /// Highest first.
    Descending,
    /// Lowest first.
    Ascending,
}

/// How the points make the places (OpenSpiel's `returns_type`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Returns {
    /// The seats with the most points share first place, every other seat shares the next
    /// place (OpenSpiel: +1 split among the winners, -1 among the losers).
    WinLoss,
    /// Places by points (OpenSpiel: points minus the average).
    PointDifference,
    /// Places by points (OpenSpiel: the points themselves).
    TotalPoints,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Settings {
    pub seats: usize,
    /// Bid cards 1..=cards in each hand, prize cards 1..=cards in the deck.
    pub cards: u8,
    /// Rounds played (OpenSpiel's `num_turns`), at most `cards`.
    pub rounds: u8,
    pub order: PointsOrder,
    /// OpenSpiel's `imp_info`: seats learn who won each prize, never the others' bids.
    pub imp_info: bool,
    pub returns: Returns,
}

/// The config keys besides `players`.
pub const KEYS: &[&str] = &[
    "num_cards",
    "num_turns",
    "points_order",
    "imp_info",
    "returns_type",
];

impl Settings {
    pub fn read(config: &Json, seats: &[usize]) -> Result<Settings, String> {
        let seats = players(config, seats)?;
        let cards = config_number(config, "num_cards", 13, 1..=MAX_CARDS)?;
        let rounds = match config.get("num_turns") {
            // OpenSpiel's -1: as many rounds as cards.
            Some(v) if v.as_i64() == Some(-1) => cards,
            _ => config_number(config, "num_turns", cards, 1..=cards)
                .map_err(|e| format!("{e} (the number of cards), or -1 for all"))?,
        };
        Ok(Settings {
            seats,
            cards: cards as u8,
            rounds: rounds as u8,
            order: word(
                config,
                "points_order",
                &["random", "descending", "ascending"],
            )?
            .map_or(PointsOrder::Random, |i| {
                [
                    PointsOrder::Random,
                    PointsOrder::Descending,
                    PointsOrder::Ascending,
                ][i]
            }),
            imp_info: flag(config, "imp_info")?,
            returns: word(
                config,
                "returns_type",
                &["win_loss", "point_difference", "total_points"],
            )?
            .map_or(Returns::WinLoss, |i| {
                [
                    Returns::WinLoss,
                    Returns::PointDifference,
                    Returns::TotalPoints,
                ][i]
            }),
        })
    }

    /// The config as OpenSpiel's parameters would spell it (for the rules page and the
    /// comparison test).
    pub fn order_name(self) -> &'static str {
        match self.order {
            PointsOrder::Random => "random",
            PointsOrder::Descending => "descending",
            PointsOrder::Ascending => "ascending",
        }
    }
}

/// Which of `words` the string at `key` is, `None` when the key is absent.
fn word(config: &Json, key: &str, words: &[&str]) -> Result<Option<usize>, String> {
    let Some(v) = config.get(key) else {
        return Ok(None);
    };
    let quoted: Vec<String> = words.iter().map(|w| format!("{w:?}")).collect();
    v.as_str()
        .and_then(|s| words.iter().position(|w| *w == s))
        .map(Some)
        .ok_or_else(|| format!("{key} must be {}", quoted.join(", ")))
}

fn flag(config: &Json, key: &str) -> Result<bool, String> {
    match config.get(key) {
        None => Ok(false),
        Some(v) => v
            .as_bool()
            .ok_or_else(|| format!("{key} must be true or false")),
    }
}
