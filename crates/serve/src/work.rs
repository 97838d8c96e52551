//! What one client may cost the server, so that the server holds under load: a fixed number of
//! worker threads for the CPU work of the API, a bounded queue in front of them, a cap on the
//! work each address may have queued or running, a budget of legal moves per request, and a
//! cap on each address's open connections.
//!
//! Work waiting in the queue is dropped with its request: when the client hangs up or the
//! request's time is up, work that has not started never starts. Work that has started holds
//! its worker until it ends, and the move budget bounds how long that is; a request over the
//! budget is answered at once, from a count of the bitboard engine, without the reference
//! engine's work.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::Semaphore;

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
/// moves is heavy and waits for the one heavy worker, so that it never holds up light ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    Light,
    Heavy,
}

/// Positions with more legal moves than this are [`Lane::Heavy`] (the standard Ordo X start
/// has 2,062, which the reference engine lists in about 20 ms).
pub const HEAVY_MOVES: usize = 500;

/// The workers and the queue in front of them.
#[derive(Debug)]
pub struct Pool {
    workers: Arc<Semaphore>,
    heavy: Arc<Semaphore>,
    queued: AtomicUsize,
    max_queued: usize,
    per_address: usize,
    max_moves: usize,
    by_address: Arc<Tally>,
}

/// A place in the queue, given back when dropped (served, refused, or abandoned).
struct InQueue<'a>(&'a AtomicUsize);

impl Drop for InQueue<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Pool {
    /// `workers` threads of light CPU work at once and one of heavy work, `max_queued`
    /// requests waiting or working in all, `per_address` of them from one address, `max_moves` legal moves per request.
    pub fn new(workers: usize, max_queued: usize, per_address: usize, max_moves: usize) -> Pool {
        Pool {
            workers: Arc::new(Semaphore::new(workers.max(1))),
            heavy: Arc::new(Semaphore::new(1)),
            queued: AtomicUsize::new(0),
            max_queued: max_queued.max(1),
            per_address: per_address.max(1),
            max_moves,
            by_address: Arc::new(Tally::default()),
        }
    }

    /// Run `f` on a worker thread, after waiting for one in the queue. Refused at once with
    /// 503 when the queue is full, 429 when `peer` already has its share of it. Dropping the
    /// returned future before a worker is free drops `f` unrun.
    pub async fn run<T, F>(&self, peer: Option<Peer>, lane: Lane, f: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce() -> Result<T, ApiError> + Send + 'static,
    {
        let _mine = match peer {
            Some(Peer(addr)) => Some(
                Tally::take(&self.by_address, addr, self.per_address).ok_or_else(|| {
                    busy(
                        ErrorKind::TooManyRequests,
                        format!(
                            "this address already has {} requests waiting or working; \
                             wait for their answers",
                            self.per_address
                        ),
                    )
                })?,
            ),
            None => None,
        };
        if self.queued.fetch_add(1, Ordering::SeqCst) >= self.max_queued {
            self.queued.fetch_sub(1, Ordering::SeqCst);
            return Err(busy(
                ErrorKind::Busy,
                format!(
                    "the server has {} requests waiting or working; try again shortly",
                    self.max_queued
                ),
            ));
        }
        let _place = InQueue(&self.queued);
        let workers = match lane {
            Lane::Light => &self.workers,
            Lane::Heavy => &self.heavy,
        };
        let worker = workers.clone().acquire_owned().await;
        let worker = worker.map_err(|_| busy(ErrorKind::Busy, "the server is stopping"))?;
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
        if n <= self.max_moves {
            return Ok(Lane::Heavy);
        }
        Err(ApiError::new(
            ErrorKind::OverBudget,
            "position",
            format!(
                "this position has {n} legal moves, over this server's budget of {} per \
                 request; the command line (`ordo moves`) lists them",
                self.max_moves
            ),
        ))
    }

    /// How many requests `addr` has waiting or working now.
    #[cfg(test)]
    pub fn held_by(&self, addr: IpAddr) -> usize {
        self.by_address.held(addr)
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

    /// A request's cost is bounded: the budget counts legal moves; the standard Ordo X start (2,062
    /// moves) is over a budget of 2,000 and within one of 3,000.
    #[test]
    fn the_move_budget_refuses_positions_with_more_legal_moves() {
        let x = "2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/WW2WW2WW/WWWWWWWWWW/2WW2WW2 w x";
        let e = Pool::new(1, 1, 1, 2000).check_budget(x).unwrap_err();
        assert_eq!((e.status(), e.place.as_str()), (422, "position"));
        assert!(e.message.contains("2062 legal moves"), "{}", e.message);
        assert_eq!(Pool::new(1, 1, 1, 3000).check_budget(x), Ok(Lane::Heavy));
        let classic = "4/1B2/WW2/2W1 w classic";
        assert_eq!(
            Pool::new(1, 1, 1, 3000).check_budget(classic),
            Ok(Lane::Light)
        );
        assert_eq!(
            Pool::new(1, 1, 1, 1).check_budget("no position"),
            Ok(Lane::Light)
        );
    }

    /// Overload is refused, not queued for ever: a full queue answers 503 at once, an address over
    /// its share 429, and work dropped while waiting never runs.
    #[test]
    fn a_full_queue_refuses_and_abandoned_work_never_runs() {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let pool = Arc::new(Pool::new(1, 2, 1, 10));
            let (tx, rx) = std::sync::mpsc::channel::<()>();
            let p = pool.clone();
            // The only worker, held until `tx` sends.
            let first = tokio::spawn(async move {
                p.run(None, Lane::Light, move || {
                    let _ = rx.recv();
                    Ok(())
                })
                .await
            });
            while pool.workers.available_permits() > 0 {
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
            while pool.held_by(A) == 0 {
                tokio::task::yield_now().await;
            }
            let again = pool
                .run(Some(Peer(A)), Lane::Light, || Ok(()))
                .await
                .unwrap_err();
            assert_eq!(again.status(), 429, "{again}");
            let full = pool.run(None, Lane::Light, || Ok(())).await.unwrap_err();
            assert_eq!(full.status(), 503, "{full}");
            waiting.abort();
            let _ = waiting.await;
            tx.send(()).unwrap();
            first.await.unwrap().unwrap();
            pool.run(None, Lane::Light, || Ok(())).await.unwrap();
            assert_eq!(ran.load(Ordering::SeqCst), 0, "abandoned work ran");
            assert_eq!(pool.held_by(A), 0);
        });
    }
}
