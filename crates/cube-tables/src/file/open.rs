//! Opening a file that must be a regular file: a table, a seed, a checkpoint.
//!
//! A directory, a FIFO, a device, a socket or a symbolic-link loop where a file is expected gets its own
//! error, not an OS error without a fix. The open is non-blocking, so a FIFO in place of a table never
//! hangs the process waiting for a writer; the flag has no effect on the reads of a regular file.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

use crate::file::error::{Kind, OPENING, TableError};

/// Opens `path` for reading, which must be a regular file (or a symbolic link to one).
///
/// # Errors
///
/// - `Missing` when there is no file at `path`.
/// - `NotAFile` when `path` is a directory, a FIFO, a device, a socket or a symbolic-link loop.
/// - `PermissionDenied` when the file cannot be read by this user.
/// - `Io` for any other failure.
pub fn open_regular(path: &Path) -> Result<File, TableError> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32);
    }
    let file = options
        .open(path)
        .map_err(|e| open_error(e).with_path(path))?;
    let file_type = file
        .metadata()
        .map_err(|e| TableError::io("reading the file type", e).with_path(path))?
        .file_type();
    if !file_type.is_file() {
        let what = if file_type.is_dir() {
            "a directory"
        } else {
            special_file_name(&file_type)
        };
        return Err(TableError::new(Kind::NotAFile { what }).with_path(path));
    }
    Ok(file)
}

/// The error for a failed open: `Missing`, `NotAFile` for a link loop, `PermissionDenied`, or `Io`.
fn open_error(e: io::Error) -> TableError {
    if is_symlink_loop(&e) {
        return TableError::new(Kind::NotAFile {
            what: "a symbolic-link loop",
        });
    }
    if e.kind() == io::ErrorKind::PermissionDenied {
        return TableError::new(Kind::PermissionDenied);
    }
    TableError::io(OPENING, e)
}

#[cfg(unix)]
pub(crate) fn special_file_name(file_type: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if file_type.is_fifo() {
        "a fifo"
    } else if file_type.is_socket() {
        "a socket"
    } else if file_type.is_block_device() || file_type.is_char_device() {
        "a device"
    } else {
        "not a regular file"
    }
}

/// Whether `e` is the error of a symbolic-link loop (`ELOOP`).
pub(crate) fn is_symlink_loop(e: &io::Error) -> bool {
    #[cfg(unix)]
    return e.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error());
    #[cfg(not(unix))]
    return false;
}

#[cfg(not(unix))]
pub(crate) fn special_file_name(_file_type: &std::fs::FileType) -> &'static str {
    "not a regular file"
}
