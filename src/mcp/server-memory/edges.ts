import { type RelationFieldsFragment, ServerMemoryEdgesBetweenDocument } from '../../generated/graphql.js';
import type { Execute } from '../execute.js';
import { run } from './graph-io.js';

/** The edge from -[type]-> to (ids), or null; edgesBetween answers both directions, so one is picked. */
export async function storedEdge(
  execute: Execute,
  from: string,
  to: string,
  type: string,
): Promise<RelationFieldsFragment | null> {
  const data = await run(execute, ServerMemoryEdgesBetweenDocument, { from, to, types: [type] });
  return data.edgesBetween.find((edge) => edge.from.id === from && edge.to.id === to && edge.type === type) ?? null;
}
