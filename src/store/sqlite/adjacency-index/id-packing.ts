// Edge ids are packed, 4 words a slot: as strings they would cost ~70 bytes each, more than the
// rest of the slot. Ids Engram makes are canonical lowercase UUIDs (8-4-4-4-12 hex); for those,
// comparing the words as unsigned big-endian integers is comparing the strings. Any other id is
// kept as a string beside its slot.
export const ID_WORDS = 4;
const DASH = 0x2d;
const HEX_CODE = Uint8Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0));

/** Packs a canonical lowercase UUID into words[at, at + 4); false (words unspecified) for any other string. */
export function packId(id: string, words: Uint32Array, at: number): boolean {
  if (id.length !== 36) return false;
  let word = 0;
  let digits = 0;
  for (let k = 0; k < 36; k++) {
    const code = id.charCodeAt(k);
    if (k === 8 || k === 13 || k === 18 || k === 23) {
      if (code !== DASH) return false;
      continue;
    }
    let nibble: number;
    if (code >= 0x30 && code <= 0x39) nibble = code - 0x30;
    else if (code >= 0x61 && code <= 0x66) nibble = code - 0x57;
    else return false;
    word = (word << 4) | nibble;
    if (++digits === 8) {
      words[at++] = word;
      word = 0;
      digits = 0;
    }
  }
  return true;
}

const digit = (word: number, shift: number): number => HEX_CODE[(word >>> shift) & 15] as number;

/** One flat string in one call: concatenating pieces costs ~2 µs an id in rope nodes and flattening. */
export function unpackId(words: Uint32Array, at: number): string {
  const a = words[at] as number;
  const b = words[at + 1] as number;
  const c = words[at + 2] as number;
  const d = words[at + 3] as number;
  return String.fromCharCode(
    digit(a, 28),
    digit(a, 24),
    digit(a, 20),
    digit(a, 16),
    digit(a, 12),
    digit(a, 8),
    digit(a, 4),
    digit(a, 0),
    DASH,
    digit(b, 28),
    digit(b, 24),
    digit(b, 20),
    digit(b, 16),
    DASH,
    digit(b, 12),
    digit(b, 8),
    digit(b, 4),
    digit(b, 0),
    DASH,
    digit(c, 28),
    digit(c, 24),
    digit(c, 20),
    digit(c, 16),
    DASH,
    digit(c, 12),
    digit(c, 8),
    digit(c, 4),
    digit(c, 0),
    digit(d, 28),
    digit(d, 24),
    digit(d, 20),
    digit(d, 16),
    digit(d, 12),
    digit(d, 8),
    digit(d, 4),
    digit(d, 0),
  );
}

export function compareWords(a: Uint32Array, at: number, b: Uint32Array, bt: number): number {
  for (let k = 0; k < ID_WORDS; k++) {
    const x = a[at + k] as number;
    const y = b[bt + k] as number;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}
