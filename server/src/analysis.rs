//! The card-by-card analysis of finished deals, as replays and series pages carry it: computed
//! by the bots crate within a per-game budget, on the background thread that rebuilds the replay
//! (never on a room's task), and kept once computed in a bounded map shared by the whole
//! process, so that a second viewer of the same deal gets it at once.
//!
//! Only a finished deal is ever analysed: the callers hand over a deal the rules say is over
//! ([`fipsen_bots::games::FinishedDeal::of`] gives nothing else).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use fipsen_bots::analysis::{Analysis, Budget, Method, Unit};
use fipsen_bots::games::FinishedDeal;
use fipsen_protocol::{AnalysisMethod, AnalysisUnit, CardCost, MAX_BEST_MOVES, PlayAnalysis};
use fipsen_rules::GameId;

/// How many analysed deals the cache keeps; the least recently used goes first.
pub const CACHED_DEALS: usize = 2048;

/// The search budget for one deal of `game`, as its bots set it
/// ([`FinishedDeal::analysis_budget`]): a game whose search is costly gets less, and looks fewer
/// moves ahead.
pub fn budget(game: GameId) -> Budget {
    FinishedDeal::analysis_budget(game)
}

/// A room's deal, as the cache knows it.
type Key = (String, u32);

/// The cached analyses with the tick of their last use, and the deals being analysed now.
#[derive(Default)]
struct Cache {
    entries: HashMap<Key, (Option<Arc<PlayAnalysis>>, u64)>,
    tick: u64,
    /// One lock per deal being analysed: a second request for the same deal waits on it for
    /// the first one's result instead of searching again.
    computing: HashMap<Key, Arc<Mutex<()>>>,
}

impl Cache {
    /// The analysis of `key` if it is cached (`Some(None)`: the game has none), marked used.
    fn get(&mut self, key: &Key) -> Option<Option<Arc<PlayAnalysis>>> {
        self.tick += 1;
        let tick = self.tick;
        self.entries.get_mut(key).map(|(analysis, used)| {
            *used = tick;
            analysis.clone()
        })
    }

    /// Keeps `analysis` for `key`, dropping the least recently used entry when full.
    fn put(&mut self, key: Key, analysis: Option<Arc<PlayAnalysis>>) {
        self.tick += 1;
        if self.entries.len() >= CACHED_DEALS
            && !self.entries.contains_key(&key)
            && let Some(oldest) = self.entries.iter().min_by_key(|(_, (_, used))| *used).map(|(k, _)| k.clone())
        {
            self.entries.remove(&oldest);
        }
        self.entries.insert(key, (analysis, self.tick));
    }
}

/// The process's cache.
fn cache() -> &'static Mutex<Cache> {
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    CACHE.get_or_init(Mutex::default)
}

/// The analysis of deal `deal` of room `room`, played at `seats` seats, from the cache or
/// computed now within the game's [`budget`] (it takes time: call it off the async threads); `None`
/// where the game has no analysis.
pub fn of_deal(room: &str, deal: u32, seats: usize, finished: &FinishedDeal) -> Option<Arc<PlayAnalysis>> {
    cached_or((room.to_string(), deal), || {
        finished.analyse(budget(finished.game())).map(|a| Arc::new(to_protocol(&a, seats)))
    })
}

/// The analysis of `key` from the cache, or computed by `compute` and cached: once, however
/// many threads ask for the same deal at the same time (the others wait for its result).
fn cached_or(key: Key, compute: impl FnOnce() -> Option<Arc<PlayAnalysis>>) -> Option<Arc<PlayAnalysis>> {
    let this_deal = {
        let mut cache = cache().lock().unwrap_or_else(|e| e.into_inner());
        if let Some(found) = cache.get(&key) {
            return found;
        }
        cache.computing.entry(key.clone()).or_default().clone()
    };
    // Computed without the cache's lock held, so that other deals are served meanwhile; under
    // this deal's own lock, so that it is computed once however many ask at the same time.
    let _computing = this_deal.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(found) = cache().lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return found;
    }
    let analysis = compute();
    let mut cache = cache().lock().unwrap_or_else(|e| e.into_inner());
    cache.put(key.clone(), analysis.clone());
    cache.computing.remove(&key);
    analysis
}

/// The analysis of a deal as [`of_deal`] gives it where it is quick to compute; where its
/// game's analysis is costly ([`FinishedDeal::costly_analysis`]: seconds a deal), only if it is
/// cached already (its replay was asked for). A series page lists many deals at once: it must
/// not wait for every costly deal's search.
pub fn of_deal_if_quick(room: &str, deal: u32, seats: usize, finished: &FinishedDeal) -> Option<Arc<PlayAnalysis>> {
    if !FinishedDeal::costly_analysis(finished.game()) {
        return of_deal(room, deal, seats, finished);
    }
    let key = (room.to_string(), deal);
    cache().lock().unwrap_or_else(|e| e.into_inner()).get(&key).flatten()
}

/// Forgets every analysis of `room` (its series was deleted).
pub fn forget(room: &str) {
    cache().lock().unwrap_or_else(|e| e.into_inner()).entries.retain(|(code, _), _| code != room);
}

/// The bots' analysis as the protocol carries it, with `seats` seats' counts of costly cards
/// and, where a move is more than its card, the first [`MAX_BEST_MOVES`] of each move's better
/// moves.
pub fn to_protocol(analysis: &Analysis, seats: usize) -> PlayAnalysis {
    PlayAnalysis {
        unit: match analysis.unit {
            Unit::Points => AnalysisUnit::Points,
            Unit::Tricks => AnalysisUnit::Tricks,
        },
        method: match analysis.method {
            Method::Exact => AnalysisMethod::Exact,
            Method::AgainstAll => AnalysisMethod::AgainstAll,
            Method::Bounded => AnalysisMethod::Bounded,
        },
        complete: analysis.complete,
        costly: analysis.losses_by_seat(seats),
        cards: analysis
            .cards
            .iter()
            .map(|c| CardCost {
                index: c.index,
                seat: c.seat,
                card: c.card,
                before: c.before,
                after: c.after,
                cost: c.cost(),
                best: c.best.clone(),
                // A move is plain data: it always has a JSON form.
                best_moves: c
                    .best_moves
                    .iter()
                    .take(MAX_BEST_MOVES)
                    .map(|m| serde_json::to_value(m).unwrap_or_default())
                    .collect(),
                horizon: c.horizon,
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analysis(n: u16) -> Option<Arc<PlayAnalysis>> {
        Some(Arc::new(PlayAnalysis {
            unit: AnalysisUnit::Tricks,
            method: AnalysisMethod::Exact,
            complete: true,
            costly: vec![u32::from(n)],
            cards: Vec::new(),
        }))
    }

    /// A full cache drops the deal used longest ago, and keeps one just read.
    #[test]
    fn the_cache_drops_the_least_recently_used_deal() {
        let mut cache = Cache::default();
        for n in 0..CACHED_DEALS as u32 {
            cache.put(("r".into(), n), analysis(1));
        }
        assert!(cache.get(&("r".into(), 0)).is_some());
        cache.put(("s".into(), 1), analysis(2));
        assert_eq!(cache.entries.len(), CACHED_DEALS);
        assert!(cache.get(&("r".into(), 0)).is_some(), "just used: kept");
        assert!(cache.get(&("r".into(), 1)).is_none(), "the oldest: dropped");
        assert_eq!(cache.get(&("s".into(), 1)), Some(analysis(2)));
    }

    /// Viewers asking for the same deal at the same time get one computation's result.
    #[test]
    fn a_deal_asked_for_at_once_is_analysed_once() {
        use std::sync::atomic::{AtomicU32, Ordering};
        let computed = Arc::new(AtomicU32::new(0));
        let askers: Vec<_> = (0..4)
            .map(|_| {
                let computed = computed.clone();
                std::thread::spawn(move || {
                    cached_or(("analysed-once".into(), 7), || {
                        computed.fetch_add(1, Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_millis(100));
                        analysis(3)
                    })
                })
            })
            .collect();
        for asker in askers {
            assert_eq!(asker.join().unwrap(), analysis(3));
        }
        assert_eq!(computed.load(Ordering::SeqCst), 1);
        let key = ("analysed-once".to_string(), 7);
        assert!(!cache().lock().unwrap().computing.contains_key(&key), "no lock is left behind");
    }
}
