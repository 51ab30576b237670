import { z } from 'zod';
import { type ContradictionKind, MemoryContradictionsDocument } from '../../generated/graphql.js';
import { defined, handle, limitInput, memoryRefOutput, minWeightInput } from '../shapes.js';
import { cursorInput, defineTool, PAGE_HINT } from '../tool.js';

const kindOutput = z.enum(['direct', 'mixed']);
const sideOutput = memoryRefOutput.extend({ kind: z.string().nullable() });

export const memoryContradictions = defineTool({
  name: 'memory_contradictions',
  title: 'List memories that disagree',
  description:
    'Pairs that disagree: direct (source -CONTRADICTS-> target, or a lone FAILS_TO_REPRODUCE) or mixed (source supports and contradicts target). Open first, then strongest; resolved (a side superseded) last. Resolve with SUPERSEDES or memory_weaken.',
  input: z.object({
    limit: limitInput(20, 'pairs'),
    cursor: cursorInput,
    min_weight: minWeightInput('Ignore edges lighter than this'),
    kinds: z
      .array(z.enum(['direct', 'mixed']))
      .optional()
      .describe('Only these kinds; omit for both.'),
  }),
  output: z.object({
    count: z.number(),
    contradictions: z.array(
      z.object({
        kind: kindOutput,
        strength: z
          .number()
          .describe(
            'direct: the weight of edge; mixed: the weaker of the strongest supporting and strongest contradicting edge.',
          ),
        resolved: z.boolean().describe('True when a side is superseded: the disagreement is history.'),
        source: sideOutput.describe('The memory that contradicts: the source of the edges.'),
        target: sideOutput.describe('The memory contradicted: the target of the edges.'),
        edge_id: z
          .string()
          .nullable()
          .describe(
            'The strongest source -CONTRADICTS-> target edge, else (direct) the strongest FAILS_TO_REPRODUCE edge; null for a mixed pair that disagrees only through FAILS_TO_REPRODUCE.',
          ),
        edges: z
          .array(z.object({ id: z.string(), type: z.string(), weight: z.number() }))
          .describe('Every supporting and contradicting edge from source to target, strongest first.'),
      }),
    ),
  }),
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  document: MemoryContradictionsDocument,
  fit: { list: ['contradictionsConnection', 'edges'], sizeArgument: 'limit', hint: PAGE_HINT },
  pages: ['contradictionsConnection'],
  argumentNames: { first: 'limit', after: 'cursor', minWeight: 'min_weight', kinds: 'kinds' },
  variables: (input) =>
    defined({
      first: input.limit,
      after: input.cursor,
      minWeight: input.min_weight,
      kinds: input.kinds?.map((kind) => kind.toUpperCase() as ContradictionKind),
    }),
  present: (data) => {
    const contradictions = data.contradictionsConnection.edges.map(({ node: pair }) => ({
      kind: pair.kind === 'MIXED' ? ('mixed' as const) : ('direct' as const),
      strength: pair.strength,
      resolved: pair.resolved,
      source: pair.a,
      target: pair.b,
      edge_id: pair.edge?.id ?? null,
      edges: pair.edges,
    }));
    const text = contradictions.length
      ? contradictions
          .map(
            (pair) =>
              `${pair.resolved ? 'RESOLVED' : 'OPEN'} ${pair.kind.toUpperCase()} ${handle(pair.source)} → ${handle(pair.target)} ${pair.strength.toFixed(2)}`,
          )
          .join('\n')
      : 'No contradictions found.';
    return { structured: { count: contradictions.length, contradictions }, text };
  },
});
