//! Which lists a row tool's result returns (`lists`), and one window of one
//! list (`page`): the arguments a caller uses to ask for exactly the entries
//! it needs (issue 16).
//!
//! Both are additive. A call that gives neither returns every list, each
//! capped by `max_listed` as before. A list not asked for is still in the
//! result, as an empty array followed by `<list>_omitted` (its whole length),
//! so the envelope keeps its shape and every count still covers every row.
//! A page replaces `max_listed` for its one list with `offset` and `limit`,
//! and says how to ask for the next page; without `lists`, a paged call
//! returns that list alone. The checks are deterministic, so pages of one
//! input are consistent: walking a list page by page returns each entry
//! exactly once, in the list's order.

use serde_json::{Map, Value};

use crate::args::described;
use crate::error::{ErrorCode, ToolError};
use crate::findings::object;
use crate::source::{window_vec, Capped};

/// The most entries one page may hold.
pub(crate) const MAX_PAGE_LIMIT: usize = 1000;
/// A page's `limit` when the call gives none.
pub(crate) const DEFAULT_PAGE_LIMIT: usize = 100;
/// The keys `page` may carry, in sorted order.
const PAGE_KEYS: [&str; 3] = ["limit", "list", "offset"];

/// The lists one tool's result carries: those `lists` may name, in the
/// result's order, and those `page` may walk.
pub(crate) struct ToolLists {
    pub(crate) lists: &'static [&'static str],
    pub(crate) pageable: &'static [&'static str],
    /// The list a caller most often pages, for the catalog's examples.
    pub(crate) example: &'static str,
}

pub(crate) const VALIDATE_ROWS: ToolLists = ToolLists {
    lists: &["accepted", "quarantine", "flagged", "findings"],
    pageable: &["accepted", "quarantine", "flagged"],
    example: "quarantine",
};

pub(crate) const COUNT_DISTINCT: ToolLists = ToolLists {
    lists: &["blank_key_rows", "repeated_keys", "findings"],
    pageable: &["blank_key_rows", "repeated_keys"],
    example: "repeated_keys",
};

pub(crate) const DUPLICATE_REPORT: ToolLists = ToolLists {
    lists: &["blank_key_rows", "groups", "findings"],
    pageable: &["blank_key_rows", "groups"],
    example: "groups",
};

/// One window of one list, as asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Page {
    pub(crate) list: &'static str,
    pub(crate) offset: usize,
    pub(crate) limit: usize,
}

/// Which entries of a list a result keeps: those from `start`, at most
/// `limit` of them (`None`: all).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Window {
    pub(crate) start: usize,
    pub(crate) limit: Option<usize>,
}

impl Window {
    /// An empty list of this window's kind.
    pub(crate) fn capped<T>(self) -> Capped<T> {
        Capped::new(self.limit).starting_at(self.start)
    }

    /// Keep only this window of a fully built list; returns how many items
    /// were dropped.
    pub(crate) fn apply<T>(self, items: &mut Vec<T>) -> usize {
        window_vec(items, self.start, self.limit)
    }
}

/// Why a list left entries out, for the sentences that say so.
pub(crate) enum LeftOut {
    /// `max_listed` (or, for a list `lists` does not govern, its cap).
    Cap(Option<usize>),
    /// The list was not named in `lists`.
    NotAsked,
    /// The list is the one paged.
    Page,
}

/// What a call asked to be listed: `max_listed`, `lists` and `page`.
pub(crate) struct Listing {
    tool: &'static ToolLists,
    /// `max_listed`.
    pub(crate) cap: Option<usize>,
    /// The lists named in `lists` (`None`: every list).
    selected: Option<Vec<&'static str>>,
    pub(crate) page: Option<Page>,
}

fn type_error(location: &str, message: String) -> ToolError {
    let argument = location.split(['.', '[']).next().unwrap_or(location);
    ToolError::for_argument(ErrorCode::ArgumentType, argument, message).at(location)
}

fn value_error(location: &str, message: String) -> ToolError {
    let argument = location.split(['.', '[']).next().unwrap_or(location);
    ToolError::for_argument(ErrorCode::InvalidArgument, argument, message).at(location)
}

impl Listing {
    /// Read `lists` and `page` (absent or null: not given).
    pub(crate) fn parse(
        tool: &'static ToolLists,
        cap: Option<usize>,
        lists: Option<Value>,
        page: Option<Value>,
    ) -> Result<Listing, ToolError> {
        let selected = lists.map(|lists| parse_lists(tool, lists)).transpose()?;
        let page = page.map(|page| parse_page(tool, page)).transpose()?;
        Ok(Listing { tool, cap, selected, page })
    }

    /// Whether the call gives `lists` or `page`: only then do the sentences
    /// about the listing say more than `max_listed`'s.
    pub(crate) fn is_selective(&self) -> bool {
        self.selected.is_some() || self.page.is_some()
    }

    /// Whether `list` is returned with entries (or left empty, counted).
    pub(crate) fn returns(&self, list: &str) -> bool {
        // A list inside entries (`row_indexes`, `members`) is capped only.
        if self.page.is_some_and(|page| page.list == list) || !self.tool.lists.contains(&list) {
            return true;
        }
        match &self.selected {
            Some(selected) => selected.contains(&list),
            // A paged call without `lists` returns its page alone.
            None => self.page.is_none(),
        }
    }

    /// The entries of `list` the result keeps.
    pub(crate) fn window(&self, list: &str) -> Window {
        match self.page {
            Some(page) if page.list == list => Window { start: page.offset, limit: Some(page.limit) },
            _ if !self.returns(list) => Window { start: 0, limit: Some(0) },
            _ => Window { start: 0, limit: self.cap },
        }
    }

    /// Why `list` left entries out.
    pub(crate) fn left_out(&self, list: &str) -> LeftOut {
        match self.page {
            Some(page) if page.list == list => LeftOut::Page,
            _ if !self.returns(list) => LeftOut::NotAsked,
            _ => LeftOut::Cap(self.cap),
        }
    }

    /// The paged list's outcome, once its length (`total`) is known.
    pub(crate) fn paged(&self, total: usize) -> Option<PageOutcome> {
        self.page.map(|page| PageOutcome { page, total })
    }
}

/// A page, and the length of the list it is a page of.
#[derive(Debug, Clone)]
pub(crate) struct PageOutcome {
    pub(crate) page: Page,
    pub(crate) total: usize,
}

impl PageOutcome {
    /// How many entries the page holds.
    pub(crate) fn listed(&self) -> usize {
        self.total.saturating_sub(self.page.offset).min(self.page.limit)
    }

    /// The `page` argument that asks for the next page, if there is one.
    pub(crate) fn next(&self) -> Option<Page> {
        let end = self.page.offset + self.listed();
        (end < self.total).then_some(Page { offset: end, ..self.page })
    }

    /// The result's `page`: the page as read, its length, the list's, and
    /// the argument for the next page (null after the last).
    pub(crate) fn to_json(&self) -> Value {
        Value::Object(object([
            ("list", self.page.list.into()),
            ("offset", self.page.offset.into()),
            ("limit", self.page.limit.into()),
            ("listed", self.listed().into()),
            ("total", self.total.into()),
            ("next_page", self.next().map_or(Value::Null, |next| page_json(&next))),
        ]))
    }

    /// Where this page is in its list, in words.
    pub(crate) fn describe(&self) -> String {
        let Page { offset, .. } = self.page;
        let total = self.total;
        match (self.listed(), self.next()) {
            (0, _) => format!("offset {offset} is past the end of its {total} entries"),
            (listed, Some(_)) => {
                format!("this page lists {listed} from offset {offset} of {total}; `page.next_page` asks for the next")
            }
            (listed, None) => format!("this page lists {listed} from offset {offset} of {total}, the last page"),
        }
    }
}

fn page_json(page: &Page) -> Value {
    Value::Object(object([("list", page.list.into()), ("offset", page.offset.into()), ("limit", page.limit.into())]))
}

/// A name as JSON text, quotes included.
fn quoted(name: &str) -> String {
    Value::from(name).to_string()
}

/// One of the tool's list names, or `None`.
fn known(names: &'static [&'static str], name: &str) -> Option<&'static str> {
    names.iter().copied().find(|known| *known == name)
}

fn parse_lists(tool: &'static ToolLists, lists: Value) -> Result<Vec<&'static str>, ToolError> {
    let names = tool.lists.join(", ");
    let Value::Array(items) = lists else {
        return Err(type_error(
            "lists",
            format!(
                "argument \"lists\" must be an array of the lists to return (some of: {names}), got {}",
                described(&lists)
            ),
        ));
    };
    let mut selected = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let location = format!("lists[{index}]");
        match item.as_str().map(|name| (name, known(tool.lists, name))) {
            Some((_, Some(name))) => {
                if !selected.contains(&name) {
                    selected.push(name);
                }
            }
            Some((name, None)) => {
                return Err(value_error(
                    &location,
                    format!("\"{location}\": {} is not a list of this result; it has: {names}", quoted(name)),
                ))
            }
            None => {
                return Err(type_error(
                    &location,
                    format!("\"{location}\" must be the name of a list ({names}), got {}", described(item)),
                ))
            }
        }
    }
    Ok(selected)
}

fn parse_page(tool: &'static ToolLists, page: Value) -> Result<Page, ToolError> {
    let pageable = tool.pageable.join(", ");
    let Value::Object(spec) = page else {
        return Err(type_error(
            "page",
            format!(
                "argument \"page\" must be an object like {{\"list\": \"{}\", \"offset\": 0, \"limit\": 100}}, got {}",
                tool.example,
                described(&page)
            ),
        ));
    };
    let mut unknown: Vec<&str> = spec.keys().map(String::as_str).filter(|key| !PAGE_KEYS.contains(key)).collect();
    if !unknown.is_empty() {
        unknown.sort_unstable();
        let listed = unknown.iter().map(|key| quoted(key)).collect::<Vec<_>>().join(", ");
        return Err(value_error(
            &format!("page.{}", unknown[0]),
            format!("\"page\": unknown key(s) {listed}. Supported keys: {}", PAGE_KEYS.join(", ")),
        ));
    }
    let list = match spec.get("list") {
        None => {
            return Err(value_error(
                "page.list",
                format!("\"page.list\" is required: the list to page through, one of {pageable}"),
            ))
        }
        Some(Value::String(name)) => match known(tool.pageable, name) {
            Some(list) => list,
            None if name == "findings" => {
                return Err(value_error(
                    "page.list",
                    format!(
                        "\"page.list\": findings cannot be paged, since each finding about a row or key is on its \
entry in another list; page one of those: {pageable}"
                    ),
                ))
            }
            None => {
                return Err(value_error(
                    "page.list",
                    format!(
                        "\"page.list\": {} is not a list this result can page; it can page: {pageable}",
                        quoted(name)
                    ),
                ))
            }
        },
        Some(other) => {
            return Err(type_error(
                "page.list",
                format!("\"page.list\" must be the name of a list ({pageable}), got {}", described(other)),
            ))
        }
    };
    let offset = bounded(&spec, "offset", 0, usize::MAX)?.unwrap_or(0);
    let limit = bounded(&spec, "limit", 1, MAX_PAGE_LIMIT)?.unwrap_or(DEFAULT_PAGE_LIMIT);
    Ok(Page { list, offset, limit })
}

/// `page.<key>`: an integer from `min` to `max`, or absent.
fn bounded(spec: &Map<String, Value>, key: &str, min: usize, max: usize) -> Result<Option<usize>, ToolError> {
    let Some(value) = spec.get(key) else { return Ok(None) };
    let location = format!("page.{key}");
    let number = value.as_u64().map(|n| usize::try_from(n).unwrap_or(usize::MAX));
    match number {
        Some(n) if (min..=max).contains(&n) => Ok(Some(n)),
        _ => {
            let range = if max == usize::MAX { format!("at least {min}") } else { format!("from {min} to {max}") };
            Err(value_error(&location, format!("\"{location}\" must be an integer {range}, got {}", described(value))))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn page(offset: usize, limit: usize, total: usize) -> PageOutcome {
        PageOutcome { page: Page { list: "quarantine", offset, limit }, total }
    }

    #[test]
    fn a_page_knows_its_length_and_the_next_one() {
        assert_eq!((page(0, 100, 250).listed(), page(0, 100, 250).next().map(|p| p.offset)), (100, Some(100)));
        assert_eq!((page(200, 100, 250).listed(), page(200, 100, 250).next()), (50, None));
        assert_eq!((page(200, 50, 250).listed(), page(200, 50, 250).next()), (50, None));
        assert_eq!((page(300, 100, 250).listed(), page(300, 100, 250).next()), (0, None));
        assert_eq!((page(0, 100, 0).listed(), page(0, 100, 0).next()), (0, None));
        assert_eq!(
            page(100, 100, 250).to_json(),
            json!({"list": "quarantine", "offset": 100, "limit": 100, "listed": 100, "total": 250,
                   "next_page": {"list": "quarantine", "offset": 200, "limit": 100}})
        );
    }

    #[test]
    fn windows_follow_lists_and_page() {
        let listing =
            Listing::parse(&VALIDATE_ROWS, Some(25), None, Some(json!({"list": "flagged", "offset": 7}))).unwrap();
        assert_eq!(listing.window("flagged"), Window { start: 7, limit: Some(100) });
        assert_eq!(listing.window("quarantine"), Window { start: 0, limit: Some(0) });
        assert_eq!(listing.window("findings"), Window { start: 0, limit: Some(0) });
        let listing = Listing::parse(
            &VALIDATE_ROWS,
            Some(25),
            Some(json!(["findings"])),
            Some(json!({"list": "quarantine", "limit": 1000})),
        )
        .unwrap();
        assert_eq!(listing.window("quarantine"), Window { start: 0, limit: Some(1000) });
        assert_eq!(listing.window("findings"), Window { start: 0, limit: Some(25) });
        assert_eq!(listing.window("accepted"), Window { start: 0, limit: Some(0) });
        let plain = Listing::parse(&VALIDATE_ROWS, None, None, None).unwrap();
        assert_eq!(plain.window("accepted"), Window { start: 0, limit: None });
    }
}
