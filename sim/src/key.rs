//! The address of one stored object: its type, namespace and name. The store indexes objects
//! by it and the journal writes it down, so it belongs to neither.

use crate::kinds::{ResourceType, TYPES};

/// Where an object lives. `ty` indexes [`TYPES`]; a cluster-scoped object has no namespace.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    pub ty: usize,
    pub namespace: String,
    pub name: String,
}

impl Key {
    pub fn new(ty: &'static ResourceType, namespace: &str, name: &str) -> Key {
        // A view's objects are its storage type's: one object, whichever version names it.
        let stored = ty.storage();
        let index = TYPES
            .iter()
            .position(|t| std::ptr::eq(*t, stored))
            .unwrap_or_default();
        Key {
            ty: index,
            namespace: if ty.namespaced {
                namespace.to_string()
            } else {
                String::new()
            },
            name: name.to_string(),
        }
    }

    pub fn ty(&self) -> &'static ResourceType {
        TYPES[self.ty]
    }
}
