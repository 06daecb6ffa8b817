//! A kit config (a JSON object, `{}` for the defaults) read as the engine's `GameConfig`: the
//! given keys over the defaults' keys, then the engine's own reader, so that a config means
//! here what it means in a replay or a tournament file.

use arbiter_engine::any::GameConfig;
use serde_json::Value;

/// The engine's configuration of the game `defaults` names, with `config`'s keys over it. A
/// `name` key may repeat the game's name, nothing else.
pub(crate) fn read(defaults: GameConfig, config: &Value) -> Result<GameConfig, String> {
    let name = defaults.name();
    let Some(given) = config.as_object() else {
        return Err(format!(
            "the {name} config must be a JSON object, like {{\"size\": 8}}: {config}"
        ));
    };
    if let Some(n) = given.get("name").filter(|n| n.as_str() != Some(name)) {
        return Err(format!("this is {name}: the config names {n}"));
    }
    // The defaults serialise as the engine writes configs (`{"name": ..., "size": 16}`).
    let mut doc = match serde_json::to_value(&defaults) {
        Ok(Value::Object(doc)) => doc,
        _ => return Err(format!("cannot write the {name} defaults")),
    };
    for (key, value) in given {
        doc.insert(key.clone(), value.clone());
    }
    serde_json::from_value(Value::Object(doc)).map_err(|e| format!("bad {name} config: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_engine::gomoku::{self, Rule};
    use arbiter_engine::reversi;
    use serde_json::json;

    fn gomoku_defaults() -> GameConfig {
        GameConfig::Gomoku(gomoku::Config::default())
    }

    #[test]
    fn given_keys_replace_the_defaults_and_the_rest_stay() {
        let c = read(gomoku_defaults(), &json!({"rule": "renju"})).unwrap();
        let want = gomoku::Config {
            size: 15,
            rule: Rule::Renju,
        };
        assert_eq!(c, GameConfig::Gomoku(want));
        let c = read(GameConfig::Reversi(reversi::Config::default()), &json!({})).unwrap();
        assert_eq!(c, GameConfig::Reversi(reversi::Config { size: 16 }));
    }

    #[test]
    fn wrong_shapes_and_other_games_are_refused_in_words() {
        let e = read(gomoku_defaults(), &json!([1])).unwrap_err();
        assert!(e.contains("must be a JSON object"), "{e}");
        let e = read(gomoku_defaults(), &json!({"name": "reversi"})).unwrap_err();
        assert!(e.contains("this is gomoku"), "{e}");
        let e = read(gomoku_defaults(), &json!({"rule": "chess"})).unwrap_err();
        assert!(e.contains("bad gomoku config"), "{e}");
        let e = read(gomoku_defaults(), &json!({"size": 300})).unwrap_err();
        assert!(e.contains("bad gomoku config"), "{e}");
    }
}
