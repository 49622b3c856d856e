//! A change the state dir could not record: the store does not make it, and the client is
//! told why in a Status.

use crate::journal::{self, JournalError};
use crate::status::ApiError;

/// A change the state dir could not record, so the store did not make it either: the client
/// is told (500, or 507 when the disk is full) instead of being told "created" for a change a
/// restart would lose (reliability review 4, D1).
#[derive(Debug)]
pub struct Unrecorded {
    why: String,
    out_of_space: bool,
}

impl From<Unrecorded> for ApiError {
    fn from(e: Unrecorded) -> ApiError {
        let mut error = ApiError::internal(format!(
            "the embedded cluster could not record this change in its state dir, so it did not make it ({}){}",
            e.why,
            if e.out_of_space {
                "; free some disk space and try again"
            } else {
                ""
            }
        ));
        if e.out_of_space {
            error.code = 507;
        }
        error
    }
}

/// For callers that only need to know a write failed (tests, controllers' own writes).
impl From<Unrecorded> for () {
    fn from(_: Unrecorded) {}
}

impl From<&JournalError> for Unrecorded {
    fn from(e: &JournalError) -> Unrecorded {
        Unrecorded {
            why: e.to_string(),
            out_of_space: journal::is_out_of_space(e),
        }
    }
}
