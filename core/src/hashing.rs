//! How the checks' hash maps and sets hash: `foldhash` with its fixed
//! default seed, not std's `SipHash`.
//!
//! `SipHash` was a tenth of an uncapped 100,000-row `duplicate_report` in the
//! module (`scripts/profile-wasm.sh duplicate_report`: rows grouped by key,
//! signatures counted, reported key sets looked up). A fixed seed keeps a
//! call's fuel the same from run to run. A map or set hashed so must never
//! be read in its own order (each is only looked up, or sorted first), so
//! the answers do not depend on the hasher. A caller who crafts colliding
//! keys only makes the call slower, within its fuel and deadline.

/// The `BuildHasher` of the checks' maps and sets.
pub(crate) type Fixed = foldhash::fast::FixedState;
