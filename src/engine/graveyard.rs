//! Deferred teardown. Freeing a large solver (a deep unrolling, a PDR run with many frames)
//! takes tens of milliseconds; engines hand their solvers to [`keep`] when they finish, so that
//! a verdict is reported before that cost is paid, and the caller frees them with [`release`]
//! once the answer is out (a portfolio member after reporting; the command line never, since
//! the process exits). When the whole run has been stopped (a time limit, a signal), a member
//! [`abandon`]s them instead: freeing the solvers of a large system takes seconds, and the
//! process is about to exit.

use std::any::Any;
use std::cell::RefCell;

thread_local! {
    static KEPT: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
}

/// Keep `x` alive until [`release`] is called on this thread.
pub fn keep<T: 'static>(x: T) {
    KEPT.with(|k| k.borrow_mut().push(Box::new(x)));
}

/// Free everything kept on this thread.
pub fn release() {
    let kept = KEPT.with(|k| std::mem::take(&mut *k.borrow_mut()));
    drop(kept);
}

/// Forget everything kept on this thread without freeing it (its memory is lost until the
/// process exits): for a run that has been stopped and is about to end.
pub fn abandon() {
    let kept = KEPT.with(|k| std::mem::take(&mut *k.borrow_mut()));
    std::mem::forget(kept);
}
