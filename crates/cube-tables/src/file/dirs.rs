//! Where table files live: `--tables DIR`, else `$CUBE_TABLES_DIR`, else the user's cache directory.

use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};

use crate::file::error::{Kind, TableError};
use crate::file::open::{is_symlink_loop, special_file_name};

/// The environment variable that names the table directory.
pub const TABLES_DIR_ENV: &str = "CUBE_TABLES_DIR";

/// Finds the table directory, for the library and the CLI alike.
///
/// In order: `explicit` (the CLI's `--tables DIR`) if given; else `$CUBE_TABLES_DIR` if set and not
/// empty; else `cube-tables` in the user's cache directory (`~/.cache/cube-tables` on Linux). The
/// directory is not created here; writers create it. A path that cannot be a table directory is
/// refused at once, before anything is read or baked (see [`check_table_dir`]).
///
/// # Errors
///
/// `NoTableDir` when there is no explicit directory, no environment variable and no cache
/// directory; `BadTableDir` as [`check_table_dir`].
pub fn resolve_table_dir(explicit: Option<&Path>) -> Result<PathBuf, TableError> {
    let dir = resolve(
        explicit,
        std::env::var_os(TABLES_DIR_ENV),
        dirs::cache_dir(),
    )?;
    check_table_dir(&dir)?;
    Ok(dir)
}

/// Whether `dir` can be a table directory: a directory this user can list, or a path that does not
/// exist yet (under directories), which a writer creates.
///
/// # Errors
///
/// `BadTableDir`, saying why, when `dir` is a file, a device, a FIFO or a socket, a symbolic link
/// that leads nowhere or in a loop, a path through a file, or a directory this user cannot list or
/// reach.
pub fn check_table_dir(dir: &Path) -> Result<(), TableError> {
    let bad = |why: String| Err(TableError::new(Kind::BadTableDir { why }).with_path(dir));
    match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => match std::fs::read_dir(dir) {
            Ok(_) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {
                bad("this user may not list it".to_string())
            }
            Err(e) => bad(format!("listing it: {e}")),
        },
        Ok(meta) if meta.is_file() => bad("it is a file".to_string()),
        Ok(meta) => bad(format!("it is {}", special_file_name(&meta.file_type()))),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            if std::fs::symlink_metadata(dir).is_ok() {
                bad("it is a symbolic link that leads nowhere".to_string())
            } else {
                Ok(())
            }
        }
        Err(e) if is_symlink_loop(&e) => bad("it is a symbolic-link loop".to_string()),
        Err(e) if e.kind() == io::ErrorKind::NotADirectory => {
            bad("a part of the path is a file, not a directory".to_string())
        }
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {
            bad("this user may not reach it".to_string())
        }
        Err(e) => bad(e.to_string()),
    }
}

fn resolve(
    explicit: Option<&Path>,
    env: Option<OsString>,
    cache: Option<PathBuf>,
) -> Result<PathBuf, TableError> {
    if let Some(dir) = explicit {
        return Ok(dir.to_path_buf());
    }
    if let Some(dir) = env.filter(|dir| !dir.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    cache
        .map(|cache| cache.join("cube-tables"))
        .ok_or_else(|| TableError::new(Kind::NoTableDir))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order() {
        let env = || Some(OsString::from("/env"));
        let cache = || Some(PathBuf::from("/cache"));
        assert_eq!(
            resolve(Some(Path::new("/x")), env(), cache()).unwrap(),
            Path::new("/x")
        );
        assert_eq!(resolve(None, env(), cache()).unwrap(), Path::new("/env"));
        assert_eq!(
            resolve(None, Some(OsString::new()), cache()).unwrap(),
            Path::new("/cache/cube-tables")
        );
        assert_eq!(
            resolve(None, None, cache()).unwrap(),
            Path::new("/cache/cube-tables")
        );
        let err = resolve(None, None, None).unwrap_err();
        assert_eq!(err.kind(), crate::TableErrorKind::NoTableDir);
        assert!(err.to_string().contains("CUBE_TABLES_DIR"), "{err}");
    }

    /// Issue 31, item 8: a path that cannot be a table directory is refused with why.
    #[cfg(unix)]
    #[test]
    fn i31_8_what_cannot_be_a_table_directory() {
        let dir = tempfile::tempdir().unwrap();
        let path = |name: &str| dir.path().join(name);
        let why = |p: &Path| {
            let e = check_table_dir(p).unwrap_err();
            assert_eq!(e.kind(), crate::TableErrorKind::BadTableDir, "{e}");
            assert!(e.to_string().contains(&p.display().to_string()), "{e}");
            assert!(e.to_string().contains("--tables"), "the fix: {e}");
            e.to_string()
        };
        std::fs::write(path("afile"), b"").unwrap();
        assert!(why(&path("afile")).contains("it is a file"));
        assert!(why(Path::new("/dev/null")).contains("it is a device"));
        std::os::unix::fs::symlink(path("loop"), path("loop")).unwrap();
        assert!(why(&path("loop")).contains("symbolic-link loop"));
        std::os::unix::fs::symlink(path("nowhere"), path("dangling")).unwrap();
        assert!(why(&path("dangling")).contains("leads nowhere"));
        assert!(why(&path("afile").join("sub")).contains("part of the path is a file"));
        // A directory, or one to create, is fine.
        check_table_dir(dir.path()).unwrap();
        check_table_dir(&path("new").join("deeper")).unwrap();
    }
}
