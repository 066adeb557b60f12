//! What the organiser chooses when he creates a tournament, and how many tables of which size
//! a number of players makes.

use fipsen_rules::{GameId, GameRules, Players, RuleSet};
use serde::{Deserialize, Serialize};

use crate::error::TournamentError;

/// The most characters of a tournament's name.
pub const MAX_TOURNAMENT_NAME_CHARS: usize = 64;

/// The most entrants a tournament may take ([`Settings::max_entrants`]); a server may allow
/// fewer. With [`MAX_ROUNDS`] it bounds what a tournament's messages hold: with every name at its
/// longest, the tournament as everyone sees it stays well under 256 KiB.
pub const MAX_ENTRANTS: u32 = 128;

/// The most rounds a new tournament may have.
pub const MAX_ROUNDS: u32 = 10;

/// How the players are seated for the second round and after (the first round is always
/// seated at random).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Reseating {
    /// Swiss-like: by the standings after the previous round, the best players together
    /// (ranks 1–4 at table 1, 5–8 at table 2, …; the short tables last). The seats at each
    /// table are drawn from the round's seed.
    ByStandings,
    /// At random from the round's seed, as the first round.
    Random,
}

/// The tables of one size: their rules and how many deals they play in a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TableFormat {
    /// The players at such a table.
    pub seats: u8,
    /// The deals such a table plays in each round (deals that count: a thrown-in deal that
    /// the game deals again is not one).
    pub deals: u32,
    /// The room rules of such a table; their game is the tournament's, their seats are
    /// `seats`, and their number of deals is `deals` or open-ended (the server then ends the
    /// table after `deals` deals).
    pub rules: GameRules,
}

/// A tournament's settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Settings {
    /// The tournament's name, 1 to [`MAX_TOURNAMENT_NAME_CHARS`] characters.
    pub name: String,
    /// The game every table plays.
    pub game: GameId,
    /// The tables of the game's size `k` and, if the game is also played by `k − 1`, the
    /// tables of `k − 1` ("short tables"). Kept largest first.
    pub tables: Vec<TableFormat>,
    /// The most short tables in a round (3 for Prisdorf: n = 4a + 3b with b ≤ 3).
    pub max_short_tables: u8,
    /// The number of rounds, at least 1.
    pub rounds: u32,
    /// How the players are seated for the second round and after.
    pub reseating: Reseating,
    /// Duplicate deals: every table of the same size plays the same deals in a round, and the
    /// standings carry each player's duplicate score.
    pub duplicate: bool,
    /// Whether the tournament is listed publicly (otherwise it is reached by its link alone).
    pub listed: bool,
    /// Whether the organiser plays: he is then registered under his name when the tournament is
    /// created.
    pub organiser_plays: bool,
    /// The most players who may register (the organiser included if he plays; the bots that
    /// `fill_with_bots` adds at the start do not count), 2 to [`MAX_ENTRANTS`]. Left out when
    /// creating, the server's maximum; tournaments stored before there was a cap have none and
    /// take [`MAX_ENTRANTS`] ([`Settings::entrant_cap`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_entrants: Option<u32>,
}

impl Settings {
    /// The Prisdorf tournament of docs/rules/prisdorf.md §10: Prisdorf Fipsen, tables of four playing 100
    /// deals and up to three tables of three playing 120, Kontra off, one round, no duplicate
    /// deals, not listed, the organiser plays.
    pub fn prisdorf(name: &str) -> Settings {
        let table = |players: Players| {
            let rules = RuleSet::tournament(players);
            TableFormat { seats: players.count(), deals: rules.deals.unwrap_or(1), rules: GameRules::Prisdorf(rules) }
        };
        Settings {
            name: name.trim().to_owned(),
            game: GameId::Prisdorf,
            tables: vec![table(Players::Four), table(Players::Three)],
            max_short_tables: 3,
            rounds: 1,
            reseating: Reseating::ByStandings,
            duplicate: false,
            listed: false,
            organiser_plays: true,
            max_entrants: None,
        }
    }

    /// The most players who may register: [`Settings::max_entrants`], or [`MAX_ENTRANTS`]
    /// where it is not set.
    pub fn entrant_cap(&self) -> u32 {
        self.max_entrants.unwrap_or(MAX_ENTRANTS)
    }

    /// Checks what only a new tournament must keep to (a tournament stored before these limits
    /// still loads): at most [`MAX_ROUNDS`] rounds and a cap of 2 to [`MAX_ENTRANTS`] entrants.
    ///
    /// # Errors
    /// [`TournamentError::InvalidSettings`] names what is wrong.
    pub fn check_limits(&self) -> Result<(), TournamentError> {
        if self.rounds > MAX_ROUNDS {
            return Err(TournamentError::InvalidSettings(format!("a tournament has at most {MAX_ROUNDS} rounds")));
        }
        if self.max_entrants.is_some_and(|m| !(2..=MAX_ENTRANTS).contains(&m)) {
            return Err(TournamentError::InvalidSettings(format!(
                "a tournament takes 2 to {MAX_ENTRANTS} entrants at most"
            )));
        }
        Ok(())
    }

    /// Checks the settings, and puts the tables largest first and the name trimmed.
    ///
    /// # Errors
    /// [`TournamentError::InvalidSettings`] names what is wrong.
    pub fn validate(&mut self) -> Result<(), TournamentError> {
        let bad = |why: String| Err(TournamentError::InvalidSettings(why));
        self.name = self.name.trim().to_owned();
        let chars = self.name.chars().count();
        if chars == 0 || chars > MAX_TOURNAMENT_NAME_CHARS || self.name.chars().any(char::is_control) {
            return bad(format!(
                "the name must have 1 to {MAX_TOURNAMENT_NAME_CHARS} characters and no control characters"
            ));
        }
        if self.rounds == 0 {
            return bad("a tournament needs at least one round".into());
        }
        self.tables.sort_by_key(|f| std::cmp::Reverse(f.seats));
        match self.tables.as_slice() {
            [_] => {}
            [full, short] if short.seats + 1 == full.seats => {}
            [] => return bad("give the rules of at least one table size".into()),
            _ => return bad("the tables are of the game's size k and, optionally, of k − 1".into()),
        }
        for format in &self.tables {
            let seats = format.seats;
            if seats < 2 {
                return bad(format!("a table of {seats} is no table"));
            }
            if format.rules.game() != self.game {
                return bad(format!(
                    "the rules of the tables of {seats} are of {}, not of {}",
                    format.rules.game().name(),
                    self.game.name()
                ));
            }
            if format.rules.seats() != usize::from(seats) {
                return bad(format!("the rules of the tables of {seats} seat {}", format.rules.seats()));
            }
            if let Err(e) = format.rules.validate() {
                return bad(format!("the rules of the tables of {seats}: {e}"));
            }
            if format.deals == 0 {
                return bad(format!("the tables of {seats} need at least one deal"));
            }
            if let Some(deals) = format.rules.deals()
                && deals != format.deals
            {
                return bad(format!("the tables of {seats} play {} deals, but their rules say {deals}", format.deals));
            }
        }
        Ok(())
    }

    /// The format of the tables of `seats`.
    pub fn format(&self, seats: usize) -> Option<&TableFormat> {
        self.tables.iter().find(|f| usize::from(f.seats) == seats)
    }

    /// The game's table size `k` (the largest table).
    pub fn full_size(&self) -> usize {
        self.tables.iter().map(|f| usize::from(f.seats)).max().unwrap_or(0)
    }

    /// The size of the short tables `k − 1`, if there are any.
    pub fn short_size(&self) -> Option<usize> {
        let full = self.full_size();
        self.tables.iter().map(|f| usize::from(f.seats)).find(|&s| s + 1 == full)
    }

    /// How `players` are split into tables: the fewest short tables (at most
    /// [`Settings::max_short_tables`]), the rest full.
    ///
    /// # Errors
    /// [`TournamentError::TooFewPlayers`] below the smallest table, and
    /// [`TournamentError::CannotSeat`] for a number that no split fits (for Prisdorf: 5).
    /// Both say how many bots would make the number seatable.
    pub fn plan(&self, players: usize) -> Result<Plan, TournamentError> {
        if let Some(plan) = self.try_plan(players) {
            return Ok(plan);
        }
        let needed = match self.short_size() {
            Some(short) if self.max_short_tables > 0 => short,
            _ => self.full_size(),
        };
        if players < needed {
            return Err(TournamentError::TooFewPlayers { players, needed });
        }
        Err(TournamentError::CannotSeat {
            players,
            tables: self.describe_tables(),
            bots: self.bots_needed(players).unwrap_or(0),
        })
    }

    /// The fewest bots that, added to `players`, make a seatable number (`Some(0)` if it already
    /// is; `None` only for settings without tables).
    pub fn bots_needed(&self, players: usize) -> Option<usize> {
        let full = self.full_size();
        (0..=full).find(|bots| self.try_plan(players + bots).is_some())
    }

    fn try_plan(&self, players: usize) -> Option<Plan> {
        let full = self.full_size();
        if full == 0 || players == 0 {
            return None;
        }
        let short_size = self.short_size();
        let max_short = if short_size.is_some() { usize::from(self.max_short_tables) } else { 0 };
        (0..=max_short).find_map(|short| {
            let rest = players.checked_sub(short * short_size.unwrap_or(0))?;
            rest.is_multiple_of(full).then(|| Plan {
                full_size: full,
                full_tables: rest / full,
                short_size: short_size.unwrap_or(0),
                short_tables: short,
            })
        })
    }

    fn describe_tables(&self) -> String {
        let full = self.full_size();
        match self.short_size() {
            Some(short) if self.max_short_tables > 0 => {
                format!("tables of {full} and at most {} table(s) of {short}", self.max_short_tables)
            }
            _ => format!("tables of {full}"),
        }
    }
}

/// How many tables of which size seat a number of players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Plan {
    /// The game's table size `k`.
    pub full_size: usize,
    /// The tables of `k`.
    pub full_tables: usize,
    /// The size of the short tables, `k − 1` (0 when the settings have none).
    pub short_size: usize,
    /// The tables of `k − 1`.
    pub short_tables: usize,
}

impl Plan {
    /// The size of every table in order: the full tables first, then the short ones.
    pub fn sizes(&self) -> impl Iterator<Item = usize> + '_ {
        std::iter::repeat_n(self.full_size, self.full_tables)
            .chain(std::iter::repeat_n(self.short_size, self.short_tables))
    }

    /// The players seated.
    pub fn players(&self) -> usize {
        self.full_size * self.full_tables + self.short_size * self.short_tables
    }
}
