import fc from 'fast-check';
import type { EdgeRecord, MemoryRecord } from '../../src/domain/types.js';
import type { GraphStore } from '../../src/store/port.js';

/**
 * What the backup round-trip property generates and compares: graphs of awkward but plausible
 * input (refused input included) and the parts of a stored graph the interchange format carries.
 */

export const METADATA_LIMIT = 4096;

export const byteLength = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** Awkward text: every plane, surrogate pairs, line and paragraph separators, BOM, RTL, padding. */
const TRICKY = [
  '🚀',
  'ünïcödé',
  'a\u2028b\u2029c',
  '\ufeffbom',
  'עברית',
  'e\u0301',
  '👩‍👩‍👧',
  '"quoted" \\ back',
  '  padded  ',
  '<b>&amp;</b>',
  '{"json":1}',
];
/** Refused by some rule (labels take no control characters; nothing takes NUL or lone surrogates). */
const REFUSED = ['', '   ', '\r\n', '\t', 'nul\u0000', 'lone\ud800'];
const text = (maxLength: number) =>
  fc.oneof(
    { weight: 12, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: Math.min(maxLength, 40) }) },
    { weight: 6, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: Math.min(maxLength, 20) }) },
    {
      weight: 6,
      arbitrary: fc
        .array(fc.constantFrom(...TRICKY), { minLength: 1, maxLength: 6 })
        .map((parts) => parts.join('').slice(0, maxLength)),
    },
    { weight: 1, arbitrary: fc.constantFrom('🚀'.repeat(Math.floor(maxLength / 2)), 'é'.repeat(maxLength)) },
    { weight: 1, arbitrary: fc.constantFrom('x'.repeat(maxLength + 1), ...REFUSED) },
  );

const handle = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.:/-]{0,12}$/),
  fc.constantFrom('a'.repeat(128), 'x/y:z.w_v-u', '0'),
);

/** Grows a JSON object with one string field until it serializes to exactly `bytes` (emoji count 4). */
function padTo(base: Record<string, unknown>, bytes: number, unit: string, field: string): Record<string, unknown> {
  const padded: Record<string, unknown> = { ...base, [field]: '' };
  let size = byteLength(padded);
  if (size > bytes) return base;
  const step = Buffer.byteLength(unit, 'utf8');
  padded[field] = unit.repeat(Math.floor((bytes - size) / step));
  size = byteLength(padded);
  padded[field] += 'x'.repeat(bytes - size);
  return padded;
}

const metadata = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constant(null) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.dictionary(fc.string({ unit: 'grapheme', maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 4 }),
        fc.integer({ min: 1500, max: METADATA_LIMIT + 2 }),
        fc.constantFrom('x', 'é', '🚀', '\u2028'),
        fc.constantFrom('pad', 'more', 'notes'),
      )
      .map(([base, bytes, unit, field]) => padTo(base, bytes, unit, field)),
  },
);

const memoryInput = fc.record(
  {
    key: fc.option(handle, { nil: null, freq: 2 }),
    title: text(500),
    content: fc.option(text(65_536), { nil: null }),
    kind: fc.option(text(64), { nil: null }),
    tags: fc.array(text(64), { maxLength: 5 }),
    weight: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
    metadata,
  },
  { requiredKeys: ['title'] },
);
const memoryInputs = fc
  .uniqueArray(handle, { minLength: 3, maxLength: 12 })
  .chain((ids) => fc.tuple(...ids.map((id) => memoryInput.map((input) => ({ id, ...input })))));

const TYPES = ['CAUSED_BY', 'cites', 'related to', 'X_1', 'A'.repeat(64), 'Supersedes', 'VALIDATES', 'not a type!'];
type Op =
  | { kind: 'link'; from: number; to: number; type: string; weight: number | null; metadata: unknown }
  | { kind: 'update'; m: number; title: string | null; metadata: unknown }
  | { kind: 'weaken'; from: number; to: number; type: string; amount: number }
  | { kind: 'notUseful'; m: number };

const op = (memories: number): fc.Arbitrary<Op> => {
  // Biased to a few memories and one type, so edges are often relinked and their metadata merged.
  const m = fc.oneof(fc.integer({ min: 0, max: Math.min(2, memories - 1) }), fc.integer({ min: 0, max: memories - 1 }));
  const type = fc.oneof(fc.constant('CAUSED_BY'), fc.constantFrom(...TYPES));
  return fc.oneof(
    {
      weight: 10,
      arbitrary: fc.record({
        kind: fc.constant('link' as const),
        from: m,
        to: m,
        type,
        weight: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
        metadata,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('update' as const),
        m,
        title: fc.option(text(500), { nil: null }),
        metadata,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('weaken' as const),
        from: m,
        to: m,
        type,
        amount: fc.constantFrom(0.01, 0.3, 1),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('notUseful' as const), m }) },
  );
};

export const graph = memoryInputs.chain((memories) =>
  fc.record({ memories: fc.constant(memories), ops: fc.array(op(memories.length), { minLength: 20, maxLength: 80 }) }),
);

/**
 * Always tried first: a `__proto__` key, keys and values outside the BMP, metadata of exactly
 * 4096 bytes, and relinks whose merge lands just under the limit and then just over it (refused).
 */
export const EXAMPLE = {
  memories: [
    {
      id: 'ex/a:1',
      title: '  Ünïcödé 🚀 title  ',
      content: 'line\nline\u2028\u2029end',
      kind: 'fact',
      tags: ['t1', '🚀', 'עברית'],
      weight: 0.123456789,
      metadata: padTo(
        JSON.parse('{"__proto__": {"polluted": true}, "🔑": [1, "é"]}') as Record<string, unknown>,
        METADATA_LIMIT,
        '🚀',
        'pad',
      ),
    },
    { id: 'ex-b', key: 'b.key', title: 'B', metadata: null },
    { id: 'ex-c', title: 'C', content: '', tags: [], metadata: { nested: { deeper: [{}, []] } } },
  ],
  ops: [
    {
      kind: 'link' as const,
      from: 0,
      to: 1,
      type: 'caused by',
      weight: null,
      metadata: padTo({ first: true }, 2000, 'é', 'pad'),
    },
    { kind: 'link' as const, from: 0, to: 1, type: 'CAUSED_BY', weight: 0.7, metadata: padTo({}, 2080, '🚀', 'more') },
    { kind: 'link' as const, from: 0, to: 1, type: 'CAUSED_BY', weight: null, metadata: padTo({}, 200, 'x', 'notes') },
    { kind: 'link' as const, from: 1, to: 2, type: 'VALIDATES', weight: 0, metadata: [] },
    { kind: 'weaken' as const, from: 1, to: 2, type: 'VALIDATES', amount: 1 },
    { kind: 'update' as const, m: 2, title: null, metadata: { '': null } },
    { kind: 'notUseful' as const, m: 0 },
  ],
};

export const MEMORY_FIELDS = 'id key title content kind tags weight metadata';
export const EDGE_FIELDS = 'from { id } to { id } type weight metadata';

export async function readAll(
  store: GraphStore,
  workspace: string,
): Promise<{ memories: MemoryRecord[]; edges: EdgeRecord[] }> {
  const memories: MemoryRecord[] = [];
  const edges: EdgeRecord[] = [];
  for (let page = await store.listMemories(workspace, { afterId: null, limit: 500 }); page.length > 0; ) {
    memories.push(...page);
    page = await store.listMemories(workspace, { afterId: page[page.length - 1]?.id as string, limit: 500 });
  }
  for (let page = await store.listEdges(workspace, { afterId: null, limit: 500 }); page.length > 0; ) {
    edges.push(...page);
    page = await store.listEdges(workspace, { afterId: page[page.length - 1]?.id as string, limit: 500 });
  }
  return { memories, edges };
}

/** The parts of a graph the interchange format carries, in a stable order. */
export const comparable = ({ memories, edges }: { memories: MemoryRecord[]; edges: EdgeRecord[] }) => ({
  memories: memories
    .map(({ id, key, title, content, kind, tags, weight, metadata }) => ({
      id,
      key,
      title,
      content,
      kind,
      tags,
      weight,
      metadata,
    }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
  edges: edges
    .map(({ fromId, toId, type, weight, metadata }) => ({ key: `${fromId}>${toId}>${type}`, weight, metadata }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
});
