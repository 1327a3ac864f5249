/*
 * ytt-rs patch: bounds on repetition, in the words of the reference (Carvel ytt).
 */

//! How many times `seq * n` repeats a string, list or tuple: as the reference measures,
//! an empty sequence gives an empty one whatever the int; otherwise an int outside 32 bits
//! is `repeat count N too large`, one below 1 gives an empty sequence, and a result of
//! 2^30 elements (a string's bytes) or more is `excessive repeat (N elements)`, refused
//! before anything is allocated.

use crate::values::Value;
use crate::values::types::int::int_or_big::StarlarkIntRef;

/// Results from this many elements on are refused.
const MAX_ELEMENTS: u64 = 1 << 30;

#[derive(Debug, thiserror::Error)]
enum RepeatError {
    #[error("repeat count {0} too large")]
    CountTooLarge(String),
    #[error("excessive repeat ({0} elements)")]
    Excessive(u64),
}

/// The times a sequence of `len` elements is repeated by `count`; `None` when `count` is
/// not an int.
pub(crate) fn repeat_times(len: usize, count: Value) -> Option<crate::Result<usize>> {
    let n = StarlarkIntRef::unpack(count)?;
    if len == 0 {
        return Some(Ok(0));
    }
    let Some(n) = n.to_i32() else {
        let e = RepeatError::CountTooLarge(count.to_str());
        return Some(Err(crate::Error::new_value(e)));
    };
    let Ok(n) = u64::try_from(n) else {
        return Some(Ok(0));
    };
    let elements = (len as u64).saturating_mul(n);
    if elements >= MAX_ELEMENTS {
        return Some(Err(crate::Error::new_value(RepeatError::Excessive(
            elements,
        ))));
    }
    Some(Ok(n as usize))
}
