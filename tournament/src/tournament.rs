//! The tournament's state, the operations on it and the events they produce.

use std::collections::{BTreeMap, HashSet};
use std::fmt;

use fipsen_rules::Seed;
use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

use crate::error::TournamentError;
use crate::settings::{Plan, Reseating, Settings};

/// The most characters of an entrant's name.
pub const MAX_NAME_CHARS: usize = 32;

/// The stream of a round's seed that seats the players (public).
const SEATING_STREAM: u64 = 0;
/// The stream of a round's seed that is the round's secret (revealed when the round ends).
const SECRET_STREAM: u64 = 1;
/// Added to a table's number for the stream of its master seed without duplicate deals (with
/// duplicate deals the stream is the table's size, below this).
const OWN_DEALS_STREAM: u64 = 1 << 32;

/// A tournament's stable id, chosen by whoever creates it (the server makes it unguessable).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(transparent)]
pub struct TournamentId(pub String);

/// An entrant's id in his tournament: 1 for the first registered, then counting up (the ids of
/// removed entrants are not used again).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(transparent)]
pub struct EntrantId(pub u32);

impl fmt::Display for EntrantId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// A table of one round: the round's number and the table's number in it, both from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TableId {
    /// The round, from 1.
    pub round: u32,
    /// The table in the round, from 1: the full tables first, then the short ones.
    pub table: u32,
}

impl fmt::Display for TableId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} of round {}", self.table, self.round)
    }
}

/// A registered player, or a bot added to make the players seatable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Entrant {
    /// His id.
    pub id: EntrantId,
    /// His name: trimmed, 1 to [`MAX_NAME_CHARS`] characters, unique in the tournament.
    pub name: String,
    /// Whether this is a computer player added by `fill_with_bots`.
    pub bot: bool,
}

/// Where a tournament stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// Players register.
    Registration,
    /// Registration is closed; the organiser has not started yet.
    Closed,
    /// A round is being played.
    Playing {
        /// The round, from 1.
        round: u32,
    },
    /// A round is over and the next has not started.
    RoundOver {
        /// The round that ended.
        round: u32,
    },
    /// The last round is over.
    Finished,
}

/// The SHA-256 of a round's secret, published when the round starts. In JSON: 64 hexadecimal
/// digits. Anyone can check a revealed secret against it: it is `sha256` of the secret's 32
/// bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Commitment(pub [u8; 32]);

impl Commitment {
    /// The commitment to `secret`.
    pub fn of(secret: &Seed) -> Commitment {
        Commitment(Sha256::digest(secret.0).into())
    }

    /// Whether `secret` is the one committed to.
    pub fn verify(&self, secret: &Seed) -> bool {
        Commitment::of(secret) == *self
    }

    /// The digest as 64 hexadecimal digits.
    pub fn to_hex(&self) -> String {
        Seed(self.0).to_hex()
    }
}

impl fmt::Debug for Commitment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Commitment({})", self.to_hex())
    }
}

impl Serialize for Commitment {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Seed(self.0).serialize(serializer)
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for Commitment {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Commitment".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": "^[0-9a-f]{64}$",
            "description": "SHA-256 of the round's secret (32 bytes), in hexadecimal."
        })
    }
}

impl<'de> Deserialize<'de> for Commitment {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Seed::deserialize(deserializer).map(|s| Commitment(s.0))
    }
}

/// One deal of one table as the tournament records it: each seat's points in that deal.
///
/// `deal` counts the deals that count (1 to the table's deals): a thrown-in deal that the game
/// deals again is not one. `points[i]` is the points of the table's seat `i` (the player at
/// [`Table::seats`]`[i]`, who sits at the room's seat `i`). `redeal` says which dealing of
/// that deal was played: 0 for its first, `j` when the table had thrown it in `j` times (with
/// duplicate deals, tables that played the same dealing held the same cards).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DealResult {
    /// The table.
    pub table: TableId,
    /// The deal, from 1.
    pub deal: u32,
    /// Each seat's points in this deal.
    pub points: Vec<i32>,
    /// The dealing played: 0 for the deal's first, `j` after it was thrown in `j` times.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub redeal: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl DealResult {
    /// The deals of a table's scoresheet given as each seat's running total after each deal
    /// that counts, in order (deal 1 first): each deal's points are the difference to the row
    /// before. Every deal is taken as its first dealing (`redeal` 0).
    pub fn from_running_totals(table: TableId, totals: &[Vec<i32>]) -> Vec<DealResult> {
        let mut before: Vec<i32> = Vec::new();
        let mut out = Vec::with_capacity(totals.len());
        for (i, row) in totals.iter().enumerate() {
            let points = row.iter().enumerate().map(|(s, t)| t - before.get(s).copied().unwrap_or(0)).collect();
            out.push(DealResult { table, deal: i as u32 + 1, points, redeal: 0 });
            before.clone_from(row);
        }
        out
    }
}

/// A table of a round: who sits where and the deals recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Table {
    /// The table.
    pub id: TableId,
    /// The players in seat order: `seats[i]` sits at the room's seat `i`.
    pub seats: Vec<EntrantId>,
    /// The deals the table plays.
    pub deals: u32,
    /// The deals recorded, in order: each seat's points.
    pub scores: Vec<Vec<i32>>,
    /// The dealing each recorded deal was ([`DealResult::redeal`]), in order; empty while every
    /// deal was its first dealing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub redeals: Vec<u32>,
}

impl Table {
    /// The deals recorded.
    pub fn played(&self) -> u32 {
        self.scores.len() as u32
    }

    /// The dealing deal `deal` (from 1) was: 0 for its first ([`DealResult::redeal`]).
    pub fn redeal(&self, deal: u32) -> u32 {
        deal.checked_sub(1).and_then(|i| self.redeals.get(i as usize)).copied().unwrap_or(0)
    }

    /// Whether the table has played all its deals.
    pub fn finished(&self) -> bool {
        self.played() >= self.deals
    }

    /// Each seat's total so far.
    pub fn totals(&self) -> Vec<i64> {
        let mut totals = vec![0i64; self.seats.len()];
        for deal in &self.scores {
            for (t, p) in totals.iter_mut().zip(deal) {
                *t += i64::from(*p);
            }
        }
        totals
    }
}

/// A table as a round's start seats it (in [`TournamentEvent::RoundStarted`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seating {
    /// The table.
    pub table: TableId,
    /// The players in seat order.
    pub seats: Vec<EntrantId>,
}

/// A round: its seating, its secret and its tables.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// The round, from 1.
    pub number: u32,
    /// The seed the seating was drawn from (public).
    pub seating_seed: Seed,
    /// The round's secret, from which the tables' master seeds are derived.
    secret: Seed,
    /// The commitment to the secret (public from the round's start).
    pub commitment: Commitment,
    /// The tables: the full ones first.
    pub tables: Vec<Table>,
    /// Whether every table has played all its deals.
    pub over: bool,
}

/// What happened to a tournament. Replaying a tournament's events in order with
/// [`Tournament::from_events`] rebuilds it exactly.
///
/// The events hold the rounds' secrets ([`TournamentEvent::RoundStarted`]): they are for the
/// server's storage, not for clients (who get [`Tournament::view`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum TournamentEvent {
    /// The tournament was created.
    Created {
        /// Its id.
        id: TournamentId,
        /// The organiser's name.
        organiser: String,
        /// Its settings, checked.
        settings: Settings,
    },
    /// A player registered.
    Registered {
        /// The player.
        entrant: Entrant,
    },
    /// The organiser removed an entrant before the start.
    Removed {
        /// The entrant.
        entrant: EntrantId,
    },
    /// The organiser closed registration.
    RegistrationClosed,
    /// Bots were added at the start to make the players seatable.
    BotsAdded {
        /// The bots.
        bots: Vec<Entrant>,
    },
    /// A round started with this seating.
    RoundStarted {
        /// The round, from 1.
        round: u32,
        /// The seed of the seating (public).
        seating_seed: Seed,
        /// The round's secret (revealed when the round ends).
        secret: Seed,
        /// The tables.
        tables: Vec<Seating>,
    },
    /// A deal of a table was recorded.
    DealRecorded {
        /// The deal.
        result: DealResult,
    },
    /// Every table of the round has played all its deals: the round's secret is revealed, and
    /// after the last round the tournament is over.
    RoundEnded {
        /// The round.
        round: u32,
    },
}

/// A club tournament.
///
/// Every operation checks first and then either changes nothing and returns a
/// [`TournamentError`], or returns the [`TournamentEvent`]s it produced, applied. Replaying
/// the events rebuilds an equal tournament ([`Tournament::from_events`]); the whole state is
/// also serde-serialisable ([`Tournament::to_json`]). Nothing here reads a clock or draws
/// randomness: the seeds come from the caller.
///
/// The state holds the rounds' secrets: send clients [`Tournament::view`], never the state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tournament {
    id: TournamentId,
    organiser: String,
    settings: Settings,
    phase: Phase,
    entrants: Vec<Entrant>,
    next_entrant: u32,
    rounds: Vec<Round>,
}

/// Trims a name and checks it.
///
/// # Errors
/// [`TournamentError::NameEmpty`], [`TournamentError::NameTooLong`] or
/// [`TournamentError::NameInvalid`].
pub fn clean_name(name: &str) -> Result<String, TournamentError> {
    let name = name.trim();
    let chars = name.chars().count();
    if chars == 0 {
        return Err(TournamentError::NameEmpty);
    }
    if chars > MAX_NAME_CHARS {
        return Err(TournamentError::NameTooLong { chars, max: MAX_NAME_CHARS });
    }
    if name.chars().any(char::is_control) {
        return Err(TournamentError::NameInvalid);
    }
    Ok(name.to_owned())
}

/// The form of a name that two names must not share: lower case, every run of white space as
/// one space.
fn name_key(name: &str) -> String {
    name.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

fn invalid<T>(why: impl Into<String>) -> Result<T, TournamentError> {
    Err(TournamentError::InvalidEvent(why.into()))
}

impl Tournament {
    /// Creates a tournament; if the organiser plays, he is its first entrant.
    ///
    /// # Errors
    /// The settings are invalid, or the organiser's name is.
    pub fn create(
        id: TournamentId,
        mut settings: Settings,
        organiser: &str,
    ) -> Result<(Tournament, Vec<TournamentEvent>), TournamentError> {
        settings.validate()?;
        settings.check_limits()?;
        let organiser = clean_name(organiser)?;
        let mut events = vec![TournamentEvent::Created { id, organiser: organiser.clone(), settings }];
        let mut tournament = Tournament::from_created(&events[0])?;
        if tournament.settings.organiser_plays {
            events.push(tournament.registered(&organiser)?);
        }
        for event in &events[1..] {
            tournament.apply(event)?;
        }
        Ok((tournament, events))
    }

    /// Rebuilds a tournament from its events, the first being [`TournamentEvent::Created`].
    ///
    /// # Errors
    /// [`TournamentError::InvalidEvent`] if the events do not fit together.
    pub fn from_events<'a>(
        events: impl IntoIterator<Item = &'a TournamentEvent>,
    ) -> Result<Tournament, TournamentError> {
        let mut events = events.into_iter();
        let Some(first) = events.next() else {
            return invalid("no events");
        };
        let mut tournament = Tournament::from_created(first)?;
        for event in events {
            tournament.apply(event)?;
        }
        Ok(tournament)
    }

    fn from_created(event: &TournamentEvent) -> Result<Tournament, TournamentError> {
        let TournamentEvent::Created { id, organiser, settings } = event else {
            return invalid("the first event must be `created`");
        };
        let mut checked = settings.clone();
        checked.validate()?;
        if checked != *settings {
            return invalid("the settings are not in their checked form");
        }
        Ok(Tournament {
            id: id.clone(),
            organiser: organiser.clone(),
            settings: checked,
            phase: Phase::Registration,
            entrants: Vec::new(),
            next_entrant: 1,
            rounds: Vec::new(),
        })
    }

    /// The state as JSON, for storage.
    ///
    /// # Errors
    /// Never in practice (every map key is a string).
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string(self)
    }

    /// The state from [`Tournament::to_json`].
    ///
    /// # Errors
    /// The JSON is not a tournament.
    pub fn from_json(json: &str) -> Result<Tournament, serde_json::Error> {
        serde_json::from_str(json)
    }

    // ----- reading -----

    /// The tournament as everyone may see it now. In a duplicate tournament, while a round is
    /// being played, each of its tables keeps only the deals that every table of its size has
    /// recorded: the points of a deal that another table of that size has still to play tell
    /// something about its cards, so they count in what is shown (totals, standings, results)
    /// once every table of the size has played that deal, at the latest when the round ends.
    /// Without duplicate deals, and for rounds that are over, nothing is left out.
    pub fn public(&self) -> Tournament {
        let mut shown = self.clone();
        if !self.settings.duplicate {
            return shown;
        }
        for round in shown.rounds.iter_mut().filter(|r| !r.over) {
            let mut frontier: BTreeMap<usize, usize> = BTreeMap::new();
            for table in &round.tables {
                let played = frontier.entry(table.seats.len()).or_insert(usize::MAX);
                *played = (*played).min(table.scores.len());
            }
            for table in &mut round.tables {
                let keep = frontier.get(&table.seats.len()).copied().unwrap_or(0);
                table.scores.truncate(keep);
                table.redeals.truncate(keep);
            }
        }
        shown
    }

    /// The tournament's id.
    pub fn id(&self) -> &TournamentId {
        &self.id
    }

    /// The organiser's name.
    pub fn organiser(&self) -> &str {
        &self.organiser
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Where the tournament stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The entrants in the order they registered (bots last).
    pub fn entrants(&self) -> &[Entrant] {
        &self.entrants
    }

    /// The entrant with this id.
    pub fn entrant(&self, id: EntrantId) -> Option<&Entrant> {
        self.entrants.iter().find(|e| e.id == id)
    }

    /// The entrant with this name (compared as registration compares names).
    pub fn entrant_by_name(&self, name: &str) -> Option<&Entrant> {
        let key = name_key(name);
        self.entrants.iter().find(|e| name_key(&e.name) == key)
    }

    /// The rounds started so far.
    pub fn rounds(&self) -> &[Round] {
        &self.rounds
    }

    /// Round `round` (from 1), if it has started.
    pub fn round(&self, round: u32) -> Option<&Round> {
        self.rounds.get(usize::try_from(round).ok()?.checked_sub(1)?)
    }

    /// The table with this id.
    pub fn table(&self, id: TableId) -> Option<&Table> {
        self.round(id.round)?.tables.get(usize::try_from(id.table).ok()?.checked_sub(1)?)
    }

    /// The round being played, if one is.
    pub fn current_round(&self) -> Option<&Round> {
        match self.phase {
            Phase::Playing { round } => self.round(round),
            _ => None,
        }
    }

    /// The commitment to round `round`'s secret, public from the round's start.
    pub fn commitment(&self, round: u32) -> Option<Commitment> {
        self.round(round).map(|r| r.commitment)
    }

    /// Round `round`'s secret once the round is over (`None` before).
    pub fn revealed_secret(&self, round: u32) -> Option<Seed> {
        self.round(round).filter(|r| r.over).map(|r| r.secret)
    }

    /// Round `round`'s secret, revealed or not: for the server alone, which derives the tables'
    /// seeds from it ([`Tournament::table_seed`]); never show it before the round is over.
    pub fn round_secret(&self, round: u32) -> Option<Seed> {
        self.round(round).map(|r| r.secret)
    }

    /// The master seed of a table's room (secret until the round is over, like the room's).
    ///
    /// With duplicate deals every table of the same size in a round gets the same seed: the
    /// round secret's stream numbered by the size; without, each table gets its own (the stream
    /// 2³² + the table's number). A new round has a new secret, so new seeds.
    pub fn table_seed(&self, id: TableId) -> Option<Seed> {
        let table = self.table(id)?;
        let secret = self.round_secret(id.round)?;
        let stream =
            if self.settings.duplicate { table.seats.len() as u64 } else { OWN_DEALS_STREAM + u64::from(id.table) };
        Some(secret.derive(stream))
    }

    /// How the current entrants would be split into tables, or why they cannot be.
    ///
    /// # Errors
    /// As [`Settings::plan`].
    pub fn plan(&self) -> Result<Plan, TournamentError> {
        self.settings.plan(self.entrants.len())
    }

    // ----- operations -----

    /// Registers a player by name.
    ///
    /// # Errors
    /// [`TournamentError::Closed`] after registration closed; [`TournamentError::Full`] when
    /// [`Settings::entrant_cap`] players have registered; the name's errors of [`clean_name`];
    /// [`TournamentError::NameTaken`].
    pub fn register(&mut self, name: &str) -> Result<(EntrantId, Vec<TournamentEvent>), TournamentError> {
        let event = self.registered(name)?;
        self.apply(&event)?;
        Ok((EntrantId(self.next_entrant - 1), vec![event]))
    }

    fn registered(&self, name: &str) -> Result<TournamentEvent, TournamentError> {
        if self.phase != Phase::Registration {
            return Err(TournamentError::Closed);
        }
        let max = self.settings.entrant_cap();
        if self.entrants.iter().filter(|e| !e.bot).count() >= max as usize {
            return Err(TournamentError::Full { max });
        }
        let name = clean_name(name)?;
        if let Some(other) = self.entrant_by_name(&name) {
            return Err(TournamentError::NameTaken { name: other.name.clone() });
        }
        Ok(TournamentEvent::Registered { entrant: Entrant { id: EntrantId(self.next_entrant), name, bot: false } })
    }

    /// Removes an entrant before the start (the organiser's decision).
    ///
    /// # Errors
    /// [`TournamentError::AlreadyStarted`]; [`TournamentError::UnknownEntrant`].
    pub fn remove(&mut self, entrant: EntrantId) -> Result<Vec<TournamentEvent>, TournamentError> {
        let event = TournamentEvent::Removed { entrant };
        self.apply(&event)?;
        Ok(vec![event])
    }

    /// Closes registration.
    ///
    /// # Errors
    /// [`TournamentError::Closed`] if it is closed already.
    pub fn close_registration(&mut self) -> Result<Vec<TournamentEvent>, TournamentError> {
        if self.phase != Phase::Registration {
            return Err(TournamentError::Closed);
        }
        let event = TournamentEvent::RegistrationClosed;
        self.apply(&event)?;
        Ok(vec![event])
    }

    /// Starts the tournament: closes registration if it is open, adds the fewest bots that make
    /// the entrants seatable if `fill_with_bots` (named "Bot 1", "Bot 2", … and marked as
    /// bots), and seats round 1 at random.
    ///
    /// `round_seed` must come from a secure generator: its stream 0 draws the seating (and is
    /// shown), its stream 1 is the round's secret.
    ///
    /// # Errors
    /// [`TournamentError::AlreadyStarted`]; [`TournamentError::TooFewPlayers`] with no
    /// entrant, or without bots below the smallest table; [`TournamentError::CannotSeat`]
    /// without bots for a number that cannot be seated.
    pub fn start(&mut self, round_seed: Seed, fill_with_bots: bool) -> Result<Vec<TournamentEvent>, TournamentError> {
        if !matches!(self.phase, Phase::Registration | Phase::Closed) {
            return Err(TournamentError::AlreadyStarted);
        }
        let players = self.entrants.len();
        let needed = self.settings.short_size().filter(|_| self.settings.max_short_tables > 0);
        let needed = needed.unwrap_or_else(|| self.settings.full_size());
        if players == 0 {
            return Err(TournamentError::TooFewPlayers { players, needed });
        }
        let mut bots = Vec::new();
        if fill_with_bots {
            let count = self.settings.bots_needed(players).unwrap_or(0);
            let mut taken: HashSet<String> = self.entrants.iter().map(|e| name_key(&e.name)).collect();
            let mut n = 1;
            while bots.len() < count {
                let name = format!("Bot {n}");
                n += 1;
                if taken.insert(name_key(&name)) {
                    let id = EntrantId(self.next_entrant + bots.len() as u32);
                    bots.push(Entrant { id, name, bot: true });
                }
            }
        }
        let plan = self.settings.plan(players + bots.len())?;
        let mut events = Vec::new();
        if self.phase == Phase::Registration {
            events.push(TournamentEvent::RegistrationClosed);
        }
        let mut order: Vec<EntrantId> = self.entrants.iter().chain(&bots).map(|e| e.id).collect();
        if !bots.is_empty() {
            events.push(TournamentEvent::BotsAdded { bots });
        }
        let seating_seed = round_seed.derive(SEATING_STREAM);
        shuffle(&mut order, &seating_seed);
        events.push(TournamentEvent::RoundStarted {
            round: 1,
            seating_seed,
            secret: round_seed.derive(SECRET_STREAM),
            tables: seat(1, &order, &plan, None),
        });
        self.apply_all(&events)?;
        Ok(events)
    }

    /// Records deals: any tables' deals of the current round, each table's in order. A deal
    /// already recorded with the same points is skipped (a whole scoresheet may be sent again);
    /// with other points it is refused. When the last table finishes its last deal, the round
    /// ends ([`TournamentEvent::RoundEnded`]).
    ///
    /// Either every deal is recorded or none is.
    ///
    /// # Errors
    /// [`TournamentError::NotStarted`]; [`TournamentError::UnknownTable`];
    /// [`TournamentError::WrongSeatCount`]; [`TournamentError::TableFinished`] for a deal
    /// after the table's last; [`TournamentError::DealOutOfOrder`];
    /// [`TournamentError::DealConflict`].
    pub fn record(&mut self, results: &[DealResult]) -> Result<Vec<TournamentEvent>, TournamentError> {
        if matches!(self.phase, Phase::Registration | Phase::Closed) {
            return Err(TournamentError::NotStarted);
        }
        let mut events = Vec::new();
        let mut pending: Vec<(TableId, u32)> = Vec::new();
        for result in results {
            let slot = pending.iter().position(|(t, _)| *t == result.table);
            let already = slot.map_or(0, |i| pending[i].1);
            if self.check_deal(result, already)? {
                match slot {
                    Some(i) => pending[i].1 += 1,
                    None => pending.push((result.table, 1)),
                }
                events.push(TournamentEvent::DealRecorded { result: result.clone() });
            }
        }
        self.apply_all(&events)?;
        if let Phase::Playing { round } = self.phase
            && self.round(round).is_some_and(|r| r.tables.iter().all(Table::finished))
        {
            let end = TournamentEvent::RoundEnded { round };
            self.apply(&end)?;
            events.push(end);
        }
        Ok(events)
    }

    /// Whether `result` is a new deal (`true`) or one recorded before with the same points
    /// (`false`), with `pending` deals of its table accepted before it in the same call.
    fn check_deal(&self, result: &DealResult, pending: u32) -> Result<bool, TournamentError> {
        let id = result.table;
        let table = self.table(id).ok_or(TournamentError::UnknownTable(id))?;
        if result.points.len() != table.seats.len() {
            return Err(TournamentError::WrongSeatCount {
                table: id,
                seats: table.seats.len(),
                got: result.points.len(),
            });
        }
        let expected = table.played() + pending + 1;
        if result.deal > table.deals {
            return Err(TournamentError::TableFinished { table: id, deals: table.deals, got: result.deal });
        }
        if result.deal >= 1 && result.deal <= table.played() {
            let same =
                table.scores[result.deal as usize - 1] == result.points && table.redeal(result.deal) == result.redeal;
            return if same { Ok(false) } else { Err(TournamentError::DealConflict { table: id, deal: result.deal }) };
        }
        if result.deal != expected {
            return Err(TournamentError::DealOutOfOrder { table: id, expected, got: result.deal });
        }
        Ok(true)
    }

    /// Starts the next round: seated by the standings or at random, as the settings say.
    ///
    /// `round_seed` must come from a secure generator, as for [`Tournament::start`].
    ///
    /// # Errors
    /// [`TournamentError::NotStarted`]; [`TournamentError::RoundNotOver`];
    /// [`TournamentError::Finished`] after the last round.
    pub fn next_round(&mut self, round_seed: Seed) -> Result<Vec<TournamentEvent>, TournamentError> {
        let round = match self.phase {
            Phase::Registration | Phase::Closed => return Err(TournamentError::NotStarted),
            Phase::Playing { round } => return Err(TournamentError::RoundNotOver(round)),
            Phase::Finished => return Err(TournamentError::Finished),
            Phase::RoundOver { round } => round + 1,
        };
        let plan = self.settings.plan(self.entrants.len())?;
        let seating_seed = round_seed.derive(SEATING_STREAM);
        let tables = match self.settings.reseating {
            Reseating::Random => {
                let mut order: Vec<EntrantId> = self.entrants.iter().map(|e| e.id).collect();
                shuffle(&mut order, &seating_seed);
                seat(round, &order, &plan, None)
            }
            Reseating::ByStandings => {
                let order: Vec<EntrantId> = self.standings().iter().map(|s| s.entrant).collect();
                seat(round, &order, &plan, Some(&seating_seed))
            }
        };
        let event =
            TournamentEvent::RoundStarted { round, seating_seed, secret: round_seed.derive(SECRET_STREAM), tables };
        self.apply(&event)?;
        Ok(vec![event])
    }

    // ----- events -----

    fn apply_all(&mut self, events: &[TournamentEvent]) -> Result<(), TournamentError> {
        events.iter().try_for_each(|e| self.apply(e))
    }

    /// Applies one event: what replaying a stored log does. The event is checked against the
    /// state, so a damaged or reordered log is refused rather than believed.
    ///
    /// # Errors
    /// [`TournamentError::InvalidEvent`] (or the error the operation would have given) if the
    /// event does not fit; the state is then unchanged.
    pub fn apply(&mut self, event: &TournamentEvent) -> Result<(), TournamentError> {
        match event {
            TournamentEvent::Created { .. } => invalid("the tournament exists already"),
            TournamentEvent::Registered { entrant } => {
                if self.phase != Phase::Registration {
                    return Err(TournamentError::Closed);
                }
                self.check_new_entrant(entrant, false)?;
                self.next_entrant = entrant.id.0 + 1;
                self.entrants.push(entrant.clone());
                Ok(())
            }
            TournamentEvent::Removed { entrant } => {
                if !matches!(self.phase, Phase::Registration | Phase::Closed) {
                    return Err(TournamentError::AlreadyStarted);
                }
                let index = self
                    .entrants
                    .iter()
                    .position(|e| e.id == *entrant)
                    .ok_or(TournamentError::UnknownEntrant(*entrant))?;
                self.entrants.remove(index);
                Ok(())
            }
            TournamentEvent::RegistrationClosed => {
                if self.phase != Phase::Registration {
                    return Err(TournamentError::Closed);
                }
                self.phase = Phase::Closed;
                Ok(())
            }
            TournamentEvent::BotsAdded { bots } => {
                if !matches!(self.phase, Phase::Registration | Phase::Closed) {
                    return Err(TournamentError::AlreadyStarted);
                }
                let before = self.clone();
                for bot in bots {
                    if let Err(e) = self.check_new_entrant(bot, true) {
                        *self = before;
                        return Err(e);
                    }
                    self.next_entrant = bot.id.0 + 1;
                    self.entrants.push(bot.clone());
                }
                Ok(())
            }
            TournamentEvent::RoundStarted { round, seating_seed, secret, tables } => {
                self.start_round(*round, *seating_seed, *secret, tables)
            }
            TournamentEvent::DealRecorded { result } => {
                if !matches!(self.phase, Phase::Playing { round } if round == result.table.round) {
                    return invalid(format!("table {} is not playing", result.table));
                }
                if !self.check_deal(result, 0)? {
                    return invalid(format!("deal {} of table {} is recorded already", result.deal, result.table));
                }
                let id = result.table;
                let table = &mut self.rounds[id.round as usize - 1].tables[id.table as usize - 1];
                table.scores.push(result.points.clone());
                if result.redeal != 0 || !table.redeals.is_empty() {
                    // Kept only once a deal was not its first dealing.
                    table.redeals.resize(table.scores.len() - 1, 0);
                    table.redeals.push(result.redeal);
                }
                Ok(())
            }
            TournamentEvent::RoundEnded { round } => {
                if self.phase != (Phase::Playing { round: *round }) {
                    return invalid(format!("round {round} is not being played"));
                }
                let last = *round == self.settings.rounds;
                let Some(r) = self.rounds.last_mut() else {
                    return invalid("no round");
                };
                if !r.tables.iter().all(Table::finished) {
                    return invalid(format!("round {round} has tables still playing"));
                }
                r.over = true;
                self.phase = if last { Phase::Finished } else { Phase::RoundOver { round: *round } };
                Ok(())
            }
        }
    }

    fn check_new_entrant(&self, entrant: &Entrant, bot: bool) -> Result<(), TournamentError> {
        if entrant.bot != bot || entrant.id.0 < self.next_entrant {
            return invalid(format!("entrant {} is not a new {}", entrant.id, if bot { "bot" } else { "player" }));
        }
        if clean_name(&entrant.name)? != entrant.name {
            return invalid("an entrant's name is not trimmed");
        }
        if let Some(other) = self.entrant_by_name(&entrant.name) {
            return Err(TournamentError::NameTaken { name: other.name.clone() });
        }
        Ok(())
    }

    fn start_round(
        &mut self,
        round: u32,
        seating_seed: Seed,
        secret: Seed,
        tables: &[Seating],
    ) -> Result<(), TournamentError> {
        let expected = match self.phase {
            Phase::Registration => return invalid("a round starts after registration closed"),
            Phase::Closed => 1,
            Phase::RoundOver { round } => round + 1,
            Phase::Playing { round } => return Err(TournamentError::RoundNotOver(round)),
            Phase::Finished => return Err(TournamentError::Finished),
        };
        if round != expected || round > self.settings.rounds {
            return invalid(format!("round {round} cannot start now"));
        }
        let mut seen = HashSet::new();
        let mut built = Vec::with_capacity(tables.len());
        for (i, seating) in tables.iter().enumerate() {
            if seating.table != (TableId { round, table: i as u32 + 1 }) {
                return invalid(format!("table {} is out of place", seating.table));
            }
            let Some(format) = self.settings.format(seating.seats.len()) else {
                return invalid(format!("no table of {} in this tournament", seating.seats.len()));
            };
            for id in &seating.seats {
                if self.entrant(*id).is_none() || !seen.insert(*id) {
                    return invalid(format!("entrant {id} is unknown or seated twice"));
                }
            }
            built.push(Table {
                id: seating.table,
                seats: seating.seats.clone(),
                deals: format.deals,
                scores: Vec::new(),
                redeals: Vec::new(),
            });
        }
        if seen.len() != self.entrants.len() {
            return invalid(format!("round {round} leaves entrants without a seat"));
        }
        self.rounds.push(Round {
            number: round,
            seating_seed,
            secret,
            commitment: Commitment::of(&secret),
            tables: built,
            over: false,
        });
        self.phase = Phase::Playing { round };
        Ok(())
    }
}

/// Fisher–Yates over ChaCha20 from `seed`, from the last place down.
fn shuffle<T>(items: &mut [T], seed: &Seed) {
    let mut rng = ChaCha20Rng::from_seed(seed.0);
    for i in (1..items.len()).rev() {
        let j = below(&mut rng, i as u32 + 1) as usize;
        items.swap(i, j);
    }
}

/// A uniform number in `0..n` (Lemire's multiply-and-reject).
fn below(rng: &mut ChaCha20Rng, n: u32) -> u32 {
    let threshold = n.wrapping_neg() % n;
    loop {
        let m = u64::from(rng.next_u32()) * u64::from(n);
        if (m as u32) >= threshold {
            return (m >> 32) as u32;
        }
    }
}

/// Cuts `order` into the plan's tables, in order; with `seats_seed`, the seats at each table are
/// shuffled (table `t` with the seed's stream `t`).
fn seat(round: u32, order: &[EntrantId], plan: &Plan, seats_seed: Option<&Seed>) -> Vec<Seating> {
    let mut rest = order;
    let mut tables = Vec::new();
    for (i, size) in plan.sizes().enumerate() {
        let (here, after) = rest.split_at(size);
        rest = after;
        let mut seats = here.to_vec();
        if let Some(seed) = seats_seed {
            shuffle(&mut seats, &seed.derive(i as u64 + 1));
        }
        tables.push(Seating { table: TableId { round, table: i as u32 + 1 }, seats });
    }
    tables
}
