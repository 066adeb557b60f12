//! Reading a [`DealView`]: the position and stakes of the play as one seat sees them.

use fipsen_rules::{DealView, FirstLead, Game, Suit};

use crate::cards::trump_mask;
use crate::knowledge::Layout;
use crate::solver::{Position, Stakes};

/// Who leads the first trick when `declarer` plays.
pub fn first_leader(view: &DealView, declarer: u8) -> u8 {
    match view.rules.first_lead {
        FirstLead::Forehand => view.vorhand.0,
        FirstLead::Declarer => declarer,
    }
}

/// The game with `suit` as trumps.
pub fn with_trumps(game: &Game, suit: Suit) -> Game {
    Game { trumps: Some(suit), ..*game }
}

/// The stakes of the deal now: the game (with `suit` as trumps if it is not named yet) and the
/// tricks taken so far.
pub fn stakes(view: &DealView, game: &Game, suit: Suit) -> Stakes {
    Stakes::from_game(&with_trumps(game, suit), view.tricks_taken.declarer, view.tricks_taken.opponents)
}

/// The position of the play as the view shows it (hands empty: a layout fills them in).
/// `None` before the declarer is known.
pub fn base_position(view: &DealView, suit: Suit) -> Option<Position> {
    let declarer = view.declarer?.0;
    let mut trick = [0u8; 4];
    for (i, play) in view.trick.iter().enumerate().take(4) {
        trick[i] = play.card.index();
    }
    let leader = match view.trick.first() {
        Some(play) => play.seat.0,
        None => match view.tricks.last() {
            Some(t) => t.winner.0,
            None => first_leader(view, declarer),
        },
    };
    Some(Position {
        players: view.rules.players.count(),
        hands: [0; 4],
        declarer,
        trumps: trump_mask(suit),
        leader,
        trick,
        trick_len: view.trick.len() as u8,
    })
}

/// `base` with the hands of `layout`.
pub fn place(base: &Position, layout: &Layout) -> Position {
    Position { hands: layout.hands, ..*base }
}
