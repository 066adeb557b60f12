//! The review of a player's decisions before the play, over real sockets, in Großenaspe,
//! Thedinghausen and Tippen: a person plays a deal against bots, asks for the review, and gets `decisions`
//! for his own seat, his own calls as the chosen ones, with no card he did not see; a spectator
//! and a deal still being played get none.
#![allow(clippy::unwrap_used)]

use crate::common;

use common::{Client, Rng, Server, cards_in, check_frames, offered, random_action, short_rules, temp_db};
use fipsen_rules::{CardSet, GameId, GameRules};
use serde_json::{Value, json};

/// Whether a seat's prompt offers anything.
fn may_act(deal: &Value) -> bool {
    deal["prompt"].as_object().is_some_and(|prompt| {
        prompt.values().any(|v| v == &json!(true) || v.as_array().is_some_and(|a| !a.is_empty()) || v.is_u64())
    })
}

/// Sends a request without id and reads until its answer: the first frame of `kind` or an error.
async fn answer(c: &mut Client, request: Value, kind: &str) -> Value {
    c.send(request).await;
    c.recv_type_or_error(kind).await
}

/// The actions of a game that its review counts as decisions before the play.
fn decision_actions(game: GameId) -> &'static [&'static str] {
    match game {
        // The declarer's discard and trumps (or a Kieker's fold) follow his calls.
        GameId::Grossenaspe => &["bid", "hold", "pass", "discard", "name_trumps", "fold"],
        GameId::Thedinghausen => &["fipsen", "pass"],
        GameId::Tippen => &[
            "shove", "deal", "knock", "no_knock", "sniff", "no_sniff", "discard", "join", "rob", "pass", "drop_out",
            "keep", "exchange",
        ],
        _ => unreachable!("only these games are played here"),
    }
}

/// Plays deal 1 of `game` at seat 0 against bots (random legal moves), asks for the review and
/// checks it; returns the number of decisions reviewed and of the other hands' cards seat 0
/// never saw (where every card was played, none: the check for leaks is then empty).
async fn review_against_bots(server: &Server, game: GameId, rng: &mut Rng) -> (usize, usize) {
    let rules_json = short_rules(game, 2);
    let rules: GameRules = serde_json::from_value(rules_json.clone()).unwrap();
    let mut me = Client::greeted(server).await;
    let room = me.create("Antje", rules_json, json!({"bot_delay_ms": 0, "next_deal_seconds": null})).await;
    let mut watcher = Client::greeted(server).await;
    assert_eq!(watcher.join(&room, "Oma Grete", "spectator").await["type"], "joined");
    for seat in 1..rules.seats() {
        me.send(json!({"type": "add_bot", "seat": seat, "level": "normal"})).await;
    }
    let before = answer(&mut me, json!({"type": "review"}), "decisions").await;
    assert_eq!(before["code"], "review/unavailable", "{game:?}: no review before the series: {before}");
    me.send(json!({"type": "start"})).await;
    while me.game.is_null() {
        me.recv().await.expect("the room goes on");
    }

    // Deal 1: every card seat 0 was shown while it ran, and its decisions in order.
    let (mut seen, mut mine) = (CardSet::EMPTY, Vec::new());
    loop {
        let deal = me.deal().clone();
        if deal["phase"] == "over" {
            break;
        }
        seen = seen.union(cards_in(&deal.to_string()));
        if !may_act(&deal) {
            me.recv().await.expect("the room goes on");
            continue;
        }
        let action = random_action(&deal, rng).expect("a prompt offers an action");
        let acked = me.act(&action).await;
        if acked["type"] == "error" {
            // A bot's out-of-turn move may have come first.
            assert_eq!(acked["code"], "action/stale", "{game:?} {action}: {acked}");
            continue;
        }
        // Tippen's review leaves out the turns that offered a single answer.
        let forced = game == GameId::Tippen && offered(&deal).iter().map(|g| g.actions.len()).sum::<usize>() < 2;
        if decision_actions(game).contains(&action["action"].as_str().unwrap()) && !forced {
            mine.push(action);
        }
    }
    // The cards of the other hands seat 0 never saw: the review must name none of them.
    let dealt = &me.deal()["reveal"]["dealt"];
    let mut unseen = CardSet::EMPTY;
    for (seat, hand) in
        dealt.as_array().unwrap_or_else(|| panic!("{game:?}: a reveal: {}", me.deal())).iter().enumerate()
    {
        if seat != 0 {
            unseen = unseen.union(cards_in(&hand.to_string()).difference(seen));
        }
    }

    let review = answer(&mut me, json!({"type": "review"}), "decisions").await;
    assert_eq!(review["type"], "decisions", "{game:?}: {review}");
    assert_eq!(review["deal"], 1);
    let game_name = serde_json::to_value(game).unwrap();
    assert_eq!(review["review"]["game"], game_name, "{review}");
    assert_eq!(review["review"]["review"]["seat"], 0, "his own seat: {review}");
    let decisions = review["review"]["review"]["decisions"].as_array().unwrap();
    let chosen: Vec<&Value> = decisions.iter().map(|d| &d["chosen"]).collect();
    if game == GameId::Tippen {
        // A dealer who knocked and then exchanged laid his cards away together: which one went
        // first is not known, so only the kinds of his decisions are compared.
        let kinds = |actions: &[&Value]| actions.iter().map(|a| a["action"].clone()).collect::<Vec<_>>();
        assert_eq!(kinds(&chosen), kinds(&mine.iter().collect::<Vec<_>>()), "{game:?}: his own decisions, in order");
    } else {
        assert_eq!(chosen, mine.iter().collect::<Vec<_>>(), "{game:?}: his own decisions are the chosen ones");
    }
    for d in decisions {
        let options = d["options"].as_array().unwrap();
        assert!(!options.is_empty(), "{game:?}: every decision has its options: {d}");
        assert!(options.iter().all(|o| o["margin"].as_f64().unwrap() >= 0.0 && o["value"].is_number()), "{d}");
        assert!(options.iter().any(|o| o["action"] == d["bot"]), "{game:?}: the bot's choice is valued: {d}");
    }
    let frame = me.frames.iter().rev().find(|f| f.contains("\"type\":\"decisions\"")).unwrap();
    let leaked = cards_in(frame).difference(seen);
    assert!(leaked.is_empty(), "{game:?}: the review named {leaked:?}, cards seat 0 did not see: {frame}");

    // The same deal asked by number; a spectator gets none.
    let again = answer(&mut me, json!({"type": "review", "deal": 1}), "decisions").await;
    assert_eq!(again["review"], review["review"], "{game:?}: asked by number, the same review");
    let refused = answer(&mut watcher, json!({"type": "review", "deal": 1}), "decisions").await;
    assert_eq!(refused["code"], "review/unavailable", "{game:?}: a spectator has no review: {refused}");

    // The spectator's frames of deal 1, which carry no review, showed him nothing hidden.
    watcher.sync(me.seq).await;
    assert!(check_frames(None, &watcher.frames, &watcher.frames) > 0);
    assert!(
        !watcher.frames.iter().any(|f| f.contains("\"type\":\"decisions\"")),
        "{game:?}: a review reached the spectator"
    );

    // Deal 2 while it runs: no review of it.
    me.send(json!({"type": "next_deal"})).await;
    while me.game["number"] == 1 {
        me.recv().await.expect("the room goes on");
    }
    if me.deal()["phase"] != "over" {
        let running = answer(&mut me, json!({"type": "review", "deal": 2}), "decisions").await;
        assert_eq!(running["code"], "review/unavailable", "{game:?}: a running deal: {running}");
    }

    me.close().await;
    watcher.close().await;
    (decisions.len(), unseen.len())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_gets_the_review_of_his_own_decisions_in_grossenaspe_thedinghausen_and_tippen() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let mut rng = Rng(28);
    let (mut reviewed, mut hidden) = (0, 0);
    // Until some card of another hand stayed hidden from seat 0 (a deal played to its last card
    // shows him every card), so that the check for leaks checks something.
    for round in 0..5 {
        for game in [GameId::Grossenaspe, GameId::Thedinghausen, GameId::Tippen] {
            let (decisions, unseen) = review_against_bots(&server, game, &mut rng).await;
            reviewed += decisions;
            hidden += unseen;
        }
        if hidden > 0 && reviewed > 0 {
            break;
        }
        assert!(round < 4, "in five rounds, no card stayed hidden from seat 0");
    }
    assert!(reviewed > 0, "some decisions were reviewed");
}
