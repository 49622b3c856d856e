//! Which local user a loopback connection comes from. Every client of the embedded cluster
//! connects from 127.0.0.1, so an address cannot tell the learner from another user of the
//! machine; the kernel can: `sock_diag` (the netlink interface `ss` uses) names the owner of
//! the client's end of the connection. The connection limits count per user with it, so
//! another user's half-sent requests cannot take the learner's connections.

use std::net::{IpAddr, SocketAddr};

/// Who a connection is from, for the per-client limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Client {
    /// A local user, by uid (the owner of the client's socket).
    User(u32),
    /// Only the address is known (no `sock_diag`).
    Address(IpAddr),
}

/// The client behind a connection accepted on `local` from `peer`.
pub fn client_of(local: SocketAddr, peer: SocketAddr) -> Client {
    socket_owner(peer, local).map_or(Client::Address(peer.ip()), Client::User)
}

const NETLINK_SOCK_DIAG: libc::c_int = 4;
const SOCK_DIAG_BY_FAMILY: u16 = 20;
const NLMSG_ERROR: u16 = 2;
const NLM_F_REQUEST: u16 = 1;
const NLMSG_HEADER_BYTES: usize = 16;
/// `inet_diag_msg`: family, state, timer, retrans (4 bytes), the socket id (48), expires,
/// rqueue, wqueue (12), then the uid.
const UID_OFFSET_IN_MESSAGE: usize = 64;

/// `struct inet_diag_sockid` (linux/inet_diag.h): ports and addresses in network order.
#[repr(C)]
#[derive(Clone, Copy)]
struct SockId {
    sport: [u8; 2],
    dport: [u8; 2],
    src: [u8; 16],
    dst: [u8; 16],
    interface: u32,
    cookie: [u32; 2],
}

/// `struct nlmsghdr` followed by `struct inet_diag_req_v2`.
#[repr(C)]
#[derive(Clone, Copy)]
struct Request {
    len: u32,
    kind: u16,
    flags: u16,
    seq: u32,
    pid: u32,
    family: u8,
    protocol: u8,
    ext: u8,
    pad: u8,
    states: u32,
    id: SockId,
}

/// The uid owning the TCP socket whose local end is `src` and remote end `dst`.
fn socket_owner(src: SocketAddr, dst: SocketAddr) -> Option<u32> {
    let family = match (src, dst) {
        (SocketAddr::V4(_), SocketAddr::V4(_)) => libc::AF_INET,
        (SocketAddr::V6(_), SocketAddr::V6(_)) => libc::AF_INET6,
        _ => return None,
    };
    let request = Request {
        len: std::mem::size_of::<Request>() as u32,
        kind: SOCK_DIAG_BY_FAMILY,
        flags: NLM_F_REQUEST,
        seq: 1,
        pid: 0,
        family: family as u8,
        protocol: libc::IPPROTO_TCP as u8,
        ext: 0,
        pad: 0,
        states: u32::MAX,
        id: SockId {
            sport: src.port().to_be_bytes(),
            dport: dst.port().to_be_bytes(),
            src: address_bytes(src.ip()),
            dst: address_bytes(dst.ip()),
            interface: 0,
            // INET_DIAG_NOCOOKIE: any socket with these ends.
            cookie: [u32::MAX; 2],
        },
    };
    let socket = NetlinkSocket::open()?;
    socket.send(&request)?;
    let mut answer = [0u8; 1024];
    let got = socket.receive(&mut answer)?;
    let answer = answer.get(..got)?;
    let kind = u16::from_ne_bytes(answer.get(4..6)?.try_into().ok()?);
    if kind == NLMSG_ERROR || kind != SOCK_DIAG_BY_FAMILY {
        return None;
    }
    let at = NLMSG_HEADER_BYTES + UID_OFFSET_IN_MESSAGE;
    Some(u32::from_ne_bytes(answer.get(at..at + 4)?.try_into().ok()?))
}

fn address_bytes(ip: IpAddr) -> [u8; 16] {
    let mut bytes = [0u8; 16];
    match ip {
        IpAddr::V4(v4) => bytes[..4].copy_from_slice(&v4.octets()),
        IpAddr::V6(v6) => bytes.copy_from_slice(&v6.octets()),
    }
    bytes
}

/// A netlink socket, closed when dropped.
struct NetlinkSocket(libc::c_int);

impl NetlinkSocket {
    fn open() -> Option<NetlinkSocket> {
        // SAFETY: plain socket(2); the descriptor is owned by the returned value.
        let fd = unsafe {
            libc::socket(
                libc::AF_NETLINK,
                libc::SOCK_DGRAM | libc::SOCK_CLOEXEC,
                NETLINK_SOCK_DIAG,
            )
        };
        (fd >= 0).then_some(NetlinkSocket(fd))
    }

    fn send(&self, request: &Request) -> Option<()> {
        let len = std::mem::size_of::<Request>();
        // SAFETY: `request` is a plain #[repr(C)] value of `len` bytes that outlives the call.
        let sent = unsafe {
            libc::send(
                self.0,
                std::ptr::from_ref(request).cast::<libc::c_void>(),
                len,
                0,
            )
        };
        (usize::try_from(sent).ok()? == len).then_some(())
    }

    fn receive(&self, buffer: &mut [u8]) -> Option<usize> {
        // SAFETY: the kernel writes at most `buffer.len()` bytes into `buffer`.
        let got = unsafe {
            libc::recv(
                self.0,
                buffer.as_mut_ptr().cast::<libc::c_void>(),
                buffer.len(),
                0,
            )
        };
        usize::try_from(got).ok()
    }
}

impl Drop for NetlinkSocket {
    fn drop(&mut self) {
        // SAFETY: the descriptor is ours and closed once.
        unsafe {
            libc::close(self.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loopback_connection_is_told_by_its_users_uid() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let client = std::net::TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (_server_end, peer) = listener.accept().unwrap();
        assert_eq!(peer, client.local_addr().unwrap());
        // SAFETY: geteuid has no preconditions.
        let me = unsafe { libc::geteuid() };
        assert_eq!(
            client_of(listener.local_addr().unwrap(), peer),
            Client::User(me)
        );
    }
}
