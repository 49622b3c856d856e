//! A Service's addresses, as the API server allocates them on create (docs/sim-behaviour.md
//! §15.8): a ClusterIP from k3s's service CIDR 10.43.0.0/16 (10.43.0.1 is the `kubernetes`
//! Service's) unless the Service is headless or an ExternalName, and a nodePort from
//! 30000-32767 for each port of a NodePort or LoadBalancer Service. Updates keep what was
//! allocated when the client leaves it out.

use std::collections::HashSet;

use serde_json::{Value, json};

use crate::kinds::ResourceType;
use crate::status::{ApiError, ApiResult, BadValue, FieldError};
use crate::store::Store;
#[cfg(test)]
use crate::store::{Change, Key};

/// The `kubernetes` Service's address, the first of the range.
pub const KUBERNETES_CLUSTER_IP: &str = "10.43.0.1";
const NODE_PORTS: std::ops::RangeInclusive<u16> = 30000..=32767;

/// What the allocator hands a new Service: `body` with `spec.clusterIP(s)` and node ports
/// filled in, refusing an address or port another Service holds. The storage layer does this
/// after the field manager has run, so the creator does not own these fields: the caller fills
/// them into the stored object with [`keep_allocated`].
pub fn allocated(store: &Store, ty: &'static ResourceType, body: &Value) -> ApiResult<Value> {
    let mut body = body.clone();
    allocate(store, ty, &mut body)?;
    Ok(body)
}

fn allocate(store: &Store, ty: &'static ResourceType, body: &mut Value) -> ApiResult<()> {
    let name = body["metadata"]["name"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let (used_ips, used_ports) = in_use(store, ty);
    let spec = &mut body["spec"];
    let kind = spec["type"].as_str().unwrap_or("ClusterIP").to_string();
    if kind != "ExternalName" {
        let asked = spec["clusterIP"]
            .as_str()
            .or_else(|| spec["clusterIPs"][0].as_str())
            .unwrap_or_default()
            .to_string();
        let ip = match asked.as_str() {
            "None" => "None".to_string(),
            "" => free_ip(&name, &used_ips).ok_or_else(|| {
                ApiError::internal("failed to allocate a serviceIP: range is full")
            })?,
            wanted => {
                if used_ips.contains(wanted) {
                    return Err(ApiError::invalid(
                        ty,
                        &name,
                        "spec.clusterIPs",
                        &format!("[]string{{\"{wanted}\"}}"),
                        &format!(
                            "failed to allocate IP {wanted}: provided IP is already allocated"
                        ),
                    ));
                }
                wanted.to_string()
            }
        };
        spec["clusterIP"] = json!(ip);
        spec["clusterIPs"] = json!([ip]);
    }
    if matches!(kind.as_str(), "NodePort" | "LoadBalancer") {
        let others = used_ports.clone();
        let mut taken = used_ports;
        let ports = spec.get_mut("ports").and_then(Value::as_array_mut);
        for (i, port) in ports.into_iter().flatten().enumerate() {
            if let Some(asked) = port["nodePort"].as_i64().filter(|p| *p != 0) {
                // The node port allocator's refusals, as the registry reports them.
                let why = if !u16::try_from(asked).is_ok_and(|p| NODE_PORTS.contains(&p)) {
                    format!(
                        "provided port is not in the valid range. The range of valid ports is {}-{}",
                        NODE_PORTS.start(),
                        NODE_PORTS.end()
                    )
                } else if others.contains(&(asked as u16)) {
                    "provided port is already allocated".to_string()
                } else {
                    taken.insert(asked as u16);
                    continue;
                };
                return Err(ApiError::invalid_fields(
                    ty,
                    &name,
                    &[FieldError::invalid(
                        &format!("spec.ports[{i}].nodePort"),
                        BadValue::Raw(asked.to_string()),
                        &why,
                    )],
                ));
            }
            let seed = port["port"].as_u64().unwrap_or(0) as usize + name.len() * 131;
            let span = NODE_PORTS.len();
            let free = (0..span)
                .map(|i| *NODE_PORTS.start() + ((seed * 7919 + i) % span) as u16)
                .find(|p| !taken.contains(p));
            if let Some(p) = free {
                taken.insert(p);
                port["nodePort"] = json!(p);
            }
        }
    }
    Ok(())
}

/// `normalizeClusterIPs` on update: what a client meant by the linked `clusterIP` and
/// `clusterIPs`. One that left `clusterIPs` out but kept `clusterIP` keeps the stored list; one
/// that changed only `clusterIP` has the list follow it (for validation to refuse); one that
/// cleared only `clusterIP` has the list cleared too (to be filled back in).
pub fn normalize_cluster_ips(old: &Value, new: &mut Value) {
    let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
    let list = |v: &Value| -> Vec<String> {
        v.as_array()
            .into_iter()
            .flatten()
            .map(|s| s.as_str().unwrap_or_default().to_string())
            .collect()
    };
    let (old_ip, old_ips) = (
        text(&old["spec"]["clusterIP"]),
        list(&old["spec"]["clusterIPs"]),
    );
    let Some(spec) = new.get_mut("spec").filter(|s| s.is_object()) else {
        return;
    };
    let ip = text(&spec["clusterIP"]);
    if !old_ips.is_empty() && list(&spec["clusterIPs"]).is_empty() && old_ip == ip {
        spec["clusterIPs"] = json!(old_ips);
    }
    if old_ip != ip {
        let same_ips = list(&spec["clusterIPs"]) == old_ips;
        if !old_ip.is_empty() && ip.is_empty() {
            if same_ips && let Some(o) = spec.as_object_mut() {
                o.remove("clusterIPs");
            }
        } else if same_ips {
            spec["clusterIPs"] = json!([ip]);
        }
    }
}

/// What the client left out of the allocated fields is taken from `old` (the stored Service on
/// update, or the allocation on create).
pub fn keep_allocated(old: &Value, new: &mut Value) {
    let (old_spec, spec) = (&old["spec"], &mut new["spec"]);
    if !spec.is_object() || spec["type"] == "ExternalName" {
        return;
    }
    for field in ["clusterIP", "clusterIPs"] {
        let missing = spec.get(field).is_none_or(|v| v.is_null() || v == "");
        if missing && !old_spec[field].is_null() {
            spec[field] = old_spec[field].clone();
        }
    }
    let old_ports = old_spec["ports"].as_array().cloned().unwrap_or_default();
    let ports = spec.get_mut("ports").and_then(Value::as_array_mut);
    for port in ports.into_iter().flatten() {
        if port["nodePort"].is_null()
            && let Some(old) = old_ports
                .iter()
                .find(|o| o["port"] == port["port"] && protocol(o) == protocol(port))
            && !old["nodePort"].is_null()
        {
            port["nodePort"] = old["nodePort"].clone();
        }
    }
}

/// A port's protocol, TCP when not given (the default the server fills in).
fn protocol(port: &Value) -> &str {
    port["protocol"].as_str().unwrap_or("TCP")
}

fn in_use(store: &Store, ty: &'static ResourceType) -> (HashSet<String>, HashSet<u16>) {
    let mut ips = HashSet::new();
    let mut ports = HashSet::new();
    for svc in store.list(ty, None).0 {
        for ip in svc["spec"]["clusterIPs"].as_array().into_iter().flatten() {
            if let Some(ip) = ip.as_str() {
                ips.insert(ip.to_string());
            }
        }
        for p in svc["spec"]["ports"].as_array().into_iter().flatten() {
            if let Some(n) = p["nodePort"].as_u64().and_then(|n| u16::try_from(n).ok()) {
                ports.insert(n);
            }
        }
    }
    (ips, ports)
}

/// A free address of 10.43.0.0/16, starting from one the name picks (as the real allocator
/// picks at random), skipping the network and broadcast addresses and 10.43.0.10 (kube-dns's).
fn free_ip(name: &str, used: &HashSet<String>) -> Option<String> {
    let seed = name.bytes().fold(2166136261u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(16777619)
    });
    let span: u32 = 65534;
    (0..span)
        .map(|i| 1 + (seed.wrapping_add(i) % span))
        .map(|n| format!("10.43.{}.{}", n / 256, n % 256))
        .find(|ip| {
            !used.contains(ip)
                && ip != KUBERNETES_CLUSTER_IP
                && ip != "10.43.0.10"
                && !ip.ends_with(".0")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn services_get_addresses_and_ports_that_nobody_else_holds() {
        let store = Store::in_memory(1.0);
        let ty = &crate::kinds::SERVICE;
        let mut svc = json!({"metadata": {"name": "web"}, "spec": {"type": "NodePort", "ports": [{"port": 80, "protocol": "TCP"}]}});
        allocate(&store, ty, &mut svc).unwrap();
        let ip = svc["spec"]["clusterIP"].as_str().unwrap();
        assert!(
            ip.starts_with("10.43.") && ip != KUBERNETES_CLUSTER_IP,
            "{ip}"
        );
        assert_eq!(svc["spec"]["clusterIPs"], json!([ip]));
        let port = svc["spec"]["ports"][0]["nodePort"].as_u64().unwrap();
        assert!((30000..=32767).contains(&port));
        let mut headless = json!({"metadata": {"name": "db"}, "spec": {"clusterIP": "None"}});
        allocate(&store, ty, &mut headless).unwrap();
        assert_eq!(headless["spec"]["clusterIPs"], json!(["None"]));
        crate::bootstrap::seed(&store);
        crate::controllers::endpoints::seed(&store);
        let mut taken =
            json!({"metadata": {"name": "x"}, "spec": {"clusterIP": KUBERNETES_CLUSTER_IP}});
        let e = allocate(&store, ty, &mut taken).unwrap_err();
        assert!(
            e.message.contains("provided IP is already allocated"),
            "{}",
            e.message
        );
    }

    #[test]
    fn a_node_port_outside_the_range_or_taken_is_refused_in_the_allocators_words() {
        let store = Store::in_memory(1.0);
        let ty = &crate::kinds::SERVICE;
        let mut low = json!({"metadata": {"name": "badnp"}, "spec": {"type": "NodePort", "ports": [{"port": 80, "nodePort": 80}]}});
        let e = allocate(&store, ty, &mut low).unwrap_err();
        assert_eq!(
            e.message,
            "Service \"badnp\" is invalid: spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767"
        );
        let mut fine = json!({"metadata": {"name": "a"}, "spec": {"type": "NodePort", "ports": [{"port": 80, "nodePort": 30080}, {"port": 81, "protocol": "UDP", "nodePort": 30080}]}});
        allocate(&store, ty, &mut fine).unwrap();
        store
            .write(&Key::new(ty, "default", "a"), |_| {
                Ok::<_, ApiError>(Change::Put(fine.clone()))
            })
            .unwrap();
        let mut again = json!({"metadata": {"name": "b"}, "spec": {"type": "LoadBalancer", "ports": [{"port": 80}, {"port": 90, "nodePort": 30080}]}});
        let e = allocate(&store, ty, &mut again).unwrap_err();
        assert!(
            e.message.ends_with(
                "spec.ports[1].nodePort: Invalid value: 30080: provided port is already allocated"
            ),
            "{}",
            e.message
        );
    }

    #[test]
    fn an_update_that_leaves_the_address_out_keeps_it() {
        let old = json!({"spec": {"clusterIP": "10.43.7.7", "clusterIPs": ["10.43.7.7"], "ports": [{"port": 80, "protocol": "TCP", "nodePort": 31000}]}});
        let mut new = json!({"spec": {"ports": [{"port": 80}]}});
        keep_allocated(&old, &mut new);
        assert_eq!(new["spec"]["clusterIP"], "10.43.7.7");
        assert_eq!(new["spec"]["ports"][0]["nodePort"], 31000);
    }
}
