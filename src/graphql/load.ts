import { notFound } from '../domain/errors.js';
import type { EdgeRecord, MemoryRecord } from '../domain/types.js';
import type { EngramContext } from './context.js';

/** For non-null fields: the record was there when the parent was read, so a miss means it was deleted meanwhile. */
export async function loadMemory(ctx: EngramContext, id: string): Promise<MemoryRecord> {
  const memory = await ctx.loaders.memory.load(id);
  if (!memory) throw notFound(`Memory "${id}" was deleted while this request ran`);
  return memory;
}

export async function loadEdge(ctx: EngramContext, id: string): Promise<EdgeRecord> {
  const edge = await ctx.loaders.edge.load(id);
  if (!edge) throw notFound(`Edge "${id}" was deleted while this request ran`);
  return edge;
}
