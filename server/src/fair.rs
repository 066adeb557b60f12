//! A fair share of the background work (reviews, replays, series pages) for every address.
//!
//! A few turns run at once ([`FairQueue::new`]'s `slots`); a job beyond them waits in its
//! address's own short queue, and the addresses with jobs waiting take turns round-robin: a
//! job of an address that was waiting for none runs after at most one job of each address
//! waiting before it, however many jobs those addresses asked for. Each address may keep only
//! [`WAITING_PER_ADDRESS`] jobs waiting, each room [`WAITING_PER_ROOM`], the whole server
//! [`WAITING`]: beyond, the job is refused at once ([`Full`]), so that the memory the queue
//! holds is bounded whatever a flood asks. A waiting job holds nothing but its place: the
//! caller loads what the work needs once its turn has come.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::oneshot;

/// Jobs one address may keep waiting (beyond those running).
pub const WAITING_PER_ADDRESS: usize = 2;
/// Jobs of one room that may wait (beyond those running).
pub const WAITING_PER_ROOM: usize = 8;
/// Jobs that may wait across the whole server.
pub const WAITING: usize = 256;

/// The job was refused: its address, its room or the server has as many jobs waiting as it
/// may.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Full;

/// Turns at the background work, shared fairly between addresses.
#[derive(Debug)]
pub struct FairQueue {
    slots: usize,
    state: Mutex<State>,
}

/// A waiting job: its number, its room, and how it is told its turn has come.
#[derive(Debug)]
struct Waiter {
    id: u64,
    room: Arc<str>,
    grant: oneshot::Sender<()>,
}

#[derive(Debug, Default)]
struct State {
    /// Turns being used.
    running: usize,
    /// The addresses with jobs waiting, in the order they are served: the first one's next job
    /// runs next, and the address goes to the back if it has more.
    ring: VecDeque<IpAddr>,
    /// Each address's waiting jobs, oldest first (an address is here while it is in `ring`).
    waiting: HashMap<IpAddr, VecDeque<Waiter>>,
    /// How many jobs of each room are waiting.
    rooms: HashMap<Arc<str>, usize>,
    /// How many jobs are waiting in all.
    total: usize,
    next_id: u64,
}

impl State {
    /// A turn is given back: the next waiting job takes it, or it is free.
    fn hand_on(&mut self) {
        while let Some(addr) = self.ring.pop_front() {
            let Some(jobs) = self.waiting.get_mut(&addr) else { continue };
            let Some(next) = jobs.pop_front() else {
                self.waiting.remove(&addr);
                continue;
            };
            if jobs.is_empty() {
                self.waiting.remove(&addr);
            } else {
                self.ring.push_back(addr);
            }
            self.left(&next.room);
            // Sent under the lock: a waiter no longer in its queue has been given the turn.
            if next.grant.send(()).is_ok() {
                return;
            }
        }
        self.running = self.running.saturating_sub(1);
    }

    /// A job of `room` stops waiting.
    fn left(&mut self, room: &str) {
        self.total = self.total.saturating_sub(1);
        if let Some(count) = self.rooms.get_mut(room) {
            *count -= 1;
            if *count == 0 {
                self.rooms.remove(room);
            }
        }
    }

    /// Takes waiting job `id` of `addr` out of the queue; false if it is not there (its turn
    /// came).
    fn withdraw(&mut self, addr: IpAddr, id: u64) -> bool {
        let Some(jobs) = self.waiting.get_mut(&addr) else { return false };
        let Some(at) = jobs.iter().position(|w| w.id == id) else { return false };
        let Some(gone) = jobs.remove(at) else { return false };
        if jobs.is_empty() {
            self.waiting.remove(&addr);
            self.ring.retain(|a| *a != addr);
        }
        self.left(&gone.room);
        true
    }
}

/// One turn at the background work, held while the job runs; given back (to the next waiting
/// job) when dropped.
#[derive(Debug)]
pub struct Turn {
    queue: Arc<FairQueue>,
}

impl Drop for Turn {
    fn drop(&mut self) {
        self.queue.lock().hand_on();
    }
}

/// A job's place in the queue, until its turn comes ([`Place::turn`]). Dropped before, it
/// leaves the queue (the connection went away): nobody waits for it.
#[derive(Debug)]
pub struct Place {
    queue: Arc<FairQueue>,
    addr: IpAddr,
    id: u64,
    /// `None` once the turn has been taken (or at once, when a turn was free).
    grant: Option<oneshot::Receiver<()>>,
}

impl Place {
    /// Waits for the job's turn.
    pub async fn turn(mut self) -> Turn {
        if let Some(grant) = self.grant.as_mut() {
            // The sender is only dropped after sending, or with the place withdrawn (which
            // only this place does): an error cannot happen, and would mean the turn was given.
            let _ = grant.await;
            self.grant = None;
        }
        Turn { queue: self.queue.clone() }
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        if self.grant.is_none() {
            return;
        }
        let mut state = self.queue.lock();
        if !state.withdraw(self.addr, self.id) {
            // The turn came, but nobody takes it: the next job does.
            state.hand_on();
        }
    }
}

impl FairQueue {
    /// A queue letting `slots` jobs run at once.
    pub fn new(slots: usize) -> Arc<FairQueue> {
        Arc::new(FairQueue { slots: slots.max(1), state: Mutex::new(State::default()) })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes a place for a job of `addr` about `room`: the turn at once if one is free and
    /// nobody waits, else a place in `addr`'s queue. Never waits, so that a refusal can be
    /// answered at once.
    ///
    /// # Errors
    /// [`Full`] when `addr`, `room` or the server has as many jobs waiting as it may.
    pub fn enter(self: &Arc<Self>, addr: IpAddr, room: &str) -> Result<Place, Full> {
        let mut state = self.lock();
        let id = state.next_id;
        state.next_id += 1;
        if state.running < self.slots && state.ring.is_empty() {
            state.running += 1;
            return Ok(Place { queue: self.clone(), addr, id, grant: None });
        }
        let mine = state.waiting.get(&addr).map_or(0, VecDeque::len);
        let room_waiting = state.rooms.get(room).copied().unwrap_or(0);
        if mine >= WAITING_PER_ADDRESS || room_waiting >= WAITING_PER_ROOM || state.total >= WAITING {
            return Err(Full);
        }
        let (grant, granted) = oneshot::channel();
        let room: Arc<str> = Arc::from(room);
        *state.rooms.entry(room.clone()).or_insert(0) += 1;
        state.total += 1;
        let jobs = state.waiting.entry(addr).or_default();
        jobs.push_back(Waiter { id, room, grant });
        if jobs.len() == 1 {
            state.ring.push_back(addr);
        }
        Ok(Place { queue: self.clone(), addr, id, grant: Some(granted) })
    }

    /// Waits for a turn for a job of `addr` about `room` ([`FairQueue::enter`], then
    /// [`Place::turn`]).
    ///
    /// # Errors
    /// [`Full`], as [`FairQueue::enter`].
    pub async fn turn(self: &Arc<Self>, addr: IpAddr, room: &str) -> Result<Turn, Full> {
        Ok(self.enter(addr, room)?.turn().await)
    }

    /// How many jobs are waiting (for tests and metrics).
    pub fn waiting(&self) -> usize {
        self.lock().total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(n: u8) -> IpAddr {
        IpAddr::from([10, 0, 0, n])
    }

    /// Whether a place has its turn already (polled once, not waited for).
    async fn ready(place: Place) -> Result<Turn, Place> {
        let mut place = place;
        match place.grant.as_mut() {
            None => Ok(place.turn().await),
            Some(grant) => match grant.try_recv() {
                Ok(()) => {
                    place.grant = None;
                    Ok(place.turn().await)
                }
                Err(_) => Err(place),
            },
        }
    }

    /// A flood from one address, then many, cannot keep a newcomer waiting for more than one
    /// job of each address before it; every cap refuses at once; places given up leave.
    #[tokio::test]
    async fn addresses_take_turns_and_each_waits_in_a_short_queue() {
        let queue = FairQueue::new(1);
        let running = queue.enter(ip(1), "A").unwrap();
        let running = ready(running).await.unwrap();
        // Address 1 fills its own queue; beyond it, refused.
        let mut flood: Vec<Place> = (0..WAITING_PER_ADDRESS).map(|_| queue.enter(ip(1), "A").unwrap()).collect();
        assert_eq!(queue.enter(ip(1), "A").err(), Some(Full));
        // Addresses 2 and 3 each queue one; then the newcomer, 4.
        let two = queue.enter(ip(2), "B").unwrap();
        let three = queue.enter(ip(3), "C").unwrap();
        let four = queue.enter(ip(4), "D").unwrap();
        // Turns go 1, 2, 3, 4: the newcomer does not wait for address 1's second job.
        drop(running);
        let first = ready(flood.remove(0)).await.expect("address 1's next job");
        let two = ready(two).await.expect_err("one turn at a time");
        drop(first);
        let two = ready(two).await.expect("address 2's turn");
        drop(two);
        let three = ready(three).await.expect("address 3's turn");
        // The newcomer and address 1's second job wait.
        assert_eq!(queue.waiting(), 2);
        drop(three);
        let four = ready(four).await.expect("the newcomer's turn before address 1's second job");
        let last = flood.remove(0);
        drop(four);
        let last = ready(last).await.expect("address 1's second job last");
        drop(last);
        assert_eq!(queue.waiting(), 0);
        // All free again: a job runs at once.
        assert!(ready(queue.enter(ip(9), "Z").unwrap()).await.is_ok());
    }

    #[tokio::test]
    async fn a_room_and_the_server_have_caps_and_a_place_given_up_frees_its_turn() {
        let queue = FairQueue::new(1);
        let held = ready(queue.enter(ip(1), "A").unwrap()).await.unwrap();
        let places: Vec<Place> =
            (0..WAITING_PER_ROOM).map(|n| queue.enter(ip(10 + n as u8), "busy room").unwrap()).collect();
        assert_eq!(queue.enter(ip(200), "busy room").err(), Some(Full), "the room's cap");
        let other = queue.enter(ip(200), "quiet room").expect("another room still queues");
        // Every waiting job gives up: the turn passes over them to the one left.
        drop(places);
        drop(held);
        let other = ready(other).await.expect("the only waiting job takes the turn");
        // A place whose turn came but which is dropped untaken hands the turn on.
        let next = queue.enter(ip(3), "A").unwrap();
        let after = queue.enter(ip(4), "A").unwrap();
        drop(other);
        drop(next);
        assert!(ready(after).await.is_ok(), "the turn given to a dropped place went on");
        // The server's cap.
        let queue = FairQueue::new(1);
        let _held = ready(queue.enter(ip(1), "A").unwrap()).await.unwrap();
        let mut kept = Vec::new();
        for n in 0..WAITING {
            let addr = IpAddr::from([10, 1, (n / 256) as u8, (n % 256) as u8]);
            kept.push(queue.enter(addr, &format!("room {n}")).unwrap());
        }
        assert_eq!(queue.enter(ip(2), "another").err(), Some(Full), "the server's cap");
    }
}
