import { describe, expect, it } from 'vitest';
import { TOOL_NAMES, useStdioSession } from './helpers.js';

const READ_ONLY = [
  'memory_get',
  'memory_search',
  'memory_recall',
  'memory_related',
  'memory_path',
  'memory_traverse',
  'memory_evidence',
  'memory_contradictions',
  'memory_context',
  'memory_history',
  'relation_types',
];
// memory_link only creates or confirms (metadata merges key by key), so it is not destructive.
// memory_write replaces a memory whose key it names, as memory_update does.
const DESTRUCTIVE = ['memory_update', 'memory_delete', 'memory_unlink', 'memory_write'];
const IDEMPOTENT_WRITES = [
  'memory_update',
  'memory_delete',
  'memory_unlink',
  'memory_revert',
  'memory_set_weight',
  'memory_write',
];

/** The real `engram mcp` process (bin/engram.js, as `npx engram mcp` runs it) on a real SQLite file. */
describe('engram mcp over stdio', () => {
  const { session, client } = useStdioSession({ workspace: 'agent' });

  describe('tools/list', () => {
    it('lists every contract tool, each with title, description, schemas and all four hints', async () => {
      const { tools } = await client().listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOL_NAMES].sort());
      for (const tool of tools) {
        expect(tool.title, tool.name).toBeTruthy();
        expect(tool.description?.length, tool.name).toBeGreaterThan(200);
        // Descriptions point at siblings, so an agent can tell when another tool fits better.
        expect(
          tools.some((other) => other.name !== tool.name && tool.description?.includes(other.name)),
          tool.name,
        ).toBe(true);
        expect(tool.inputSchema.type).toBe('object');
        for (const name of Object.keys(tool.inputSchema.properties ?? {}))
          expect(name, tool.name).toMatch(/^[a-z][a-z_]*$/);
        expect(tool.outputSchema?.type, tool.name).toBe('object');
        for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
          expect(typeof tool.annotations?.[hint], `${tool.name}.${hint}`).toBe('boolean');
        }
      }
    });

    it('marks reads read-only, and deletes, unlink, update and write (replaces by key) destructive', async () => {
      const { tools } = await client().listTools();
      const byName = new Map(tools.map((tool) => [tool.name, tool.annotations!]));
      for (const name of TOOL_NAMES) {
        const hints = byName.get(name)!;
        expect(hints.readOnlyHint, name).toBe(READ_ONLY.includes(name));
        expect(hints.destructiveHint, name).toBe(DESTRUCTIVE.includes(name));
        expect(hints.idempotentHint, name).toBe(READ_ONLY.includes(name) || IDEMPOTENT_WRITES.includes(name));
        expect(hints.openWorldHint, name).toBe(false);
      }
    });

    it('maps the seed-style arguments onto the contract and advertises ranges and defaults', async () => {
      const { tools } = await client().listTools();
      const props = (name: string) =>
        tools.find((tool) => tool.name === name)!.inputSchema.properties as Record<string, any>;
      expect(props('memory_path').max_hops).toMatchObject({ type: 'integer', minimum: 1, maximum: 10, default: 4 });
      expect(Object.keys(props('memory_path'))).toEqual(
        expect.arrayContaining(['source_id', 'target_id', 'max_hops', 'edge_types', 'direction']),
      );
      expect(props('memory_traverse').max_depth).toMatchObject({ minimum: 1, maximum: 5, default: 3 });
      expect(props('memory_related').limit).toMatchObject({ minimum: 1, maximum: 100, default: 20 });
      expect(props('memory_related').direction).toMatchObject({
        enum: ['outgoing', 'incoming', 'both'],
        default: 'both',
      });
      expect(Object.keys(props('memory_link'))).toEqual(
        expect.arrayContaining(['source_id', 'target_id', 'edge_type', 'weight', 'metadata']),
      );
      expect(Object.keys(props('memory_weaken'))).toEqual(
        expect.arrayContaining(['source_id', 'target_id', 'edge_type', 'amount', 'reason']),
      );
      expect(Object.keys(props('memory_feedback'))).toEqual(
        expect.arrayContaining(['memory_id', 'signal', 'via_edge_ids']),
      );
    });
  });

  it('logs to stderr only (stdout is the protocol)', () => {
    expect(session().stderr()).toMatch(/engram mcp serving on stdio/);
    expect(session().stderr()).toMatch(/"workspace":"agent"/);
  });
});
