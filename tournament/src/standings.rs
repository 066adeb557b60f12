//! The standings, the results with their breakdown by round and table, the CSV export and the
//! public view.

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt;

use fipsen_rules::Seed;
use serde::{Deserialize, Serialize};

use crate::settings::Settings;
use crate::tournament::{Commitment, Entrant, EntrantId, Phase, Round, TableId, Tournament, TournamentId};

/// How players with the same total are ranked, as shown to them.
pub const TIE_BREAK: &str = "Players are ranked by their total points, highest first. \
A tie is broken by the duplicate score (highest first; duplicate tournaments only), \
then by fewer deals played. Players still equal share the rank.";

/// A number of points to two decimals, kept as hundredths (the duplicate score, where a mean
/// is taken). In JSON: the whole number of hundredths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(transparent)]
pub struct Hundredths(pub i64);

impl Hundredths {
    /// The nearest hundredths to `x` (halves away from zero).
    pub fn round(x: f64) -> Hundredths {
        Hundredths((x * 100.0).round() as i64)
    }
}

impl fmt::Display for Hundredths {
    /// `-1.50`, `0.00`, `12.34`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)
    }
}

/// One player's line in the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Standing {
    /// His rank, from 1; players equal under [`TIE_BREAK`] share it (1, 2, 2, 4).
    pub rank: u32,
    /// The entrant.
    pub entrant: EntrantId,
    /// His name.
    pub name: String,
    /// Whether he is a bot.
    pub bot: bool,
    /// His points over every deal recorded.
    pub total: i64,
    /// The tables he has played at least one deal at.
    pub tables: u32,
    /// The deals he has played.
    pub deals: u32,
    /// His duplicate score (duplicate tournaments only): see [`Tournament::standings`].
    pub duplicate: Option<Hundredths>,
}

/// One player's part in one round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PlayerRound {
    /// The table he sat at.
    pub table: TableId,
    /// His seat there, from 0.
    pub seat: usize,
    /// His points in the round.
    pub points: i64,
    /// The deals he played in the round.
    pub deals: u32,
    /// His duplicate score in the round (duplicate tournaments only).
    pub duplicate: Option<Hundredths>,
}

/// One player's line in the results: his standing and his rounds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ResultRow {
    /// His standing.
    #[serde(flatten)]
    pub standing: Standing,
    /// His rounds in order.
    pub rounds: Vec<PlayerRound>,
}

/// One seat of a table in the results.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SeatResult {
    /// Who sat there.
    pub entrant: EntrantId,
    /// His name.
    pub name: String,
    /// His points at this table.
    pub points: i64,
    /// His duplicate score at this table (duplicate tournaments only).
    pub duplicate: Option<Hundredths>,
}

/// One table in the results.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TableResult {
    /// The table.
    pub table: TableId,
    /// The deals it plays.
    pub deals: u32,
    /// The deals recorded.
    pub played: u32,
    /// Its seats in order.
    pub seats: Vec<SeatResult>,
}

/// One round in the results.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RoundResult {
    /// The round, from 1.
    pub round: u32,
    /// Whether every table has played all its deals.
    pub over: bool,
    /// Its tables.
    pub tables: Vec<TableResult>,
}

/// The ranked results with their breakdown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Results {
    /// How ties are broken ([`TIE_BREAK`]).
    pub tie_break: String,
    /// Every entrant, ranked.
    pub standings: Vec<ResultRow>,
    /// Every round started, with its tables.
    pub rounds: Vec<RoundResult>,
}

/// One table as everyone may see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TableView {
    /// The table.
    pub table: TableId,
    /// The players in seat order.
    pub seats: Vec<EntrantId>,
    /// The deals it plays.
    pub deals: u32,
    /// The deals recorded.
    pub played: u32,
    /// The deals that `totals` and the standings count: `played`, except in a duplicate round
    /// being played, where only the deals every table of its size has played are shown
    /// ([`Tournament::public`]).
    pub shown: u32,
    /// Each seat's total over the deals shown.
    pub totals: Vec<i64>,
}

/// One round as everyone may see it: the seating, the commitment, and the secret once the round
/// is over.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RoundView {
    /// The round, from 1.
    pub round: u32,
    /// The seed the seating was drawn from.
    pub seating_seed: Seed,
    /// The commitment to the round's secret.
    pub commitment: Commitment,
    /// The round's secret, once the round is over.
    pub secret: Option<Seed>,
    /// Whether every table has played all its deals.
    pub over: bool,
    /// The tables.
    pub tables: Vec<TableView>,
}

/// What everyone may see of a tournament: all but the secrets of rounds still being played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TournamentView {
    /// The tournament's id.
    pub id: TournamentId,
    /// The organiser's name.
    pub organiser: String,
    /// The settings, with every table's rules.
    pub settings: Settings,
    /// Where the tournament stands.
    pub phase: Phase,
    /// The entrants.
    pub entrants: Vec<Entrant>,
    /// The rounds started.
    pub rounds: Vec<RoundView>,
    /// The standings.
    pub standings: Vec<Standing>,
    /// How ties are broken ([`TIE_BREAK`]).
    pub tie_break: String,
}

/// One player's figures in one round.
#[derive(Default, Clone, Copy)]
struct Part {
    points: i64,
    deals: u32,
    duplicate: f64,
}

impl Tournament {
    /// Each seat's points and deals and duplicate score at every table: `(round, table) →
    /// per seat`.
    fn parts(&self) -> BTreeMap<(u32, u32), Vec<Part>> {
        let mut parts = BTreeMap::new();
        for round in self.rounds() {
            for table in &round.tables {
                let mut seats = vec![Part::default(); table.seats.len()];
                for deal in &table.scores {
                    for (part, points) in seats.iter_mut().zip(deal) {
                        part.points += i64::from(*points);
                        part.deals += 1;
                    }
                }
                parts.insert((round.number, table.id.table), seats);
            }
            if self.settings().duplicate {
                add_duplicate(round, &mut parts);
            }
        }
        parts
    }

    /// The standings now: every entrant with his total, the tables and deals he has played and,
    /// in a duplicate tournament, his duplicate score; ranked as [`TIE_BREAK`] says, players
    /// sharing a rank listed by name.
    ///
    /// The duplicate score compares each player with the players who held the same seat at the
    /// other tables of the same size in the same round, which were dealt the same cards: for
    /// every deal, his points minus the mean of the points of that seat at the other tables of
    /// his size that have recorded that deal from the same dealing ([`crate::DealResult::redeal`];
    /// nothing when no other table has). A round's
    /// duplicate score is rounded to hundredths; the total is the sum of the rounds'. Once a
    /// round is over, his score in it is his points minus the mean of the other tables' points
    /// at his seat.
    pub fn standings(&self) -> Vec<Standing> {
        self.results().standings.into_iter().map(|row| row.standing).collect()
    }

    /// The ranked results with each player's rounds and every round's tables.
    pub fn results(&self) -> Results {
        let duplicate = self.settings().duplicate;
        let parts = self.parts();
        let mut rows: BTreeMap<EntrantId, ResultRow> = self
            .entrants()
            .iter()
            .map(|e| {
                let standing = Standing {
                    rank: 0,
                    entrant: e.id,
                    name: e.name.clone(),
                    bot: e.bot,
                    total: 0,
                    tables: 0,
                    deals: 0,
                    duplicate: duplicate.then_some(Hundredths(0)),
                };
                (e.id, ResultRow { standing, rounds: Vec::new() })
            })
            .collect();
        let mut rounds = Vec::new();
        for round in self.rounds() {
            let mut tables = Vec::new();
            for table in &round.tables {
                let seats_parts = &parts[&(round.number, table.id.table)];
                let mut seats = Vec::new();
                for (seat, (id, part)) in table.seats.iter().zip(seats_parts).enumerate() {
                    let dup = duplicate.then(|| Hundredths::round(part.duplicate));
                    if let Some(row) = rows.get_mut(id) {
                        let s = &mut row.standing;
                        s.total += part.points;
                        s.deals += part.deals;
                        s.tables += u32::from(part.deals > 0);
                        s.duplicate = s.duplicate.zip(dup).map(|(a, b)| Hundredths(a.0 + b.0));
                        row.rounds.push(PlayerRound {
                            table: table.id,
                            seat,
                            points: part.points,
                            deals: part.deals,
                            duplicate: dup,
                        });
                    }
                    let name = self.entrant(*id).map(|e| e.name.clone()).unwrap_or_default();
                    seats.push(SeatResult { entrant: *id, name, points: part.points, duplicate: dup });
                }
                tables.push(TableResult { table: table.id, deals: table.deals, played: table.played(), seats });
            }
            rounds.push(RoundResult { round: round.number, over: round.over, tables });
        }
        let mut standings: Vec<ResultRow> = rows.into_values().collect();
        standings.sort_by(|a, b| {
            compare(&a.standing, &b.standing)
                .then_with(|| a.standing.name.to_lowercase().cmp(&b.standing.name.to_lowercase()))
                .then_with(|| a.standing.entrant.cmp(&b.standing.entrant))
        });
        for i in 0..standings.len() {
            standings[i].standing.rank = if i > 0 && compare(&standings[i - 1].standing, &standings[i].standing).is_eq()
            {
                standings[i - 1].standing.rank
            } else {
                i as u32 + 1
            };
        }
        Results { tie_break: TIE_BREAK.to_owned(), standings, rounds }
    }

    /// The standings as CSV (RFC 4180, lines ending in CRLF): a header row, then one line per
    /// entrant in rank order with `rank, name, bot, total, duplicate, tables, deals` and his
    /// points in each round (empty where he did not play). The duplicate column is empty
    /// without duplicate deals.
    ///
    /// A name is quoted when it holds a comma, a quote, a line break or spaces at either end,
    /// with its quotes doubled; a name that a spreadsheet would read as a formula (beginning
    /// with `=`, `+`, `-` or `@`) is written after an apostrophe.
    pub fn standings_csv(&self) -> String {
        let results = self.results();
        let mut out = String::from("rank,name,bot,total,duplicate,tables,deals");
        for round in 1..=self.rounds().len() {
            out.push_str(&format!(",round {round}"));
        }
        out.push_str("\r\n");
        for row in &results.standings {
            let s = &row.standing;
            let duplicate = s.duplicate.map(|d| d.to_string()).unwrap_or_default();
            out.push_str(&format!(
                "{},{},{},{},{},{},{}",
                s.rank,
                csv_field(&s.name),
                if s.bot { "yes" } else { "no" },
                s.total,
                duplicate,
                s.tables,
                s.deals
            ));
            for round in self.rounds() {
                out.push(',');
                if let Some(part) = row.rounds.iter().find(|r| r.table.round == round.number) {
                    out.push_str(&part.points.to_string());
                }
            }
            out.push_str("\r\n");
        }
        out
    }

    /// Every table of every round as CSV (RFC 4180, lines ending in CRLF, names written as in
    /// [`Tournament::standings_csv`]): a header row, then one line per seat, round by round and
    /// table by table, with `round, table, seat` (from 1), the player's `name`, `bot`, his
    /// `points` at that table, his `duplicate` score there (empty without duplicate deals), and
    /// the table's `deals` and `played`.
    pub fn tables_csv(&self) -> String {
        self.tables_csv_of(None)
    }

    /// The lines of [`Tournament::tables_csv`] of round `round` alone, after the same header
    /// row.
    pub fn round_tables_csv(&self, round: u32) -> String {
        self.tables_csv_of(Some(round))
    }

    /// The results without the tables of the rounds (each round says only its number and
    /// whether it is over): every player ranked with his rounds. [`Tournament::round_results`]
    /// gives a round's tables. Split so, no part grows with both the players and the rounds.
    pub fn results_summary(&self) -> Results {
        let mut results = self.results();
        for round in &mut results.rounds {
            round.tables.clear();
        }
        results
    }

    /// Round `round` of [`Tournament::results`] with its tables, if it has started.
    pub fn round_results(&self, round: u32) -> Option<RoundResult> {
        self.results().rounds.into_iter().find(|r| r.round == round)
    }

    fn tables_csv_of(&self, only: Option<u32>) -> String {
        let results = self.results();
        let mut out = String::from("round,table,seat,name,bot,points,duplicate,deals,played\r\n");
        for round in results.rounds.iter().filter(|r| only.is_none_or(|o| o == r.round)) {
            for table in &round.tables {
                for (seat, result) in table.seats.iter().enumerate() {
                    let bot = self.entrant(result.entrant).is_some_and(|e| e.bot);
                    let duplicate = result.duplicate.map(|d| d.to_string()).unwrap_or_default();
                    out.push_str(&format!(
                        "{},{},{},{},{},{},{},{},{}\r\n",
                        round.round,
                        table.table.table,
                        seat + 1,
                        csv_field(&result.name),
                        if bot { "yes" } else { "no" },
                        result.points,
                        duplicate,
                        table.deals,
                        table.played
                    ));
                }
            }
        }
        out
    }

    /// What everyone may see: the settings, the entrants, every round's seating, commitment,
    /// tables and totals, the secrets of rounds that are over, and the standings; the totals
    /// and standings of a duplicate round being played as [`Tournament::public`] shows them.
    pub fn view(&self) -> TournamentView {
        let shown = self.public();
        let rounds = self
            .rounds()
            .iter()
            .zip(shown.rounds())
            .map(|(r, public)| RoundView {
                round: r.number,
                seating_seed: r.seating_seed,
                commitment: r.commitment,
                secret: self.revealed_secret(r.number),
                over: r.over,
                tables: r
                    .tables
                    .iter()
                    .zip(&public.tables)
                    .map(|(t, p)| TableView {
                        table: t.id,
                        seats: t.seats.clone(),
                        deals: t.deals,
                        played: t.played(),
                        shown: p.played(),
                        totals: p.totals(),
                    })
                    .collect(),
            })
            .collect();
        TournamentView {
            id: self.id().clone(),
            organiser: self.organiser().to_owned(),
            settings: self.settings().clone(),
            phase: self.phase(),
            entrants: self.entrants().to_vec(),
            rounds,
            standings: shown.standings(),
            tie_break: TIE_BREAK.to_owned(),
        }
    }
}

/// The order of [`TIE_BREAK`]: better first.
fn compare(a: &Standing, b: &Standing) -> Ordering {
    b.total.cmp(&a.total).then_with(|| b.duplicate.cmp(&a.duplicate)).then_with(|| a.deals.cmp(&b.deals))
}

/// Adds each seat's duplicate score in `round` to `parts`: deal by deal, among the tables of the
/// same size that have recorded the deal from the same dealing (so held the same cards).
fn add_duplicate(round: &Round, parts: &mut BTreeMap<(u32, u32), Vec<Part>>) {
    let mut sizes: Vec<usize> = round.tables.iter().map(|t| t.seats.len()).collect();
    sizes.sort_unstable();
    sizes.dedup();
    for size in sizes {
        let group: Vec<_> = round.tables.iter().filter(|t| t.seats.len() == size).collect();
        let most = group.iter().map(|t| t.scores.len()).max().unwrap_or(0);
        for deal in 0..most {
            let number = deal as u32 + 1;
            let mut dealings: Vec<u32> =
                group.iter().filter(|t| t.scores.len() > deal).map(|t| t.redeal(number)).collect();
            dealings.sort_unstable();
            dealings.dedup();
            for dealing in dealings {
                let playing: Vec<_> =
                    group.iter().filter(|t| t.scores.len() > deal && t.redeal(number) == dealing).collect();
                if playing.len() < 2 {
                    continue;
                }
                let others = (playing.len() - 1) as f64;
                for seat in 0..size {
                    let sum: i64 = playing.iter().map(|t| i64::from(t.scores[deal][seat])).sum();
                    for table in &playing {
                        let own = i64::from(table.scores[deal][seat]);
                        if let Some(part) = parts.get_mut(&(round.number, table.id.table)) {
                            part[seat].duplicate += own as f64 - (sum - own) as f64 / others;
                        }
                    }
                }
            }
        }
    }
}

/// A CSV field for `name` (see [`Tournament::standings_csv`]).
fn csv_field(name: &str) -> String {
    let name = if name.starts_with(['=', '+', '-', '@']) { format!("'{name}") } else { name.to_owned() };
    if name.contains([',', '"', '\r', '\n']) || name.starts_with(' ') || name.ends_with(' ') {
        format!("\"{}\"", name.replace('"', "\"\""))
    } else {
        name
    }
}
