import type { TestApp } from '../helpers/app.js';

/**
 * A small decision graph for the explorer test and its screenshot. Seeded through the API, so it
 * goes through the same rules as any client's data.
 *
 *   postgres-choice -CAUSED_BY(0.9)-> need-acid -CAUSED_BY(0.8)-> billing-ledger -RELATED_TO(0.6)-> audit-trail
 *   postgres-choice -CAUSED_BY(0.5)-> ops-know-pg
 *   postgres-choice -SUPERSEDES(0.7)-> mongo-trial <-VALIDATES(0.75)- mongo-lost-writes
 *   jsonb-enough -USES_ASSUMPTION(0.4)-> postgres-choice,  sqlite-dev -RELATED_TO(0.3)-> postgres-choice
 *   nosql-scales -CONTRADICTS(0.04, pruned)-> postgres-choice
 */
const MEMORIES = [
  {
    key: 'postgres-choice',
    title: 'We chose Postgres',
    kind: 'decision',
    tags: ['db', 'architecture'],
    content: 'Primary store for accounts, billing and events. Decided after the Mongo trial.',
  },
  {
    key: 'need-acid',
    title: 'We need ACID transactions',
    kind: 'fact',
    tags: ['db'],
    content: 'Money moves between accounts; partial writes are not acceptable.',
  },
  { key: 'billing-ledger', title: 'Billing needs a double-entry ledger', kind: 'fact', tags: ['billing'] },
  { key: 'audit-trail', title: 'Auditors ask for a full trail', kind: 'fact', tags: ['compliance'] },
  { key: 'ops-know-pg', title: 'Ops team knows Postgres well', kind: 'fact', tags: ['team'] },
  { key: 'mongo-trial', title: 'Tried MongoDB for events', kind: 'experiment', tags: ['db'] },
  { key: 'mongo-lost-writes', title: 'Mongo trial lost writes on failover', kind: 'fact', tags: ['db', 'incident'] },
  { key: 'jsonb-enough', title: 'JSONB covers our document needs', kind: 'hypothesis', tags: ['db'] },
  { key: 'sqlite-dev', title: 'SQLite for local development', kind: 'decision', tags: ['dev'] },
  { key: 'nosql-scales', title: 'NoSQL scales better for us', kind: 'hypothesis', tags: ['db'] },
] as const;

const EDGES = [
  { from: 'postgres-choice', to: 'need-acid', type: 'CAUSED_BY', weight: 0.9 },
  { from: 'need-acid', to: 'billing-ledger', type: 'CAUSED_BY', weight: 0.8 },
  { from: 'billing-ledger', to: 'audit-trail', type: 'RELATED_TO', weight: 0.6 },
  { from: 'postgres-choice', to: 'ops-know-pg', type: 'CAUSED_BY', weight: 0.5 },
  { from: 'postgres-choice', to: 'mongo-trial', type: 'SUPERSEDES', weight: 0.7 },
  { from: 'mongo-lost-writes', to: 'mongo-trial', type: 'VALIDATES', weight: 0.75 },
  { from: 'jsonb-enough', to: 'postgres-choice', type: 'USES_ASSUMPTION', weight: 0.4 },
  { from: 'sqlite-dev', to: 'postgres-choice', type: 'RELATED_TO', weight: 0.3 },
  { from: 'nosql-scales', to: 'postgres-choice', type: 'CONTRADICTS', weight: 0.04 },
] as const;

/** A second workspace, to check the selector: nothing here is visible from `default`. */
export const LAB_MEMORY = { key: 'lab-notebook', title: 'Lab notebook: cache warmup', kind: 'experiment' };

export async function seedExplorerGraph(app: TestApp): Promise<void> {
  for (const memory of MEMORIES) {
    const result = await app.gql('mutation ($input: CreateMemoryInput!) { createMemory(input: $input) { id } }', {
      input: memory,
    });
    if (result.errors) throw new Error(`seeding ${memory.key}: ${result.errors[0]?.message}`);
  }
  for (const edge of EDGES) {
    const result = await app.gql('mutation ($input: LinkInput!) { link(input: $input) { id } }', { input: edge });
    if (result.errors) throw new Error(`seeding ${edge.from} -> ${edge.to}: ${result.errors[0]?.message}`);
  }
  const lab = await app.gql(
    'mutation ($input: CreateMemoryInput!) { createMemory(input: $input) { id } }',
    { input: LAB_MEMORY },
    { workspace: 'lab' },
  );
  if (lab.errors) throw new Error(`seeding lab: ${lab.errors[0]?.message}`);
}
