import { z } from 'zod';
import { LIMITS } from '../../domain/inputs.js';
import { MemoryEvidenceDocument, type MemoryEvidenceQuery } from '../../generated/graphql.js';
import { defined, label, memoryIdNotFound, memoryRefInput, memoryRefOutput, minWeightInput, round } from '../shapes.js';
import { defineTool } from '../tool.js';

const DEFAULT_DEPTH = 3;
/** Items per side listed in the text; structuredContent has them all. */
const TEXT_ITEMS = 5;

type Item = NonNullable<MemoryEvidenceQuery['memory']>['evidence']['supporting'][number];

const evidenceItemOutput = z.object({
  memory: memoryRefOutput
    .extend({ kind: z.string().nullable() })
    .describe('The evidence: the memory at the far end of the chain.'),
  relation: z
    .string()
    .describe(
      'Type of the judging edge, the first of via: VALIDATES, REPLICATES, REPRODUCES, CONTRADICTS or FAILS_TO_REPRODUCE.',
    ),
  weight: z.number().describe('Product of the edge weights along via: indirect evidence counts for less.'),
  via: z
    .array(
      z.object({
        edge_id: z.string(),
        type: z.string(),
        source_id: z.string(),
        target_id: z.string(),
        weight: z.number(),
      }),
    )
    .describe('The chain in reading order: the first edge leaves the evidence memory, the last reaches memory_id.'),
});
type EvidenceItemOutput = z.output<typeof evidenceItemOutput>;

const toItem = (item: Item): EvidenceItemOutput => ({
  memory: item.memory,
  relation: item.relation,
  weight: item.weight,
  via: item.via.map((edge) => ({
    edge_id: edge.id,
    type: edge.type,
    source_id: edge.from.id,
    target_id: edge.to.id,
    weight: edge.weight,
  })),
});

const itemLine = (sign: string, item: EvidenceItemOutput): string =>
  `${sign} ${round(item.weight)} ${item.relation} ${label(item.memory)}${item.memory.kind ? ` [${item.memory.kind}]` : ''}${item.via.length > 1 ? `, through a chain of ${item.via.length} edges` : ''}`;

function sideLines(sign: string, items: EvidenceItemOutput[]): string[] {
  const shown = items.slice(0, TEXT_ITEMS).map((item) => itemLine(sign, item));
  return items.length > TEXT_ITEMS ? [...shown, `  ... and ${items.length - TEXT_ITEMS} more`] : shown;
}

export const memoryEvidence = defineTool({
  name: 'memory_evidence',
  title: 'Weigh the evidence for a memory',
  description:
    'Weigh a claim: memories supporting it (VALIDATES, REPLICATES, REPRODUCES; via EXTENDS / FORMALIZES) or contradicting it or its support (CONTRADICTS, FAILS_TO_REPRODUCE), strongest first, with via edges; score = (S - C) / (1 + S + C) of summed weights. See memory_contradictions.',
  input: z.object({
    memory_id: memoryRefInput('The claim'),
    min_weight: minWeightInput('Ignore lighter edges.'),
    max_depth: z
      .number()
      .int()
      .optional()
      .meta({ minimum: LIMITS.maxDepth.min, maximum: LIMITS.maxDepth.max, default: DEFAULT_DEPTH })
      .describe('Longest chain, in edges.'),
  }),
  output: z.object({
    memory: memoryRefOutput,
    score: z.number().describe('Support score, -1..1: (S - C) / (1 + S + C).'),
    supporting: z.array(evidenceItemOutput).describe('Strongest first.'),
    contradicting: z.array(evidenceItemOutput).describe('Strongest first.'),
  }),
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  document: MemoryEvidenceDocument,
  argumentNames: { id: 'memory_id', minWeight: 'min_weight', maxDepth: 'max_depth' },
  variables: (input) => defined({ id: input.memory_id, minWeight: input.min_weight, maxDepth: input.max_depth }),
  present: (data, input) => {
    if (!data.memory) return memoryIdNotFound(input.memory_id);
    const { evidence } = data.memory;
    const memory = { id: data.memory.id, key: data.memory.key, title: data.memory.title };
    const supporting = evidence.supporting.map(toItem);
    const contradicting = evidence.contradicting.map(toItem);
    const lines = [
      `Evidence for ${label(memory)}: score ${evidence.score.toFixed(2)} · ${supporting.length} supporting · ${contradicting.length} contradicting`,
      ...sideLines('+', supporting),
      ...sideLines('-', contradicting),
    ];
    return { structured: { memory, score: evidence.score, supporting, contradicting }, text: lines.join('\n') };
  },
});
