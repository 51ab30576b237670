import { z } from 'zod';
import { memoryNotFound } from '../domain/errors.js';
import { LIMITS } from '../domain/inputs.js';
import { isKnownRelationType } from '../domain/relations.js';
import type {
  Direction,
  EdgeFieldsFragment,
  MemoryFieldsFragment,
  WeightChangeFieldsFragment,
} from '../generated/graphql.js';
import type { OperationError } from './execute.js';

/*
 * Shapes shared by the tools: snake_case inputs that map onto the GraphQL contract, and the
 * snake_case structured outputs built from the operations' fragments. Ranges are advertised in
 * the JSON Schema (`meta`) but enforced by the API, so an out-of-range value comes back as the
 * API's BAD_USER_INPUT, never as a second, diverging rule here.
 */

// ---- inputs

export const memoryRefInput = (what: string) => z.string().describe(`${what}, by id or key.`);

export const edgeTypeInput = z.string().describe('Relation type (caused_by -> CAUSED_BY); see relation_types.');

/** Undescribed: the name and the naming scheme say it, and tools/list is read on every conversation. */
export const edgeTypesInput = z.array(z.string()).optional();

/**
 * The names agents trained on other memory-graph tools use for an edge's ends and type. A call may
 * use either spelling; both with different values is refused (strict-input.ts).
 */
export const EDGE_ALIASES = {
  from_id: 'source_id',
  to_id: 'target_id',
  from_name: 'source_id',
  to_name: 'target_id',
  relation: 'edge_type',
} as const;

/** One existing edge, by edge_id or by its (source, target, type) triple. */
export const edgeSelectorInput = {
  edge_id: z.string().optional().describe('Or source_id, target_id, edge_type.'),
  source_id: z.string().optional().describe('Edge start.'),
  target_id: z.string().optional().describe('Edge end.'),
  edge_type: z.string().optional(),
};

interface EdgeSelector {
  edge_id?: string | undefined;
  source_id?: string | undefined;
  target_id?: string | undefined;
  edge_type?: string | undefined;
}

/** weaken and strengthen name their edge and step the same way; only the default amount differs. */
export const edgeNudgeInput = (defaultAmount: string) =>
  z
    .object({ ...edgeSelectorInput, amount: amountInput(defaultAmount), reason: reasonInput })
    .superRefine(requireOneEdgeSelector);

export const EDGE_NUDGE_ARGUMENT_NAMES = {
  edgeId: 'edge_id',
  from: 'source_id',
  to: 'target_id',
  type: 'edge_type',
  amount: 'amount',
  reason: 'reason',
};

export const edgeNudgeVariables = (
  input: EdgeSelector & { amount?: number | undefined; reason?: string | undefined },
) =>
  defined({
    edgeId: input.edge_id,
    from: input.source_id,
    to: input.target_id,
    type: input.edge_type,
    amount: input.amount,
    reason: input.reason,
  });

/** Exactly one way of naming the edge, so a half-given triple never falls back to something else. */
export function requireOneEdgeSelector(input: EdgeSelector, ctx: z.RefinementCtx): void {
  const tripleCount = [input.source_id, input.target_id, input.edge_type].filter((value) => value !== undefined).length;
  if (input.edge_id !== undefined ? tripleCount === 0 : tripleCount === 3) return;
  ctx.addIssue({
    code: 'custom',
    path: ['edge_id'],
    message:
      input.edge_id !== undefined
        ? 'give either edge_id, or all of source_id, target_id and edge_type, not both'
        : 'give either edge_id, or all of source_id, target_id and edge_type',
  });
}

export const directionInput = z.enum(['outgoing', 'incoming', 'both']).optional().meta({ default: 'both' });

export const limitInput = (fallback: number, what = 'results') =>
  z
    .number()
    .int()
    .optional()
    .meta({ minimum: LIMITS.limit.min, maximum: LIMITS.limit.max, default: fallback })
    .describe(`Most ${what}.`);

const amountInput = (fallback: string) =>
  z.number().optional().meta({ exclusiveMinimum: 0, maximum: 1 }).describe(`Step (default ${fallback}).`);

export const minWeightInput = (what: string) => z.number().optional().meta({ minimum: 0, maximum: 1 }).describe(what);

export const reasonInput = z.string().optional().describe('Why; kept in the history.');

// An object of anything: catchall advertises it in half the characters of a string-keyed record.
export const metadataInput = z
  .object({})
  .catchall(z.unknown())
  .describe(`JSON object, at most ${LIMITS.metadataBytes} bytes.`);

export const toDirection = (direction: 'outgoing' | 'incoming' | 'both' | undefined): Direction | undefined =>
  direction === undefined ? undefined : (direction.toUpperCase() as Direction);

/** Drops undefined values, so the operation's own defaults (the contract's) apply. */
export function defined<T extends Record<string, unknown>>(values: T): T {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as T;
}

// ---- outputs

export const memoryOutput = z.object({
  id: z.string(),
  key: z.string().nullable().describe('Human handle, usable wherever an id is.'),
  title: z.string(),
  content: z.string().nullable(),
  kind: z.string().nullable(),
  tags: z.array(z.string()),
  weight: z.number().describe("The memory's own importance, 0..1; moved by memory_feedback."),
  metadata: z.unknown(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type MemoryOutput = z.output<typeof memoryOutput>;

export const memoryRefOutput = z.object({ id: z.string(), key: z.string().nullable(), title: z.string() });
type MemoryRef = z.output<typeof memoryRefOutput>;

export const edgeOutput = z.object({
  id: z.string(),
  type: z.string(),
  source_id: z.string(),
  target_id: z.string(),
  source: memoryRefOutput.describe('The memory the edge starts at.'),
  target: memoryRefOutput.describe('The memory the edge points to.'),
  weight: z.number().describe('Strength of the relation, 0..1.'),
  pruned: z.boolean().describe('True at or below the prune threshold: hidden from related/path/traverse, not deleted.'),
  metadata: z.unknown(),
  created_at: z.string(),
  updated_at: z.string(),
  last_confirmed_at: z.string().nullable().describe('When the edge was last linked again; null if only created.'),
});
export type EdgeOutput = z.output<typeof edgeOutput>;

export const weightChangeOutput = z.object({
  target: z.enum(['edge', 'memory']),
  previous_weight: z.number(),
  new_weight: z.number(),
  pruned: z
    .boolean()
    .describe('For edges: whether the edge is now pruned (hidden from walks). Always false for memories.'),
  edge: z
    .object({
      id: z.string(),
      type: z.string(),
      source_id: z.string(),
      target_id: z.string(),
      weight: z.number(),
      pruned: z.boolean(),
    })
    .nullable(),
  memory: z.object({ id: z.string(), key: z.string().nullable(), title: z.string(), weight: z.number() }).nullable(),
  event_id: z.string().describe('The weight-history event written for this change.'),
  source: z.string(),
  reason: z.string().nullable(),
});
export type WeightChangeOutput = z.output<typeof weightChangeOutput>;

/** A memory_id that names nothing: the domain's NOT_FOUND (the same words as GraphQL's), as a tool error. */
export function memoryIdNotFound(ref: string): { error: OperationError } {
  const error = memoryNotFound('memory_id', ref);
  return { error: { code: error.code, message: error.message, argument: 'memory_id', retryable: error.retryable } };
}

export function toMemory(memory: MemoryFieldsFragment): MemoryOutput {
  return {
    id: memory.id,
    key: memory.key,
    title: memory.title,
    kind: memory.kind,
    content: memory.content,
    tags: memory.tags,
    weight: memory.weight,
    metadata: memory.metadata ?? null,
    created_at: memory.createdAt,
    updated_at: memory.updatedAt,
  };
}

export function toEdge(edge: EdgeFieldsFragment): EdgeOutput {
  return {
    id: edge.id,
    type: edge.type,
    source_id: edge.from.id,
    target_id: edge.to.id,
    source: edge.from,
    target: edge.to,
    weight: edge.weight,
    pruned: edge.pruned,
    metadata: edge.metadata ?? null,
    created_at: edge.createdAt,
    updated_at: edge.updatedAt,
    last_confirmed_at: edge.lastConfirmedAt,
  };
}

export function toWeightChange(change: WeightChangeFieldsFragment): WeightChangeOutput {
  return {
    target: change.edge ? 'edge' : 'memory',
    previous_weight: change.previousWeight,
    new_weight: change.newWeight,
    pruned: change.pruned,
    edge: change.edge
      ? {
          id: change.edge.id,
          type: change.edge.type,
          source_id: change.edge.from.id,
          target_id: change.edge.to.id,
          weight: change.edge.weight,
          pruned: change.edge.pruned,
        }
      : null,
    memory: change.memory,
    event_id: change.event.id,
    source: change.event.source,
    reason: change.event.reason,
  };
}

// ---- short texts

export const round = (weight: number): string => String(Math.round(weight * 1000) / 1000);

export function label(memory: MemoryRef): string {
  return `"${memory.title}" (${memory.key ? `key ${memory.key}, ` : ''}id ${memory.id})`;
}

/** The shortest readable name of a memory: its key, else its title. */
export const handle = (memory: MemoryRef): string => memory.key ?? `"${memory.title}"`;

export function edgeLabel(edge: EdgeOutput): string {
  return `${handle(edge.source)} -[${edge.type}]-> ${handle(edge.target)}, weight ${round(edge.weight)}${edge.pruned ? ', pruned' : ''}`;
}

export function weightChangeText(verb: string, change: WeightChangeFieldsFragment): string {
  const what = change.edge
    ? `edge ${handle(change.edge.from)} -[${change.edge.type}]-> ${handle(change.edge.to)} (edge id ${change.edge.id})`
    : `memory ${change.memory ? label(change.memory) : ''}`;
  return `${verb} ${what}: ${round(change.previousWeight)} -> ${round(change.newWeight)}${change.pruned ? ' (now pruned: hidden from walks; undo with memory_revert and this event id, or memory_set_weight)' : ''} (event id ${change.event.id}).`;
}

/**
 * The vocabulary is open, so a type outside it is stored; but evidence and contradictions only
 * read the known types, so an agent that meant SUPPORTS (for VALIDATES) is told at once.
 */
export function unknownTypeWarning(type: string): string | null {
  return isKnownRelationType(type)
    ? null
    : `${type} is not a known relation type: stored as given, but memory_evidence and memory_contradictions ignore it (see relation_types).`;
}

export const warningsOutput = z.array(z.string()).optional().describe('Accepted, but probably not what you meant.');
