import { int } from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import { memoryNode, serverError } from './recording-driver.js';
import {
  answering,
  describeEverySentStatement,
  expectCode,
  HOSTILE_TITLE,
  memoryProps,
  newMemory,
  T1,
  useRecordingStore,
  WS,
} from './tck.js';

/** TCK (see tck.ts): Memory writes: create, update, delete, and what a lost reply does to them. */

const tck = useRecordingStore();

describe('writes: memories', () => {
  it('createMemory: one CREATE, every value a parameter, metadata as JSON text', async () => {
    tck.driver.respond = answering({
      createMemory: (statement) => [
        {
          memory: memoryNode({
            ...statement.parameters,
            workspace: statement.parameters.ws,
            createdAt: statement.parameters.now,
            updatedAt: statement.parameters.now,
          }),
        },
      ],
    });
    expect(await tck.store.createMemory(WS, newMemory, T1)).toEqual({ ...newMemory, createdAt: T1, updatedAt: T1 });
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# WRITE createMemory (op createMemory)
      \`\`\`cypher
      // engram:createMemory
      CREATE (m:Memory {
        workspace: $ws, id: $id, key: $key, title: $title, content: $content, kind: $kind,
        tags: $tags, tagsText: $tagsText, weight: $weight, metadata: $metadata,
        createdAt: $now, updatedAt: $now, embeddingQueue: $now + ' ' + $id
      })
      FOREACH (tag IN $tags | MERGE (:MemoryTag {workspace: $ws, tag: tag, createdAt: $now, memoryId: $id}))
      RETURN m AS memory
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "id": "m1",
        "key": "key\`]->() DETACH DELETE n",
        "title": "x'}) MATCH (n) DETACH DELETE n //",
        "content": "Line one\\nline \\"two\\"",
        "kind": "decision",
        "tags": [
          "database",
          "adr"
        ],
        "tagsText": "database adr",
        "weight": 0.75,
        "metadata": "{\\"note\\":\\"}) RETURN 1 //\\",\\"nested\\":{\\"list\\":[1,\\"two\\",null]}}",
        "now": "2099-01-01T00:00:01.000Z"
      }
      \`\`\`"
    `);
  });

  it('createMemory: a constraint violation on the id is CONFLICT', async () => {
    tck.driver.respond = answering({
      createMemory: () => {
        throw serverError(
          'Neo.ClientError.Schema.ConstraintValidationFailed',
          "Node(1) already exists with label `Memory` and property `id` = 'm1'",
        );
      },
      getMemories: () => [{ ref: 'm1', memory: memoryNode(memoryProps('m1', { title: 'First' })) }],
    });
    const error = await expectCode(tck.store.createMemory(WS, newMemory, T1), 'CONFLICT');
    expect(error.message).toBe('An item with that id already exists in this workspace');
  });

  it('createMemory: a constraint violation on the key is CONFLICT naming the key', async () => {
    tck.driver.respond = answering({
      createMemory: () => {
        throw serverError('Neo.ClientError.Schema.ConstraintValidationFailed');
      },
    });
    const error = await expectCode(tck.store.createMemory(WS, newMemory, T1), 'CONFLICT');
    expect(error.message).toBe('That key is already taken in this workspace');
  });

  it('createMemory: a retry whose first attempt committed (reply lost) returns the memory instead of CONFLICT', async () => {
    tck.driver.respond = answering({
      createMemory: () => {
        throw serverError('Neo.ClientError.Schema.ConstraintValidationFailed');
      },
      getMemories: () => [
        {
          ref: 'm1',
          memory: memoryNode({
            workspace: WS,
            ...newMemory,
            tagsText: 'database adr',
            metadata: JSON.stringify(newMemory.metadata),
            createdAt: T1,
            updatedAt: T1,
          }),
        },
      ],
    });
    expect(await tck.store.createMemory(WS, newMemory, T1)).toEqual({ ...newMemory, createdAt: T1, updatedAt: T1 });
  });

  it('updateMemory: only the named fields travel in $changes; null clears a field', async () => {
    tck.driver.respond = answering({
      updateMemory: () => [{ memory: memoryNode(memoryProps('m1', { title: HOSTILE_TITLE, updatedAt: T1 })) }],
    });
    const updated = await tck.store.updateMemory(
      WS,
      'm1',
      { title: HOSTILE_TITLE, key: null, tags: ['x', 'y'], content: undefined },
      T1,
    );
    expect(updated).toMatchObject({ id: 'm1', title: HOSTILE_TITLE, updatedAt: T1 });
    expect(tck.driver.statements[0]?.parameters.changes).toEqual({
      title: HOSTILE_TITLE,
      key: null,
      tags: ['x', 'y'],
      tagsText: 'x y',
    });
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# WRITE updateMemory (op updateMemory)
      \`\`\`cypher
      // engram:updateMemory
      MATCH (m:Memory {workspace: $ws, id: $id})
      WITH m, m.title AS oldTitle, m.content AS oldContent
      SET m += $changes, m.updatedAt = $now
      WITH m, coalesce(m.title = oldTitle AND (m.content = oldContent OR (m.content IS NULL AND oldContent IS NULL)), false) AS sameText
      SET m.embeddingQueue = CASE WHEN sameText THEN m.embeddingQueue ELSE $now + ' ' + m.id END
      WITH m, sameText
      OPTIONAL MATCH (v:MemoryVector {workspace: $ws, memoryId: m.id})
      WHERE NOT sameText
      DELETE v
      WITH m
      CALL (m) {
        WITH m
        WHERE $terms IS NOT NULL
        MATCH (old:MemoryTerm {workspace: $ws, memoryId: m.id})
        DELETE old
      }
      CALL (m) {
        UNWIND coalesce($terms, []) AS term
        CREATE (:MemoryTerm {workspace: $ws, memoryId: m.id, term: term})
      }
      CALL (m) {
        WITH m
        WHERE $replaceTags
        MATCH (old:MemoryTag {workspace: $ws, memoryId: m.id})
        DELETE old
      }
      FOREACH (tag IN CASE WHEN $replaceTags THEN coalesce(m.tags, []) ELSE [] END |
        MERGE (:MemoryTag {workspace: $ws, tag: tag, createdAt: m.createdAt, memoryId: m.id}))
      RETURN m AS memory
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "id": "m1",
        "changes": {
          "key": null,
          "title": "x'}) MATCH (n) DETACH DELETE n //",
          "tags": [
            "x",
            "y"
          ],
          "tagsText": "x y"
        },
        "now": "2099-01-01T00:00:01.000Z",
        "terms": null,
        "replaceTags": true
      }
      \`\`\`"
    `);
  });

  it('updateMemory: null for a missing memory; a taken key is CONFLICT', async () => {
    expect(await tck.store.updateMemory(WS, 'nobody', { title: 'x' }, T1)).toBeNull();
    tck.driver.respond = () => {
      throw serverError('Neo.ClientError.Schema.ConstraintValidationFailed');
    };
    expect((await expectCode(tck.store.updateMemory(WS, 'm1', { key: 'taken' }, T1), 'CONFLICT')).message).toBe(
      'That key is already taken in this workspace',
    );
  });

  it('deleteMemory: one DETACH DELETE within the workspace, counting the edges it removed', async () => {
    tck.driver.respond = answering({ deleteMemory: () => [{ edgesRemoved: int(2) }] });
    expect(await tck.store.deleteMemory(WS, 'm1')).toEqual({ edgesRemoved: 2 });
    tck.driver.respond = () => [];
    expect(await tck.store.deleteMemory(WS, 'nobody')).toBeNull();
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# WRITE deleteMemory (op deleteMemory)
      \`\`\`cypher
      // engram:deleteMemory
      MATCH (m:Memory {workspace: $ws, id: $id})
      OPTIONAL MATCH (v:MemoryVector {workspace: $ws, memoryId: $id})
      DELETE v
      WITH m
      CALL (m) {
        MATCH (old:MemoryTerm {workspace: $ws, memoryId: m.id})
        DELETE old
      }
      CALL (m) {
        MATCH (old:MemoryTag {workspace: $ws, memoryId: m.id})
        DELETE old
      }
      CALL (m) {
        MATCH (old:RecallCue {workspace: $ws, memoryId: m.id})
        DELETE old
      }
      OPTIONAL MATCH (m)-[r]-()
      WITH m, collect(r.id) AS edgeIds
      OPTIONAL MATCH (k:EdgeRef {workspace: $ws})
      WHERE k.id IN edgeIds
      WITH m, edgeIds, collect(k) AS refs
      FOREACH (ref IN refs | DELETE ref)
      DETACH DELETE m
      RETURN size(edgeIds) AS edgesRemoved
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "id": "m1"
      }
      \`\`\`

      # WRITE deleteMemory (op deleteMemory)
      \`\`\`cypher
      // engram:deleteMemory
      MATCH (m:Memory {workspace: $ws, id: $id})
      OPTIONAL MATCH (v:MemoryVector {workspace: $ws, memoryId: $id})
      DELETE v
      WITH m
      CALL (m) {
        MATCH (old:MemoryTerm {workspace: $ws, memoryId: m.id})
        DELETE old
      }
      CALL (m) {
        MATCH (old:MemoryTag {workspace: $ws, memoryId: m.id})
        DELETE old
      }
      CALL (m) {
        MATCH (old:RecallCue {workspace: $ws, memoryId: m.id})
        DELETE old
      }
      OPTIONAL MATCH (m)-[r]-()
      WITH m, collect(r.id) AS edgeIds
      OPTIONAL MATCH (k:EdgeRef {workspace: $ws})
      WHERE k.id IN edgeIds
      WITH m, edgeIds, collect(k) AS refs
      FOREACH (ref IN refs | DELETE ref)
      DETACH DELETE m
      RETURN size(edgeIds) AS edgesRemoved
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "id": "nobody"
      }
      \`\`\`"
    `);
  });
});

describeEverySentStatement(tck.everyStatement, 4);
