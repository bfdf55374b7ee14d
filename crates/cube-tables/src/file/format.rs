//! The table file header and its constant-time checks.
//!
//! A table file is a fixed [`HEADER_LEN`]-byte header followed by the payload. The header is one
//! `#[repr(C)]` Pod struct, read with `bytemuck::pod_read_unaligned`, after regex-automata's
//! `src/util/wire.rs` (`read_label`, `read_endianness_check`, `read_version`). docs/tables.md lists every
//! field with its byte offset.
//!
//! The first 24 bytes (label, endianness check, format version) are frozen across format versions, so
//! that any later version can still say "format version 2, expected 3" rather than "corrupt header".

use std::fmt;

use crate::file::error::{Kind, TableError};
use crate::file::hash::header_checksum;
use crate::file::id::{Encoding, FORMAT_VERSION, MAX_ID_LEN, TableId, TableSpec, Tier};

/// The length of the header in bytes, a multiple of 64, so the payload starts on a cache line.
pub const HEADER_LEN: usize = size_of::<Header>();

/// The number of depth buckets in a histogram. Bucket 31 also counts every byte entry above 31.
pub const HISTOGRAM_LEN: usize = 32;

/// A depth histogram: `histogram[d]` is the number of entries whose value is `d`.
pub type Histogram = [u64; HISTOGRAM_LEN];

/// The label that starts every table file.
pub(crate) const LABEL: [u8; 16] = *b"cube-tables\0\0\0\0\0";

/// The endianness check, written in the byte order of the writing machine (little-endian in practice).
pub(crate) const ENDIAN_CHECK: u32 = 0xFEFF;

/// The number of bytes that the header checksum covers: everything before the checksum field.
const CHECKED_LEN: usize = HEADER_LEN - 8;

/// Prepended to every table file. Bump [`FORMAT_VERSION`] on any layout change.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct Header {
    /// `b"cube-tables\0\0\0\0\0"`. Offset 0.
    pub(crate) label: [u8; 16],
    /// `0xFEFF`, in the writer's byte order. Offset 16.
    pub(crate) endian_check: u32,
    /// [`FORMAT_VERSION`]. Offset 20.
    pub(crate) format_version: u32,
    /// [`HEADER_LEN`], for tools that skip the header of any version. Offset 24.
    pub(crate) header_len: u32,
    /// 0 for none, else 6, 7 or 8 (Korf tiers), 16, 20..=23 (H48 tiers), or 32, 33, 34, 36, 37, 40
    /// (nx tiers; 48 more in the quarter-turn metric). Offset 28.
    pub(crate) tier: u32,
    /// The table id, NUL-padded. Offset 32.
    pub(crate) table_id: [u8; MAX_ID_LEN],
    /// 1 for nibbles, 2 for bytes, 3 for 2-bit lines. Offset 64.
    pub(crate) encoding: u32,
    /// The base of 2-bit lines, else zero. Offset 68.
    pub(crate) reserved0: u32,
    /// The number of entries. Offset 72.
    pub(crate) n_entries: u64,
    /// The payload length in bytes. Offset 80.
    pub(crate) payload_len: u64,
    /// The payload hash, see `hash.rs`. Offset 88.
    pub(crate) payload_hash: u64,
    /// Entries per value (depth). Offset 96.
    pub(crate) histogram: Histogram,
    /// Zero. Offset 352.
    pub(crate) reserved1: [u8; 24],
    /// The header checksum over bytes `0..376`. Offset 376.
    pub(crate) header_checksum: u64,
}

const _: () = assert!(HEADER_LEN == 384 && HEADER_LEN.is_multiple_of(64));

impl Header {
    /// A header for `spec` with the given histogram and payload hash, checksum included.
    pub(crate) fn new(spec: &TableSpec, histogram: &Histogram, payload_hash: u64) -> Header {
        let mut header = Header {
            label: LABEL,
            endian_check: ENDIAN_CHECK,
            format_version: FORMAT_VERSION,
            header_len: HEADER_LEN as u32,
            tier: Tier::code(spec.tier),
            table_id: spec.id.padded(),
            encoding: spec.encoding.code(),
            reserved0: spec.encoding.parameter(),
            n_entries: spec.n_entries,
            payload_len: spec.payload_len(),
            payload_hash,
            histogram: *histogram,
            reserved1: [0; 24],
            header_checksum: 0,
        };
        header.header_checksum = header.computed_checksum();
        header
    }

    pub(crate) fn computed_checksum(&self) -> u64 {
        header_checksum(&bytemuck::bytes_of(self)[..CHECKED_LEN])
    }

    pub(crate) fn to_bytes(self) -> [u8; HEADER_LEN] {
        bytemuck::bytes_of(&self)
            .try_into()
            .expect("the header is HEADER_LEN bytes")
    }

    /// The spec that the header at the start of `prefix` describes (its id, tier, encoding and entry
    /// count), unchecked: for a listing, which knows a file by its name only. An unknown tier or
    /// encoding is replaced by one that [`Header::check`] then refuses by name; `None` without a
    /// whole header or a valid id.
    pub(crate) fn spec_in(prefix: &[u8]) -> Option<TableSpec> {
        let header: Header = bytemuck::pod_read_unaligned(prefix.get(..HEADER_LEN)?);
        let id = TableId::from_padded(&header.table_id)?;
        let encoding =
            Encoding::from_code(header.encoding, header.reserved0).unwrap_or(Encoding::Byte);
        let spec = TableSpec::new(id, encoding, header.n_entries);
        Some(match Tier::from_code(header.tier) {
            Ok(Some(tier)) => TableSpec {
                tier: Some(tier),
                ..spec
            },
            // A header without a tier, or with an unknown one: `check` names the unknown code.
            _ => spec,
        })
    }

    /// Reads and checks the header at the start of a file of `file_len` bytes, in constant time.
    ///
    /// `prefix` is the start of the file: at least `min(file_len, HEADER_LEN)` bytes.
    pub(crate) fn check(
        prefix: &[u8],
        file_len: u64,
        spec: &TableSpec,
    ) -> Result<TableInfo, TableError> {
        let too_short = || {
            TableError::new(Kind::TooShortForHeader {
                file_len,
                header_len: HEADER_LEN as u64,
            })
        };
        let frozen = prefix.get(..24).ok_or_else(too_short)?;
        if frozen[..16] != LABEL {
            return Err(TableError::new(Kind::BadMagic));
        }
        let endian_check: u32 = bytemuck::pod_read_unaligned(&frozen[16..20]);
        if endian_check == ENDIAN_CHECK.swap_bytes() {
            return Err(TableError::new(Kind::EndianMismatch));
        }
        let format_version: u32 = bytemuck::pod_read_unaligned(&frozen[20..24]);
        if endian_check == ENDIAN_CHECK && format_version != FORMAT_VERSION {
            return Err(TableError::new(Kind::VersionMismatch {
                expected: FORMAT_VERSION,
                found: format_version,
            }));
        }
        let header: Header =
            bytemuck::pod_read_unaligned(prefix.get(..HEADER_LEN).ok_or_else(too_short)?);
        let computed = header.computed_checksum();
        if computed != header.header_checksum {
            return Err(TableError::new(Kind::HeaderChecksum {
                stored: header.header_checksum,
                computed,
            }));
        }
        // The checksum matched, so every field below was written by `Header::new` (or by a writer that
        // computes the checksum on purpose). The checks still do not trust it.
        let Some(id) = TableId::from_padded(&header.table_id) else {
            return Err(TableError::new(Kind::IdMismatch {
                found: String::from_utf8_lossy(&header.table_id).into(),
            }));
        };
        if id != spec.id {
            return Err(TableError::new(Kind::IdMismatch {
                found: id.to_string(),
            }));
        }
        let tier = Tier::from_code(header.tier).map_err(|()| {
            TableError::new(Kind::BadHeader {
                what: format!("unknown tier code {}", header.tier),
            })
        })?;
        if tier != spec.tier {
            return Err(TableError::new(Kind::TierMismatch {
                expected: spec.tier,
                found: tier,
            }));
        }
        let encoding = Encoding::from_code(header.encoding, header.reserved0);
        if encoding != Some(spec.encoding) {
            let found = encoding.map_or_else(
                || format!("unknown code {} ({})", header.encoding, header.reserved0),
                Encoding::name,
            );
            return Err(TableError::new(Kind::EncodingMismatch {
                expected: spec.encoding.name(),
                found,
            }));
        }
        if header.n_entries != spec.n_entries || header.payload_len != spec.payload_len() {
            return Err(TableError::new(Kind::LengthMismatch {
                what: format!(
                    "header says {} entries in {} payload bytes, expected {} entries in {} bytes",
                    header.n_entries,
                    header.payload_len,
                    spec.n_entries,
                    spec.payload_len()
                ),
            }));
        }
        let available = file_len - HEADER_LEN as u64;
        if available < header.payload_len {
            return Err(TableError::new(Kind::Truncated {
                payload_len: header.payload_len,
                available,
            }));
        }
        if available > header.payload_len {
            return Err(TableError::new(Kind::LengthMismatch {
                what: format!(
                    "file has {} bytes after the header, the header announces {}",
                    available, header.payload_len
                ),
            }));
        }
        Ok(TableInfo {
            id,
            tier,
            encoding: spec.encoding,
            n_entries: header.n_entries,
            payload_len: header.payload_len,
            payload_hash: header.payload_hash,
            histogram: header.histogram,
        })
    }
}

/// What the header of a table file says, after the checks of `open`/`load`.
#[derive(Clone, PartialEq, Eq)]
pub struct TableInfo {
    /// The table id.
    pub id: TableId,
    /// The tier, or `None`.
    pub tier: Option<Tier>,
    /// How entries are stored.
    pub encoding: Encoding,
    /// The number of entries.
    pub n_entries: u64,
    /// The payload length in bytes.
    pub payload_len: u64,
    /// The payload hash stored in the header.
    pub payload_hash: u64,
    /// The depth histogram stored in the header.
    pub histogram: Histogram,
}

impl fmt::Debug for TableInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let last = self
            .histogram
            .iter()
            .rposition(|&n| n != 0)
            .map_or(0, |d| d + 1);
        f.debug_struct("TableInfo")
            .field("id", &self.id)
            .field("tier", &self.tier)
            .field("encoding", &self.encoding)
            .field("n_entries", &self.n_entries)
            .field("payload_len", &self.payload_len)
            .field("payload_hash", &format_args!("{:#018x}", self.payload_hash))
            .field("histogram", &&self.histogram[..last])
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> TableSpec {
        TableSpec::new(TableId::from_static("unit"), Encoding::Nibble, 5)
    }

    #[test]
    fn offsets() {
        let header = Header::new(&spec(), &[0; 32], 7);
        let bytes = header.to_bytes();
        assert_eq!(&bytes[0..16], b"cube-tables\0\0\0\0\0");
        assert_eq!(bytes[16..20], 0xFEFFu32.to_ne_bytes());
        assert_eq!(bytes[20..24], FORMAT_VERSION.to_ne_bytes());
        assert_eq!(bytes[24..28], 384u32.to_ne_bytes());
        assert_eq!(&bytes[32..36], b"unit");
        assert_eq!(bytes[64..68], 1u32.to_ne_bytes());
        assert_eq!(bytes[72..80], 5u64.to_ne_bytes());
        assert_eq!(bytes[80..88], 3u64.to_ne_bytes());
        assert_eq!(bytes[88..96], 7u64.to_ne_bytes());
        assert_eq!(bytes[376..384], header.header_checksum.to_ne_bytes());
    }

    #[test]
    fn check_on_owned_bytes() {
        let mut histogram = [0; HISTOGRAM_LEN];
        histogram[0] = 5;
        let mut file = Header::new(&spec(), &histogram, 0).to_bytes().to_vec();
        file.extend([0; 3]);
        let info = Header::check(&file, file.len() as u64, &spec()).unwrap();
        assert_eq!(info.n_entries, 5);
        let err = Header::check(&file, file.len() as u64 - 1, &spec()).unwrap_err();
        assert_eq!(err.kind(), crate::TableErrorKind::Truncated);
        let err = Header::check(&file[..100], 100, &spec()).unwrap_err();
        assert_eq!(err.kind(), crate::TableErrorKind::TooShortForHeader);
        file[16..20].copy_from_slice(&0xFEFFu32.swap_bytes().to_ne_bytes());
        let err = Header::check(&file, file.len() as u64, &spec()).unwrap_err();
        assert_eq!(err.kind(), crate::TableErrorKind::EndianMismatch);
    }
}
