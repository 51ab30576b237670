import { GraphQLError } from 'graphql';
import { coded } from '../domain/errors.js';

const OPEN = new Set(['{', '[', '(']);
const CLOSE = new Set(['}', ']', ')']);

/**
 * The deepest nesting of `{ [ (` in a GraphQL document, ignoring strings, block strings and
 * comments. One pass over the text, no recursion: it runs before the parser, whose recursion
 * a list literal nested ~1,600 levels deep (well under the token limit) would overflow.
 * Stops counting once `limit` is passed.
 */
export function documentNesting(text: string, limit = Infinity): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (char === '#') {
      while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
    } else if (char === '"') {
      if (text.startsWith('"""', i)) {
        i += 3;
        while (i < text.length && !text.startsWith('"""', i)) i += text.startsWith('\\"""', i) ? 4 : 1;
        i += 2;
      } else {
        i++;
        while (i < text.length && text[i] !== '"' && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
      }
    } else if (OPEN.has(char)) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (CLOSE.has(char)) {
      depth--;
    }
  }
  return deepest;
}

/** LIMIT_EXCEEDED when a document nests brackets more than `limit` levels; checked before parsing. */
export function checkDocumentNesting(text: string, limit: number): void {
  if (documentNesting(text, limit) <= limit) return;
  throw new GraphQLError(
    `The document is nested too deeply: brackets ({ [ () nest more than ${limit} levels (a limit derived from ENGRAM_MAX_DEPTH and the metadata depth).`,
    { extensions: coded('LIMIT_EXCEEDED') },
  );
}
