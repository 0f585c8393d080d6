//! A row's fingerprint as a scan carries it: one 64-bit hash per column, so
//! that the same pass can group rows on the compared columns and tell, for
//! rows that nearly match, which column kept them apart. Pure: no I/O.

/// A NULL's hash in column `position`: NULL equals NULL, and differs from
/// every value (short of a 2^-64 chance).
pub fn null(position: usize) -> u64 {
    mix(0x2545_F491_4F6C_DD1D, position)
}

/// The 32-bit mark a server's scan sends for a NULL in carried column `i`
/// (PostgreSQL and MySQL hash on the server, SQLite's values are hashed
/// here): the largest 32-bit numbers, one per column.
pub fn server_null_mark(i: usize) -> u64 {
    4_294_967_295 - i as u64
}

/// Whether a carried column's hash is a NULL's, however the engine hashed it.
pub fn is_null(hash: u64, position: usize) -> bool {
    hash == null(position) || hash == mix(server_null_mark(position), position)
}

/// Spreads a column hash over 64 bits and binds it to its column, so that
/// equal values in different columns do not cancel out when combined.
pub fn mix(hash: u64, position: usize) -> u64 {
    // splitmix64's finalizer over the hash and the position.
    let mut z = hash ^ (position as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The hash of a value's bytes in this process (SQLite's values, read in place).
pub fn bytes(tag: u8, data: &[u8]) -> u64 {
    use std::hash::Hasher;
    let mut h = rustc_hash::FxHasher::default();
    h.write_u8(tag);
    h.write(data);
    h.finish()
}

/// The grouping key of a row over the columns `included` names (indices
/// into `hashes`): equal for rows equal on those columns.
pub fn key(hashes: &[u64], included: &[usize]) -> u64 {
    included.iter().fold(0, |acc, &i| acc ^ hashes[i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_do_not_cancel() {
        let (a, b) = (bytes(3, b"x"), bytes(3, b"y"));
        let row1 = [mix(a, 0), mix(b, 1)];
        let row2 = [mix(b, 0), mix(a, 1)];
        assert_ne!(key(&row1, &[0, 1]), key(&row2, &[0, 1]));
        assert_eq!(key(&row1, &[0]), key(&[mix(a, 0), mix(a, 1)], &[0]));
        assert_ne!(null(0), null(1));
        assert_ne!(mix(bytes(0, b""), 0), null(0));
    }

    /// `mix` is splitmix64's finalizer: at hash 0 and position 0 it is
    /// splitmix64's first output from seed 0; the key folds by XOR, so a
    /// column's hash can be taken out again (3 ^ 5 = 6, not 3 | 5).
    #[test]
    fn known_answers() {
        assert_eq!(mix(0, 0), 0xE220_A839_7B1D_CDAF);
        assert_eq!(key(&[3, 5, 9], &[0, 1]), 6);
        assert_eq!(key(&[3, 5, 9], &[]), 0);
    }

    /// A server's NULL mark is one of the largest 32-bit numbers, one per
    /// column, counting down, as the doc says; a mark read in one column is
    /// no NULL in another.
    #[test]
    fn server_null_marks() {
        assert_eq!(server_null_mark(0), u64::from(u32::MAX));
        assert_eq!(server_null_mark(7), u64::from(u32::MAX) - 7);
        assert!(is_null(mix(server_null_mark(7), 7), 7));
        assert!(!is_null(mix(server_null_mark(7), 6), 6));
    }
}
