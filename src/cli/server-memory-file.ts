import { Readable } from 'node:stream';
import { z } from 'zod';
import { describeIssues, GraphLine } from '../domain/graph-records.js';
import { newId } from '../domain/ids.js';
import {
  type Entity,
  edgeMetadataFor,
  entityNameOf,
  entityOf,
  keyForName,
  memoryFieldsFor,
  type Relation,
  relationTextsOf,
  relationTypeFor,
} from '../domain/server-memory.js';
import type { GraphStore } from '../store/port.js';
import { ImportLineError } from './import-command.js';

/*
 * The official MCP memory server's file (memory.jsonl): one entity or relation per line,
 *   {"type":"entity","name":"Alice","entityType":"person","observations":["..."]}
 *   {"type":"relation","from":"Alice","to":"Acme","relationType":"works at"}
 * read into Engram's import records with the profile's mapping (domain/server-memory.ts), and
 * written back from a workspace by `engram export --format server-memory`.
 */

const EntityLine = z.object({
  type: z.literal('entity'),
  name: z.string(),
  entityType: z.string(),
  observations: z.array(z.string()),
});
const RelationLine = z.object({
  type: z.literal('relation'),
  from: z.string(),
  to: z.string(),
  relationType: z.string(),
});
const FileLine = z.discriminatedUnion('type', [EntityLine, RelationLine], {
  error: (issue) => (issue.code === 'invalid_union' ? 'type: must be "entity" or "relation"' : undefined),
});

/** Whether a first line is the official file's (a `type` of entity or relation, no Engram `record`). */
export function isServerMemoryLine(line: string): boolean {
  try {
    const value = JSON.parse(line) as Record<string, unknown>;
    return (value?.type === 'entity' || value?.type === 'relation') && value.record === undefined;
  } catch {
    return false;
  }
}

/** The first line of a text that is not blank. */
export const firstLine = (text: string): string => text.split(/\r?\n/).find((line) => line.trim() !== '') ?? '';

const LOOKUP = 100;

/**
 * The file's graph as Engram NDJSON records (memories, then edges), ready for importNdjson. An
 * entity already in the workspace keeps its id, weight and tags, so importing a file again changes
 * nothing; a new one gets a time-ordered id in file order, so reads list entities as the file does.
 * The first entity of a name wins, a repeated relation counts once. A bad line is refused with
 * its line number before anything is written.
 */
export async function serverMemoryRecords(text: string, store: GraphStore, workspace: string): Promise<Readable> {
  const entities = new Map<string, { entity: Entity; line: number }>();
  const relations: { relation: Relation; line: number }[] = [];
  text.split(/\r?\n/).forEach((raw, at) => {
    const line = at + 1;
    if (raw.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (error) {
      throw new ImportLineError(line, `not valid JSON (${(error as Error).message})`);
    }
    const parsed = FileLine.safeParse(json);
    if (!parsed.success) throw new ImportLineError(line, describeIssues(parsed.error));
    const { type: _type, ...value } = parsed.data;
    if ('name' in value) {
      if (!entities.has(value.name)) entities.set(value.name, { entity: value, line });
    } else relations.push({ relation: value, line });
  });

  // Every name the file uses, looked up in the workspace (by key) to keep what is there.
  const names = [
    ...new Set([...entities.keys(), ...relations.flatMap(({ relation }) => [relation.from, relation.to])]),
  ];
  const stored = new Map<string, { id: string; weight: number; tags: string[]; metadata: unknown }>();
  for (let at = 0; at < names.length; at += LOOKUP) {
    const chunk = names.slice(at, at + LOOKUP);
    const found = await store.getMemories(workspace, chunk.map(keyForName));
    found.forEach((memory, index) => {
      const name = chunk[index] as string;
      if (memory && entityNameOf(memory) === name) stored.set(name, memory);
    });
  }

  const lines: string[] = [];
  const ids = new Map<string, string>();
  for (const { entity, line } of entities.values()) {
    const existing = stored.get(entity.name);
    const id = existing?.id ?? newId();
    ids.set(entity.name, id);
    const record = {
      record: 'memory',
      id,
      ...memoryFieldsFor(entity, existing?.metadata ?? null),
      ...(existing ? { weight: existing.weight, tags: existing.tags } : {}),
    };
    const valid = GraphLine.safeParse(record);
    if (!valid.success) throw new ImportLineError(line, describeIssues(valid.error));
    lines.push(JSON.stringify(record));
  }
  const edges = new Map<string, { from: string; to: string; type: string; texts: string[] }>();
  for (const { relation, line } of relations) {
    const [from, to] = [relation.from, relation.to].map((name) => ids.get(name) ?? stored.get(name)?.id);
    for (const [end, id] of [
      ['from', from],
      ['to', to],
    ] as const)
      if (id === undefined)
        throw new ImportLineError(line, `${end}: no entity "${relation[end]}" in the file or the workspace`);
    if (from === to)
      throw new ImportLineError(
        line,
        `a relation from an entity to itself (${relation.from}) cannot be stored: Engram links two different memories`,
      );
    const type = relationTypeFor(relation.relationType);
    const id = JSON.stringify([from, to, type]);
    const edge = edges.get(id) ?? { from: from as string, to: to as string, type, texts: [] };
    edges.set(id, edge);
    if (!edge.texts.includes(relation.relationType)) edge.texts.push(relation.relationType);
  }
  const storedIds = new Set([...stored.values()].map((memory) => memory.id));
  for (const edge of edges.values()) {
    // The file has no weights: an edge already stored between stored entities keeps the weight
    // feedback gave it (and its other metadata), so importing the file again changes nothing.
    const existing =
      storedIds.has(edge.from) && storedIds.has(edge.to)
        ? await store.findEdge(workspace, edge.from, edge.to, edge.type)
        : null;
    lines.push(
      JSON.stringify({
        record: 'edge',
        from: edge.from,
        to: edge.to,
        type: edge.type,
        ...(existing ? { weight: existing.weight } : {}),
        metadata: edgeMetadataFor(edge.type, edge.texts, existing?.metadata ?? null),
      }),
    );
  }
  return Readable.from(lines.map((line) => `${line}\n`));
}

/** Memories read per page; the names of all of them are held to name the relations' ends. */
const PAGE = 5_000;

/**
 * A workspace in the official file's format: every memory as an entity (in id order, which is
 * creation order), then every edge as one relation per text it stands for. Returns the counts.
 */
export async function* serverMemoryLines(
  store: GraphStore,
  workspace: string,
  counts: { memories: number; edges: number },
): AsyncGenerator<string> {
  const names = new Map<string, string>();
  for (let after: string | null = null; ; ) {
    const page = await store.listMemories(workspace, { afterId: after, limit: PAGE });
    const lines = page.map((memory) => {
      const entity = entityOf(memory);
      names.set(memory.id, entity.name);
      return JSON.stringify({ type: 'entity', ...entity });
    });
    if (lines.length > 0) yield `${lines.join('\n')}\n`;
    counts.memories += page.length;
    if (page.length < PAGE) break;
    after = page.at(-1)?.id ?? null;
  }
  for (let after: string | null = null; ; ) {
    const page = await store.listEdges(workspace, { afterId: after, limit: PAGE });
    const lines = page.flatMap((edge) =>
      relationTextsOf(edge).map((relationType) =>
        JSON.stringify({ type: 'relation', from: names.get(edge.fromId), to: names.get(edge.toId), relationType }),
      ),
    );
    if (lines.length > 0) yield `${lines.join('\n')}\n`;
    counts.edges += page.length;
    if (page.length < PAGE) break;
    after = page.at(-1)?.id ?? null;
  }
}
