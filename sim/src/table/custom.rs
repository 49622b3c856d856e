//! The Table of a custom resource: the Name column, then the columns its CRD's version
//! declares (`additionalPrinterColumns`, read with JSONPath), or Age when it declares none.

use jiff::Timestamp;
use serde_json::{Map, Value, json};

use super::{
    CRD_COLUMN, DEFAULT_CR, META_V1, NAME, column_definitions, custom_cell, definition, jsonpath,
    table, text, typed_cell,
};
use crate::kinds::ResourceType;
use crate::kinds::custom::PrinterColumn;

/// The Table for objects of `ty`: a built-in kind's printer, or the columns its CRD declares.
pub fn table_of(
    ty: &ResourceType,
    objects: &[&Value],
    resource_version: &str,
    include_columns: bool,
    now: Timestamp,
) -> Value {
    let Some(def) = ty.custom else {
        return table(
            ty.group,
            ty.kind,
            objects,
            resource_version,
            include_columns,
            now,
        );
    };
    let rows: Vec<Value> = objects
        .iter()
        .map(|obj| {
            let name = text(obj, "/metadata/name");
            let mut cells = vec![Value::from(name)];
            if def.columns.is_empty() {
                cells.push(custom_cell(&DEFAULT_CR[0], obj, now));
            }
            for c in &def.columns {
                cells.push(defined_cell(c, obj, now));
            }
            let metadata = obj.get("metadata").cloned().unwrap_or_else(|| json!({}));
            json!({"cells": cells, "object": {"kind": "PartialObjectMetadata", "apiVersion": META_V1, "metadata": metadata}})
        })
        .collect();
    let mut metadata = Map::new();
    if !resource_version.is_empty() {
        metadata.insert("resourceVersion".into(), json!(resource_version));
    }
    let columns = if !include_columns {
        Vec::new()
    } else if def.columns.is_empty() {
        column_definitions("", "")
    } else {
        let mut defs = vec![definition(NAME.0, NAME.1, NAME.2, NAME.3, NAME.4)];
        for c in &def.columns {
            let desc = match c.description.as_str() {
                "" => format!("{CRD_COLUMN}{}", c.json_path),
                d => d.to_string(),
            };
            defs.push(definition(&c.name, &c.type_, &c.format, &desc, c.priority));
        }
        defs
    };
    json!({"kind": "Table", "apiVersion": META_V1, "metadata": metadata,
        "columnDefinitions": columns, "rows": rows})
}

/// A cell of a column a CRD declares: the first value its JSONPath finds, as its type prints.
fn defined_cell(col: &PrinterColumn, obj: &Value, now: Timestamp) -> Value {
    match jsonpath::first(obj, &col.json_path).filter(|v| !v.is_null()) {
        Some(v) => typed_cell(&col.type_, v, now),
        None => Value::Null,
    }
}
