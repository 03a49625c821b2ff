//! `schema`: a standard contract in, instead of `columns`.
//!
//! `validate_rows` takes either its own `columns` or a `schema` that is one
//! of two standards, told apart by shape:
//!
//! * a **Frictionless Table Schema** has a `fields` array
//!   ([`frictionless`]);
//! * otherwise a **JSON Schema of one row** has `properties`, or
//!   `type: "object"`, or `$schema` ([`json_schema`]).
//!
//! Anything else is an argument error.
//!
//! The mapping writes exactly the JSON a caller could have written: a
//! `columns` array and, when the schema says something about the table as a
//! whole, a `table` object. That JSON then goes through the contract parser
//! like any other call's, so each rule has one meaning, and the result's
//! contract echo shows the contract the schema became (with
//! `schema_mapped_from` saying which standard it came from).
//!
//! **Nothing is silently ignored.** Each keyword either maps onto a contract
//! key, or is an annotation that cannot change a verdict (each mapper lists
//! the ones it accepts and ignores), or is an argument error that names the
//! keyword and says where it is (`schema.fields[2].constraints.foo`). A
//! keyword the contract cannot express is refused, never approximated, even
//! when an approximation would pass most data.
//!
//! A fault the contract parser finds in the mapped JSON (an invalid pattern,
//! an empty `enum`, a primary key naming no field) is reported at the
//! schema keyword it came from, with the contract key it became.

mod frictionless;
mod json_schema;

use serde_json::{Map, Value};

use crate::args::ListOr;
use crate::error::{ErrorCode, ToolError};
use crate::py::repr;

/// Which standard a schema was read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SchemaKind {
    TableSchema,
    JsonSchema,
}

impl SchemaKind {
    /// The name the contract echo gives it (`schema_mapped_from`).
    pub(crate) fn name(self) -> &'static str {
        match self {
            SchemaKind::TableSchema => "table_schema",
            SchemaKind::JsonSchema => "json_schema",
        }
    }
}

/// An argument error about the schema, located at `at` (a path that starts
/// with `schema`).
pub(super) fn schema_error(at: impl Into<String>, message: impl Into<String>) -> ToolError {
    ToolError::for_argument(ErrorCode::InvalidContract, "schema", message).at(at)
}

/// `base.key` for a key that reads as a name, `base["key"]` (JSON-quoted)
/// for one that does not, so a location stays unambiguous.
pub(super) fn member(base: &str, key: &str) -> String {
    let plain = !key.is_empty()
        && !key.starts_with(|c: char| c.is_ascii_digit())
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if plain {
        format!("{base}.{key}")
    } else {
        format!("{base}[{}]", Value::from(key))
    }
}

/// A keyword that does not map: the error names it, says where it is and why.
pub(super) fn refused(at: &str, keyword: &str, why: &str) -> ToolError {
    schema_error(at, format!("{at}: {} cannot be mapped onto the contract: {why}", repr::repr_str(keyword)))
}

/// One column being written, with the schema keyword each of its keys came
/// from.
pub(super) struct Column {
    spec: Map<String, Value>,
    /// `(contract key, schema path)`.
    origins: Vec<(String, String)>,
    /// Where the column as a whole came from (`schema.fields[2]`).
    at: String,
}

impl Column {
    /// A column called `name`, from the schema at `at`. A name with blank
    /// space at either end is refused: the contract strips column names, so
    /// it would read another column than the schema names.
    pub(super) fn new(name: &str, at: String, name_at: String) -> Result<Self, ToolError> {
        let stripped = crate::py::text::strip(name);
        if stripped != name && !stripped.is_empty() {
            return Err(schema_error(
                &name_at,
                format!(
                    "{name_at}: the name {} begins or ends with blank space, which the contract strips from column \
names, so it would read the column {} instead",
                    repr::repr_str(name),
                    repr::repr_str(stripped)
                ),
            ));
        }
        let mut column = Column { spec: Map::new(), origins: Vec::new(), at };
        column.set("name", Value::from(name), name_at);
        Ok(column)
    }

    /// Set contract key `key` from the schema keyword at `from`.
    pub(super) fn set(&mut self, key: &str, value: Value, from: String) {
        self.spec.insert(key.to_owned(), value);
        self.origins.retain(|(known, _)| known != key);
        self.origins.push((key.to_owned(), from));
    }

    pub(super) fn get(&self, key: &str) -> Option<&Value> {
        self.spec.get(key)
    }
}

/// Set `min` (or `max`) to `bound`, or keep the bound already set when it is
/// tighter (a schema may give both `minimum` and `exclusiveMinimum`).
pub(super) fn tighten(column: &mut Column, key: &str, bound: Value, from: String) {
    let tighter = match (column.get(key).and_then(Value::as_f64), bound.as_f64()) {
        (Some(known), Some(new)) => (key == "min" && new > known) || (key == "max" && new < known),
        _ => true,
    };
    if tighter {
        column.set(key, bound, from);
    }
}

/// A schema mapped onto the contract: the JSON a caller could have written.
pub(crate) struct Mapped {
    pub(crate) columns: Vec<Value>,
    /// The `table` object, when the schema has table rules.
    pub(crate) table: Option<Map<String, Value>>,
    pub(crate) kind: SchemaKind,
    /// `(contract path, schema path)`: where each part of the contract came from.
    origins: Vec<(String, String)>,
}

impl Mapped {
    /// Assemble the mapping of `kind` from its columns and table rules
    /// (`(table key, value, schema path)`).
    pub(super) fn new(kind: SchemaKind, columns: Vec<Column>, table: Vec<(&str, Value, String)>) -> Self {
        let mut origins = Vec::new();
        let mut specs = Vec::with_capacity(columns.len());
        for (index, column) in columns.into_iter().enumerate() {
            origins.push((format!("columns[{index}]"), column.at));
            origins.extend(column.origins.into_iter().map(|(key, from)| (format!("columns[{index}].{key}"), from)));
            specs.push(Value::Object(column.spec));
        }
        let mut rules = Map::new();
        for (key, value, from) in table {
            origins.push((format!("table.{key}"), from));
            rules.insert(key.to_owned(), value);
        }
        Mapped { columns: specs, table: (!rules.is_empty()).then_some(rules), kind, origins }
    }
}

/// Map `schema` onto the contract: the `columns` array and the `table`
/// object (when the schema has table rules) the caller could have written
/// instead. A keyword that cannot be mapped is an error naming it and where
/// it is. (`validate_rows` calls [`map_schema`], which also keeps where each
/// part came from, to report the contract parser's errors at the schema.)
#[cfg(test)]
pub(crate) fn contract_from_schema(schema: &Value) -> Result<(Vec<Value>, Option<Value>), ToolError> {
    let mapped = map_schema(schema)?;
    Ok((mapped.columns, mapped.table.map(Value::Object)))
}

/// Map `schema`, keeping where each part of the contract came from.
pub(crate) fn map_schema(schema: &Value) -> Result<Mapped, ToolError> {
    let Value::Object(object) = schema else {
        return Err(schema_error(
            "schema",
            format!(
                "argument \"schema\" must be an object: a Table Schema ({{\"fields\": [...]}}) or a JSON Schema of one row \
({{\"type\": \"object\", \"properties\": {{...}}}}), got {}",
                repr::type_name(schema)
            ),
        ));
    };
    if object.contains_key("fields") {
        return frictionless::map(object);
    }
    let object_type = object.get("type").is_some_and(|t| t == "object");
    if object.contains_key("properties") || object_type || object.contains_key("$schema") {
        return json_schema::map(object);
    }
    Err(schema_error(
        "schema",
        "argument \"schema\" is neither a Table Schema (it has no \"fields\" array) nor a JSON Schema of one row (it \
has no \"properties\", no \"type\": \"object\" and no \"$schema\")",
    ))
}

/// The contract of one `validate_rows` call, as given (`columns`) or as
/// mapped from `schema`, with the call's own `table` merged in.
pub(crate) struct Contract {
    pub(crate) columns: Vec<Value>,
    pub(crate) table: Option<Value>,
    mapped: Option<(SchemaKind, Vec<(String, String)>)>,
}

impl Contract {
    /// The contract of a call that gave `given` (`None` only after an
    /// argument problem already reported) and `table`. A `table` given
    /// beside a `schema` adds its rules to the schema's; a rule both give is
    /// an argument error.
    pub(crate) fn resolve(given: Option<ListOr>, table: Option<Value>) -> Result<Contract, ToolError> {
        let schema = match given {
            None => return Ok(Contract { columns: Vec::new(), table, mapped: None }),
            Some(ListOr::List(columns)) => return Ok(Contract { columns, table, mapped: None }),
            Some(ListOr::Other(schema)) => schema,
        };
        let Mapped { columns, table: mapped_table, kind, origins } = map_schema(&schema)?;
        let table = match (mapped_table, table) {
            (None, table) => table,
            (Some(rules), None) => Some(Value::Object(rules)),
            (Some(mut rules), Some(Value::Object(given))) => {
                for (key, value) in given {
                    if rules.contains_key(&key) {
                        let from = origins.iter().find(|(to, _)| *to == format!("table.{key}")).map(|(_, from)| from);
                        return Err(ToolError::for_argument(
                            ErrorCode::InvalidContract,
                            "table",
                            format!(
                                "\"table.{key}\" is also given by the schema ({}); give it once",
                                from.map_or("schema", String::as_str)
                            ),
                        )
                        .at(format!("table.{key}")));
                    }
                    rules.insert(key, value);
                }
                Some(Value::Object(rules))
            }
            // Not an object: the table parser says so, about the caller's argument.
            (Some(_), Some(other)) => Some(other),
        };
        Ok(Contract { columns, table, mapped: Some((kind, origins)) })
    }

    /// The standard the contract was mapped from, for the contract echo.
    pub(crate) fn mapped_from(&self) -> Option<&'static str> {
        self.mapped.as_ref().map(|(kind, _)| kind.name())
    }

    /// A contract parser's error about mapped JSON, reported at the schema
    /// keyword it came from. An error about the call's own `table` keys, or
    /// about a contract given as `columns`, is left as it is.
    pub(crate) fn relocate<T>(&self, result: Result<T, ToolError>) -> Result<T, ToolError> {
        let Some((_, origins)) = &self.mapped else { return result };
        result.map_err(|err| {
            let Some(location) = err.location.clone() else { return err };
            let within =
                |to: &str| location == to || location.strip_prefix(to).is_some_and(|rest| rest.starts_with(['.', '[']));
            let best = origins.iter().filter(|(to, _)| within(to)).max_by_key(|(to, _)| to.len());
            let from = match best {
                Some((to, from)) => format!("{from}{}", &location[to.len()..]),
                None if err.argument.as_deref() == Some("columns") => "schema".to_owned(),
                None => return err,
            };
            let message = format!("{from} (mapped to the contract's {location}) is refused: {}", err.message);
            ToolError::for_argument(err.code, "schema", message).at(from)
        })
    }
}

#[cfg(test)]
mod tests;
