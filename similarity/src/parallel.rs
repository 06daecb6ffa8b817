//! A parallel map on scoped threads: tokenising and tiling are independent per item, and a
//! course's machine has a few cores.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// `f` over `items` on up to `threads` threads; results in the items' order. With `nice`
/// above 0 the work runs on threads of their own at that nice value, so that the caller's
/// thread keeps its priority.
pub fn map_nice<'a, T: Sync, R: Send>(
    items: &'a [T],
    threads: usize,
    nice: i32,
    f: impl Fn(&'a T) -> R + Sync,
) -> Vec<R> {
    let threads = threads.clamp(1, items.len().max(1));
    if threads == 1 && nice <= 0 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, R)>> = Mutex::new(Vec::with_capacity(items.len()));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                lower_priority(nice);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let r = f(item);
                    results
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .push((i, r));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|p| p.into_inner());
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

/// This thread's nice value raised to `nice` (Linux gives each thread its own); a failure
/// leaves it as it is.
fn lower_priority(nice: i32) {
    if nice <= 0 {
        return;
    }
    // SAFETY: gettid, getpriority and setpriority have no memory effects; who = this thread.
    unsafe {
        let Ok(tid) = libc::id_t::try_from(libc::syscall(libc::SYS_gettid)) else {
            return;
        };
        let now = libc::getpriority(libc::PRIO_PROCESS, tid);
        if now < nice {
            libc::setpriority(libc::PRIO_PROCESS, tid, nice);
        }
    }
}

/// The machine's cores.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[cfg(test)]
mod tests {
    #[test]
    fn keeps_order() {
        let v: Vec<u64> = (0..1000).collect();
        let r = super::map_nice(&v, 4, 0, |x| x * 2);
        assert_eq!(r, v.iter().map(|x| x * 2).collect::<Vec<_>>());
        assert!(super::map_nice(&Vec::<u8>::new(), 4, 0, |x| *x).is_empty());
        // SAFETY: getpriority reads this thread's nice value (who = its id).
        let nice = || unsafe {
            let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
            libc::getpriority(libc::PRIO_PROCESS, tid)
        };
        let before = nice();
        let inside = super::map_nice(&v[..3], 1, 5, |_| nice());
        assert_eq!(inside, vec![before.max(5); 3]);
        assert_eq!(nice(), before, "the caller's thread keeps its priority");
    }
}
