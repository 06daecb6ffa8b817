//! Every message shape of seed 002 (notes/protocols.md section 4), parsed from the manual's own
//! examples and written back; and the framing, including malformed input, checked against
//! byte strings built by hand.

use std::io::Cursor;

use arbiter_saiblo::frame::{self, FrameError};
use arbiter_saiblo::message::{
    end_info_string, AiError, End, ErrorKind, JudgerMessage, LogicMessage, MessageError,
    PlayerType, Round, RoundConfig,
};
use serde_json::{json, Number, Value};

fn logic(text: &str) -> LogicMessage {
    LogicMessage::parse(text.as_bytes()).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn judger(text: &str, init: bool) -> JudgerMessage {
    JudgerMessage::parse(text.as_bytes(), init).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// `to_json` output must mean the same JSON as `expected`.
fn same_json(written: &str, expected: Value) {
    let v: Value = serde_json::from_str(written).expect("written text is JSON");
    assert_eq!(v, expected, "{written}");
}

#[test]
fn init_from_the_manual() {
    let text = r#"{"player_list": [1, 0, 2], "player_num": 3,
                   "config": {"random_seed": 1674552577091}, "replay": "/replay/replay.json"}"#;
    let JudgerMessage::Init(init) = judger(text, true) else {
        panic!("not init")
    };
    assert_eq!(
        init.player_types().unwrap(),
        vec![
            PlayerType::LocalAi,
            PlayerType::Failed,
            PlayerType::WebPlayer
        ]
    );
    assert_eq!(init.config["random_seed"], json!(1674552577091u64));
    assert_eq!(init.replay, "/replay/replay.json");
    same_json(
        &JudgerMessage::Init(init).to_json(),
        serde_json::from_str(text).unwrap(),
    );
    // player_num must agree with the list, and types are 0, 1 or 2.
    for bad in [
        r#"{"player_list":[1,1],"player_num":3,"config":{},"replay":""}"#,
        r#"{"player_list":[1,7],"player_num":2,"config":{},"replay":""}"#,
        r#"{"player":0,"content":"x","time":1}"#,
    ] {
        assert!(JudgerMessage::parse(bad.as_bytes(), true).is_err(), "{bad}");
    }
}

#[test]
fn round_config_with_and_without_fields() {
    let m = logic(r#"{"state": 0, "time": 3, "length": 1024}"#);
    assert_eq!(
        m,
        LogicMessage::RoundConfig(RoundConfig {
            state: 0,
            time: Some(3.0),
            length: Some(1024)
        })
    );
    same_json(
        &m.to_json(),
        json!({"state": 0, "time": 3.0, "length": 1024}),
    );
    let LogicMessage::RoundConfig(c) = logic(r#"{"state": 4, "time": 0.25}"#) else {
        panic!()
    };
    assert_eq!((c.time, c.length), (Some(0.25), None));
    assert!(LogicMessage::parse(br#"{"state":0,"time":0}"#).is_err());
    assert!(LogicMessage::parse(br#"{"state":0,"time":"3"}"#).is_err());
}

#[test]
fn round_from_the_manual() {
    let m =
        logic(r#"{"state": 233, "listen": [0], "player": [0, 1], "content": ["<m0>", "<m1>"]}"#);
    let expected = Round {
        state: 233,
        listen: vec![0],
        player: vec![0, 1],
        content: vec!["<m0>".into(), "<m1>".into()],
    };
    assert_eq!(m, LogicMessage::Round(expected.clone()));
    assert_eq!(logic(&m.to_json()), LogicMessage::Round(expected));
    // Empty lists are allowed (may be empty, says the manual); absent ones read as empty.
    assert_eq!(
        logic(r#"{"state": 1, "listen": []}"#),
        LogicMessage::Round(Round {
            state: 1,
            listen: vec![],
            player: vec![],
            content: vec![]
        })
    );
    for bad in [
        r#"{"state": 1, "listen": [0], "player": [0, 1], "content": ["a"]}"#,
        r#"{"state": 1, "listen": [-1]}"#,
        r#"{"state": -2, "listen": [0]}"#,
        r#"{"state": 1}"#,
        r#"{"listen": [0]}"#,
    ] {
        assert!(LogicMessage::parse(bad.as_bytes()).is_err(), "{bad}");
    }
}

#[test]
fn forward_to_an_ai_is_a_targeted_frame() {
    // 4-byte length 5, target 1, body: built by hand.
    let bytes = [0, 0, 0, 5, 0, 0, 0, 1, b'h', b'e', b'l', b'l', b'o'];
    assert_eq!(frame::encode_logic_frame(1, b"hello"), bytes);
    let (target, body) = frame::read_logic_frame(&mut Cursor::new(&bytes[..]), 100)
        .unwrap()
        .unwrap();
    assert_eq!((target, body.as_slice()), (1, &b"hello"[..]));
    // Target -1 (0xFFFFFFFF) is the judger; below that is refused.
    let to_judger = [0, 0, 0, 2, 0xFF, 0xFF, 0xFF, 0xFF, b'{', b'}'];
    assert_eq!(
        frame::read_logic_frame(&mut Cursor::new(&to_judger[..]), 100)
            .unwrap()
            .unwrap()
            .0,
        -1
    );
    let below = [0, 0, 0, 2, 0xFF, 0xFF, 0xFF, 0xFE, b'{', b'}'];
    assert!(matches!(
        frame::read_logic_frame(&mut Cursor::new(&below[..]), 100),
        Err(FrameError::BadTarget(-2))
    ));
    // The 8-digit convention inside the body.
    assert_eq!(frame::encode_for_ai("TURN\n"), "00000005TURN\n");
    let mut r = Cursor::new(b"00000005TURN\n00000000".to_vec());
    assert_eq!(
        frame::read_ai_message(&mut r, 100).unwrap().unwrap(),
        b"TURN\n"
    );
    assert_eq!(frame::read_ai_message(&mut r, 100).unwrap().unwrap(), b"");
    assert!(frame::read_ai_message(&mut r, 100).unwrap().is_none());
    assert!(matches!(
        frame::read_ai_message(&mut Cursor::new(b"0000x005TURN\n".to_vec()), 100),
        Err(FrameError::BadDecimalLength(_))
    ));
}

#[test]
fn watch() {
    let m = logic(r#"{"watch": "spectators see this"}"#);
    assert_eq!(m, LogicMessage::Watch("spectators see this".into()));
    same_json(&m.to_json(), json!({"watch": "spectators see this"}));
    assert!(LogicMessage::parse(br#"{"watch": 3}"#).is_err());
}

#[test]
fn ai_message_from_the_manual() {
    let m = judger(r#"{"player": 0, "content": "<m0>", "time": 2785}"#, false);
    assert_eq!(
        m,
        JudgerMessage::Ai {
            player: 0,
            content: "<m0>".into(),
            time: 2785
        }
    );
    same_json(
        &m.to_json(),
        json!({"player": 0, "content": "<m0>", "time": 2785}),
    );
}

#[test]
fn ai_errors_of_each_kind() {
    for (code, kind, log) in [
        (0, ErrorKind::RunError, "runError"),
        (1, ErrorKind::TimeOut, "timeOutError"),
        (2, ErrorKind::OutputLimit, "outputLimitError"),
    ] {
        let inner =
            format!(r#"{{"player": 1, "state": 7, "error": {code}, "error_log": "{log}"}}"#);
        let text = json!({"player": -1, "content": inner}).to_string();
        let m = judger(&text, false);
        let expected = AiError {
            player: 1,
            state: 7,
            error: kind,
            error_log: log.into(),
        };
        assert_eq!(m, JudgerMessage::AiError(expected.clone()));
        assert_eq!(kind.log_name(), log);
        // Written back: content is a JSON *string* holding the report.
        let back: Value = serde_json::from_str(&m.to_json()).unwrap();
        assert_eq!(back["player"], json!(-1));
        let content: Value =
            serde_json::from_str(back["content"].as_str().expect("a string")).unwrap();
        assert_eq!(
            content,
            json!({"player": 1, "state": 7, "error": code, "error_log": log})
        );
    }
    let unknown = json!({"player": -1, "content": r#"{"player":0,"state":1,"error":9}"#});
    assert!(JudgerMessage::parse(unknown.to_string().as_bytes(), false).is_err());
    let not_a_string = r#"{"player": -1, "content": {"player":0,"state":1,"error":0}}"#;
    assert!(JudgerMessage::parse(not_a_string.as_bytes(), false).is_err());
}

#[test]
fn request_end_state_and_its_reply() {
    let m = logic(r#"{"action": "request_end_state"}"#);
    assert_eq!(m, LogicMessage::RequestEndState);
    same_json(&m.to_json(), json!({"action": "request_end_state"}));
    assert!(LogicMessage::parse(br#"{"action": "end"}"#).is_err());

    let reply = judger(
        r#"{"end_state": "[\"OK\", \"TLE\", \"RE\", \"MLE\"]"}"#,
        false,
    );
    let states = vec!["OK", "TLE", "RE", "MLE"];
    assert_eq!(
        reply,
        JudgerMessage::EndState(states.iter().map(|s| s.to_string()).collect())
    );
    let back: Value = serde_json::from_str(&reply.to_json()).unwrap();
    let inner: Vec<String> = serde_json::from_str(back["end_state"].as_str().unwrap()).unwrap();
    assert_eq!(inner, states);
    assert!(JudgerMessage::parse(br#"{"end_state": ["OK"]}"#, false).is_err());
}

#[test]
fn end_from_the_manual() {
    let m = logic(
        r#"{"state": -1, "end_info": "{\"0\": 0, \"1\": 1}", "end_state": "[\"OK\", \"IA\"]"}"#,
    );
    let expected = End {
        scores: vec![(0, Number::from(0)), (1, Number::from(1))],
        end_state: Some(vec!["OK".into(), "IA".into()]),
    };
    assert_eq!(m, LogicMessage::End(expected.clone()));
    assert_eq!(logic(&m.to_json()), LogicMessage::End(expected));
    // end_state is optional.
    let LogicMessage::End(e) = logic(r#"{"state": -1, "end_info": "{\"0\": 2.5}"}"#) else {
        panic!()
    };
    assert_eq!(e.end_state, None);
    assert_eq!(e.scores[0].1.as_f64(), Some(2.5));
    for bad in [
        r#"{"state": -1}"#,
        r#"{"state": -1, "end_info": {"0": 1}}"#,
        r#"{"state": -1, "end_info": "{\"x\": 1}"}"#,
        r#"{"state": -1, "end_info": "{\"0\": \"a\"}"}"#,
        r#"{"state": -1, "end_info": "{}", "end_state": "OK"}"#,
    ] {
        assert!(LogicMessage::parse(bad.as_bytes()).is_err(), "{bad}");
    }
}

#[test]
fn end_info_keys_ascend_numerically() {
    // Eleven players given out of order: "10" must come after "9" (a plain JSON map would
    // put it after "1").
    let scores: Vec<(usize, Number)> = (0..11).rev().map(|p| (p, Number::from(p * 10))).collect();
    let text = end_info_string(&scores);
    // Independent check: the positions of the keys in the text.
    let positions: Vec<usize> = (0..11)
        .map(|p| text.find(&format!("\"{p}\":")).expect("key present"))
        .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["10"], json!(100));
}

#[test]
fn judger_frames_by_hand() {
    let body = br#"{"player":0,"content":"2 3","time":5}"#;
    let mut bytes = vec![0, 0, 0, body.len() as u8];
    bytes.extend_from_slice(body);
    assert_eq!(frame::encode_frame(body), bytes);
    let mut r = Cursor::new(bytes);
    assert_eq!(frame::read_frame(&mut r, 1000).unwrap().unwrap(), body);
    assert!(
        frame::read_frame(&mut r, 1000).unwrap().is_none(),
        "clean end of file"
    );
    // Lengths across byte boundaries (big-endian).
    for len in [0usize, 1, 255, 256, 65_535, 65_536, 70_000] {
        let data = vec![b'x'; len];
        let enc = frame::encode_frame(&data);
        assert_eq!(enc[..4], (len as u32).to_be_bytes());
        let back = frame::read_frame(&mut Cursor::new(enc), 1 << 20)
            .unwrap()
            .unwrap();
        assert_eq!(back.len(), len);
    }
}

#[test]
fn malformed_frames_are_clear_errors() {
    // A bad length: text written without a header reads as a huge length.
    let text = b"{\"state\":0}";
    let err = frame::read_frame(&mut Cursor::new(text.to_vec()), 1 << 20).unwrap_err();
    assert!(matches!(err, FrameError::BadLength { .. }), "{err}");
    assert!(err.to_string().contains("bad frame length"), "{err}");
    let err = frame::read_logic_frame(&mut Cursor::new(text.to_vec()), 1 << 20).unwrap_err();
    assert!(matches!(err, FrameError::BadLength { .. }), "{err}");

    // Truncated header and truncated body.
    let err = frame::read_frame(&mut Cursor::new(vec![0, 0]), 100).unwrap_err();
    assert!(
        matches!(err, FrameError::TruncatedHeader { got: 2, need: 4 }),
        "{err}"
    );
    let err = frame::read_logic_frame(&mut Cursor::new(vec![0, 0, 0, 9, 0xFF]), 100).unwrap_err();
    assert!(
        matches!(err, FrameError::TruncatedHeader { got: 5, need: 8 }),
        "{err}"
    );
    let err = frame::read_frame(&mut Cursor::new(vec![0, 0, 0, 10, b'a', b'b']), 100).unwrap_err();
    assert!(
        matches!(
            err,
            FrameError::TruncatedBody {
                declared: 10,
                got: 2
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("2 of 10"), "{err}");

    // Non-JSON bodies.
    for body in [&b"hello"[..], b"", b"{\"state\":", b"\xff\xfe"] {
        let e = LogicMessage::parse(body).unwrap_err();
        assert!(matches!(e, MessageError::NotJson { .. }), "{e}");
        assert!(e.to_string().contains("not JSON"), "{e}");
        assert!(JudgerMessage::parse(body, false).is_err());
    }
    // JSON that is not an object.
    assert!(matches!(
        LogicMessage::parse(b"[1,2]"),
        Err(MessageError::Shape(_))
    ));
}

#[test]
fn player_type_codes() {
    for c in 0..3 {
        assert_eq!(PlayerType::from_code(c).unwrap().code(), c);
    }
    assert!(PlayerType::from_code(3).is_none());
    for c in 0..3 {
        assert_eq!(ErrorKind::from_code(c).unwrap().code(), c);
    }
}
