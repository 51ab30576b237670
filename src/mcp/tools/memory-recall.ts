import { z } from 'zod';
import { LIMITS } from '../../domain/inputs.js';
import { MemoryRecallDocument, type MemoryRecallQuery } from '../../generated/graphql.js';
import {
  currentOnlyInput,
  detailInput,
  type MemoryView,
  memoryViewOutput,
  toMemoryView,
  viewLine,
} from '../memory-view.js';
import { defined, edgeTypesInput, limitInput, minWeightInput } from '../shapes.js';
import { defineTool } from '../tool.js';

const DEFAULT_LIMIT = 10;
const DEFAULT_DEPTH = 2;

type Recalled = MemoryRecallQuery['recall']['results'][number];

const pathStepOutput = z.object({
  edge_id: z.string(),
  edge_type: z.string(),
  source_id: z.string(),
  target_id: z.string(),
  weight: z.number(),
});

const recalledOutput = z.object({
  memory: memoryViewOutput,
  score: z.number().describe('The blended score; results come best first.'),
  lexical: z.number().nullable().describe('0..1; null where the words did not reach it.'),
  vector: z.number().nullable().describe('0..1; null without embeddings or no match.'),
  graph: z.number().nullable().describe('Activation that reached it through edges; null for a memory only matched.'),
  seed: z.boolean().describe('A lexical or vector match, named in seeds, or brought by a cue.'),
  path_edge_ids: z
    .array(z.string())
    .describe('Its activation path, seed end first: the edges memory_feedback with recall_id changes.'),
  cue: z
    .object({
      edge_id: z.string(),
      match: z.number().describe('Share of the query words (besides names) the earlier question shared, 0.5..1.'),
    })
    .optional()
    .describe(
      'Brought by a question it answered before (used feedback by recall_id): memory_feedback with recall_id changes this learned edge.',
    ),
  associations: z
    .array(
      z.object({
        kind: z
          .enum(['TERMS', 'QUESTION_VECTOR'])
          .describe('TERMS: the two share rare words or names; QUESTION_VECTOR: a bridge the query vector chose.'),
        from_id: z
          .string()
          .describe('The memory it came from; an association whose memory was deleted since is left out.'),
        terms: z.array(z.string()).describe('The shared terms, or the names a bridge went through.'),
        weight: z.number().describe('0..1: shared term weight, or the similarity to the query for a bridge.'),
      }),
    )
    .optional()
    .describe('Shared words or a vector bridge that brought it (not edges: feedback cannot weaken them).'),
  path: z.array(pathStepOutput).optional().describe('detail full: each step of the path.'),
});

/** A component as the text shows it: three decimals, or nothing when that signal did not reach the memory. */
function component(name: string, value: number | null): string {
  return value === null ? '' : ` ${name} ${value.toFixed(3)}`;
}

/** What brought a result, as its line ends: its edges, else its cue, else its association. */
function carriedBy(result: z.output<typeof recalledOutput>): string {
  if (result.path_edge_ids.length) return ` via ${result.path_edge_ids.join(' > ')}`;
  if (result.cue) return ` cue ${result.cue.match.toFixed(2)} via ${result.cue.edge_id}`;
  const association = result.associations?.[0];
  if (!association) return '';
  const verb = association.kind === 'QUESTION_VECTOR' ? 'bridge' : 'shares';
  return ` ${verb} ${association.terms.join(', ')} with ${association.from_id}`;
}

function resultLine(result: z.output<typeof recalledOutput>, rank: number): string {
  const via = carriedBy(result);
  const parts = `${component('lexical', result.lexical)}${component('vector', result.vector)}${component('graph', result.graph)}`;
  return `${rank}. ${result.score.toFixed(3)}${result.seed ? ' seed' : ''} ${viewLine(result.memory)};${parts}${via}`;
}

/** A result's associations as the tool returns them; one whose first memory was deleted since is left out. */
const associationsOf = (result: Recalled) =>
  result.associations.flatMap(({ kind, from, terms, weight }) =>
    from ? [{ kind, from_id: from.id, terms, weight }] : [],
  );

function toRecalled(result: Recalled, memory: MemoryView, full: boolean): z.output<typeof recalledOutput> {
  return {
    memory,
    score: result.score,
    lexical: result.lexical,
    vector: result.vector,
    graph: result.graph,
    seed: result.seed,
    path_edge_ids: result.path.map((edge) => edge.id),
    ...(result.cue?.edge ? { cue: { edge_id: result.cue.edge.id, match: result.cue.match } } : {}),
    ...(result.associations.length > 0 ? { associations: associationsOf(result) } : {}),
    ...(full
      ? {
          path: result.path.map((edge) => ({
            edge_id: edge.id,
            edge_type: edge.type,
            source_id: edge.from.id,
            target_id: edge.to.id,
            weight: edge.weight,
          })),
        }
      : {}),
  };
}

export const memoryRecall = defineTool({
  name: 'memory_recall',
  title: 'Recall along weighted relations',
  description:
    'Recall by words and/or seeds: activation spreads from the matches along weighted edges; results ranked by score, with lexical/vector/graph parts and the path_edge_ids that led there. Then memory_feedback with recall_id trains that path.',
  input: z.object({
    query: z.string().optional().describe('Words; give query, seeds or both.'),
    seeds: z.array(z.string()).optional().describe('Memories to start from, by id or key.'),
    limit: limitInput(DEFAULT_LIMIT),
    max_depth: z
      .number()
      .int()
      .optional()
      .meta({ minimum: LIMITS.maxDepth.min, maximum: LIMITS.maxDepth.max, default: DEFAULT_DEPTH })
      .describe('Hops activation spreads.'),
    edge_types: edgeTypesInput,
    min_weight: minWeightInput('Ignore lighter edges.'),
    current_only: currentOnlyInput,
    detail: detailInput(),
  }),
  output: z.object({
    recall_id: z.string().nullable().describe('For memory_feedback; null when the record could not be stored.'),
    expires_at: z.string().nullable(),
    truncated: z.boolean().describe('Spreading stopped at the work budget: memories further out may be missing.'),
    results: z.array(recalledOutput),
  }),
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  document: MemoryRecallDocument,
  fit: { list: ['recall', 'results'], sizeArgument: 'limit' },
  argumentNames: {
    query: 'query',
    seeds: 'seeds',
    limit: 'limit',
    maxDepth: 'max_depth',
    types: 'edge_types',
    minWeight: 'min_weight',
    currentOnly: 'current_only',
  },
  variables: (input) =>
    defined({
      query: input.query,
      seeds: input.seeds,
      limit: input.limit,
      maxDepth: input.max_depth,
      types: input.edge_types,
      minWeight: input.min_weight,
      currentOnly: input.current_only,
    }),
  present: (data, input) => {
    const { id, expiresAt, truncated } = data.recall;
    const results = data.recall.results.map((result) =>
      toRecalled(result, toMemoryView(result.memory, input.detail), input.detail === 'full'),
    );
    const heading = id
      ? `Recall ${id} (pass it as recall_id to memory_feedback): ${results.length} result${results.length === 1 ? '' : 's'}, best first:`
      : `Recall not stored (no recall_id; give memory_feedback via_edge_ids instead): ${results.length} result${results.length === 1 ? '' : 's'}, best first:`;
    const cut = truncated
      ? ['Spreading stopped at the work budget; narrow it with edge_types, min_weight or a smaller max_depth.']
      : [];
    const text = results.length
      ? [heading, ...results.map((result, at) => resultLine(result, at + 1)), ...cut].join('\n')
      : `Nothing recalled${id ? ` (recall ${id})` : ''}: no memory matched the query or seeds.`;
    return { structured: { recall_id: id, expires_at: expiresAt, truncated, results }, text };
  },
});
