//! Invite codes and seat tokens: random, URL-safe, and only their hashes stored. An invite code
//! is read and typed by people: it is written without look-alikes (no O beside 0, no I or l
//! beside 1).

use sha2::{Digest, Sha256};

/// Characters of an invite code: 20, of 5 random bits each (100 bits).
const INVITE_CHARS: usize = 20;
/// Bytes of randomness in a seat token: 192 bits, 32 characters.
const TOKEN_BYTES: usize = 24;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The characters of a new invite code: Crockford's base 32, digits and capitals without I, L, O
/// and U, so that no two of them look alike. Codes made before, in base64url (`ALPHABET`), stay
/// valid: both are 20 characters of `ALPHABET`.
const INVITE_ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// Random bytes from the operating system's secure generator.
///
/// # Panics
/// If the operating system has no randomness to give, which leaves nothing safe to do.
pub fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    #[allow(clippy::expect_used)]
    getrandom::fill(&mut bytes).expect("the operating system's random generator failed");
    bytes
}

/// Base64url without padding.
fn base64url(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 4 / 3 + 2);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        let chars = chunk.len() + 1;
        for i in 0..chars {
            out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
        }
    }
    out
}

/// A new invite code: 20 characters of `INVITE_ALPHABET` (100 random bits).
pub fn invite_code() -> String {
    random_bytes::<INVITE_CHARS>().iter().map(|b| char::from(INVITE_ALPHABET[usize::from(b & 31)])).collect()
}

/// A new seat token: 32 URL-safe characters (192 random bits).
pub fn seat_token() -> String {
    base64url(&random_bytes::<TOKEN_BYTES>())
}

/// The shortest and longest join key a client may choose (`join_room`'s `key`).
const JOIN_KEY_CHARS: std::ops::RangeInclusive<usize> = 16..=64;

/// Whether a client's join key has the form the protocol asks for: 16 to 64 URL-safe characters.
pub fn valid_join_key(key: &str) -> bool {
    JOIN_KEY_CHARS.contains(&key.len()) && key.bytes().all(|b| ALPHABET.contains(&b))
}

/// The seat token of the player who joined room `room` with join key `key`: derived one way from
/// both, so that a join sent again with the same key (its answer lost) gives the same token at
/// any server, after a restart or a takeover, with nothing stored but the token's hash. It is as
/// secret as the key (which only its client knows); the room's code keeps a key used in two
/// rooms from giving one token for both.
pub fn seat_token_for_key(room: &str, key: &str) -> String {
    let digest = Sha256::new()
        .chain_update(b"fipsen seat token from a join key v1\0")
        .chain_update(room.as_bytes())
        .chain_update(b"\0")
        .chain_update(key.as_bytes())
        .finalize();
    base64url(&digest[..TOKEN_BYTES])
}

/// Whether a string could be an invite code, new or made before (checked before touching storage).
pub fn looks_like_invite(code: &str) -> bool {
    code.len() == INVITE_CHARS && code.bytes().all(|b| ALPHABET.contains(&b))
}

/// The hash under which a token is stored: SHA-256, in hexadecimal.
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// Bytes of a share key: 144 bits, 24 characters.
const SHARE_BYTES: usize = 18;

/// The share key of a room's series: derived one way from its secret master seed, so that it
/// needs no storage, cannot be guessed, and tells nothing of the seed (nor of any deal).
pub fn share_key(master: &fipsen_rules::Seed) -> String {
    let digest = Sha256::new().chain_update(b"fipsen share key v1\0").chain_update(master.0).finalize();
    base64url(&digest[..SHARE_BYTES])
}

/// Whether two keys are equal, compared by their hashes (no early exit on a key's own bytes).
pub fn same_key(a: &str, b: &str) -> bool {
    Sha256::digest(a.as_bytes()) == Sha256::digest(b.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_key_is_url_safe_stable_and_differs_per_room() {
        let a = share_key(&fipsen_rules::Seed::from_u64(1));
        assert_eq!(a.len(), 24);
        assert!(a.bytes().all(|b| ALPHABET.contains(&b)));
        assert_eq!(a, share_key(&fipsen_rules::Seed::from_u64(1)));
        assert_ne!(a, share_key(&fipsen_rules::Seed::from_u64(2)));
        assert!(same_key(&a, &a.clone()));
        assert!(!same_key(&a, &share_key(&fipsen_rules::Seed::from_u64(2))));
    }

    #[test]
    fn codes_are_url_safe_of_the_stated_length_and_distinct() {
        let a = invite_code();
        assert_eq!(a.len(), 20);
        assert!(looks_like_invite(&a));
        assert_ne!(a, invite_code());
        // A code made before (base64url) is still one.
        assert!(looks_like_invite("Ab0O_-lI1zZ9aB3cD4eF"));
        assert!(!looks_like_invite("short"));
        assert!(!looks_like_invite("aaaaaaaaaaaaaaaaaaa/"));
        let t = seat_token();
        assert_eq!(t.len(), 32);
        assert!(t.bytes().all(|b| ALPHABET.contains(&b)));
    }

    #[test]
    fn a_join_key_gives_one_token_per_room_shaped_as_a_seat_token() {
        let key = "k3JX9a2LqP0vWm4Z-_x";
        assert!(valid_join_key(key));
        assert!(!valid_join_key("short"));
        assert!(!valid_join_key(&"a".repeat(65)));
        assert!(!valid_join_key("k3JX9a2LqP0vWm4Z/x"));
        let t = seat_token_for_key("ROOM1", key);
        assert_eq!(t, seat_token_for_key("ROOM1", key));
        assert_ne!(t, seat_token_for_key("ROOM2", key));
        assert_ne!(t, seat_token_for_key("ROOM1", "k3JX9a2LqP0vWm4Z-_y"));
        assert_eq!(t.len(), 32);
        assert!(t.bytes().all(|b| ALPHABET.contains(&b)));
    }

    #[test]
    fn invite_codes_have_no_look_alikes() {
        // O and 0, I, l and 1, U and V: of each group at most one may appear in any code.
        let groups: [&[u8]; 3] = [b"O0o", b"Il1i", b"UVuv"];
        for group in groups {
            let used: Vec<u8> = group.iter().copied().filter(|c| INVITE_ALPHABET.contains(c)).collect();
            assert!(used.len() <= 1, "look-alikes {:?} in the alphabet", String::from_utf8_lossy(&used));
        }
        // Over many codes every character of the alphabet comes up, and nothing else.
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..400 {
            let code = invite_code();
            assert!(code.bytes().all(|b| INVITE_ALPHABET.contains(&b)), "{code}");
            seen.extend(code.bytes());
        }
        assert_eq!(seen.len(), INVITE_ALPHABET.len());
        assert!(!seen.contains(&b'O') && !seen.contains(&b'I') && !seen.contains(&b'l'));
    }

    #[test]
    fn base64url_matches_known_values() {
        assert_eq!(base64url(b"Man"), "TWFu");
        assert_eq!(base64url(b"Ma"), "TWE");
        assert_eq!(base64url(&[0xfb, 0xff]), "-_8");
        assert_eq!(token_hash("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
