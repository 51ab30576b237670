/**
 * Turns free text into an FTS5 query that cannot be misread as query syntax: only letters and
 * digits survive, each word is quoted, and words are ORed so bm25 ranks documents matching more
 * of them first. The last word is a prefix so search-as-you-type finds partial words.
 * Returns null when nothing searchable is left.
 */
export function toFtsQuery(text: string): string | null {
  const words = text.match(/[\p{L}\p{N}]+/gu)?.slice(0, 32) ?? [];
  if (words.length === 0) return null;
  return words.map((word, index) => `"${word}"${index === words.length - 1 ? '*' : ''}`).join(' OR ');
}
