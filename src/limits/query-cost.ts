import {
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  isLeafType,
  isListType,
  Kind,
  TypeInfo,
  ValidationContext,
} from 'graphql';
import { type ComplexityEstimator, createComplexityRule } from 'graphql-query-complexity';
import { LIMITS } from '../domain/inputs.js';

type Args = Record<string, unknown>;

/**
 * What one field costs. `base` is the field's own work, paid each time it is resolved; `size` is
 * how many times its selection is resolved: a list's length, or the number of items a walk
 * returns. Its cost is `base + size × (cost of its selection)`.
 */
interface FieldCost {
  base: number | ((args: Args) => number);
  size?: number | ((args: Args) => number);
}

/** Size assumed for a list field that no argument bounds. */
const DEFAULT_LIST_SIZE = 10;

const num = (name: string, fallback: number) => (args: Args) =>
  typeof args[name] === 'number' ? (args[name] as number) : fallback;
const length =
  (name: string, fallback = 0) =>
  (args: Args) =>
    Array.isArray(args[name]) ? (args[name] as unknown[]).length : fallback;

/** A store call or walk whose work grows with the graph, not with what it returns. */
const WALK = 200;
/** The evidence walk reads every supporting chain up to maxDepth: the costliest read. */
const EVIDENCE = 500;
const SEARCH = 50;
const WRITE = 10;

/**
 * Costs of the fields that do more than read a loaded object, by `Type.field`. Fields not listed
 * cost 0 (scalars and enums: their parent has loaded them), 1 (an object: at most one loader
 * lookup) or 1 + DEFAULT_LIST_SIZE × selection (an unbounded list). Argument defaults are applied
 * before these functions see the arguments. Sizes of lists inside a walk's result (evidence items,
 * context bundle items, path steps) are counted once, on the walk.
 */
const FIELD_COSTS: Readonly<Record<string, FieldCost>> = {
  'Query.memories': { base: 1, size: length('ids') },
  'Query.searchMemories': { base: SEARCH, size: num('limit', 20) },
  // One keyset read of `first` rows; the page's items are counted on the connection.
  'Query.memoriesConnection': { base: 10, size: num('first', 20) },
  'Query.edgesConnection': { base: 10, size: num('first', 20) },
  'MemoryConnection.edges': { base: 1, size: 1 },
  'EdgeConnection.edges': { base: 1, size: 1 },
  'Query.weightEventsConnection': { base: 10, size: num('first', 50) },
  'Edge.historyConnection': { base: 5, size: num('first', 50) },
  'WeightEventConnection.edges': { base: 1, size: 1 },
  // A record carries up to 100 results, as for `recalls`.
  'Query.recallsConnection': { base: 10, size: (args) => num('first', 20)(args) * 10 },
  'RecallConnection.edges': { base: 1, size: 1 },
  'Query.edgesBetween': { base: 10, size: DEFAULT_LIST_SIZE },
  'Query.path': { base: WALK, size: (args) => num('maxHops', 4)(args) + 1 },
  'Query.weightEvents': { base: 10, size: num('limit', 50) },
  'Query.context': { base: 300, size: num('budget', 20) },
  'Query.contradictions': { base: WALK, size: num('limit', 20) },
  'Query.convergence': { base: WALK, size: num('limit', 20) },
  // Reads the workspace's newest `window` weight events.
  'Query.oscillatingEdges': { base: (args) => 10 + Math.ceil(num('window', 1000)(args) / 10), size: num('limit', 20) },
  // One batched adjacency read serves every memory asking the same question.
  'Memory.neighbors': { base: 5, size: num('limit', 20) },
  // One batched keyset read per position; the page's items are counted on the connection.
  'Memory.neighborsConnection': { base: 5, size: num('first', 20) },
  'NeighborConnection.edges': { base: 1, size: 1 },
  'Memory.degree': { base: 5 },
  'Memory.superseded': { base: 5 },
  'Memory.path': { base: WALK, size: (args) => num('maxHops', 4)(args) + 1 },
  'Memory.traverse': { base: WALK, size: num('limit', 20) },
  'Memory.evidence': { base: EVIDENCE, size: num('limit', 50) },
  'Memory.current': { base: 10 },
  'Memory.supersedes': { base: 5, size: DEFAULT_LIST_SIZE },
  'Memory.supersededBy': { base: 5, size: DEFAULT_LIST_SIZE },
  'Edge.history': { base: 5, size: num('limit', 20) },
  // Inside a walk's result: its size is the walk's.
  'Evidence.supporting': { base: 1, size: 1 },
  'Evidence.contradicting': { base: 1, size: 1 },
  'EvidenceItem.via': { base: 1, size: LIMITS.maxDepth.max },
  'TraversalHit.via': { base: 1, size: LIMITS.maxDepth.max },
  'PathResult.steps': { base: 1, size: 1 },
  'ContextBundle.memories': { base: 1, size: 1 },
  'ContextBundle.items': { base: 1, size: 1 },
  'ContextBundle.edges': { base: 1, size: 1 },
  'ContextBundle.contradictions': { base: 1, size: 1 },
  'Contradiction.edges': { base: 1, size: 5 },
  'UnlinkPayload.edges': { base: 1, size: 1 },
  'Mutation.createMemory': { base: WRITE },
  'Mutation.updateMemory': { base: WRITE },
  'Mutation.deleteMemory': { base: 5 * WRITE },
  'Mutation.link': { base: WRITE },
  'Mutation.unlink': { base: WRITE },
  'Mutation.weaken': { base: WRITE },
  'Mutation.strengthen': { base: WRITE },
  'Mutation.setEdgeWeight': { base: WRITE },
  'Mutation.revertWeightEvent': { base: WRITE },
  // Without `via`, feedback changes every edge of the memory.
  'Mutation.feedback': { base: WALK, size: length('via', 100) },
  'Mutation.reinforceCoRetrieval': { base: WALK, size: length('ids') },
  // A search plus up to maxDepth frontier expansions; the answer is `limit` results.
  'Query.recall': { base: SEARCH + WALK, size: num('limit', 10) },
  'Query.recallRecord': { base: 5, size: 100 },
  'Query.recalls': { base: 10, size: (args) => num('limit', 20)(args) * 10 },
  'Recall.results': { base: 1, size: 1 },
  'RecalledMemory.path': { base: 1, size: LIMITS.maxDepth.max },
  'Mutation.importGraph': { base: (args) => WRITE + length('memories')(args) + length('edges')(args), size: 1 },
};

const value = (cost: number | ((args: Args) => number) | undefined, args: Args, fallback: number) =>
  cost === undefined ? fallback : typeof cost === 'number' ? cost : cost(args);

/** The estimator for graphql-query-complexity: FIELD_COSTS, then the defaults above. */
const fieldCostEstimator: ComplexityEstimator = ({ type, field, args, childComplexity }) => {
  // Introspection is free here: it has its own switch (ENGRAM_INTROSPECTION).
  if (type.name.startsWith('__') || field.name.startsWith('__')) return childComplexity;
  const cost = FIELD_COSTS[`${type.name}.${field.name}`];
  const leaf = isLeafType(getNamedType(field.type));
  const list = isListType(getNullableType(field.type));
  const base = value(cost?.base, args, leaf ? 0 : 1);
  const size = value(cost?.size, args, list ? DEFAULT_LIST_SIZE : 1);
  return base + Math.max(0, size) * childComplexity;
};

/** Most fields (after expanding fragments) one operation may select before its cost is not computed at all. */
const MAX_QUERY_NODES = 10_000;

/**
 * The cost of the operation a request runs: the sum over its fields of each field's cost times
 * the sizes of the lists it is nested in (see FIELD_COSTS). Throws a GraphQLError when the
 * document expands to more than MAX_QUERY_NODES fields, or when a variable does not fit.
 */
export function queryCost(options: {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
}): number {
  const { schema, document, operationName } = options;
  const errors: GraphQLError[] = [];
  const context = new ValidationContext(schema, document, new TypeInfo(schema), (error) => errors.push(error));
  const analysis = createComplexityRule({
    maximumComplexity: Number.POSITIVE_INFINITY,
    estimators: [fieldCostEstimator],
    variables: options.variables ?? {},
    ...(operationName ? { operationName } : {}),
    maxQueryNodes: MAX_QUERY_NODES,
  })(context);
  // What the library's getComplexity does, without first walking the whole document with a
  // TypeInfo to find the operations (that walk cost more than the analysis: ~0.1 ms a request).
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) analysis.onOperationDefinitionEnter(definition);
  }
  if (errors.length > 0) throw errors[errors.length - 1];
  return analysis.complexity;
}
