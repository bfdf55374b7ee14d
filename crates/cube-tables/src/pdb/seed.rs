//! Seeds: a table file compressed with zstd (`<file>.zst`), for distribution. A seed is never mapped; it
//! is installed, that is decompressed into a table file with the atomic writer, and checked on the way.

//!
//! Without the `zstd` feature (on by default), which builds zstd's C library, [`pack_seed`] and
//! [`install_seed`] of an existing seed are errors.

#[cfg(feature = "zstd")]
use std::fs::File;
#[cfg(feature = "zstd")]
use std::io::{BufReader, BufWriter, Read};
use std::path::{Path, PathBuf};

#[cfg(feature = "zstd")]
use crate::file::atomic::AtomicFile;
#[cfg(feature = "zstd")]
use crate::file::error::Kind;
use crate::file::error::TableError;
#[cfg(feature = "zstd")]
use crate::file::format::HEADER_LEN;
#[cfg(feature = "zstd")]
use crate::file::hash::CHUNK_LEN;
use crate::file::open::open_regular;
#[cfg(feature = "zstd")]
use crate::file::store::TableWriter;
use crate::file::store::WriteOptions;
#[cfg(feature = "zstd")]
use crate::file::table::open_checked;
use crate::pdb::Pdb;

#[cfg(feature = "zstd")]
/// The zstd level of [`pack_seed`]: nibble tables of distances compress about 2x at any level, and this
/// one runs at well over 100 MB/s.
const LEVEL: i32 = 6;

/// The seed of the table file at `path`: `<path>.zst`.
pub fn seed_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".zst");
    PathBuf::from(name)
}

/// Compresses the table file of `table` in `dir` into its seed, `<file>.zst`, written atomically
/// ([`AtomicFile`]). Returns the seed's path.
///
/// # Errors
///
/// The header errors of `PruneTable::load` when the table is missing or bad; `Io` when reading or
/// writing fails.
#[cfg(feature = "zstd")]
pub fn pack_seed(dir: &Path, table: &Pdb) -> Result<PathBuf, TableError> {
    let spec = &table.spec;
    let path = spec.path_in(dir);
    let at = |e: TableError, file: &Path| e.at(spec.id, file, &spec.fix, spec.tier);
    // The header check: a bad table never becomes a seed.
    drop(open_checked(&path, spec).map_err(|e| at(e, &path))?);
    let seed = seed_path(&path);
    let input = open_regular(&path).map_err(|e| at(e, &path))?;
    let output =
        AtomicFile::create(&seed).map_err(|e| at(TableError::io("creating the seed", e), &seed))?;
    let tmp = output.tmp_path().to_path_buf();
    let write_err = |e| at(TableError::io("compressing the seed", e), &tmp);
    let mut encoder =
        zstd::stream::Encoder::new(BufWriter::new(output), LEVEL).map_err(write_err)?;
    encoder.include_checksum(true).map_err(write_err)?;
    std::io::copy(
        &mut BufReader::with_capacity(CHUNK_LEN, input),
        &mut encoder,
    )
    .map_err(write_err)?;
    let output = encoder
        .finish()
        .map_err(write_err)?
        .into_inner()
        .map_err(|e| write_err(e.into_error()))?;
    output
        .commit()
        .map_err(|e| at(TableError::io("syncing and renaming the seed", e), &tmp))?;
    Ok(seed)
}

/// Installs the seed of `table` in `dir` (`<file>.zst`) as the table file, atomically.
///
/// The payload streams through [`TableWriter`], which recomputes its hash; the new header must then be
/// byte for byte the seed's header (same id, tier, histogram and payload hash), and the histogram must be
/// the published one. zstd's own checksum catches a corrupt seed on the way. Returns `Ok(None)` when
/// there is no seed.
///
/// # Errors
///
/// - `InvalidInput` when the seed does not hold this table, or its header disagrees with its payload
///   (nothing is installed).
/// - `Locked` when another process writes the table and `options` does not wait.
/// - `Io` when reading, decompressing or writing fails.
#[cfg(feature = "zstd")]
pub fn install_seed(
    dir: &Path,
    table: &Pdb,
    options: &WriteOptions,
) -> Result<Option<PathBuf>, TableError> {
    let spec = &table.spec;
    let path = spec.path_in(dir);
    let seed = seed_path(&path);
    let at = |e: TableError, file: &Path| e.at(spec.id, file, &spec.fix, spec.tier);
    let input = match open_regular(&seed) {
        Ok(file) => file,
        Err(e) if e.kind() == crate::TableErrorKind::Missing => return Ok(None),
        Err(e) => return Err(at(e, &seed)),
    };
    let read_err = |e| at(TableError::io("decompressing the seed", e), &seed);
    let mut decoder = zstd::stream::Decoder::new(input).map_err(read_err)?;
    let mut seed_header = [0u8; HEADER_LEN];
    decoder.read_exact(&mut seed_header).map_err(read_err)?;
    let Some(histogram) = table.expected_histogram() else {
        let what = "no published histogram to check the seed against".to_string();
        return Err(at(TableError::new(Kind::InvalidInput { what }), &seed));
    };
    let mut writer = TableWriter::create(dir, spec, options)?;
    let mut buf = vec![0u8; CHUNK_LEN];
    loop {
        let n_read = match decoder.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(read_err(e)),
        };
        writer.write(&buf[..n_read])?;
    }
    let installed = writer.finish(&histogram)?;
    let mut header = [0u8; HEADER_LEN];
    let check = File::open(&installed)
        .and_then(|mut file| file.read_exact(&mut header))
        .map_err(|e| {
            at(
                TableError::io("reading the installed header", e),
                &installed,
            )
        });
    if let Err(e) = check {
        let _ = std::fs::remove_file(&installed);
        return Err(e);
    }
    if header != seed_header {
        let _ = std::fs::remove_file(&installed);
        let what = "the seed's header does not match its payload and the published histogram: the seed is corrupt or of another table (delete it and bake or download it again)".to_string();
        return Err(at(TableError::new(Kind::InvalidInput { what }), &seed));
    }
    Ok(Some(installed))
}

/// The error of a seed operation without the `zstd` feature.
#[cfg(not(feature = "zstd"))]
fn no_zstd(table: &Pdb, file: &Path) -> TableError {
    let e = std::io::Error::new(
        std::io::ErrorKind::Unsupported,
        "cube-tables was built without its `zstd` feature",
    );
    let spec = &table.spec;
    TableError::io("reading or writing a seed", e).at(spec.id, file, &spec.fix, spec.tier)
}

/// [`pack_seed`] without the `zstd` feature: always an error.
///
/// # Errors
///
/// `Io` (`Unsupported`).
#[cfg(not(feature = "zstd"))]
pub fn pack_seed(dir: &Path, table: &Pdb) -> Result<PathBuf, TableError> {
    Err(no_zstd(table, &seed_path(&table.spec.path_in(dir))))
}

/// [`install_seed`] without the `zstd` feature: `Ok(None)` when there is no seed, else an error.
///
/// # Errors
///
/// `Io` (`Unsupported`) when the seed exists; the errors of opening it.
#[cfg(not(feature = "zstd"))]
pub fn install_seed(
    dir: &Path,
    table: &Pdb,
    _options: &WriteOptions,
) -> Result<Option<PathBuf>, TableError> {
    let seed = seed_path(&table.spec.path_in(dir));
    match open_regular(&seed) {
        Ok(_) => Err(no_zstd(table, &seed)),
        Err(e) if e.kind() == crate::TableErrorKind::Missing => Ok(None),
        Err(e) => Err(e.at(table.spec.id, &seed, &table.spec.fix, table.spec.tier)),
    }
}
