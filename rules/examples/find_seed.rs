//! Finds a master seed whose first deal has a wanted situation, for tests that start the server
//! with `--insecure-fixed-seed` (the first dealer is the last seat, so seat 0 is Vorhand and
//! leads the first trick).
//!
//! `cargo run -p fipsen-rules --example find_seed -- <3|4> <situation> [<3|4> <situation> ...]`
//! prints the first seed that has every named situation (each in the first deal of a room of
//! that many players; the same master seed deals a three- and a four-player room differently),
//! then, on stderr, how to play it. Situations (all about seat 0):
//! - `fips`: holds a Siebener Fips;
//! - `kieker`: holds no court card, so may bid Kieker;
//! - `diamond-seven`: holds the ♦7;
//! - `clubs`: holds the four top clubs;
//! - `kieker-win`: may bid Kieker, and after picking up can lay away five so that the Kieker is
//!   won whatever the opponents play (see [`sure_slam`]);
//! - `durch`: after taking the skat can lay away two so that a game is won with every trick
//!   whatever the opponents play: bid 3, stop or go on for Durch after the third trick.

use fipsen_rules::{Card, CardSet, Players, Rank, RuleSet, Seat, Seed, Series, Suit};

/// A way for seat 0 to win every trick: the cards to lay away and the trumps to name.
struct Slam {
    keep: CardSet,
    lay_away: CardSet,
    trumps: Suit,
}

/// Whether seat 0, leading the first trick with `kept` and `trumps`, takes all five tricks
/// whatever the opponents (holding `opponents`) play, if he leads his trumps from the highest
/// down and then his other cards in any order. Checked conservatively: every trump he leads must
/// beat every trump an opponent may still hold (an opponent follows trumps while he has any, and
/// keeps his highest), the opponents hold no more trumps than he leads, and each of his other
/// cards beats every opponent card of its suit.
fn sure_slam(kept: CardSet, trumps: Suit, opponents: &[CardSet]) -> bool {
    let mine = kept.of_suit(trumps);
    let mut leads: Vec<Card> = mine.iter().collect();
    leads.reverse();
    for (i, &lead) in leads.iter().enumerate() {
        for opp in opponents {
            let theirs = opp.of_suit(trumps);
            if theirs.len() > i && theirs.highest().is_some_and(|top| top > lead) {
                return false;
            }
        }
    }
    if opponents.iter().any(|opp| opp.of_suit(trumps).len() > leads.len()) {
        return false;
    }
    kept.difference(mine)
        .iter()
        .all(|card| opponents.iter().all(|opp| opp.of_suit(card.suit()).highest().is_none_or(|top| top < card)))
}

/// Every subset of `cards` with `k` cards.
fn subsets(cards: CardSet, k: usize, out: &mut Vec<CardSet>) {
    fn go(rest: &[Card], k: usize, chosen: CardSet, out: &mut Vec<CardSet>) {
        if k == 0 {
            out.push(chosen);
            return;
        }
        if rest.len() < k {
            return;
        }
        go(&rest[1..], k - 1, chosen.union(rest[0].set()), out);
        go(&rest[1..], k, chosen, out);
    }
    let cards: Vec<Card> = cards.iter().collect();
    go(&cards, k, CardSet::EMPTY, out);
}

/// A slam for seat 0 holding `held` (five to keep), trumps other than Ruten preferred.
fn find_slam(held: CardSet, opponents: &[CardSet]) -> Option<Slam> {
    let mut keeps = Vec::new();
    subsets(held, 5, &mut keeps);
    for trumps in Suit::ALL {
        for &keep in &keeps {
            if sure_slam(keep, trumps, opponents) {
                return Some(Slam { keep, lay_away: held.difference(keep), trumps });
            }
        }
    }
    None
}

/// The situation in the first deal of `series`, with a note on how to play it, or `None` when
/// the deal does not have it. `Err` for an unknown situation.
fn situation(name: &str, series: &Series) -> Result<Option<String>, String> {
    let deal = series.deal();
    let players = deal.players();
    let hand = deal.dealt_hand(Seat(0));
    let opponents: Vec<CardSet> = (1..players).map(|s| deal.dealt_hand(Seat(s))).collect();
    let top_clubs: CardSet =
        [Rank::Ace, Rank::King, Rank::Queen, Rank::Jack].into_iter().map(|rank| Card::new(Suit::Clubs, rank)).collect();
    let plain = |found: bool| found.then(String::new);
    let slam_note =
        |slam: Slam| format!("keep {:?}, lay away {:?}, trumps {:?}", slam.keep, slam.lay_away, slam.trumps);
    Ok(match name {
        "fips" => plain(hand.has_siebener_fips()),
        "kieker" => plain(!hand.has_court()),
        "diamond-seven" => plain(hand.contains(Card::DIAMOND_SEVEN)),
        "clubs" => plain(hand.contains_all(top_clubs)),
        "kieker-win" if hand.has_court() => None,
        "kieker-win" => {
            let picked_up = deal.skat().union(deal.stock());
            // Four players keep their dealt hand; three throw it away.
            let held = if players == 4 { hand.union(picked_up) } else { picked_up };
            find_slam(held, &opponents).map(slam_note)
        }
        "durch" => find_slam(hand.union(deal.skat()), &opponents).map(slam_note),
        _ => return Err(format!("unknown situation {name:?}")),
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut wanted = Vec::new();
    for pair in args.chunks(2) {
        let players = match pair[0].as_str() {
            "3" => Players::Three,
            "4" => Players::Four,
            other => return eprintln!("players must be 3 or 4, not {other:?}"),
        };
        let Some(name) = pair.get(1) else { return eprintln!("a situation must follow {}", pair[0]) };
        wanted.push((players, name.as_str()));
    }
    if wanted.is_empty() {
        wanted.push((Players::Four, "fips"));
    }
    'seeds: for n in 0..50_000_000u64 {
        let master = Seed::from_u64(n);
        let mut notes = Vec::new();
        for &(players, name) in &wanted {
            let rules = RuleSet { players, ..RuleSet::prisdorf() };
            let Ok((series, _)) = Series::new(rules, master) else { return eprintln!("invalid rules") };
            match situation(name, &series) {
                Err(e) => return eprintln!("{e}"),
                Ok(None) => continue 'seeds,
                Ok(Some(note)) => {
                    let deal = series.deal();
                    let hands: Vec<String> =
                        (0..deal.players()).map(|s| format!("seat {s}: {:?}", deal.dealt_hand(Seat(s)))).collect();
                    notes.push(format!(
                        "{} players, {name}: {}; skat {:?}; stock {:?}; {note}",
                        players.count(),
                        hands.join("; "),
                        deal.skat(),
                        deal.stock()
                    ));
                }
            }
        }
        println!("{}", master.to_hex());
        for note in notes {
            eprintln!("{note}");
        }
        return;
    }
    eprintln!("none found");
}
