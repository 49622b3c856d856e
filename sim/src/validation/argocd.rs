//! The structural schemas of Argo CD 3.5's Application and AppProject CRDs
//! (`manifests/crds/application-crd.yaml`, `appproject-crd.yaml`), written down as the fields
//! each object type has. A real API server prunes every field not in these schemas and, when
//! asked for strict field validation, reports it as unknown.
//!
//! Notation, one object type a line: `Name: field:type ...`, where a type is `string`, `bool`,
//! `int`, `intstr` (integer or string), `any` (`x-kubernetes-preserve-unknown-fields`), `meta`
//! (the root's ObjectMeta, which pruning leaves to the object-meta check), another object
//! type's name, `[type]` for a list and `{type}` for a map.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::shape::{Leaf, Schema, Shape, StructDef};
use crate::kinds::ResourceType;

const APPLICATION: &str = "
Application: apiVersion:string kind:string metadata:meta operation:Operation spec:ApplicationSpec status:ApplicationStatus
Operation: info:[Info] initiatedBy:OperationInitiator retry:RetryStrategy sync:SyncOperation
ApplicationSpec: destination:ApplicationDestination ignoreDifferences:[ResourceIgnoreDifferences] info:[Info] project:string revisionHistoryLimit:int source:ApplicationSource sourceHydrator:SourceHydrator sources:[ApplicationSource] syncPolicy:SyncPolicy
ApplicationStatus: conditions:[ApplicationCondition] controllerNamespace:string health:HealthStatus history:[RevisionHistory] observedAt:string operationState:OperationState reconciledAt:string resourceHealthSource:string resources:[ResourceStatus] sourceHydrator:SourceHydratorStatus sourceType:string sourceTypes:[string] summary:ApplicationSummary sync:SyncStatus
Info: name:string value:string
OperationInitiator: automated:bool username:string
RetryStrategy: backoff:Backoff limit:int refresh:bool
SyncOperation: autoHealAttemptsCount:int dryRun:bool manifests:[string] prune:bool resources:[SyncOperationResource] revision:string revisions:[string] source:ApplicationSource sources:[ApplicationSource] syncOptions:[string] syncStrategy:SyncStrategy
ApplicationDestination: name:string namespace:string server:string
ResourceIgnoreDifferences: group:string jqPathExpressions:[string] jsonPointers:[string] kind:string managedFieldsManagers:[string] name:string namespace:string
ApplicationSource: chart:string directory:ApplicationSourceDirectory helm:ApplicationSourceHelm kustomize:ApplicationSourceKustomize name:string path:string plugin:ApplicationSourcePlugin ref:string repoURL:string tagPrefix:string targetRevision:string
SourceHydrator: drySource:DrySource hydrateTo:HydrateTo syncSource:SyncSource
SyncPolicy: automated:SyncPolicyAutomated managedNamespaceMetadata:ManagedNamespaceMetadata retry:RetryStrategy syncOptions:[string]
ApplicationCondition: lastTransitionTime:string message:string type:string
HealthStatus: lastTransitionTime:string message:string status:string
RevisionHistory: deployStartedAt:string deployedAt:string id:int initiatedBy:OperationInitiator revision:string revisions:[string] source:ApplicationSource sources:[ApplicationSource]
OperationState: finishedAt:string message:string operation:Operation phase:string retryCount:int startedAt:string syncResult:SyncOperationResult
ResourceStatus: group:string health:HealthStatus hook:bool kind:string name:string namespace:string requiresDeletionConfirmation:bool requiresPruning:bool status:string syncWave:int version:string
SourceHydratorStatus: currentOperation:HydrateOperation lastComparedDryRevision:string lastSuccessfulOperation:SuccessfulHydrateOperation
ApplicationSummary: externalURLs:[string] images:[string] isAppOfApps:bool
SyncStatus: comparedTo:ComparedTo revision:string revisions:[string] status:string
Backoff: duration:string factor:int maxDuration:string
SyncOperationResource: group:string kind:string name:string namespace:string
SyncStrategy: apply:SyncStrategyApply hook:SyncStrategyApply
ApplicationSourceDirectory: exclude:string include:string jsonnet:ApplicationSourceJsonnet recurse:bool
ApplicationSourceHelm: apiVersions:[string] fileParameters:[HelmFileParameter] ignoreMissingValueFiles:bool kubeVersion:string namespace:string parameters:[HelmParameter] passCredentials:bool releaseName:string skipCrds:bool skipSchemaValidation:bool skipTests:bool valueFiles:[string] values:string valuesObject:any version:string
ApplicationSourceKustomize: apiVersions:[string] commonAnnotations:{string} commonAnnotationsEnvsubst:bool commonLabels:{string} components:[string] forceCommonAnnotations:bool forceCommonLabels:bool ignoreMissingComponents:bool images:[string] kubeVersion:string labelIncludeTemplates:bool labelWithoutSelector:bool namePrefix:string nameSuffix:string namespace:string patches:[KustomizePatch] replicas:[KustomizeReplica] version:string
ApplicationSourcePlugin: env:[EnvEntry] name:string parameters:[ApplicationSourcePluginParameter]
DrySource: directory:ApplicationSourceDirectory helm:ApplicationSourceHelm kustomize:ApplicationSourceKustomize path:string plugin:ApplicationSourcePlugin repoURL:string targetRevision:string
HydrateTo: targetBranch:string
SyncSource: path:string repoURL:string targetBranch:string
SyncPolicyAutomated: allowEmpty:bool enabled:bool prune:bool selfHeal:bool
ManagedNamespaceMetadata: annotations:{string} labels:{string}
SyncOperationResult: managedNamespaceMetadata:ManagedNamespaceMetadata resources:[ResourceResult] revision:string revisions:[string] source:ApplicationSource sources:[ApplicationSource]
HydrateOperation: drySHA:string finishedAt:string hydratedSHA:string message:string phase:string sourceHydrator:SourceHydrator startedAt:string
SuccessfulHydrateOperation: drySHA:string hydratedSHA:string sourceHydrator:SourceHydrator
ComparedTo: destination:ApplicationDestination ignoreDifferences:[ResourceIgnoreDifferences] source:ApplicationSource sources:[ApplicationSource]
SyncStrategyApply: force:bool
ApplicationSourceJsonnet: extVars:[JsonnetVar] libs:[string] tlas:[JsonnetVar]
HelmFileParameter: name:string path:string
HelmParameter: forceString:bool name:string value:string
KustomizePatch: options:{bool} patch:string path:string target:KustomizeSelector
KustomizeReplica: count:intstr name:string
ApplicationSourcePluginParameter: array:[string] map:{string} name:string string:string
ResourceResult: group:string hookPhase:string hookType:string images:[string] kind:string message:string name:string namespace:string status:string syncPhase:string version:string
JsonnetVar: code:bool name:string value:string
KustomizeSelector: annotationSelector:string group:string kind:string labelSelector:string name:string namespace:string version:string
EnvEntry: name:string value:string
";

const APP_PROJECT: &str = "
AppProject: apiVersion:string kind:string metadata:meta spec:AppProjectSpec status:AppProjectStatus
AppProjectSpec: clusterResourceBlacklist:[ClusterResourceRestrictionItem] clusterResourceWhitelist:[ClusterResourceRestrictionItem] description:string destinationServiceAccounts:[ApplicationDestinationServiceAccount] destinations:[ApplicationDestination] namespaceResourceBlacklist:[GroupKind] namespaceResourceWhitelist:[GroupKind] orphanedResources:OrphanedResourcesMonitorSettings permitOnlyProjectScopedClusters:bool roles:[ProjectRole] signatureKeys:[SignatureKey] sourceIntegrity:SourceIntegrity sourceNamespaces:[string] sourceRepos:[string] syncWindows:[SyncWindow]
AppProjectStatus: jwtTokensByRole:{JWTTokens}
ClusterResourceRestrictionItem: group:string kind:string name:string
ApplicationDestinationServiceAccount: defaultServiceAccount:string namespace:string server:string
ApplicationDestination: name:string namespace:string server:string
GroupKind: group:string kind:string
OrphanedResourcesMonitorSettings: ignore:[ClusterResourceRestrictionItem] warn:bool
ProjectRole: description:string groups:[string] jwtTokens:[JWTToken] name:string policies:[string]
SignatureKey: keyID:string
SourceIntegrity: git:SourceIntegrityGit
SyncWindow: andOperator:bool applications:[string] clusters:[string] description:string duration:string kind:string manualSync:bool namespaces:[string] schedule:string syncOverrun:bool timeZone:string
JWTTokens: items:[JWTToken]
JWTToken: exp:int iat:int id:string
SourceIntegrityGit: policies:[SourceIntegrityGitPolicy]
SourceIntegrityGitPolicy: gpg:SourceIntegrityGitPolicyGPG repos:[SourceIntegrityGitPolicyRepo]
SourceIntegrityGitPolicyGPG: keys:[string] mode:string
SourceIntegrityGitPolicyRepo: url:string
";

/// The schema of an Argo CD custom resource, or `None` for any other kind.
pub fn schema(ty: &ResourceType) -> Option<&'static Schema> {
    static ALL: OnceLock<HashMap<&'static str, Schema>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        [("Application", APPLICATION), ("AppProject", APP_PROJECT)]
            .into_iter()
            // The tables are this file's constants, parsed by a unit test; one that did not parse
            // would leave its kind unchecked, never stop the server.
            .filter_map(|(kind, text)| Some((kind, parse(text).ok()?)))
            .collect()
    });
    all.get(ty.kind).filter(|_| ty.group == "argoproj.io")
}

/// The CRD's `openAPIV3Schema` written out from the table: what `kubectl get crd -o yaml`
/// shows and what the pruning above follows.
pub fn openapi_schema(ty: &ResourceType) -> Option<serde_json::Value> {
    let schema = schema(ty)?;
    let mut root = openapi_of(schema, &schema.root);
    root["properties"]["metadata"] = serde_json::json!({"type": "object"});
    Some(root)
}

fn openapi_of(schema: &Schema, shape: &Shape) -> serde_json::Value {
    use serde_json::json;
    match shape {
        Shape::Leaf(Leaf::String) => json!({"type": "string"}),
        Shape::Leaf(Leaf::Bool) => json!({"type": "boolean"}),
        Shape::Leaf(Leaf::IntOrString) => {
            json!({"anyOf": [{"type": "integer"}, {"type": "string"}], "x-kubernetes-int-or-string": true})
        }
        Shape::Leaf(Leaf::Int64 | Leaf::Int32) => json!({"type": "integer", "format": "int64"}),
        Shape::Leaf(_) => json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}),
        Shape::List(inner) => json!({"type": "array", "items": openapi_of(schema, inner)}),
        Shape::Map(inner) => {
            json!({"type": "object", "additionalProperties": openapi_of(schema, inner)})
        }
        Shape::Struct(id) => {
            let properties: serde_json::Map<String, serde_json::Value> = schema
                .def(*id)
                .fields
                .iter()
                .map(|(name, shape)| (name.clone(), openapi_of(schema, shape)))
                .collect();
            json!({"type": "object", "properties": properties})
        }
    }
}

/// Reads the notation above; the first line is the root.
fn parse(text: &str) -> Result<Schema, String> {
    let lines: Vec<(&str, &str)> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_once(':').ok_or(format!("no name in {l:?}")))
        .collect::<Result<_, _>>()?;
    let index: HashMap<&str, usize> = lines
        .iter()
        .enumerate()
        .map(|(i, (name, _))| (name.trim(), i))
        .collect();
    let mut structs = Vec::new();
    for (name, fields) in &lines {
        let mut def = StructDef {
            name: name.trim().to_string(),
            fields: Vec::new(),
        };
        for field in fields.split_whitespace() {
            let (field, ty) = field
                .split_once(':')
                .ok_or(format!("no type for {field:?} in {name}"))?;
            def.fields.push((field.to_string(), type_of(ty, &index)?));
        }
        structs.push(def);
    }
    Ok(Schema {
        structs,
        root: Shape::Struct(0),
    })
}

fn type_of(ty: &str, index: &HashMap<&str, usize>) -> Result<Shape, String> {
    if let Some(inner) = ty.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        return Ok(Shape::List(Box::new(type_of(inner, index)?)));
    }
    if let Some(inner) = ty.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
        return Ok(Shape::Map(Box::new(type_of(inner, index)?)));
    }
    Ok(match ty {
        "string" => Shape::Leaf(Leaf::String),
        "bool" => Shape::Leaf(Leaf::Bool),
        "int" => Shape::Leaf(Leaf::Int64),
        "intstr" => Shape::Leaf(Leaf::IntOrString),
        // The root's metadata is checked as ObjectMeta, not pruned: it passes as anything.
        "any" | "meta" => Shape::Leaf(Leaf::Any),
        name => Shape::Struct(*index.get(name).ok_or(format!("unknown type {name:?}"))?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_tables_parse_and_know_their_fields() {
        let app = schema(&crate::kinds::APPLICATION).unwrap();
        assert_eq!(
            app.at(&["spec", "syncPolicy", "automated", "selfHeal"]),
            Some(&Shape::Leaf(Leaf::Bool))
        );
        assert_eq!(
            app.at(&["spec", "syncPolicy", "automated", "selfheal"]),
            None
        );
        assert_eq!(
            app.at(&["spec", "source", "helm", "valuesObject", "anything"]),
            Some(&Shape::Leaf(Leaf::Any))
        );
        assert_eq!(
            app.at(&[
                "status",
                "operationState",
                "syncResult",
                "resources",
                "hookPhase"
            ]),
            Some(&Shape::Leaf(Leaf::String))
        );
        let project = schema(&crate::kinds::APP_PROJECT).unwrap();
        assert_eq!(
            project.at(&["spec", "sourceRepos"]),
            Some(&Shape::List(Box::new(Shape::Leaf(Leaf::String))))
        );
        assert!(schema(&crate::kinds::CONFIG_MAP).is_none());
    }

    #[test]
    fn the_openapi_schema_declares_what_pruning_keeps() {
        let app = &crate::kinds::APPLICATION;
        let s = openapi_schema(app).unwrap();
        let automated =
            &s["properties"]["spec"]["properties"]["syncPolicy"]["properties"]["automated"];
        assert_eq!(
            automated["properties"]["selfHeal"],
            serde_json::json!({"type": "boolean"})
        );
        assert_eq!(
            s["properties"]["metadata"],
            serde_json::json!({"type": "object"})
        );
        let values = &s["properties"]["spec"]["properties"]["source"]["properties"]["helm"]["properties"]
            ["valuesObject"];
        assert_eq!(values["x-kubernetes-preserve-unknown-fields"], true);
    }

    #[test]
    fn a_misspelt_type_is_reported() {
        assert!(parse("A: b:Nope").unwrap_err().contains("Nope"));
    }
}
