//! A game's answer to a player's question (the engine's query hook) is, with its `type`, the
//! `options` frame the server sends today: the room can answer through the hook without a byte
//! of the wire changing.

use fipsen_protocol::ServerMessage;
use fipsen_rules::{AnyGame, GameAnswer, GameId, GameQuery, GameRules, Seed};

#[test]
fn wippens_answer_is_the_options_frame_without_its_type() {
    let (game, _) = AnyGame::start(&GameRules::default_for(GameId::Wippen), Seed([9; 32])).unwrap();
    let seat = game.turn().expect("someone to move");
    let view = serde_json::to_value(game.view(Some(seat))).unwrap();
    let mut answered = 0;
    for entry in view["deal"]["prompt"]["moves"].as_array().expect("moves") {
        // Each card's discard and the piles of each of its listed captures.
        let table = view["deal"]["table"].as_array().expect("table");
        let mut selections = vec![Vec::new()];
        for set in entry["capture"].as_array().into_iter().flatten() {
            let piles: Vec<serde_json::Value> = set
                .as_array()
                .unwrap()
                .iter()
                .map(|i| {
                    let pile = &table[i.as_u64().unwrap() as usize];
                    match pile.get("building") {
                        Some(b) => serde_json::json!({"building": b}),
                        None => serde_json::json!({"card": pile["card"]}),
                    }
                })
                .collect();
            selections.push(piles);
        }
        for piles in selections {
            let question = serde_json::json!({"card": entry["card"], "piles": piles});
            let query = GameQuery::from_json(GameId::Wippen, question.clone()).unwrap();
            let answer = game.query(seat, &query).unwrap();
            let GameAnswer::Wippen(options) = &answer else { panic!("Wippen answers") };
            let AnyGame::Wippen(series) = &game else { unreachable!("a Wippen table") };
            let moves = series.options(seat, options.card, &options.piles).unwrap();
            assert_eq!(
                ServerMessage::from(answer.clone()),
                ServerMessage::Options { card: options.card, piles: options.piles.clone(), moves: moves.clone() }
            );
            let frame = ServerMessage::Options { card: options.card, piles: options.piles.clone(), moves };
            let mut expected = serde_json::to_value(&frame).unwrap();
            expected.as_object_mut().unwrap().remove("type");
            assert_eq!(serde_json::to_value(&answer).unwrap(), expected, "{question}");
            assert_eq!(question["piles"], expected["piles"], "the question comes back as asked");
            answered += 1;
        }
    }
    assert!(answered > 4, "{answered}");
}
