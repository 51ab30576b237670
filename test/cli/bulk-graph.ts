/**
 * A deterministic graph as engram import reads it, with what makes an import's semantics show:
 * memories and edges named twice (the last record wins), keys, tags, metadata, texts to search.
 */

export const WORDS = ['granite', 'harbor', 'lantern', 'meadow', 'quartz', 'ünïcödé'];
const TYPES = ['CITES', 'CAUSED_BY', 'RELATED_TO', 'SUPPORTS', 'CUSTOM_LINK'];

/** Park-Miller: the same file for a seed on every run. */
function random(seed: number): () => number {
  let state = seed % 2_147_483_647 || 1;
  return () => {
    state = (state * 48_271) % 2_147_483_647;
    return state / 2_147_483_647;
  };
}

export interface BulkTestGraph {
  text: string;
  distinctMemories: number;
  distinctEdges: number;
}

export function bulkTestGraph(spec: { memories: number; edges: number; seed: number }): BulkTestGraph {
  const next = random(spec.seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
  const words = (count: number) => Array.from({ length: count }, () => pick(WORDS)).join(' ');
  const id = (index: number) => `s${spec.seed}-m${index}`;
  const lines: unknown[] = [];
  const memory = (index: number) => ({
    record: 'memory',
    id: id(index),
    key: index % 3 === 0 ? `key-${spec.seed}-${index}` : null,
    title: `${words(2)} #${index}`,
    content: index % 5 === 0 ? null : words(6),
    kind: pick(['fact', 'decision', null]),
    tags: index % 4 === 0 ? [pick(WORDS), 'tagged'] : [],
    weight: Math.round(next() * 1000) / 1000,
    metadata: index % 7 === 0 ? { index, note: words(1) } : null,
  });
  for (let index = 0; index < spec.memories; index++) lines.push(memory(index));
  // Every tenth memory again, later, with new text: the import keeps this one.
  for (let index = 0; index < spec.memories; index += 10) lines.push(memory(index));
  const triples = new Set<string>();
  for (let index = 0; index < spec.edges; index++) {
    const from = Math.floor(next() * spec.memories);
    // Any other memory: a memory is never linked to itself.
    const to = (from + 1 + Math.floor(next() * (spec.memories - 1))) % spec.memories;
    const edge = {
      record: 'edge',
      from: id(from),
      to: id(to),
      type: pick(TYPES),
      weight: Math.round(next() * 1000) / 1000,
      metadata: index % 9 === 0 ? { index } : null,
    };
    triples.add(`${edge.from} ${edge.to} ${edge.type}`);
    lines.push(edge);
    // Some edges again with another weight: the last weight wins, the first id stays.
    if (index % 13 === 0) lines.push({ ...edge, weight: Math.round(next() * 1000) / 1000 });
  }
  return {
    text: `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`,
    distinctMemories: spec.memories,
    distinctEdges: triples.size,
  };
}
