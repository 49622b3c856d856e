//! The shapes of the built-in kinds, read from Kubernetes' own types as the `k8s-openapi` crate
//! generates them for v1.35: each type's `Deserialize` is driven by a probing deserializer that
//! offers every field the type declares and notes what the type asks for in return. So the list
//! of known fields is exactly Kubernetes' for that version, with nothing written by hand.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::OnceLock;

use serde::de::value::{Error, StrDeserializer, UnitDeserializer};
use serde::de::{self, DeserializeOwned, DeserializeSeed, IntoDeserializer, Visitor};

use super::shape::{Leaf, Schema, Shape, StructDef};
use crate::kinds::{ResourceType, TYPES};

/// The shape of a built-in kind, or `None` for a kind this table does not know.
pub fn schema(ty: &ResourceType) -> Option<&'static Schema> {
    // Keyed by apiVersion and kind: core and events.k8s.io both have an Event, autoscaling
    // v1 and v2 both a HorizontalPodAutoscaler, with different fields.
    static ALL: OnceLock<HashMap<(String, &'static str), Schema>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        TYPES
            .iter()
            // Metrics are computed on each read and never written: nothing to validate.
            .filter(|t| t.builtin && !t.computed)
            .filter_map(|t| Some(((t.api_version(), t.kind), probe_kind(t)?)))
            .collect()
    });
    all.get(&(ty.api_version(), ty.kind)).filter(|_| ty.builtin)
}

fn probe_kind(ty: &ResourceType) -> Option<Schema> {
    use k8s_openapi::api::{
        apps, authentication, authorization, autoscaling, batch, coordination, core, discovery,
        events, networking, policy, storage,
    };
    use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1 as crd;
    let root = (ty.api_version(), ty.kind);
    match (ty.api_version().as_str(), ty.kind) {
        ("autoscaling/v2", "HorizontalPodAutoscaler") => {
            probe::<autoscaling::v2::HorizontalPodAutoscaler>(root)
        }
        ("autoscaling/v1", "HorizontalPodAutoscaler") => {
            probe::<autoscaling::v1::HorizontalPodAutoscaler>(root)
        }
        ("policy/v1", "PodDisruptionBudget") => probe::<policy::v1::PodDisruptionBudget>(root),
        ("networking.k8s.io/v1", "NetworkPolicy") => probe::<networking::v1::NetworkPolicy>(root),
        ("storage.k8s.io/v1", "StorageClass") => probe::<storage::v1::StorageClass>(root),
        ("v1", "ResourceQuota") => probe::<core::v1::ResourceQuota>(root),
        ("v1", "LimitRange") => probe::<core::v1::LimitRange>(root),
        ("events.k8s.io/v1", "Event") => probe::<events::v1::Event>(root),
        ("v1", "Namespace") => probe::<core::v1::Namespace>(root),
        ("v1", "ConfigMap") => probe::<core::v1::ConfigMap>(root),
        ("v1", "Secret") => probe::<core::v1::Secret>(root),
        ("v1", "Pod") => probe::<core::v1::Pod>(root),
        ("v1", "Event") => probe::<core::v1::Event>(root),
        ("v1", "Service") => probe::<core::v1::Service>(root),
        ("v1", "ServiceAccount") => probe::<core::v1::ServiceAccount>(root),
        ("v1", "Node") => probe::<core::v1::Node>(root),
        ("v1", "Endpoints") => probe::<core::v1::Endpoints>(root),
        ("v1", "ReplicationController") => probe::<core::v1::ReplicationController>(root),
        ("apps/v1", "DaemonSet") => probe::<apps::v1::DaemonSet>(root),
        ("apps/v1", "StatefulSet") => probe::<apps::v1::StatefulSet>(root),
        ("discovery.k8s.io/v1", "EndpointSlice") => probe::<discovery::v1::EndpointSlice>(root),
        ("coordination.k8s.io/v1", "Lease") => probe::<coordination::v1::Lease>(root),
        ("apps/v1", "Deployment") => probe::<apps::v1::Deployment>(root),
        ("apps/v1", "ReplicaSet") => probe::<apps::v1::ReplicaSet>(root),
        ("batch/v1", "Job") => probe::<batch::v1::Job>(root),
        ("batch/v1", "CronJob") => probe::<batch::v1::CronJob>(root),
        ("v1", "PersistentVolumeClaim") => probe::<core::v1::PersistentVolumeClaim>(root),
        ("v1", "PersistentVolume") => probe::<core::v1::PersistentVolume>(root),
        ("networking.k8s.io/v1", "Ingress") => probe::<networking::v1::Ingress>(root),
        ("authorization.k8s.io/v1", "SelfSubjectAccessReview") => {
            probe::<authorization::v1::SelfSubjectAccessReview>(root)
        }
        ("authorization.k8s.io/v1", "SelfSubjectRulesReview") => {
            probe::<authorization::v1::SelfSubjectRulesReview>(root)
        }
        ("authentication.k8s.io/v1", "SelfSubjectReview") => {
            probe::<authentication::v1::SelfSubjectReview>(root)
        }
        ("apiextensions.k8s.io/v1", "CustomResourceDefinition") => {
            probe::<crd::CustomResourceDefinition>(root)
        }
        _ => more::probe_more(ty),
    }
}

/// Drives `T`'s deserializer once and returns the shape it revealed.
fn probe<T: DeserializeOwned>(root: (String, &str)) -> Option<Schema> {
    let structs = RefCell::new(Vec::new());
    let slot = RefCell::new(None);
    let p = Probe {
        structs: &structs,
        ty: std::any::type_name::<T>(),
        slot: &slot,
        root: Some((&root.0, root.1)),
    };
    T::deserialize(p).ok()?;
    let root = slot.into_inner()?;
    Some(Schema {
        structs: structs.into_inner(),
        root,
    })
}

/// A deserializer that hands each visitor a plausible value and records the shape asked for.
struct Probe<'a> {
    structs: &'a RefCell<Vec<StructDef>>,
    /// The Rust type being deserialized (from the seed), to tell `ByteString` from `String`.
    ty: &'static str,
    slot: &'a RefCell<Option<Shape>>,
    /// The apiVersion and kind a top-level resource insists on.
    root: Option<(&'a str, &'a str)>,
}

impl Probe<'_> {
    fn record(&self, shape: Shape) {
        *self.slot.borrow_mut() = Some(shape);
    }

    fn child<'b>(&'b self, ty: &'static str, slot: &'b RefCell<Option<Shape>>) -> Probe<'b> {
        Probe {
            structs: self.structs,
            ty,
            slot,
            root: None,
        }
    }
}

/// The type inside `PhantomData<...>` as the seed names it, e.g. `k8s_openapi::ByteString`.
fn seed_type<S>() -> &'static str {
    std::any::type_name::<S>()
}

macro_rules! ints {
    ($($method:ident => $leaf:expr, $visit:ident;)*) => {$(
        fn $method<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
            self.record(Shape::Leaf($leaf));
            v.$visit(0)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Probe<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        if self.ty.contains("IntOrString") {
            self.record(Shape::Leaf(Leaf::IntOrString));
            return v.visit_i32(0);
        }
        self.record(Shape::Leaf(Leaf::Any));
        // apiextensions' JSONSchemaPropsOr{Array,Bool,StringArray} want a list or a bool.
        if self.ty.contains("OrBool") {
            v.visit_bool(true)
        } else if self.ty.contains("Array") {
            v.visit_seq(Items::<'_>::empty())
        } else {
            v.visit_unit()
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.record(Shape::Leaf(Leaf::Bool));
        v.visit_bool(false)
    }

    ints! {
        deserialize_i8 => Leaf::Int32, visit_i8;
        deserialize_i16 => Leaf::Int32, visit_i16;
        deserialize_i32 => Leaf::Int32, visit_i32;
        deserialize_i64 => Leaf::Int64, visit_i64;
        deserialize_u8 => Leaf::Int32, visit_u8;
        deserialize_u16 => Leaf::Int32, visit_u16;
        deserialize_u32 => Leaf::Int64, visit_u32;
        deserialize_u64 => Leaf::Int64, visit_u64;
    }

    fn deserialize_f32<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.record(Shape::Leaf(Leaf::Float64));
        v.visit_f32(0.0)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.record(Shape::Leaf(Leaf::Float64));
        v.visit_f64(0.0)
    }

    fn deserialize_char<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.record(Shape::Leaf(Leaf::String));
        v.visit_char('a')
    }

    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        let leaf = if self.ty.contains("ByteString") {
            Leaf::Bytes
        } else {
            Leaf::String
        };
        self.record(Shape::Leaf(leaf));
        v.visit_str("")
    }

    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.deserialize_str(v)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.record(Shape::Leaf(Leaf::Bytes));
        v.visit_bytes(b"")
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.deserialize_bytes(v)
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_some(self)
    }

    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.record(Shape::Leaf(Leaf::Any));
        v.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_unit(v)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value, Error> {
        let text = |s: &'static str| -> StrDeserializer<'static, Error> { s.into_deserializer() };
        match name {
            "Time" => {
                self.record(Shape::Leaf(Leaf::Time));
                v.visit_newtype_struct(text("1970-01-01T00:00:00Z"))
            }
            "MicroTime" => {
                self.record(Shape::Leaf(Leaf::MicroTime));
                v.visit_newtype_struct(text("1970-01-01T00:00:00.000000Z"))
            }
            "Quantity" => {
                self.record(Shape::Leaf(Leaf::Quantity));
                v.visit_newtype_struct(text("0"))
            }
            "RawExtension" | "FieldsV1" | "JSON" => {
                self.record(Shape::Leaf(Leaf::Any));
                v.visit_newtype_struct(UnitDeserializer::<Error>::new())
            }
            _ => v.visit_newtype_struct(self),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        let item = RefCell::new(None);
        let out = v.visit_seq(Items {
            probe: Some(self.child("", &item)),
        })?;
        let inner = item.into_inner().unwrap_or(Shape::Leaf(Leaf::Any));
        self.record(Shape::List(Box::new(inner)));
        Ok(out)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value, Error> {
        self.deserialize_seq(v)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        v: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(v)
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        let value = RefCell::new(None);
        let out = v.visit_map(Entries {
            keys: vec!["key"],
            probe: self.child("", &value),
            record: None,
            root: None,
        })?;
        let inner = value.into_inner().unwrap_or(Shape::Leaf(Leaf::Any));
        self.record(Shape::Map(Box::new(inner)));
        Ok(out)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        let known = self.structs.borrow().iter().position(|s| s.name == name);
        if let Some(id) = known {
            // Seen before (or being probed right now, for recursive types): an empty object
            // builds a value without going round again.
            self.record(Shape::Struct(id));
            return v.visit_map(Entries {
                keys: vec![],
                probe: self.child("", self.slot),
                record: None,
                root: None,
            });
        }
        let id = {
            let mut structs = self.structs.borrow_mut();
            structs.push(StructDef {
                name: name.to_string(),
                fields: Vec::new(),
            });
            structs.len() - 1
        };
        // apiVersion and kind go last: a resource checks their values, and everything else
        // is recorded by then even if the check fails.
        let mut keys: Vec<&'static str> = fields
            .iter()
            .copied()
            .filter(|f| !matches!(*f, "apiVersion" | "kind"))
            .collect();
        keys.extend(
            fields
                .iter()
                .copied()
                .filter(|f| matches!(*f, "apiVersion" | "kind")),
        );
        let scratch = RefCell::new(None);
        let out = v.visit_map(Entries {
            keys,
            probe: self.child("", &scratch),
            record: Some(id),
            root: self.root.or_else(|| nested_resource(name)),
        })?;
        self.record(Shape::Struct(id));
        Ok(out)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        _v: V,
    ) -> Result<V::Value, Error> {
        Err(de::Error::custom(
            "enums are not part of Kubernetes' JSON types",
        ))
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_str("")
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_unit()
    }
}

/// A whole resource nested in another's type, whose deserializer checks its own apiVersion and
/// kind (a StatefulSet's `volumeClaimTemplates` are PersistentVolumeClaims).
fn nested_resource(name: &str) -> Option<(&'static str, &'static str)> {
    (name == "PersistentVolumeClaim").then_some(("v1", "PersistentVolumeClaim"))
}

/// A list of one probed item (or none).
struct Items<'a> {
    probe: Option<Probe<'a>>,
}

impl Items<'_> {
    fn empty() -> Items<'static> {
        Items { probe: None }
    }
}

impl<'de> de::SeqAccess<'de> for Items<'_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        let Some(probe) = self.probe.take() else {
            return Ok(None);
        };
        let child = Probe {
            ty: seed_type::<T>(),
            ..probe
        };
        seed.deserialize(child).map(Some)
    }
}

/// An object offering `keys` one by one, each value probed; with `record`, each field's shape
/// is added to that struct.
struct Entries<'a> {
    keys: Vec<&'static str>,
    probe: Probe<'a>,
    record: Option<usize>,
    root: Option<(&'a str, &'a str)>,
}

impl<'de> de::MapAccess<'de> for Entries<'_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some(key) = self.keys.first().copied() else {
            return Ok(None);
        };
        seed.deserialize(StrDeserializer::<Error>::new(key))
            .map(Some)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, Error> {
        let key = self.keys.remove(0);
        let value = match (key, self.root) {
            ("apiVersion", Some((api_version, _))) => {
                seed.deserialize(StrDeserializer::<Error>::new(api_version))
            }
            ("kind", Some((_, kind))) => seed.deserialize(StrDeserializer::<Error>::new(kind)),
            _ => {
                let Some(id) = self.record else {
                    // A map's value: its shape is the map's item shape.
                    return seed.deserialize(self.probe.child(seed_type::<S>(), self.probe.slot));
                };
                let slot = RefCell::new(None);
                let out = seed.deserialize(self.probe.child(seed_type::<S>(), &slot));
                {
                    let shape = slot.into_inner().unwrap_or(Shape::Leaf(Leaf::Any));
                    self.probe.structs.borrow_mut()[id]
                        .fields
                        .push((key.to_string(), shape));
                }
                return out;
            }
        };
        if let Some(id) = self.record {
            self.probe.structs.borrow_mut()[id]
                .fields
                .push((key.to_string(), Shape::Leaf(Leaf::String)));
        }
        value
    }
}

mod more;
#[cfg(test)]
mod tests;
