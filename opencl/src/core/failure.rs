//! Which commands of a queue share an earlier command's failure.
//!
//! Every command of an in-order queue waits for the commands enqueued before it, so when one
//! fails (a GPU fault or hang, a failed wait list, an error of its own) the commands behind it
//! fail too, with CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, as a command whose wait list
//! holds a failed event does: a blocking read after a kernel that faulted returns that error
//! instead of the buffer as it was. In an out-of-order queue only barriers (and markers with
//! an empty wait list) wait for everything before them; a barrier that shares a failure
//! passes it to the commands after it.
//!
//! The queue recovers once the application was told: a blocking enqueue, clWaitForEvents or
//! clFinish returned the error, or the application read a failed event's status. Commands
//! enqueued after that run; those enqueued before it still fail. The rule depends only on the
//! order of the application's calls, never on when the GPU failed.

/// A command's place in its queue's order (increasing in enqueue order).
pub type Seq = u64;

/// Which earlier commands a command implicitly waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Waits {
    /// Only its wait list (in an out-of-order queue); every earlier command (in order).
    Own,
    /// A marker with an empty wait list: every earlier command, and nothing waits for it.
    Marker,
    /// A barrier with an empty wait list: every earlier command, and later ones wait for it.
    Barrier,
}

/// The failed commands since the application was last told.
#[derive(Clone, Copy, Debug)]
struct Window {
    /// The command whose own failure opened it.
    from: Seq,
    /// Commands enqueued before this one share it; `Seq::MAX` until the application is told.
    until: Seq,
    /// Whether the commands inside share it (in order: always; out of order: after a barrier).
    armed: bool,
}

#[derive(Debug)]
pub struct Failures {
    in_order: bool,
    next: Seq,
    window: Option<Window>,
}

impl Failures {
    pub fn new(in_order: bool) -> Failures {
        Failures {
            in_order,
            next: 0,
            window: None,
        }
    }

    /// The next enqueued command's place.
    pub fn enqueue(&mut self) -> Seq {
        let s = self.next;
        self.next += 1;
        s
    }

    /// Whether command `seq` fails because an earlier one did. A barrier inside the window
    /// arms it for the commands after it.
    pub fn shares(&mut self, seq: Seq, waits: Waits) -> bool {
        let Some(w) = self.window.as_mut() else {
            return false;
        };
        if seq <= w.from || seq >= w.until {
            return false;
        }
        match waits {
            Waits::Own => w.armed,
            Waits::Marker => true,
            Waits::Barrier => {
                w.armed = true;
                true
            }
        }
    }

    /// Command `seq` failed on its own (not by [`Failures::shares`]).
    pub fn failed(&mut self, seq: Seq) {
        if let Some(w) = self.window {
            if w.until == Seq::MAX && w.from <= seq {
                return;
            }
        }
        self.window = Some(Window {
            from: seq,
            until: Seq::MAX,
            armed: self.in_order,
        });
    }

    /// The application was told that command `seq` failed: commands enqueued from now on no
    /// longer share the failures it could see.
    pub fn told(&mut self, seq: Seq) {
        let next = self.next;
        if let Some(w) = self.window.as_mut() {
            if w.until == Seq::MAX && w.from <= seq {
                w.until = next;
            }
        }
    }

    /// clFinish returned: whether a failure the application was not told of was there (it is
    /// told now, by clFinish's error).
    pub fn finish(&mut self) -> bool {
        let next = self.next;
        match self.window.as_mut() {
            Some(w) if w.until == Seq::MAX => {
                w.until = next;
                true
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_order_commands_behind_a_failure_fail_until_the_application_is_told() {
        let mut f = Failures::new(true);
        let kernel = f.enqueue();
        let read = f.enqueue();
        f.failed(kernel);
        assert!(f.shares(read, Waits::Own), "the read waited for the kernel");
        let later = f.enqueue();
        assert!(f.shares(later, Waits::Own));
        f.told(read);
        let after = f.enqueue();
        assert!(
            !f.shares(after, Waits::Own),
            "enqueued after the application was told"
        );
        assert!(f.shares(later, Waits::Own), "enqueued before it was told");
        assert!(!f.finish(), "already told");
    }

    #[test]
    fn clfinish_tells_once() {
        let mut f = Failures::new(true);
        let k = f.enqueue();
        f.failed(k);
        assert!(f.finish());
        assert!(!f.finish());
        let n = f.enqueue();
        assert!(!f.shares(n, Waits::Own));
    }

    #[test]
    fn a_failure_after_recovery_opens_a_new_window() {
        let mut f = Failures::new(true);
        let a = f.enqueue();
        f.failed(a);
        f.told(a);
        let b = f.enqueue();
        let c = f.enqueue();
        assert!(!f.shares(b, Waits::Own));
        f.failed(b);
        assert!(f.shares(c, Waits::Own));
        f.told(a);
        assert!(f.shares(c, Waits::Own), "told of an older failure only");
        assert!(f.finish());
    }

    #[test]
    fn out_of_order_commands_share_a_failure_only_through_a_barrier() {
        let mut f = Failures::new(false);
        let k = f.enqueue();
        let other = f.enqueue();
        let marker = f.enqueue();
        let barrier = f.enqueue();
        let after = f.enqueue();
        f.failed(k);
        assert!(!f.shares(other, Waits::Own));
        assert!(f.shares(marker, Waits::Marker));
        assert!(
            !f.shares(after, Waits::Own),
            "a marker does not order later commands"
        );
        assert!(f.shares(barrier, Waits::Barrier));
        assert!(f.shares(after, Waits::Own), "behind the barrier");
    }

    #[test]
    fn the_failed_command_itself_is_not_behind_its_failure() {
        let mut f = Failures::new(true);
        let k = f.enqueue();
        f.failed(k);
        assert!(!f.shares(k, Waits::Own));
    }
}
