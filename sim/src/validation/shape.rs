//! The shape of a kind's fields as the API server's decoder sees them: which fields each object
//! has and what each holds. Built-in kinds get theirs from Kubernetes' Go types (`builtin`),
//! Argo CD's custom resources from their CRD schemas (`argocd`).

/// What a field holds, at the level the decoders tell apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leaf {
    String,
    Bool,
    Int32,
    Int64,
    Float64,
    /// `[]byte`: a base64 string (a Secret's `data`).
    Bytes,
    /// `metav1.Time`: an RFC 3339 string.
    Time,
    /// `metav1.MicroTime`: RFC 3339 with microseconds.
    MicroTime,
    /// `intstr.IntOrString` (`x-kubernetes-int-or-string`).
    IntOrString,
    /// `resource.Quantity`: a string or a number in quantity notation.
    Quantity,
    /// Anything (`RawExtension`, `x-kubernetes-preserve-unknown-fields`): never checked.
    Any,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    Leaf(Leaf),
    List(Box<Shape>),
    /// An object whose keys are free (`map[string]T`, `additionalProperties`).
    Map(Box<Shape>),
    /// An object with named fields: an index into [`Schema::structs`].
    Struct(usize),
}

/// One object type: its Go name (`DeploymentSpec`) and its fields in declaration order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StructDef {
    pub name: String,
    pub fields: Vec<(String, Shape)>,
}

impl StructDef {
    pub fn field(&self, name: &str) -> Option<&Shape> {
        self.fields.iter().find(|(n, _)| n == name).map(|(_, s)| s)
    }
}

/// A kind's whole shape: the root object and every object type reachable from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schema {
    pub structs: Vec<StructDef>,
    pub root: Shape,
}

impl Schema {
    pub fn def(&self, id: usize) -> &StructDef {
        &self.structs[id]
    }

    /// The shape at a path of field names from the root (list items and map values are
    /// stepped through without a name), or `None` when the path leaves the schema.
    pub fn at(&self, path: &[&str]) -> Option<&Shape> {
        let mut shape = &self.root;
        for name in path {
            shape = self.through_collections(shape);
            match shape {
                Shape::Struct(id) => shape = self.def(*id).field(name)?,
                Shape::Map(inner) => shape = inner,
                Shape::Leaf(Leaf::Any) => return Some(shape),
                _ => return None,
            }
        }
        Some(shape)
    }

    fn through_collections<'a>(&'a self, mut shape: &'a Shape) -> &'a Shape {
        while let Shape::List(inner) = shape {
            shape = inner;
        }
        shape
    }

    /// Go's name for the type of a value of this shape, as `reflect.Type.String()` prints it
    /// in decoding errors (`int32`, `[]v1.Container`, `map[string]string`, `v1.ObjectMeta`).
    /// Every struct of the kinds served lives in a Go package named `v1`.
    pub fn go_type(&self, shape: &Shape) -> String {
        match shape {
            Shape::Leaf(leaf) => match leaf {
                Leaf::String | Leaf::Time | Leaf::MicroTime => "string".into(),
                Leaf::Bool => "bool".into(),
                Leaf::Int32 | Leaf::IntOrString => "int32".into(),
                Leaf::Int64 => "int64".into(),
                Leaf::Float64 => "float64".into(),
                Leaf::Bytes => "[]uint8".into(),
                Leaf::Quantity => "resource.Quantity".into(),
                Leaf::Any => "interface {}".into(),
            },
            Shape::List(inner) => format!("[]{}", self.go_type(inner)),
            Shape::Map(inner) => format!("map[string]{}", self.go_type(inner)),
            Shape::Struct(id) => format!("v1.{}", self.def(*id).name),
        }
    }
}
