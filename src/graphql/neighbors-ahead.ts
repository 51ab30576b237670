import {
  type FieldNode,
  type GraphQLResolveInfo,
  getArgumentValues,
  isObjectType,
  Kind,
  type SelectionSetNode,
} from 'graphql';
import * as rules from '../domain/inputs.js';
import type { Direction } from '../domain/types.js';
import type { AdjacencyQuery } from '../store/port.js';

/** Memory.neighbors' arguments once validated: what its resolver and the look-ahead both turn into a query. */
export interface NeighborsArgs {
  direction: Direction;
  types?: readonly string[] | null;
  minWeight?: number | null;
  includePruned: boolean;
  limit: number;
}

/** The one place Memory.neighbors' arguments become a store query, so a prefetched answer has the key its resolver asks for. */
export const adjacencyQueryOf = (args: NeighborsArgs, pruneThreshold: number): AdjacencyQuery => ({
  direction: args.direction,
  types: args.types ?? null,
  minWeight: args.minWeight ?? null,
  includePruned: args.includePruned,
  pruneThreshold,
  limitPerMemory: args.limit,
});

/**
 * The adjacency query of the first `neighbors` field selected directly on the memories a root
 * field returns (`memory(id) { neighbors(limit: 20) { ... } }`), so the root field can read the
 * memories and their neighbours in one store call (one statement on Neo4j) instead of two. Null
 * when there is none, when it carries a directive, or when its arguments would be refused: then
 * nothing is read ahead, and the field's own resolver validates and reads as usual.
 */
export function neighborsAsked(info: GraphQLResolveInfo, pruneThreshold: number): AdjacencyQuery | null {
  const memoryType = info.schema.getType('Memory');
  const field = isObjectType(memoryType) ? memoryType.getFields().neighbors : undefined;
  if (!field) return null;
  const node = info.fieldNodes
    .map((fieldNode) => fieldNode.selectionSet && firstNeighbors(info, fieldNode.selectionSet, new Set()))
    .find((found) => found);
  if (!node || node.directives?.length) return null;
  try {
    const raw = getArgumentValues(field, node, info.variableValues) as Record<string, unknown>;
    const limit = rules.limit.safeParse(raw.limit);
    const types = raw.types == null ? null : rules.relationTypes.safeParse(raw.types);
    const minWeight = raw.minWeight == null ? null : rules.minWeight.safeParse(raw.minWeight);
    if (!limit.success || types?.success === false || minWeight?.success === false) return null;
    return adjacencyQueryOf(
      {
        direction: raw.direction as Direction,
        types: types?.data ?? null,
        minWeight: minWeight?.data ?? null,
        includePruned: raw.includePruned === true,
        limit: limit.data,
      },
      pruneThreshold,
    );
  } catch {
    // Arguments graphql-js itself refuses: the field reports them.
    return null;
  }
}

function firstNeighbors(
  info: GraphQLResolveInfo,
  selectionSet: SelectionSetNode,
  visited: Set<string>,
): FieldNode | undefined {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value === 'neighbors') return selection;
      continue;
    }
    if (selection.directives?.length) continue;
    const onMemory = (condition: string | undefined) => condition === undefined || condition === 'Memory';
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      if (!onMemory(selection.typeCondition?.name.value)) continue;
      const found = firstNeighbors(info, selection.selectionSet, visited);
      if (found) return found;
      continue;
    }
    const name = selection.name.value;
    const fragment = info.fragments[name];
    if (!fragment || visited.has(name) || !onMemory(fragment.typeCondition.name.value)) continue;
    visited.add(name);
    const found = firstNeighbors(info, fragment.selectionSet, visited);
    if (found) return found;
  }
  return undefined;
}
