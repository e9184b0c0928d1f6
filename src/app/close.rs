//! The close flow: the questions asked before changes not saved are dropped (closing the
//! window, File > New), the choice to close, and "Save and close", which closes once its save
//! has landed (a failed save keeps the window open). Its state is private: the app asks,
//! answers and reads it through these methods only.

/// The question showing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// The window was asked to close with changes not saved.
    Close,
    /// File > New was asked for with changes not saved.
    New,
}

/// Where the closing of the window (or the dropping of the design) stands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CloseFlow {
    question: Option<Question>,
    closing: bool,
    after_save: bool,
}

impl CloseFlow {
    /// The question showing, if any.
    pub fn question(&self) -> Option<Question> {
        self.question
    }

    /// Shows `question` (the window's close comes before a new design's).
    pub fn ask(&mut self, question: Question) {
        if self.question != Some(Question::Close) {
            self.question = Some(question);
        }
    }

    /// Closes the question without doing anything (Cancel, or its work done).
    pub fn dismiss(&mut self) {
        self.question = None;
    }

    /// "Save and close": the question goes, and the window closes once the save has landed.
    pub fn save_and_close(&mut self) {
        self.question = None;
        self.after_save = true;
    }

    /// The user chose to close: no more questions.
    pub fn close(&mut self) {
        self.question = None;
        self.closing = true;
    }

    /// Whether the user chose to close.
    pub fn closing(&self) -> bool {
        self.closing
    }

    /// A save failed (or was refused): the window stays open.
    pub fn save_failed(&mut self) {
        self.after_save = false;
    }

    /// Whether a "Save and close" was waiting for its save, which has now landed; asked once.
    pub fn save_landed(&mut self) -> bool {
        std::mem::take(&mut self.after_save)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_close_question_wins_and_a_failed_save_keeps_the_window() {
        let mut c = CloseFlow::default();
        c.ask(Question::New);
        assert_eq!(c.question(), Some(Question::New));
        c.ask(Question::Close);
        c.ask(Question::New);
        assert_eq!(c.question(), Some(Question::Close));
        c.save_and_close();
        assert_eq!(c.question(), None);
        c.save_failed();
        assert!(!c.save_landed(), "a failed save closes nothing");
        c.save_and_close();
        assert!(c.save_landed());
        assert!(!c.save_landed(), "asked once");
        assert!(!c.closing());
        c.close();
        assert!(c.closing());
    }
}
