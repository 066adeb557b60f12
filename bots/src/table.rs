//! Reading a [`DealView`]: the position and stakes of the play as one seat sees them.

use fipsen_rules::{DealView, FirstLead, Game, Play, Suit, TrickView};

use crate::cards::trump_mask;
use crate::knowledge::Layout;
use crate::solver::{MAX_PLAYERS, Position, Stakes};

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
    let first = first_leader(view, declarer);
    Some(play_position(view.rules.players.count(), declarer, trump_mask(suit), first, &view.tricks, &view.trick))
}

/// The position of a play of the Holstein family from what every seat sees: the finished
/// tricks and the trick being played (hands empty: a layout fills them in). `first_leader`
/// leads when no card is played yet.
pub fn play_position(
    players: u8,
    declarer: u8,
    trumps: u64,
    first_leader: u8,
    tricks: &[TrickView],
    current: &[Play],
) -> Position {
    let mut trick = [0u8; MAX_PLAYERS];
    for (i, play) in current.iter().enumerate().take(MAX_PLAYERS) {
        trick[i] = play.card.index();
    }
    let leader = match current.first() {
        Some(play) => play.seat.0,
        None => match tricks.last() {
            Some(t) => t.winner.0,
            None => first_leader,
        },
    };
    Position { players, hands: [0; MAX_PLAYERS], declarer, trumps, leader, trick, trick_len: current.len() as u8 }
}

/// `base` with the hands of `layout`.
pub fn place(base: &Position, layout: &Layout) -> Position {
    Position { hands: layout.hands, ..*base }
}
