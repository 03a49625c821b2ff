//! A large call checked in parts, one instance per core, at once.
//!
//! One instance reads a call's rows at one core's speed. When the module
//! says a call may be checked in parts (`mcpv_parts`: so far a
//! `validate_rows` call that checks each row alone), its rows are cut into
//! as many parts as there are free part slots and cores, each part is
//! checked in its own instance on its own thread (`mcpv_call_part`), and
//! one more instance merges their reports into the result (`mcpv_merge`),
//! which is the result of the whole call, byte for byte
//! (`core/tests/csv_parts.rs`).
//!
//! The host only cuts bytes, where the module can tell a wrong cut:
//! - a CSV file's text after a line break near each part's share, each
//!   part after the first given the text's first lines (up to a line
//!   break, at most [`HEAD_MAX_BYTES`]) as its head. A line break inside a
//!   quoted field is not between two records: the part before it then ends
//!   inside quotes, and the module refuses it, as it refuses a head that
//!   does not hold the whole header;
//! - a `rows` array's text at a comma followed by `{` near each share, each
//!   part the arguments with `rows` cut down to the elements between its
//!   commas. A comma inside a string or a nested array is not between two
//!   rows: the part before it then ends inside that string or array, which
//!   its closing `]` cannot close, so it is not JSON and the module refuses
//!   it.
//!
//! Any refusal, and any part that fails (an error in the data, fuel or
//! memory running out), sends the call back to one instance on all its
//! rows under the call's own limits, which then answers exactly as it
//! always has: the parts can make a call faster, never different. Only the
//! deadline and a cancellation end the call at once, as they would have
//! anyway.
//!
//! Each part runs under an equal share of the call's fuel and memory, so
//! the parts together stay within the call's limits; the merge then runs
//! under the call's limits. A rows array's parts are copies of the
//! arguments, each with its own rows: their bytes are taken from the
//! server's memory budget before they are made, and with no room there the
//! call is made whole.

use std::borrow::Cow;
use std::ops::Range;
use std::time::Instant;

use super::call::{self, Entry, RawOutcome};
use super::{CallInput, Limits, Module, SandboxError};
use crate::bounded::StopFlag;
use crate::budget::Reservation;

/// The smallest share of the text worth a part of its own: an instance
/// reads it in about 20 ms, against well under a millisecond for starting
/// one and for the merge.
pub(crate) const PART_MIN_BYTES: usize = 2 << 20;

/// Most bytes of the head given to each part after the first.
const HEAD_MAX_BYTES: usize = 64 << 10;

/// Where a CSV text is cut: the head's end and each later part's start.
#[derive(Debug, PartialEq, Eq)]
struct Cuts {
    head_end: usize,
    starts: Vec<usize>,
}

/// Cut `text` into at most `parts` parts of about equal size, each after a
/// line break, all past a head that ends with one; `None` when there is
/// no such cut.
fn cut(text: &[u8], parts: usize) -> Option<Cuts> {
    let head_end = text[..text.len().min(HEAD_MAX_BYTES)].iter().rposition(|&byte| byte == b'\n')? + 1;
    let mut starts: Vec<usize> = Vec::new();
    for share in 1..parts {
        let from = (text.len() / parts * share).max(head_end).max(starts.last().copied().unwrap_or(0));
        let Some(at) = text[from..].iter().position(|&byte| byte == b'\n').map(|at| from + at + 1) else { break };
        if at < text.len() && starts.last() != Some(&at) {
            starts.push(at);
        }
    }
    (!starts.is_empty()).then_some(Cuts { head_end, starts })
}

/// The commas in `array` (a JSON array's text, brackets included) where it
/// is cut into at most `parts` parts of about equal size: each the first
/// comma followed (after blank space) by `{` from a part's share on.
fn cut_array(array: &[u8], parts: usize) -> Vec<usize> {
    let mut commas: Vec<usize> = Vec::new();
    for share in 1..parts {
        let from = (array.len() / parts * share).max(commas.last().map_or(1, |last| last + 1));
        let found = (from..array.len().saturating_sub(1)).find(|&at| {
            array[at] == b','
                && array[at + 1..].iter().find(|byte| !matches!(byte, b' ' | b'\t' | b'\n' | b'\r')) == Some(&b'{')
        });
        match found {
            Some(at) => commas.push(at),
            None => break,
        }
    }
    commas
}

/// One part: its arguments, and its CSV text and head (none for rows).
struct Part<'t> {
    args: Cow<'t, [u8]>,
    head: Option<&'t [u8]>,
    csv: Option<&'t [u8]>,
}

/// The `rows` array's text in `input`'s arguments, and where it lies.
fn rows_array(input: &CallInput) -> Option<(&[u8], Range<usize>)> {
    let span = input.rows.clone()?;
    let array = input.args.get(span.clone())?;
    (array.first() == Some(&b'[') && array.last() == Some(&b']')).then_some((array, span))
}

/// `args` with the array at `span` holding only `elements` (the text between its brackets).
fn with_rows(args: &[u8], span: &Range<usize>, elements: &[u8]) -> Vec<u8> {
    [&args[..span.start], b"[", elements, b"]", &args[span.end..]].concat()
}

/// The call's arguments without its rows, for `mcpv_parts` and
/// `mcpv_merge`: as they are beside a CSV text, with `"rows": []` else
/// (a copy, whose bytes are taken from `copies` first).
fn bare<'t>(input: &'t CallInput, copies: &mut Reservation) -> Option<Cow<'t, [u8]>> {
    if input.csv.is_some() {
        return Some(Cow::Borrowed(&input.args));
    }
    let (array, span) = rows_array(input)?;
    copies.try_grow((input.args.len() - array.len() + 2) as u64).ok()?;
    Some(Cow::Owned(with_rows(&input.args, &span, b"")))
}

/// Where a call's rows are cut, before any part is made.
enum Cutting<'t> {
    /// A CSV text, each part borrowing its stretch.
    Csv { text: &'t [u8], cuts: Cuts },
    /// A `rows` array at `span` in the arguments, cut at `commas`: each
    /// part is a copy of the arguments with its own rows.
    Array { array: &'t [u8], span: Range<usize>, commas: Vec<usize> },
}

impl<'t> Cutting<'t> {
    /// Where `input`'s rows are cut into at most `parts` parts, if they can be.
    fn of(input: &'t CallInput, parts: usize) -> Option<Cutting<'t>> {
        if let Some(text) = input.csv.as_deref().map(str::as_bytes) {
            return Some(Cutting::Csv { text, cuts: cut(text, parts)? });
        }
        let (array, span) = rows_array(input)?;
        let commas = cut_array(array, parts);
        (!commas.is_empty()).then_some(Cutting::Array { array, span, commas })
    }

    /// The bytes the parts copy, for arguments of `args_len` bytes: for
    /// each of a rows array's parts, the arguments around the array and
    /// two brackets; and, all parts together, the array's elements but the
    /// commas it is cut at. A CSV text's parts copy nothing.
    fn copied_bytes(&self, args_len: usize) -> u64 {
        match self {
            Cutting::Csv { .. } => 0,
            Cutting::Array { array, commas, .. } => {
                let around = args_len - array.len() + 2;
                ((commas.len() + 1) * around + array.len() - 2 - commas.len()) as u64
            }
        }
    }

    /// The parts, the bytes they copy taken from `copies` first (`None`
    /// when the server's memory budget has no room for them).
    fn into_parts(self, args: &'t [u8], copies: &mut Reservation) -> Option<Vec<Part<'t>>> {
        copies.try_grow(self.copied_bytes(args.len())).ok()?;
        match self {
            Cutting::Csv { text, cuts } => {
                let mut bounds = vec![0];
                bounds.extend_from_slice(&cuts.starts);
                bounds.push(text.len());
                let parts = bounds.windows(2).map(|pair| Part {
                    args: Cow::Borrowed(args),
                    head: (pair[0] > 0).then(|| &text[..cuts.head_end]),
                    csv: Some(&text[pair[0]..pair[1]]),
                });
                Some(parts.collect())
            }
            Cutting::Array { array, span, commas } => {
                let mut bounds = vec![0];
                bounds.extend_from_slice(&commas);
                bounds.push(array.len() - 1);
                let parts = bounds.windows(2).map(|pair| Part {
                    args: Cow::Owned(with_rows(args, &span, &array[pair[0] + 1..pair[1]])),
                    head: None,
                    csv: None,
                });
                Some(parts.collect())
            }
        }
    }
}

/// Whether an error ends the call rather than sending it back to one instance.
fn ends_the_call(err: &SandboxError) -> bool {
    matches!(err, SandboxError::Timeout { .. } | SandboxError::Cancelled)
}

/// Run `tool` on `input` in parts, when the call may be and it is worth it
/// (the caller holds the call's slot; the extra part slots are taken here,
/// as many as are free). `None`: make the whole call in one instance.
pub(crate) fn try_in_parts(
    module: &Module,
    tool: &str,
    input: &CallInput,
    deadline: Instant,
    stop: &StopFlag,
) -> Option<Result<RawOutcome, SandboxError>> {
    if input.export.is_some() {
        return None;
    }
    let size = match (&input.csv, &input.rows) {
        (Some(csv), _) => csv.len(),
        (None, Some(rows)) => rows.len(),
        (None, None) => return None,
    };
    let wanted = module.parts_per_call.min(size / PART_MIN_BYTES);
    if wanted < 2 {
        return None;
    }
    let helpers = module.slots.parts(wanted - 1);
    if helpers.parts() == 0 {
        return None;
    }
    let started = Instant::now();
    // The copies of the arguments made below are the call's too: held in
    // the server's memory budget until the call is answered.
    let mut copies = module.pool.empty();
    let bare = bare(input, &mut copies)?;
    let tool = tool.as_bytes();
    let run = |limits: Limits, entry: Entry<'_>| call::run(module, limits, deadline, stop.clone(), tool, entry);

    let asked = match run(module.limits, Entry::Parts { args: &bare }) {
        Ok(asked) => asked,
        Err(err) if ends_the_call(&err) => return Some(Err(err)),
        Err(_) => return None,
    };
    if asked.status != 1 {
        return None;
    }
    let parts = Cutting::of(input, 1 + helpers.parts())?.into_parts(&input.args, &mut copies)?;
    let (mut fuel, mut peak_memory_bytes) = (asked.fuel_used, 0);

    let count = parts.len() as u64;
    let share = Limits {
        max_fuel: module.limits.max_fuel / count,
        max_memory_bytes: module.limits.max_memory_bytes / count,
        ..module.limits
    };
    let entry = |part: &Part<'_>| {
        let Part { args, head, csv } = part;
        run(share, Entry::Part { args, head: *head, csv: *csv })
    };
    let reports: Vec<Result<RawOutcome, SandboxError>> = std::thread::scope(|scope| {
        let later: Vec<_> = parts[1..].iter().map(|part| scope.spawn(move || entry(part))).collect();
        let first = entry(&parts[0]);
        std::iter::once(first)
            .chain(later.into_iter().map(|part| {
                part.join().unwrap_or_else(|_| Err(SandboxError::Trapped("a part's thread panicked".into())))
            }))
            .collect()
    });
    drop((helpers, parts));

    let mut merged = b"[".to_vec();
    let mut part_ms = Vec::with_capacity(reports.len());
    for (index, report) in reports.into_iter().enumerate() {
        let report = match report {
            Ok(report) if report.status == 0 => report,
            Ok(refused) => {
                tracing::debug!(part = index, why = %String::from_utf8_lossy(&refused.json), "checked whole: a part refused");
                return None;
            }
            Err(err) if ends_the_call(&err) => return Some(Err(err)),
            Err(err) => {
                tracing::debug!(part = index, %err, "checked whole: a part failed");
                return None;
            }
        };
        part_ms.push(report.elapsed.as_millis());
        fuel += report.fuel_used;
        peak_memory_bytes += report.peak_memory_bytes;
        if index > 0 {
            merged.push(b',');
        }
        merged.extend_from_slice(&report.json);
    }
    merged.push(b']');

    let result = match run(module.limits, Entry::Merge { args: &bare, parts: &merged }) {
        Ok(result) if result.status == 0 => result,
        Err(err) if ends_the_call(&err) => return Some(Err(err)),
        // Never expected (the module merges what it wrote), but the whole
        // call still has an answer.
        Ok(_) | Err(_) => return None,
    };
    tracing::debug!(
        parts = count,
        elapsed_ms = started.elapsed().as_millis(),
        ask_ms = asked.elapsed.as_millis(),
        part_ms = ?part_ms,
        merge_ms = result.elapsed.as_millis(),
        "checked in parts"
    );
    Some(Ok(RawOutcome {
        fuel_used: fuel + result.fuel_used,
        peak_memory_bytes: peak_memory_bytes.max(result.peak_memory_bytes),
        elapsed: started.elapsed(),
        parts: part_ms.len(),
        ..result
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_is_cut_after_line_breaks_near_equal_shares_past_the_head() {
        let text = b"h\naaaa\nbbbb\ncccc\ndddd\n";
        assert_eq!(cut(text, 2), None, "the head is the whole text: nothing is left to cut");
        let long: Vec<u8> = [&b"id,n\n"[..], &b"x,1\n".repeat(HEAD_MAX_BYTES)].concat();
        let cuts = cut(&long, 4).unwrap();
        // The head: the last whole line within its limit.
        assert_eq!(cuts.head_end, HEAD_MAX_BYTES - (HEAD_MAX_BYTES - 5) % 4);
        assert_eq!(long[cuts.head_end - 1], b'\n');
        assert_eq!(cuts.starts.len(), 3);
        for (share, &start) in cuts.starts.iter().enumerate() {
            assert_eq!(long[start - 1], b'\n', "each part starts after a line break");
            let target = long.len() / 4 * (share + 1);
            assert!((target + 1..=target + 4).contains(&start), "{start} is not just past {target}");
        }
        // No line break past the head: nothing to cut.
        assert_eq!(cut(&[&b"id\n"[..], &b"x".repeat(1000)].concat(), 2), None);
        // A text without a line break in its head cannot be cut.
        assert_eq!(cut(&b"x".repeat(HEAD_MAX_BYTES + 10), 2), None);
    }

    #[test]
    fn the_copies_of_a_rows_arrays_parts_are_in_the_budget_before_they_are_made() {
        let rows: Vec<String> = (0..400).map(|i| format!(r#"{{"id": "R-{i}", "n": {i}}}"#)).collect();
        let args = format!(r#"{{"max_listed": 25, "rows": [{}], "columns": [{{"name": "n"}}]}}"#, rows.join(", "));
        let (start, end) = (args.find('[').unwrap(), args.find(r#"], "columns""#).unwrap() + 1);
        let input = CallInput { args: args.clone().into_bytes(), rows: Some(start..end), ..Default::default() };
        let pool = |bytes: u64| crate::budget::MemoryPool::new(bytes);
        for parts in 2..=4 {
            // What the parts copy, measured on the parts made with room to spare.
            let mut copies = pool(1 << 20).empty();
            let made = Cutting::of(&input, parts).unwrap().into_parts(&input.args, &mut copies).unwrap();
            assert_eq!(made.len(), parts);
            let made_bytes: usize = made.iter().map(|part| part.args.len()).sum();
            assert!(made.iter().all(|part| matches!(part.args, Cow::Owned(_))));
            assert_eq!(Cutting::of(&input, parts).unwrap().copied_bytes(args.len()), made_bytes as u64);
            assert!(copies.bytes() >= made_bytes as u64);
            // A budget a KiB short of them makes no part (the pool counts whole KiB).
            let short = (made_bytes as u64).div_ceil(1024) * 1024 - 1024;
            let mut copies = pool(short).empty();
            assert!(Cutting::of(&input, parts).unwrap().into_parts(&input.args, &mut copies).is_none());
            assert_eq!(copies.bytes(), 0, "nothing is held for parts not made");
        }
        // The arguments without their rows, for the ask and the merge.
        let mut copies = pool(1 << 20).empty();
        let without_rows = bare(&input, &mut copies).unwrap();
        assert_eq!(without_rows.len(), args.len() - (end - start) + 2);
        assert!(copies.bytes() >= without_rows.len() as u64);
        // A CSV text's parts borrow it: nothing to hold.
        let text = [&b"id,n\n"[..], &b"x,1\n".repeat(HEAD_MAX_BYTES)].concat();
        let csv = CallInput { args: b"{}".to_vec(), csv: Some(String::from_utf8(text).unwrap()), ..Default::default() };
        let mut copies = pool(0).empty();
        assert_eq!(Cutting::of(&csv, 3).unwrap().into_parts(&csv.args, &mut copies).map(|parts| parts.len()), Some(3));
        assert!(matches!(bare(&csv, &mut copies), Some(Cow::Borrowed(_))));
    }

    #[test]
    fn an_array_is_cut_at_commas_before_objects_near_equal_shares() {
        let array = br#"[{"a": 1},{"a": 2}, {"a": [3, 4]},	{"a": "5,{"}, 6, {"a": 7}]"#;
        // 61 bytes. Each cut is the first comma followed by `{` (after
        // blank space) from its share on, wherever that comma really is:
        // the module refuses a part that ends inside a string or a nested
        // array. In four parts (shares from 15, 30, 45): the commas at 18
        // and 33 (before a tab), and at 50, past the ones at 47 (before a
        // number) and 43 (in a string, before its share).
        assert_eq!(cut_array(array, 4), [18, 33, 50]);
        // In three (from 20, 40): 28 is inside the nested array but before
        // a number; 43 is the one inside the string.
        assert_eq!(cut_array(array, 3), [33, 43]);
        assert_eq!(&array[43..45], b",{");
        assert_eq!(cut_array(b"[1, 2, 3, 4, 5, 6, 7, 8]", 3), Vec::<usize>::new(), "no object to cut before");
        assert_eq!(cut_array(array, 1), Vec::<usize>::new());
    }
}
