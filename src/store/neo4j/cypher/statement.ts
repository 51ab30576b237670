import { badInput } from '../../../domain/errors.js';
import { RELATION_TYPE_PATTERN } from '../../../domain/relations.js';
import type { Direction } from '../../../domain/types.js';

/** The building blocks every statement file shares; see index.ts for the rules they keep. */

export const FULLTEXT_INDEX = 'engram_memory_text';

/** The one place a relation type enters statement text: validated, then backtick-quoted. */
export function relationshipType(type: string): string {
  if (!RELATION_TYPE_PATTERN.test(type)) {
    throw badInput('type', 'must be UPPER_SNAKE_CASE: a letter, then letters, digits or _, at most 64 characters');
  }
  return `\`${type}\``;
}

function dedent(text: string): string {
  const lines = text.replace(/^\n+|\s+$/g, '').split('\n');
  const indent = Math.min(
    ...lines.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)?.[0].length ?? 0),
  );
  return lines.map((line) => line.slice(indent)).join('\n');
}

export const statement = (name: string, body: string): string => `// engram:${name}\n${dedent(body)}`;

/** `(m)-[r]->(other)` and friends: the arrow is the only part that depends on the direction. */
export function hop(direction: Direction, from: string, rel: string, to: string): string {
  switch (direction) {
    case 'OUTGOING':
      return `(${from})-[${rel}]->(${to})`;
    case 'INCOMING':
      return `(${from})<-[${rel}]-(${to})`;
    case 'BOTH':
      return `(${from})-[${rel}]-(${to})`;
    default:
      throw badInput('direction', 'must be OUTGOING, INCOMING or BOTH');
  }
}

/** Locks two memories in id order (fewer deadlocks between link(a, b) and link(b, a)); see linkPrepare. */
export const LOCK_ENDPOINTS =
  'FOREACH (n IN CASE WHEN a.id < b.id THEN [a, b] ELSE [b, a] END | SET n._engramLock = true REMOVE n._engramLock)';

/**
 * Follows a SET that may have changed `m`'s title or content, with the values from before it bound
 * as `oldTitle` and `oldContent`: a memory whose text changed (or that is new) loses its vector and
 * joins the embedding queue (vectors.ts), in the same statement. Carries `m` on. Its lines are
 * indented for a statement body at two spaces, as updateMemory's and importMemories' are.
 */
export const REQUEUE_IF_TEXT_CHANGED = `WITH m, coalesce(m.title = oldTitle AND (m.content = oldContent OR (m.content IS NULL AND oldContent IS NULL)), false) AS sameText
  SET m.embeddingQueue = CASE WHEN sameText THEN m.embeddingQueue ELSE $now + ' ' + m.id END
  WITH m, sameText
  OPTIONAL MATCH (v:MemoryVector {workspace: $ws, memoryId: m.id})
  WHERE NOT sameText
  DELETE v`;
