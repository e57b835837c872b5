//! Byte-level lexing helpers of the reader: whitespace classes, line ends, and reading eight
//! decimal digits at once.

#[inline]
pub(super) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

#[inline]
pub(super) fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t')
}

/// Offset of the `\n` ending the line that contains `pos` (or the input length).
pub(super) fn end_of_line(input: &[u8], pos: usize) -> usize {
    input[pos..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(input.len(), |i| pos + i)
}

/// Reads up to 8 leading decimal digits of `input[pos..]` at once (SWAR): `(value, count)`.
///
/// Returns `(0, 0)` when fewer than 8 bytes remain; the caller then reads digit by digit. A count
/// of 8 means the number may go on.
#[inline]
pub(super) fn digits8(input: &[u8], pos: usize) -> (u64, usize) {
    let Some(bytes) = input.get(pos..pos + 8) else {
        return (0, 0);
    };
    let mut word = [0u8; 8];
    word.copy_from_slice(bytes);
    // Byte i of `x` is the digit value of byte i of the input if that byte is a digit. No byte
    // addition below carries into its neighbour (every byte stays below 0x100).
    let x = u64::from_le_bytes(word) ^ 0x3030_3030_3030_3030;
    let low = x & 0x7f7f_7f7f_7f7f_7f7f;
    let not_digit = ((low + 0x7676_7676_7676_7676) | x) & 0x8080_8080_8080_8080;
    let count = (not_digit.trailing_zeros() / 8) as usize;
    if count == 0 {
        return (0, 0);
    }
    // Keep the `count` digits, most significant first in the low byte, as the top bytes; the
    // zero bytes shifted in below act as leading zeros. Then combine pairs, quads, octets.
    let mut v = x << (64 - 8 * count);
    v = (v * 10 + (v >> 8)) & 0x00ff_00ff_00ff_00ff;
    v = (v * 100 + (v >> 16)) & 0x0000_ffff_0000_ffff;
    v = (v * 10000 + (v >> 32)) & 0x0000_0000_ffff_ffff;
    (v, count)
}

#[cfg(test)]
mod tests {
    use super::digits8;

    #[test]
    fn digits8_matches_a_digit_loop() {
        let cases: [&[u8]; 12] = [
            b"12345678",
            b"1 345678",
            b"0000000x",
            b"99999999",
            b"7\n------",
            b"-1234567",
            b"123456789",
            b"00000001",
            b"1234567\xb1",
            b"12/45678",
            b"12:45678",
            b"\x001234567",
        ];
        for case in cases {
            let count = case
                .iter()
                .take(8)
                .take_while(|b| b.is_ascii_digit())
                .count();
            let value = case[..count]
                .iter()
                .fold(0u64, |v, d| v * 10 + u64::from(d - b'0'));
            let expected = if count == 0 { (0, 0) } else { (value, count) };
            assert_eq!(digits8(case, 0), expected, "{case:?}");
        }
        assert_eq!(digits8(b"1234567", 0), (0, 0));
        assert_eq!(digits8(b"x12345678", 1), (12345678, 8));
    }
}
