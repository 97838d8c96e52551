//! What one client may cost the server, so that the server holds under load: a fixed number of
//! worker threads for the CPU work of the API, light and heavy work admitted separately, each
//! behind a bounded queue of its own (heavy work served address by address in turn), a cap on
//! the work each address may have queued or running, a budget of legal moves per request, and
//! a cap on each address's open connections.
//!
//! Work waiting in the queue is dropped with its request: when the client hangs up or the
//! request's time is up, work that has not started never starts. Work that has started holds
//! its worker until it ends, and the move budget bounds how long that is; a request over the
//! budget is answered at once, from a count of the bitboard engine, without the reference
//! engine's work.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::{oneshot, Semaphore};

use ordo_core::notation::parse_position;
use ordo_core::rules::Engine;
use ordo_page::api::{ApiError, ErrorKind};

/// The address a request came from (a request extension set by the accept loop; absent when
/// the router is called without a socket, as in the unit tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Peer(pub IpAddr);

/// Counts per address, for connections and for work: [`Tally::take`] refuses past a cap.
#[derive(Debug, Default)]
pub struct Tally {
    counts: Mutex<HashMap<IpAddr, usize>>,
}

/// One unit of a [`Tally`], given back when dropped.
#[derive(Debug)]
pub struct Held {
    tally: Arc<Tally>,
    addr: IpAddr,
}

impl Tally {
    /// One more for `addr`, or `None` when it already has `cap`.
    pub fn take(tally: &Arc<Tally>, addr: IpAddr, cap: usize) -> Option<Held> {
        let mut counts = tally.counts.lock().unwrap_or_else(|e| e.into_inner());
        let n = counts.entry(addr).or_insert(0);
        if *n >= cap {
            return None;
        }
        *n += 1;
        Some(Held {
            tally: tally.clone(),
            addr,
        })
    }

    /// How many `addr` holds now.
    #[cfg(test)]
    pub fn held(&self, addr: IpAddr) -> usize {
        let counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        counts.get(&addr).copied().unwrap_or(0)
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut counts = self.tally.counts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = counts.get_mut(&self.addr) {
            *n -= 1;
            if *n == 0 {
                counts.remove(&self.addr);
            }
        }
    }
}

/// Which workers a request waits for: a move list or verdict on a position with many legal
/// moves is heavy and waits for the heavy worker, in a queue of its own, so that it never holds
/// up light ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    Light,
    Heavy,
}

/// Positions with more legal moves than this are [`Lane::Heavy`] (the standard Ordo X start
/// has 2,062, which the reference engine lists in about 20 ms).
pub const HEAVY_MOVES: usize = 500;

/// What the pool admits: its part of the server's [`crate::Limits`].
#[derive(Clone, Copy, Debug)]
pub struct Admission {
    /// Threads doing light work at once.
    pub workers: usize,
    /// Most light requests waiting or working, in all.
    pub max_queued: usize,
    /// Most heavy requests waiting, in all.
    pub max_queued_heavy: usize,
    /// Most requests of one lane waiting or working from one address.
    pub per_address: usize,
    /// Most legal moves a budgeted request's position may have.
    pub max_moves: usize,
}

/// The workers and the two queues in front of them, admitted separately: light work waits for
/// one of the light workers in order of arrival; heavy work waits for the one heavy worker in
/// a [`Fair`] queue, each address served in turn.
#[derive(Debug)]
pub struct Pool {
    light: Arc<Semaphore>,
    light_queued: AtomicUsize,
    heavy: Arc<Fair>,
    by_address: [Arc<Tally>; 2],
    limits: Admission,
}

/// A place in the light queue, given back when dropped (served, refused, or abandoned).
struct InQueue<'a>(&'a AtomicUsize);

impl Drop for InQueue<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// What lets a job run on a worker thread; the worker is free again when dropped.
enum Worker {
    Light {
        _permit: tokio::sync::OwnedSemaphorePermit,
    },
    Heavy {
        _turn: Turn,
    },
}

impl Pool {
    /// A pool admitting as `limits` says (each count at least 1).
    pub fn new(limits: Admission) -> Pool {
        let limits = Admission {
            workers: limits.workers.max(1),
            max_queued: limits.max_queued.max(1),
            max_queued_heavy: limits.max_queued_heavy.max(1),
            per_address: limits.per_address.max(1),
            max_moves: limits.max_moves,
        };
        Pool {
            light: Arc::new(Semaphore::new(limits.workers)),
            light_queued: AtomicUsize::new(0),
            heavy: Fair::new(1, limits.max_queued_heavy),
            by_address: Default::default(),
            limits,
        }
    }

    /// Run `f` on a worker thread of `lane`, after waiting for one in that lane's queue.
    /// Refused at once with 503 when the lane's queue is full, 429 when `peer` already has its
    /// share of the lane. Dropping the returned future before a worker is free drops `f` unrun.
    pub async fn run<T, F>(&self, peer: Option<Peer>, lane: Lane, f: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce() -> Result<T, ApiError> + Send + 'static,
    {
        let addr = peer.map(|Peer(a)| a);
        let tally = &self.by_address[lane as usize];
        let cap = self.limits.per_address;
        let _mine = match addr {
            Some(a) => Some(Tally::take(tally, a, cap).ok_or_else(|| over_share(cap))?),
            None => None,
        };
        let (_place, worker) = match lane {
            Lane::Light => {
                let place = self.light_place()?;
                let permit = self.light.clone().acquire_owned().await;
                let permit = permit.map_err(|_| busy(ErrorKind::Busy, "the server is stopping"))?;
                (Some(place), Worker::Light { _permit: permit })
            }
            Lane::Heavy => {
                let turn = self.heavy.turn(addr).await?;
                (None, Worker::Heavy { _turn: turn })
            }
        };
        let job = tokio::task::spawn_blocking(move || {
            let _worker = worker;
            f()
        });
        match job.await {
            Ok(answer) => answer,
            Err(e) => Err(ApiError::new(
                ErrorKind::Internal,
                "server",
                format!("internal error: {e}"),
            )),
        }
    }

    /// A place in the light queue, or 503 when it is full.
    fn light_place(&self) -> Result<InQueue<'_>, ApiError> {
        let max = self.limits.max_queued;
        if self.light_queued.fetch_add(1, Ordering::SeqCst) >= max {
            self.light_queued.fetch_sub(1, Ordering::SeqCst);
            return Err(busy(
                ErrorKind::Busy,
                format!("the server has {max} requests waiting or working; try again shortly"),
            ));
        }
        Ok(InQueue(&self.light_queued))
    }

    /// The move budget: an error when the side to move in `position` has more than the
    /// budget's legal moves (counted by the bitboard engine, a few milliseconds at most), else
    /// the lane its work takes; [`Lane::Light`] also for text that is no position (the answer
    /// then names the error).
    pub fn check_budget(&self, position: &str) -> Result<Lane, ApiError> {
        let Ok(pos) = parse_position(position) else {
            return Ok(Lane::Light);
        };
        let Ok(engine) = ordo_bitboard::Bitboard::from_position(&pos) else {
            return Ok(Lane::Light);
        };
        let n = engine.legal_moves().len();
        if n <= HEAVY_MOVES {
            return Ok(Lane::Light);
        }
        if n <= self.limits.max_moves {
            return Ok(Lane::Heavy);
        }
        Err(ApiError::new(
            ErrorKind::OverBudget,
            "position",
            format!(
                "this position has {n} legal moves, over this server's budget of {} per \
                 request; the command line (`ordo moves`) lists them",
                self.limits.max_moves
            ),
        ))
    }

    /// How many requests of `lane` `addr` has waiting or working now.
    #[cfg(test)]
    pub fn held_by(&self, lane: Lane, addr: IpAddr) -> usize {
        self.by_address[lane as usize].held(addr)
    }
}

fn over_share(cap: usize) -> ApiError {
    busy(
        ErrorKind::TooManyRequests,
        format!(
            "this address already has {cap} requests waiting or working; wait for their answers"
        ),
    )
}

/// A queue for workers that serves addresses in turn: each address's requests wait in order
/// of arrival, and a freed worker goes to the next address in the ring, so that an address
/// with many requests waiting delays another by at most one of its own.
#[derive(Debug)]
pub struct Fair {
    state: Mutex<FairState>,
}

type Key = Option<IpAddr>;

#[derive(Debug)]
struct FairState {
    free: usize,
    waiting: HashMap<Key, VecDeque<(u64, oneshot::Sender<Turn>)>>,
    ring: VecDeque<Key>,
    len: usize,
    max: usize,
    next_id: u64,
}

/// A worker's turn: the worker passes to the next waiting request when dropped.
#[derive(Debug)]
pub struct Turn(Option<Arc<Fair>>);

impl Drop for Turn {
    fn drop(&mut self) {
        if let Some(fair) = self.0.take() {
            fair.release();
        }
    }
}

/// A request waiting in a [`Fair`] queue; leaves it when dropped (its client gone).
struct Waiting {
    fair: Arc<Fair>,
    key: Key,
    id: u64,
}

impl Drop for Waiting {
    fn drop(&mut self) {
        let mut s = self.fair.lock();
        let Some(queue) = s.waiting.get_mut(&self.key) else {
            return;
        };
        let Some(i) = queue.iter().position(|(id, _)| *id == self.id) else {
            return;
        };
        queue.remove(i);
        let empty = queue.is_empty();
        s.len -= 1;
        if empty {
            s.waiting.remove(&self.key);
            s.ring.retain(|k| *k != self.key);
        }
    }
}

impl Fair {
    /// `workers` workers, at most `max` requests waiting.
    pub fn new(workers: usize, max: usize) -> Arc<Fair> {
        Arc::new(Fair {
            state: Mutex::new(FairState {
                free: workers,
                waiting: HashMap::new(),
                ring: VecDeque::new(),
                len: 0,
                max,
                next_id: 0,
            }),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, FairState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A worker's turn for a request from `addr`: at once when one is free and nobody waits,
    /// else in `addr`'s queue; 503 when `max` requests wait already.
    pub async fn turn(self: &Arc<Fair>, addr: Option<IpAddr>) -> Result<Turn, ApiError> {
        let (rx, _waiting) = {
            let mut s = self.lock();
            if s.free > 0 && s.len == 0 {
                s.free -= 1;
                return Ok(Turn(Some(self.clone())));
            }
            if s.len >= s.max {
                return Err(busy(
                    ErrorKind::Busy,
                    format!(
                        "the server has {} requests for heavy work (positions with over \
                         {HEAVY_MOVES} legal moves) waiting; try again shortly",
                        s.max
                    ),
                ));
            }
            let id = s.next_id;
            s.next_id += 1;
            let (tx, rx) = oneshot::channel();
            let queue = s.waiting.entry(addr).or_default();
            queue.push_back((id, tx));
            if queue.len() == 1 {
                s.ring.push_back(addr);
            }
            s.len += 1;
            let fair = self.clone();
            (
                rx,
                Waiting {
                    fair,
                    key: addr,
                    id,
                },
            )
        };
        rx.await
            .map_err(|_| busy(ErrorKind::Busy, "the server is stopping"))
    }

    /// A worker is free: its turn goes to the first request of the next address in the ring
    /// whose client still waits, else the worker waits for work.
    fn release(self: &Arc<Fair>) {
        loop {
            let next = {
                let mut s = self.lock();
                match s.pop_next() {
                    Some(tx) => tx,
                    None => {
                        s.free += 1;
                        return;
                    }
                }
            };
            match next.send(Turn(Some(self.clone()))) {
                Ok(()) => return,
                // The client left between the pop and the send: disarm, try the next.
                Err(mut turn) => drop(turn.0.take()),
            }
        }
    }
}

impl FairState {
    fn pop_next(&mut self) -> Option<oneshot::Sender<Turn>> {
        let key = self.ring.pop_front()?;
        let queue = self.waiting.get_mut(&key)?;
        let (_, tx) = queue.pop_front()?;
        self.len -= 1;
        if queue.is_empty() {
            self.waiting.remove(&key);
        } else {
            self.ring.push_back(key);
        }
        Some(tx)
    }
}

fn busy(kind: ErrorKind, message: impl Into<String>) -> ApiError {
    ApiError::new(kind, "request", message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    const A: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));
    const B: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 3));
    const C: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 4));

    /// One address cannot take the server: it holds at most its cap, and a unit comes back when
    /// dropped.
    #[test]
    fn a_tally_refuses_past_its_cap_and_gives_back_on_drop() {
        let t = Arc::new(Tally::default());
        let a = Tally::take(&t, A, 2).unwrap();
        let _b = Tally::take(&t, A, 2).unwrap();
        assert!(Tally::take(&t, A, 2).is_none());
        assert!(Tally::take(&t, IpAddr::V4(Ipv4Addr::LOCALHOST), 2).is_some());
        drop(a);
        assert_eq!(t.held(A), 1);
        assert!(Tally::take(&t, A, 2).is_some());
    }

    fn admission(workers: usize, queued: usize, per_address: usize, moves: usize) -> Admission {
        Admission {
            workers,
            max_queued: queued,
            max_queued_heavy: queued,
            per_address,
            max_moves: moves,
        }
    }

    fn pool(workers: usize, queued: usize, per_address: usize, moves: usize) -> Pool {
        Pool::new(admission(workers, queued, per_address, moves))
    }

    /// A request's cost is bounded: the budget counts legal moves; the standard Ordo X start (2,062
    /// moves) is over a budget of 2,000 and within one of 3,000.
    #[test]
    fn the_move_budget_refuses_positions_with_more_legal_moves() {
        let x = "2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/WW2WW2WW/WWWWWWWWWW/2WW2WW2 w x";
        let e = pool(1, 1, 1, 2000).check_budget(x).unwrap_err();
        assert_eq!((e.status(), e.place.as_str()), (422, "position"));
        assert!(e.message.contains("2062 legal moves"), "{}", e.message);
        assert_eq!(pool(1, 1, 1, 3000).check_budget(x), Ok(Lane::Heavy));
        let classic = "4/1B2/WW2/2W1 w classic";
        assert_eq!(pool(1, 1, 1, 3000).check_budget(classic), Ok(Lane::Light));
        assert_eq!(
            pool(1, 1, 1, 1).check_budget("no position"),
            Ok(Lane::Light)
        );
    }

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap()
    }

    /// Work on `lane` that holds its worker until the returned sender sends (or is dropped).
    fn hold(
        pool: &Arc<Pool>,
        peer: Option<Peer>,
        lane: Lane,
    ) -> (
        std::sync::mpsc::Sender<()>,
        tokio::task::JoinHandle<Result<(), ApiError>>,
    ) {
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let p = pool.clone();
        let job = tokio::spawn(async move {
            p.run(peer, lane, move || {
                let _ = rx.recv();
                Ok(())
            })
            .await
        });
        (tx, job)
    }

    /// Overload is refused, not queued for ever: a full queue answers 503 at once, an address over
    /// its share 429, and work dropped while waiting never runs.
    #[test]
    fn a_full_queue_refuses_and_abandoned_work_never_runs() {
        runtime().block_on(async {
            let pool = Arc::new(pool(1, 2, 1, 10));
            let (tx, first) = hold(&pool, None, Lane::Light);
            while pool.light.available_permits() > 0 {
                tokio::task::yield_now().await;
            }
            let ran = Arc::new(AtomicUsize::new(0));
            let r = ran.clone();
            let p = pool.clone();
            let waiting = tokio::spawn(async move {
                p.run(Some(Peer(A)), Lane::Light, move || {
                    r.fetch_add(1, Ordering::SeqCst);
                    Ok(())
                })
                .await
            });
            while pool.held_by(Lane::Light, A) == 0 {
                tokio::task::yield_now().await;
            }
            let again = pool.run(Some(Peer(A)), Lane::Light, || Ok(()));
            assert_eq!(again.await.unwrap_err().status(), 429);
            let full = pool.run(None, Lane::Light, || Ok(())).await.unwrap_err();
            assert_eq!(full.status(), 503, "{full}");
            waiting.abort();
            let _ = waiting.await;
            tx.send(()).unwrap();
            first.await.unwrap().unwrap();
            pool.run(None, Lane::Light, || Ok(())).await.unwrap();
            assert_eq!(ran.load(Ordering::SeqCst), 0, "abandoned work ran");
            assert_eq!(pool.held_by(Lane::Light, A), 0);
        });
    }

    /// Light and heavy work are admitted separately: with the heavy worker busy and the heavy
    /// queue full (a further heavy request gets 503), light work still runs at once, and an
    /// address's heavy requests do not count against its light share.
    #[test]
    fn light_work_never_waits_behind_heavy_work() {
        runtime().block_on(async {
            let pool = Arc::new(pool(1, 1, 1, 10));
            let (tx1, busy) = hold(&pool, Some(Peer(A)), Lane::Heavy);
            while pool.heavy.lock().free > 0 {
                tokio::task::yield_now().await;
            }
            let (tx2, queued) = hold(&pool, Some(Peer(B)), Lane::Heavy);
            while pool.heavy.lock().len == 0 {
                tokio::task::yield_now().await;
            }
            let full = pool.run(None, Lane::Heavy, || Ok(())).await.unwrap_err();
            assert_eq!(full.status(), 503, "{full}");
            assert!(full.message.contains("heavy work"), "{full}");
            let light = pool.run(Some(Peer(A)), Lane::Light, || Ok(7));
            assert_eq!(light.await, Ok(7));
            drop((tx1, tx2));
            busy.await.unwrap().unwrap();
            queued.await.unwrap().unwrap();
        });
    }

    /// The heavy queue serves addresses in turn: with three requests of A waiting before one
    /// of B and one of C, B and C are served after A's first, not after all of A's; a request
    /// whose client left is skipped.
    #[test]
    fn the_heavy_queue_serves_each_address_in_turn() {
        runtime().block_on(async {
            let fair = Fair::new(1, 10);
            let held = fair.turn(None).await.unwrap();
            let order = Arc::new(Mutex::new(Vec::new()));
            let mut jobs = Vec::new();
            for (i, addr) in [A, A, A, B, C, C].into_iter().enumerate() {
                let (f, o) = (fair.clone(), order.clone());
                jobs.push(tokio::spawn(async move {
                    let _turn = f.turn(Some(addr)).await.unwrap();
                    o.lock().unwrap().push(i);
                }));
                while fair.lock().len < i + 1 {
                    tokio::task::yield_now().await;
                }
            }
            let gone = jobs.remove(5);
            gone.abort();
            let _ = gone.await;
            assert_eq!(fair.lock().len, 5);
            drop(held);
            for job in jobs {
                job.await.unwrap();
            }
            assert_eq!(*order.lock().unwrap(), [0, 3, 4, 1, 2]);
            let s = fair.lock();
            assert_eq!((s.free, s.len, s.ring.len()), (1, 0, 0));
        });
    }
}
