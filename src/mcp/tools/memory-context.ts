import { z } from 'zod';
import { LIMITS } from '../../domain/inputs.js';
import { MemoryContextDocument } from '../../generated/graphql.js';
import { detailInput, memoryViewOutput, toMemoryView, viewLine } from '../memory-view.js';
import { defined, edgeTypesInput, minWeightInput, round } from '../shapes.js';
import { defineTool } from '../tool.js';

const DEFAULT_BUDGET = 20;
const ROLES = {
  SEED: 'seed',
  NEWER_VERSION: 'newer_version',
  CONTRADICTING: 'contradicting',
  NEIGHBOR: 'neighbor',
} as const;

export const memoryContext = defineTool({
  name: 'memory_context',
  title: 'Context bundle around memories',
  description:
    'Ranked bundle around seeds before a task, instead of many reads: seeds, their newer versions, the other side of open contradictions, then strongest neighbors, cut to budget, with the edges among them. Pass the ids you used to memory_reinforce.',
  input: z.object({
    seeds: z
      .array(z.string())
      .meta({ minItems: 1, maxItems: LIMITS.idsPerBatch })
      .describe('The memories you work with, by id or key.'),
    budget: z
      .number()
      .int()
      .optional()
      .meta({ minimum: LIMITS.limit.min, maximum: LIMITS.limit.max, default: DEFAULT_BUDGET })
      .describe('Most memories, seeds included.'),
    edge_types: edgeTypesInput,
    min_weight: minWeightInput('Ignore lighter edges.'),
    detail: detailInput(),
  }),
  output: z.object({
    items: z
      .array(
        z.object({
          role: z
            .enum(['seed', 'newer_version', 'contradicting', 'neighbor'])
            .describe('Why the memory is in the bundle; items come in this order of roles.'),
          score: z
            .number()
            .describe(
              'What it was ranked by within its role: seed, its own weight; newer_version, the SUPERSEDES edge weight; contradicting, the contradiction strength; neighbor, the summed weights of its edges to the seeds.',
            ),
          memory: memoryViewOutput,
        }),
      )
      .describe('Best first, at most budget.'),
    edges: z
      .array(
        z.object({
          id: z.string(),
          type: z.string(),
          source_id: z.string(),
          target_id: z.string(),
          weight: z.number(),
        }),
      )
      .describe('Edges read while building the bundle whose two ends are both in it, strongest first.'),
    contradictions: z
      .array(
        z.object({
          kind: z.enum(['direct', 'mixed']),
          strength: z.number(),
          source_id: z.string().describe('The memory that contradicts.'),
          target_id: z.string().describe('The memory contradicted.'),
          edge_id: z
            .string()
            .nullable()
            .describe(
              'The source -CONTRADICTS-> target edge; null for a mixed pair that disagrees only through FAILS_TO_REPRODUCE.',
            ),
        }),
      )
      .describe('Open contradictions touching a seed whose two ends are in the bundle, strongest first.'),
    truncated: z.boolean().describe('True when the budget left memories out.'),
  }),
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  document: MemoryContextDocument,
  fit: { list: ['context', 'items'], sizeArgument: 'budget' },
  aliases: { limit: 'budget' },
  argumentNames: { seeds: 'seeds', budget: 'budget', types: 'edge_types', minWeight: 'min_weight' },
  variables: (input) =>
    defined({ seeds: input.seeds, budget: input.budget, types: input.edge_types, minWeight: input.min_weight }),
  present: (data, input) => {
    const { context } = data;
    const items = context.items.map((item) => ({
      role: ROLES[item.role],
      score: item.score,
      memory: toMemoryView(item.memory, input.detail),
    }));
    // The edges among the items listed (all of them, unless the answer was cut to the output budget).
    const listed = new Set(items.map((item) => item.memory.id));
    const edges = context.edges
      .filter((edge) => listed.has(edge.from.id) && listed.has(edge.to.id))
      .map((edge) => ({
        id: edge.id,
        type: edge.type,
        source_id: edge.from.id,
        target_id: edge.to.id,
        weight: edge.weight,
      }));
    const contradictions = context.contradictions.map((pair) => ({
      kind: pair.kind === 'MIXED' ? ('mixed' as const) : ('direct' as const),
      strength: pair.strength,
      source_id: pair.a.id,
      target_id: pair.b.id,
      edge_id: pair.edge?.id ?? null,
    }));
    const byId = new Map(items.map((item) => [item.memory.id, item.memory]));
    const name = (id: string): string => {
      const memory = byId.get(id);
      return memory?.key ?? id;
    };
    const lines = [
      `${items.length} memor${items.length === 1 ? 'y' : 'ies'} in context${context.truncated ? ' (budget reached: more were left out)' : ''}, ${edges.length} edge${edges.length === 1 ? '' : 's'} among them:`,
      ...items.map((item) => `- ${item.role} ${round(item.score)}: ${viewLine(item.memory)}`),
      ...edges.map((edge) => `- edge ${edge.id}: ${name(edge.source_id)} -[${edge.type}]-> ${name(edge.target_id)}`),
      ...(contradictions.length
        ? [
            'Open contradictions:',
            ...contradictions.map(
              (pair) =>
                `- ${pair.kind.toUpperCase()} ${name(pair.source_id)} → ${name(pair.target_id)} ${pair.strength.toFixed(2)}`,
            ),
          ]
        : []),
    ];
    return { structured: { items, edges, contradictions, truncated: context.truncated }, text: lines.join('\n') };
  },
});
