//! Whether a folder's group is the user's own private group: on distributions with user
//! private groups (Debian, Ubuntu, Fedora) the default umask is 002, so folders the tutor or
//! the learner made are group-writable, yet the group holds no one else. Debian's ssh accepts
//! such a `~/.ssh` by the same rule: the group is the user's primary group and lists no member
//! other than the user.

use std::ffi::CStr;

/// How much room the C library gets for one passwd or group entry.
const ENTRY_BUFFER_BYTES: usize = 16 * 1024;

/// Whether `gid` is the private group of the user `uid`.
pub fn is_private_group(uid: u32, gid: u32) -> bool {
    let Some((name, primary)) = user_name_and_group(uid) else {
        return false;
    };
    primary == gid && group_members(gid).is_some_and(|members| members.iter().all(|m| *m == name))
}

fn user_name_and_group(uid: u32) -> Option<(String, u32)> {
    // SAFETY: a zeroed passwd is a valid out-value; getpwuid_r fills it with pointers into
    // `buffer`, which outlives every read of them below.
    let mut entry: libc::passwd = unsafe { std::mem::zeroed() };
    let mut buffer = vec![0 as libc::c_char; ENTRY_BUFFER_BYTES];
    let mut found: *mut libc::passwd = std::ptr::null_mut();
    // SAFETY: every pointer is to memory we own, with its true length.
    let code = unsafe {
        libc::getpwuid_r(
            uid,
            &raw mut entry,
            buffer.as_mut_ptr(),
            buffer.len(),
            &raw mut found,
        )
    };
    if code != 0 || found.is_null() || entry.pw_name.is_null() {
        return None;
    }
    // SAFETY: pw_name points at a NUL-terminated string inside `buffer`.
    let name = unsafe { CStr::from_ptr(entry.pw_name) }
        .to_string_lossy()
        .into_owned();
    Some((name, entry.pw_gid))
}

fn group_members(gid: u32) -> Option<Vec<String>> {
    // SAFETY: as in `user_name_and_group`, for a group entry.
    let mut entry: libc::group = unsafe { std::mem::zeroed() };
    let mut buffer = vec![0 as libc::c_char; ENTRY_BUFFER_BYTES];
    let mut found: *mut libc::group = std::ptr::null_mut();
    // SAFETY: every pointer is to memory we own, with its true length.
    let code = unsafe {
        libc::getgrgid_r(
            gid,
            &raw mut entry,
            buffer.as_mut_ptr(),
            buffer.len(),
            &raw mut found,
        )
    };
    if code != 0 || found.is_null() {
        return None;
    }
    let mut members = Vec::new();
    let mut at = entry.gr_mem;
    // SAFETY: gr_mem is a NULL-terminated array of NUL-terminated strings inside `buffer`.
    unsafe {
        while !at.is_null() && !(*at).is_null() {
            members.push(CStr::from_ptr(*at).to_string_lossy().into_owned());
            at = at.add(1);
        }
    }
    Some(members)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_users_own_primary_group_is_private_and_another_is_not() {
        // SAFETY: getuid has no preconditions.
        let uid = unsafe { libc::getuid() };
        let Some((_, primary)) = user_name_and_group(uid) else {
            return; // no passwd entry (a bare container): nothing to check
        };
        // A group of another id is never private to this user; the primary group is when it
        // lists no one else.
        assert!(!is_private_group(uid, primary.wrapping_add(12_345)));
        if group_members(primary).is_some_and(|m| m.is_empty()) {
            assert!(is_private_group(uid, primary));
        }
    }
}
