//! The review of a seat's decisions before the play in a finished Tippen deal.
//!
//! The deal is dealt again from what it reveals (the hands as dealt, the trump card, the talon
//! and the bottom cards of hop and jump) and its answers are replayed in order; at each of the
//! seat's turns before the play that offered more than one answer, the seat's view then is
//! shown to the bot, which values every answer over deals of the cards the seat could not see
//! ([`Bot::answer_values`]) and names its own. The replay is checked to end as the deal did.

use fipsen_rules::tippen::{Action, Choice as Answer, Deal, Phase, Preset};
use fipsen_rules::{Card, CardSet, Seat};

use super::Bot;
use super::sim::discard_choice;
use crate::games::decisions::{Decision, DecisionKind, DecisionReview};

/// What the finished deal tells of its answers before the play that it does not keep one by
/// one: the card the dealer laid away after knocking or sniffing, and each seat's cards laid
/// away in the exchange.
struct Record {
    laid_away: Option<Card>,
    exchanged: Vec<CardSet>,
}

impl Record {
    /// The deal keeps a seat's discards together. A dealer who knocked or sniffed and then
    /// exchanged laid one of them away first: it cannot be told which, and either order leaves
    /// the same deal; the card the rule of thumb lays away (the least worth: trumps above plain
    /// cards, then by rank) is taken as the one laid away.
    fn of(deal: &Deal) -> Option<Record> {
        let n = usize::from(deal.players());
        let mut exchanged: Vec<CardSet> = deal.discards().to_vec();
        exchanged.resize(n, CardSet::EMPTY);
        let mut laid_away = None;
        if deal.knocked() || deal.sniffed().is_some() {
            let dealer = deal.dealer().index();
            let trumps = deal.trumps()?;
            let card = discard_choice(trumps, exchanged[dealer])?;
            exchanged[dealer].remove(card);
            laid_away = Some(card);
        }
        Some(Record { laid_away, exchanged })
    }

    /// The answer `replay` (the same deal, dealt again and replayed so far) waits for, as
    /// `deal` records it.
    fn next(&self, deal: &Deal, replay: &Deal) -> Option<Action> {
        let seat = replay.turn()?;
        Some(match replay.phase() {
            Phase::Shove => {
                if deal.shoves().len() > replay.shoves().len() {
                    Action::Shove
                } else {
                    Action::Deal
                }
            }
            Phase::Knock => {
                if deal.knocked() {
                    Action::Knock
                } else {
                    Action::NoKnock
                }
            }
            Phase::Sniff => {
                if deal.sniffed().is_some() {
                    Action::Sniff
                } else {
                    Action::NoSniff
                }
            }
            Phase::Discard => Action::Discard { cards: self.laid_away?.set() },
            Phase::Decide => {
                let d = deal.decisions().get(replay.decisions().len())?;
                if d.seat != seat {
                    return None;
                }
                match d.choice {
                    Answer::Join => Action::Join,
                    Answer::Rob => Action::Rob,
                    Answer::Pass => Action::Pass,
                    Answer::DropOut => Action::DropOut,
                }
            }
            Phase::Exchange => {
                let e = deal.exchanges().get(replay.exchanges().len())?;
                let cards = *self.exchanged.get(seat.index())?;
                if e.seat != seat || cards.len() != usize::from(e.count) {
                    return None;
                }
                if cards.is_empty() { Action::Keep } else { Action::Exchange { cards } }
            }
            Phase::Play => {
                let p = deal.plays().get(replay.plays().len())?;
                if p.seat != seat {
                    return None;
                }
                Action::Play { card: p.card }
            }
            Phase::Over => return None,
        })
    }
}

/// The cards `seat` played in `deal`.
fn played_by(deal: &Deal, seat: Seat) -> CardSet {
    deal.plays().iter().filter(|p| p.seat == seat).map(|p| p.card).collect()
}

/// The packs that deal `deal` again ([`Deal::from_packs`]): one for each bottom card that
/// passed the deal on under hop and jump (only that card matters in it), then the pack that
/// was dealt, rebuilt from the hands as dealt, the trump card and the talon as it lay before
/// the exchange (the cards each seat drew, in the order they exchanged, then those left).
fn packs(deal: &Deal) -> Option<Vec<Vec<Card>>> {
    let rules = deal.rules();
    let n = usize::from(deal.players());
    let h = usize::from(rules.preset.hand_size());
    let trump = deal.trump_card()?;
    let forehand = deal.forehand().index();
    let dealer = deal.dealer().index();
    let mut hands: Vec<Vec<Card>> = (0..n)
        .map(|i| {
            let seat = Seat(((forehand + i) % n) as u8);
            let mut cards: Vec<Card> = deal.dealt_hand(seat).iter().filter(|&c| c != trump).collect();
            if seat.index() == dealer && deal.dealt_hand(seat).contains(trump) {
                // The dealer's own last card is the trump card (1821).
                cards.push(trump);
            }
            cards
        })
        .collect();
    if hands.iter().any(|c| c.len() != h) {
        return None;
    }
    // Where the trump card lies: after the dealer's last card (1821, as his last card), after
    // two rounds (Katira, Vierblatt), or after the hands.
    let trump_after = match rules.preset {
        Preset::DreiKarten1821 | Preset::Loup1821 => None,
        Preset::ModernKatira | Preset::Vierblatt => Some(2),
        _ => Some(h),
    };
    let mut pack = Vec::with_capacity(rules.pack().cards().len());
    for round in 0..h {
        if trump_after == Some(round) {
            pack.push(trump);
        }
        pack.extend(hands.iter_mut().map(|c| c[round]));
    }
    if trump_after == Some(h) {
        pack.push(trump);
    }
    for e in deal.exchanges() {
        let drawn = played_by(deal, e.seat)
            .union(deal.hand(e.seat))
            .difference(deal.dealt_hand(e.seat))
            .difference(trump.set());
        if drawn.len() != usize::from(e.count) {
            return None;
        }
        pack.extend(drawn.iter());
    }
    pack.extend_from_slice(deal.talon());
    let mut out: Vec<Vec<Card>> = Vec::new();
    for hop in deal.hops().iter().filter(|h| h.passed) {
        let mut p = pack.clone();
        let at = p.iter().position(|&c| c == hop.card)?;
        let last = p.len() - 1;
        p.swap(at, last);
        out.push(p);
    }
    out.push(pack);
    Some(out)
}

/// The kind of decision taken in `phase`.
fn kind(phase: Phase) -> Option<DecisionKind> {
    Some(match phase {
        Phase::Shove => DecisionKind::Shove,
        Phase::Knock => DecisionKind::Knock,
        Phase::Sniff => DecisionKind::Sniff,
        Phase::Discard => DecisionKind::Discard,
        Phase::Decide => DecisionKind::Entry,
        Phase::Exchange => DecisionKind::Exchange,
        Phase::Play | Phase::Over => return None,
    })
}

/// The review of `seat`'s decisions before the play in the finished `deal` by `bot`: at each of
/// his turns that offered more than one answer (shove or deal, knock or not, sniff or not, the
/// card laid away, play, rob, pass or drop out, keep or exchange which cards), every answer
/// with his expected counters from there on over deals of the cards he could not see, drawn
/// from his view then and seeded by it alone (the same deals for every answer), and the bot's
/// answer there. `None` if the deal is not over or cannot be dealt again as it went.
pub fn review(bot: &mut Bot, deal: &Deal, seat: Seat) -> Option<DecisionReview<Action>> {
    if !deal.is_over() || seat.0 >= deal.players() {
        return None;
    }
    let record = Record::of(deal)?;
    let (mut replay, _) = Deal::from_packs(*deal.rules(), deal.number(), deal.due(), packs(deal)?, deal.carry())?;
    let mut decisions = Vec::new();
    while !replay.is_over() {
        let turn = replay.turn()?;
        let action = record.next(deal, &replay)?;
        if turn == seat
            && let Some(decision) = kind(replay.phase())
            && replay.legal_actions(seat).len() > 1
        {
            let at = replay.view(Some(seat));
            let (options, samples) = bot.answer_values(&at)?;
            let choice = bot.choose(&at)?;
            decisions.push(Decision { decision, samples, effective: None, options, bot: choice, chosen: action });
        }
        replay.apply(turn, action).ok()?;
    }
    // Dealt again as it went: the same hands, discards, talon and outcome.
    let same = (0..deal.players()).all(|s| replay.dealt_hand(Seat(s)) == deal.dealt_hand(Seat(s)))
        && replay.discards() == deal.discards()
        && replay.talon() == deal.talon()
        && replay.outcome() == deal.outcome();
    same.then_some(DecisionReview { seat, decisions })
}
