//! Defaulting of CustomResourceDefinitions (`apiextensions/v1` `SetDefaults_*` and the
//! registry's `PrepareForCreate`/`PrepareForUpdate`) and of custom resources, whose CRD's
//! structural schema names their defaults (`structuraldefaulting.Default`).

use serde_json::{Value, json};

use super::set_if_absent;

/// A CRD: singular and list kind from the kind, the `None` conversion, and the storage version
/// recorded in `status.storedVersions` (it never leaves it on its own).
pub fn crd(obj: &mut Value) {
    let spec = &mut obj["spec"];
    if !spec.is_object() {
        return;
    }
    let kind = spec["names"]["kind"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    if spec["names"]["singular"].as_str().is_none_or(str::is_empty) && !kind.is_empty() {
        spec["names"]["singular"] = json!(kind.to_lowercase());
    }
    if spec["names"]["listKind"].as_str().is_none_or(str::is_empty) && !kind.is_empty() {
        spec["names"]["listKind"] = json!(format!("{kind}List"));
    }
    set_if_absent(obj, &["spec", "conversion"], json!({"strategy": "None"}));
    if let Some(service) = obj
        .pointer_mut("/spec/conversion/webhook/clientConfig/service")
        .filter(|s| s.is_object())
    {
        set_if_absent(service, &["port"], json!(443));
    }
    let storage = obj["spec"]["versions"]
        .as_array()
        .and_then(|vs| vs.iter().find(|v| v["storage"] == true))
        .and_then(|v| v["name"].as_str())
        .map(String::from);
    if let Some(storage) = storage {
        let stored = &mut obj["status"]["storedVersions"];
        match stored.as_array_mut() {
            Some(list) if list.iter().any(|v| v == storage.as_str()) => {}
            Some(list) => list.push(json!(storage)),
            None => *stored = json!([storage]),
        }
    }
}

/// A custom resource: every absent field whose schema has a `default` gets it, below every
/// object that is there (a default of an object is itself defaulted). The root's `apiVersion`,
/// `kind` and `metadata` are left alone.
pub fn custom_resource(schema: &Value, obj: &mut Value) {
    let Some(root) = obj.as_object_mut() else {
        return;
    };
    let Some(props) = schema["properties"].as_object() else {
        return;
    };
    for (name, sub) in props {
        if matches!(name.as_str(), "apiVersion" | "kind" | "metadata") {
            continue;
        }
        if !root.contains_key(name)
            && let Some(d) = sub.get("default")
        {
            root.insert(name.clone(), d.clone());
        }
        if let Some(v) = root.get_mut(name) {
            default_value(sub, v);
        }
    }
}

fn default_value(schema: &Value, value: &mut Value) {
    match value {
        Value::Object(map) => {
            if let Some(props) = schema["properties"].as_object() {
                for (name, sub) in props {
                    if !map.contains_key(name)
                        && let Some(d) = sub.get("default")
                    {
                        map.insert(name.clone(), d.clone());
                    }
                    if let Some(v) = map.get_mut(name) {
                        default_value(sub, v);
                    }
                }
            } else if let Some(inner) = schema.get("additionalProperties").filter(|a| a.is_object())
            {
                for v in map.values_mut() {
                    default_value(inner, v);
                }
            }
        }
        Value::Array(items) => {
            if let Some(inner) = schema.get("items").filter(|i| i.is_object()) {
                for v in items {
                    default_value(inner, v);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crd_gets_its_list_kind_conversion_and_stored_version() {
        let mut c = json!({"spec": {"names": {"kind": "Widget", "plural": "widgets"},
            "versions": [{"name": "v1beta1", "storage": false}, {"name": "v1", "storage": true}]}});
        crd(&mut c);
        assert_eq!(c["spec"]["names"]["listKind"], "WidgetList");
        assert_eq!(c["spec"]["names"]["singular"], "widget");
        assert_eq!(c["spec"]["conversion"], json!({"strategy": "None"}));
        assert_eq!(c["status"]["storedVersions"], json!(["v1"]));
        c["spec"]["versions"][0]["storage"] = json!(true);
        c["spec"]["versions"][1]["storage"] = json!(false);
        crd(&mut c);
        assert_eq!(c["status"]["storedVersions"], json!(["v1", "v1beta1"]));
    }

    #[test]
    fn absent_fields_with_a_default_get_it_at_every_depth() {
        let schema = json!({"properties": {"spec": {"type": "object", "properties": {
            "colour": {"type": "string", "default": "red"},
            "size": {"type": "integer"},
            "ports": {"type": "array", "items": {"type": "object", "properties": {"protocol": {"type": "string", "default": "TCP"}}}},
            "extra": {"type": "object", "default": {}, "properties": {"on": {"type": "boolean", "default": true}}}}}}});
        let mut obj = json!({"spec": {"size": 1, "ports": [{"port": 80}]}});
        custom_resource(&schema, &mut obj);
        assert_eq!(
            obj["spec"],
            json!({"size": 1, "ports": [{"port": 80, "protocol": "TCP"}], "colour": "red", "extra": {"on": true}})
        );
        let mut none = json!({});
        custom_resource(&schema, &mut none);
        assert_eq!(none, json!({}));
    }
}
