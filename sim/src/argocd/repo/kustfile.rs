//! The `kustomize edit` commands Argo CD runs before a build, done directly on the
//! kustomization file because kubectl has no `kustomize edit`.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

/// File names kustomize recognises, in its lookup order.
const NAMES: [&str; 3] = ["kustomization.yaml", "kustomization.yml", "Kustomization"];

const INVALID_IMAGE: &str = "invalid format of image, use one of the following options:
- <image>=<newimage>:<newtag>
- <image>=<newimage>@<digest>
- <image>=<newimage>:<newtag>@<digest>
- <image>=<newimage>
- <image>:<newtag>
- <image>:<newtag>@<digest>
- <image>@<digest>";

/// `*` as a new name, tag or digest keeps the value already in the file.
const PRESERVE: &str = "*";

/// A kustomization file loaded for editing; other keys and their order are kept.
pub(super) struct Kustomization {
    path: PathBuf,
    doc: Map<String, Value>,
}

impl Kustomization {
    /// Loads the one kustomization file in `dir`, with kustomize's errors for none or several.
    pub fn load(dir: &Path) -> Result<Kustomization, String> {
        let found: Vec<&str> = NAMES
            .iter()
            .copied()
            .filter(|n| dir.join(n).is_file())
            .collect();
        let name = match found.as_slice() {
            [] => return Err("Missing kustomization file 'kustomization.yaml'.".into()),
            [one] => *one,
            many => {
                return Err(format!(
                    "Found multiple kustomization file: [{}]",
                    many.join(" ")
                ));
            }
        };
        let path = dir.join(name);
        let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
        let doc = match crate::body::repo_yaml(&text) {
            Ok(Value::Object(m)) => m,
            Ok(Value::Null) => Map::new(),
            Ok(_) => return Err(format!("{name}: kustomization is not a YAML mapping")),
            Err(e) => return Err(super::source::first_line(&e.to_string()).to_string()),
        };
        Ok(Kustomization { path, doc })
    }

    pub fn save(&self) -> Result<(), String> {
        let text =
            serde_saphyr::to_string(&Value::Object(self.doc.clone())).map_err(|e| e.to_string())?;
        std::fs::write(&self.path, text).map_err(|e| e.to_string())
    }

    /// `edit set nameprefix` / `namesuffix` / `namespace`.
    pub fn set_scalar(&mut self, key: &str, value: &str) {
        self.doc.insert(key.into(), Value::String(value.into()));
    }

    /// `kustomize edit set image <args>`: each argument replaces the entry of the same name
    /// (keeping fields given as `*`) or is added; the list ends up sorted by name.
    pub fn set_images(&mut self, args: &[String]) -> Result<(), String> {
        let mut wanted: Vec<Image> = Vec::new();
        for arg in args {
            let img = parse_image_arg(arg)?;
            match wanted.iter_mut().find(|w| w.name == img.name) {
                Some(slot) => *slot = img,
                None => wanted.push(img),
            }
        }
        let mut merged: Vec<Image> = Vec::new();
        for existing in self.list("images").iter().map(Image::from_value) {
            let Some(existing) = existing else { continue };
            if let Some(arg) = wanted.iter_mut().find(|w| w.name == existing.name) {
                arg.keep_from(&existing);
            } else if let Some(slot) = merged.iter_mut().find(|m| m.name == existing.name) {
                *slot = existing;
            } else {
                merged.push(existing);
            }
        }
        for mut img in wanted {
            img.drop_preserve_markers();
            match merged.iter_mut().find(|m| m.name == img.name) {
                Some(slot) => *slot = img,
                None => merged.push(img),
            }
        }
        merged.sort_by(|a, b| a.name.cmp(&b.name));
        self.doc.insert(
            "images".into(),
            Value::Array(merged.iter().map(Image::to_value).collect()),
        );
        Ok(())
    }

    /// `kustomize edit set replicas name=count…`: replaces same-named entries, adds others,
    /// sorted by name.
    pub fn set_replicas(&mut self, replicas: &[(String, i64)]) {
        let mut entries: Vec<(String, Value)> = self
            .list("replicas")
            .iter()
            .filter_map(|r| Some((r.get("name")?.as_str()?.to_string(), r.clone())))
            .collect();
        for (name, count) in replicas {
            let entry = serde_json::json!({"name": name, "count": count});
            match entries.iter_mut().find(|(n, _)| n == name) {
                Some(slot) => slot.1 = entry,
                None => entries.push((name.clone(), entry)),
            }
        }
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        self.doc.insert(
            "replicas".into(),
            Value::Array(entries.into_iter().map(|(_, v)| v).collect()),
        );
    }

    /// `kustomize edit add label|annotation [--force]` into the `commonLabels` /
    /// `commonAnnotations` map; an existing key without force is kustomize's error.
    pub fn add_to_map(
        &mut self,
        key: &str,
        kind: &str,
        pairs: &[(String, String)],
        force: bool,
    ) -> Result<(), String> {
        let mut map = self
            .doc
            .get(key)
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        for (k, v) in pairs {
            if map.contains_key(k) && !force {
                return Err(format!(
                    "{kind} {k} already in kustomization file. Use --force to override."
                ));
            }
            map.insert(k.clone(), Value::String(v.clone()));
        }
        self.doc.insert(key.into(), Value::Object(map));
        Ok(())
    }

    /// `kustomize edit add label --without-selector [--include-templates]`: into the `labels`
    /// entry with the same settings, or a new one.
    pub fn add_labels_without_selector(
        &mut self,
        pairs: &[(String, String)],
        include_templates: bool,
        force: bool,
    ) -> Result<(), String> {
        let same_settings = |l: &Value| {
            !l.get("includeSelectors")
                .and_then(Value::as_bool)
                .unwrap_or(false)
                && l.get("includeTemplates")
                    .and_then(Value::as_bool)
                    .unwrap_or(false)
                    == include_templates
        };
        let mut labels = self.list("labels");
        let idx = match labels.iter().position(same_settings) {
            Some(i) => i,
            None => {
                let mut entry = Map::new();
                entry.insert("pairs".into(), Value::Object(Map::new()));
                if include_templates {
                    entry.insert("includeTemplates".into(), Value::Bool(true));
                }
                labels.push(Value::Object(entry));
                labels.len() - 1
            }
        };
        let Some(Value::Object(entry)) = labels.get_mut(idx) else {
            return Ok(());
        };
        let pairs_map = entry
            .entry("pairs")
            .or_insert_with(|| Value::Object(Map::new()));
        if !pairs_map.is_object() {
            *pairs_map = Value::Object(Map::new());
        }
        if let Value::Object(m) = pairs_map {
            for (k, v) in pairs {
                if m.contains_key(k) && !force {
                    return Err(format!(
                        "label {k} already in kustomization file. Use --force to override."
                    ));
                }
                m.insert(k.clone(), Value::String(v.clone()));
            }
        }
        self.doc.insert("labels".into(), Value::Array(labels));
        Ok(())
    }

    /// Appends to a list key (Argo CD's patches, `edit add component`).
    pub fn append(&mut self, key: &str, items: &[Value]) {
        let mut list = self.list(key);
        list.extend(items.iter().cloned());
        self.doc.insert(key.into(), Value::Array(list));
    }

    fn list(&self, key: &str) -> Vec<Value> {
        self.doc
            .get(key)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    }
}

/// One `images:` entry.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Image {
    name: String,
    new_name: String,
    new_tag: String,
    digest: String,
    tag_suffix: String,
}

impl Image {
    fn from_value(v: &Value) -> Option<Image> {
        let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        v.is_object().then(|| Image {
            name: s("name"),
            new_name: s("newName"),
            new_tag: s("newTag"),
            digest: s("digest"),
            tag_suffix: s("tagSuffix"),
        })
    }

    fn to_value(&self) -> Value {
        let mut m = Map::new();
        for (k, v) in [
            ("name", &self.name),
            ("newName", &self.new_name),
            ("newTag", &self.new_tag),
            ("digest", &self.digest),
            ("tagSuffix", &self.tag_suffix),
        ] {
            if !v.is_empty() {
                m.insert(k.into(), Value::String(v.clone()));
            }
        }
        Value::Object(m)
    }

    /// Fields given as `*` take the file's value; everything else the argument replaces.
    fn keep_from(&mut self, existing: &Image) {
        if self.new_name == PRESERVE {
            self.new_name = existing.new_name.clone();
        }
        if self.new_tag == PRESERVE {
            self.new_tag = existing.new_tag.clone();
        }
        if self.digest == PRESERVE {
            self.digest = existing.digest.clone();
        }
    }

    /// A `*` with nothing to preserve means "unset".
    fn drop_preserve_markers(&mut self) {
        for f in [&mut self.new_name, &mut self.new_tag, &mut self.digest] {
            if f == PRESERVE {
                f.clear();
            }
        }
    }
}

/// `setimage.go`'s `parse`: `[name=]image[:tag][@digest]`.
fn parse_image_arg(arg: &str) -> Result<Image, String> {
    let (key, value) = match arg.split_once('=') {
        Some((k, v)) => (Some(k), v),
        None => (None, arg),
    };
    let (name, tag, digest) = split_image(value);
    if name == arg {
        return Err(INVALID_IMAGE.into());
    }
    let mut img = Image {
        new_tag: tag.into(),
        digest: digest.into(),
        ..Image::default()
    };
    match key {
        Some(k) => {
            img.name = k.into();
            img.new_name = name.into();
        }
        None => img.name = name.into(),
    }
    Ok(img)
}

/// kustomize's `image.Split`: the tag/digest separators are searched after the first `/`, so
/// a registry port (`host:5000/app`) is not taken for a tag.
fn split_image(image: &str) -> (&str, &str, &str) {
    let offset = image.find('/').filter(|&i| i > 0).unwrap_or(0);
    let search = &image[offset..];
    let at = search.find('@').map(|i| i + offset);
    let colon = search.find(':').map(|i| i + offset);
    match (colon, at) {
        (None, None) => (image, "", ""),
        (Some(c), Some(d)) if c < d => (&image[..c], &image[c + 1..d], &image[d + 1..]),
        (_, Some(d)) => (&image[..d], "", &image[d + 1..]),
        (Some(c), None) => (&image[..c], &image[c + 1..], ""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kust(yaml: &str) -> (tempfile::TempDir, Kustomization) {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("kustomization.yaml"), yaml).unwrap();
        let k = Kustomization::load(d.path()).unwrap();
        (d, k)
    }

    fn images(k: &Kustomization) -> Value {
        k.doc.get("images").cloned().unwrap_or(Value::Null)
    }

    fn set(k: &mut Kustomization, args: &[&str]) -> Result<(), String> {
        k.set_images(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn all_argument_forms() {
        let (_d, mut k) = kust("resources: [../base]\n");
        set(
            &mut k,
            &[
                "nginx=nginx:1.28-alpine",
                "app=registry/app@sha256:abc",
                "node:8.15.0",
                "mysql=mariadb",
                "alpine@sha256:def",
            ],
        )
        .unwrap();
        assert_eq!(
            images(&k),
            json!([
                {"name": "alpine", "digest": "sha256:def"},
                {"name": "app", "newName": "registry/app", "digest": "sha256:abc"},
                {"name": "mysql", "newName": "mariadb"},
                {"name": "nginx", "newName": "nginx", "newTag": "1.28-alpine"},
                {"name": "node", "newTag": "8.15.0"},
            ])
        );
        assert_eq!(k.doc["resources"], json!(["../base"]));
    }

    #[test]
    fn replaces_the_entry_of_the_same_name() {
        let (_d, mut k) = kust(
            "images:\n- name: nginx\n  newName: my/nginx\n  newTag: old\n- name: redis\n  newTag: '7'\n",
        );
        set(&mut k, &["nginx:1.28"]).unwrap();
        // The argument replaces the whole entry: newName is gone, as with kustomize.
        assert_eq!(
            images(&k),
            json!([{"name": "nginx", "newTag": "1.28"}, {"name": "redis", "newTag": "7"}])
        );
    }

    #[test]
    fn star_preserves() {
        let (_d, mut k) = kust("images:\n- name: nginx\n  newName: my/nginx\n  newTag: old\n");
        set(&mut k, &["nginx=*:new"]).unwrap();
        assert_eq!(
            images(&k),
            json!([{"name": "nginx", "newName": "my/nginx", "newTag": "new"}])
        );
    }

    #[test]
    fn registry_port_is_not_a_tag() {
        assert_eq!(split_image("host:5000/app"), ("host:5000/app", "", ""));
        assert_eq!(split_image("host:5000/app:1"), ("host:5000/app", "1", ""));
        assert_eq!(split_image("app:1@sha256:x"), ("app", "1", "sha256:x"));
    }

    #[test]
    fn bare_name_is_invalid() {
        let (_d, mut k) = kust("{}\n");
        assert!(
            set(&mut k, &["nginx"])
                .unwrap_err()
                .starts_with("invalid format of image")
        );
    }

    #[test]
    fn saves_and_reloads() {
        let (d, mut k) = kust("namePrefix: a-\n");
        k.set_scalar("namePrefix", "prod-");
        k.set_replicas(&[("api".into(), 2)]);
        set(&mut k, &["nginx=nginx:1.28"]).unwrap();
        k.save().unwrap();
        let back = Kustomization::load(d.path()).unwrap();
        assert_eq!(back.doc["namePrefix"], "prod-");
        assert_eq!(back.doc["replicas"], json!([{"name": "api", "count": 2}]));
        assert_eq!(back.doc["images"][0]["newTag"], "1.28");
    }

    #[test]
    fn missing_or_multiple_files() {
        let d = tempfile::tempdir().unwrap();
        assert_eq!(
            Kustomization::load(d.path()).err().unwrap(),
            "Missing kustomization file 'kustomization.yaml'."
        );
        std::fs::write(d.path().join("kustomization.yaml"), "").unwrap();
        std::fs::write(d.path().join("Kustomization"), "").unwrap();
        assert!(
            Kustomization::load(d.path())
                .err()
                .unwrap()
                .starts_with("Found multiple")
        );
    }

    #[test]
    fn labels_need_force() {
        let (_d, mut k) = kust("commonLabels: {team: a}\n");
        let pairs = [("team".to_string(), "b".to_string())];
        assert!(
            k.add_to_map("commonLabels", "label", &pairs, false)
                .is_err()
        );
        k.add_to_map("commonLabels", "label", &pairs, true).unwrap();
        assert_eq!(k.doc["commonLabels"]["team"], "b");
        k.add_labels_without_selector(&pairs, false, false).unwrap();
        assert_eq!(k.doc["labels"], json!([{"pairs": {"team": "b"}}]));
    }
}
