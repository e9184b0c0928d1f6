//! Which thread does the file I/O (debug and test builds): the editor marks its UI thread
//! while a frame runs ([`on_ui_thread`]), and every read and write of this module counts the
//! calls made on a marked thread ([`ui_thread_io`]), so a test can show that the UI thread
//! neither reads nor writes a file. Work the UI thread runs as a stand-in for a background
//! thread (a task run inline in tests) is unmarked while it runs ([`off_ui_thread`]). Release
//! builds keep no marks and count nothing.

#[cfg(debug_assertions)]
mod marks {
    use std::cell::{Cell, RefCell};

    thread_local! {
        static UI: Cell<bool> = const { Cell::new(false) };
        static SEEN: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    }

    pub fn set(on: bool) -> bool {
        UI.with(|u| u.replace(on))
    }

    /// The most operations kept (the first ones: a test needs only to see that there were).
    const KEPT: usize = 64;

    pub fn touched(what: &str, path: &std::path::Path) {
        if UI.with(Cell::get) {
            SEEN.with(|s| {
                let mut s = s.borrow_mut();
                if s.len() < KEPT {
                    s.push(format!("{what} {}", path.display()));
                }
            });
        }
    }

    pub fn seen() -> Vec<String> {
        SEEN.with(|s| s.borrow().clone())
    }
}

/// Runs `f` with the calling thread marked as the UI thread (the editor's frame).
pub fn on_ui_thread<R>(f: impl FnOnce() -> R) -> R {
    mark(true, f)
}

/// Runs `f` with the calling thread not marked (a background task run inline).
pub fn off_ui_thread<R>(f: impl FnOnce() -> R) -> R {
    mark(false, f)
}

fn mark<R>(on: bool, f: impl FnOnce() -> R) -> R {
    #[cfg(debug_assertions)]
    {
        struct Restore(bool);
        impl Drop for Restore {
            fn drop(&mut self) {
                marks::set(self.0);
            }
        }
        let _restore = Restore(marks::set(on));
        f()
    }
    #[cfg(not(debug_assertions))]
    {
        let _ = on;
        f()
    }
}

/// Notes a file operation (`what`, on `path`) if the calling thread is marked as the UI's.
pub(super) fn touched(what: &str, path: &std::path::Path) {
    #[cfg(debug_assertions)]
    marks::touched(what, path);
    #[cfg(not(debug_assertions))]
    let _ = (what, path);
}

/// The file operations made so far on the calling thread while it was marked as the UI
/// thread (the first 64), each as "read PATH" or "write PATH" (always empty in release builds).
pub fn ui_thread_io() -> Vec<String> {
    #[cfg(debug_assertions)]
    {
        marks::seen()
    }
    #[cfg(not(debug_assertions))]
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_io_on_a_marked_thread_is_counted() {
        let p = std::path::Path::new("/x");
        let before = ui_thread_io().len();
        touched("read", p);
        on_ui_thread(|| {
            touched("read", p);
            off_ui_thread(|| touched("write", p));
            touched("write", p);
        });
        touched("read", p);
        let seen = ui_thread_io();
        assert_eq!(seen[before..], ["read /x", "write /x"]);
    }
}
