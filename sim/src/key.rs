//! The address of one stored object: its type, namespace and name. The store indexes objects
//! by it and the journal writes it down, so it belongs to neither.

use crate::kinds::{ResourceType, TYPES};

/// Where an object lives. `ty` indexes [`TYPES`], or past its end the custom resources
/// (`kinds::custom`); a cluster-scoped object has no namespace.
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
        let index = match TYPES.iter().position(|t| std::ptr::eq(*t, stored)) {
            Some(i) => i,
            // A custom type: its resource (group and plural), whichever definition names it.
            None if stored.custom.is_some() => {
                TYPES.len() + crate::kinds::custom::resource_index(stored, false)
            }
            None => 0,
        };
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
        match TYPES.get(self.ty) {
            Some(t) => t,
            None => crate::kinds::custom::resource(self.ty - TYPES.len()).unwrap_or(TYPES[0]),
        }
    }
}
