//! Bots for Thedinghausen Fipsen: whether to announce fipsen, and which card to play.

use fipsen_rules::thedinghausen::{Action, DealView, SeriesView};

use crate::bot::Level;

/// A Thedinghausen bot of one level.
#[derive(Debug, Clone)]
pub struct Bot {
    #[allow(dead_code)]
    level: Level,
    #[allow(dead_code)]
    seed: u64,
}

impl Bot {
    /// A bot of `level`, whose choices follow from `seed` and the view alone.
    pub fn new(level: Level, seed: u64) -> Bot {
        Bot { level, seed }
    }

    /// The bot's action in a series, or `None` once it is over.
    pub fn choose_in_series(&mut self, view: &SeriesView) -> Option<Action> {
        if view.over { None } else { self.choose(&view.deal) }
    }

    /// The bot's action, or `None` if the viewer may do nothing now. Always one the prompt
    /// offers: it passes on fipsen and plays its lowest legal card.
    pub fn choose(&mut self, view: &DealView) -> Option<Action> {
        if view.viewer.is_none() || view.turn != view.viewer {
            return None;
        }
        if view.prompt.pass {
            return Some(Action::Pass);
        }
        view.prompt.cards.iter().min_by_key(|c| c.rank()).map(|card| Action::Play { card })
    }
}
