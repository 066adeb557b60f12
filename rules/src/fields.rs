//! Helpers for the fields a view leaves out of its JSON when they hold nothing.

use crate::card::CardSet;

/// Whether a flag is off (left out of the JSON).
pub(crate) fn is_false(b: &bool) -> bool {
    !*b
}

/// Whether a set of cards is empty (left out of the JSON).
pub(crate) fn no_cards(cards: &CardSet) -> bool {
    cards.is_empty()
}
