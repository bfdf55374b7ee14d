//! Where table files live: `--tables DIR`, else `$CUBE_TABLES_DIR`, else the user's cache directory.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::file::error::{Kind, TableError};

/// The environment variable that names the table directory.
pub const TABLES_DIR_ENV: &str = "CUBE_TABLES_DIR";

/// Finds the table directory, for the library and the CLI alike.
///
/// In order: `explicit` (the CLI's `--tables DIR`) if given; else `$CUBE_TABLES_DIR` if set and not
/// empty; else `cube-tables` in the user's cache directory (`~/.cache/cube-tables` on Linux). The
/// directory is not created here; writers create it.
///
/// # Errors
///
/// `NoTableDir` when there is no explicit directory, no environment variable and no cache directory.
pub fn resolve_table_dir(explicit: Option<&Path>) -> Result<PathBuf, TableError> {
    resolve(
        explicit,
        std::env::var_os(TABLES_DIR_ENV),
        dirs::cache_dir(),
    )
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
}
