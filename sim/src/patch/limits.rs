//! How big a patch may make an object, as kube-apiserver bounds it: at most 10,000 JSON patch
//! operations (413), `copy` operations that together copy no more than the request body limit
//! (the generic 422 of a patch that fails), and a patched object no bigger than a body the
//! server would take (413). Without them a 1.5 KB patch of `copy` operations doubles an object
//! per operation and takes the machine's memory (reliability review 4, S3).
//!
//! Sizes are counted by serializing into a counter that stops at the limit, so measuring a
//! huge value never costs more than the limit itself.

use std::io::Write;

use serde_json::Value;

use crate::status::ApiError;

/// `maxJSONPatchOperations` of the real patch handler.
pub const MAX_JSON_PATCH_OPERATIONS: usize = 10_000;

/// The largest body the API reads, and so the most a patch may add or make (3 MiB, as the
/// real server's `MaxRequestBodyBytes` and `JSONPatchMaxCopyBytes`).
pub const MAX_PATCHED_BYTES: usize = crate::body::MAX_BODY_BYTES;

/// The 413 of a JSON patch with too many operations, in the real handler's words.
pub fn too_many_operations(count: usize) -> ApiError {
    ApiError {
        code: 413,
        reason: "RequestEntityTooLarge",
        message: format!(
            "Request entity too large: The allowed maximum operations in a JSON patch is {MAX_JSON_PATCH_OPERATIONS}, got {count}"
        ),
        details: None,
    }
}

/// The serialized size of `value`, or `None` once it passes `limit` (counting stops there).
pub fn json_size_within(value: &Value, limit: usize) -> Option<usize> {
    let mut counter = Counter { bytes: 0, limit };
    serde_json::to_writer(&mut counter, value).ok()?;
    Some(counter.bytes)
}

/// Refuses a patched object bigger than a body the server would have read (413).
pub fn check_patched_size(patched: &Value) -> Result<(), ApiError> {
    match json_size_within(patched, MAX_PATCHED_BYTES) {
        Some(_) => Ok(()),
        None => Err(ApiError::too_large(MAX_PATCHED_BYTES)),
    }
}

/// Counts bytes written and fails the write once they pass the limit, which stops the
/// serializer at once.
struct Counter {
    bytes: usize,
    limit: usize,
}

impl Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.bytes = self.bytes.saturating_add(buf.len());
        if self.bytes > self.limit {
            return Err(std::io::Error::other("over the limit"));
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn sizes_are_counted_up_to_the_limit_only() {
        let v = json!({"a": "bc"});
        assert_eq!(json_size_within(&v, 100), Some(10));
        assert_eq!(json_size_within(&v, 9), None);
        let big = Value::String("x".repeat(10_000));
        assert_eq!(json_size_within(&big, 100), None);
    }

    #[test]
    fn too_many_operations_is_the_real_handlers_413() {
        let e = too_many_operations(10_001);
        assert_eq!((e.code, e.reason), (413, "RequestEntityTooLarge"));
        assert!(
            e.message
                .contains("maximum operations in a JSON patch is 10000, got 10001")
        );
    }
}
