import { describe, expect, it } from 'vitest';
import { chain } from '../../fixtures/graphs.js';
import { expectError, seed, useTestApp } from '../support.js';

const api = useTestApp();

describe('BAD_USER_INPUT on queries', () => {
  it.each([
    [
      'path maxHops 11',
      '{ path(from: "chain-a", to: "chain-b", maxHops: 11) { found } }',
      /^maxHops: must be between 1 and 10/,
    ],
    [
      'path maxHops 0',
      '{ path(from: "chain-a", to: "chain-b", maxHops: 0) { found } }',
      /^maxHops: must be between 1 and 10/,
    ],
    [
      'path maxHops "x"',
      '{ path(from: "chain-a", to: "chain-b", maxHops: "x") { found } }',
      /Int cannot represent non-integer value: "x"/,
    ],
    [
      'traverse maxDepth 0',
      '{ memory(key: "chain-a") { traverse(maxDepth: 0) { depth } } }',
      /^maxDepth: must be between 1 and 5/,
    ],
    [
      'traverse maxDepth 6',
      '{ memory(key: "chain-a") { traverse(maxDepth: 6) { depth } } }',
      /^maxDepth: must be between 1 and 5/,
    ],
    [
      'searchMemories limit 101',
      '{ searchMemories(query: "chain", limit: 101) { id } }',
      /^limit: must be between 1 and 100/,
    ],
    [
      'neighbors limit 101',
      '{ memory(key: "chain-a") { neighbors(limit: 101) { direction } } }',
      /^limit: must be between 1 and 100/,
    ],
    ['weightEvents limit 0', '{ weightEvents(limit: 0) { id } }', /^limit: must be between 1 and 100/],
    [
      'history limit 101',
      '{ edgesBetween(from: "chain-a", to: "chain-b") { history(limit: 101) { id } } }',
      /^limit: must be between 1 and 100/,
    ],
    [
      'neighbors types "bad type!"',
      '{ memory(key: "chain-a") { neighbors(types: ["bad type!"]) { direction } } }',
      /^types: must be UPPER_SNAKE_CASE/,
    ],
    [
      'path types with Cypher',
      '{ path(from: "chain-a", to: "chain-b", types: ["CAUSED_BY]->(x) DETACH DELETE x //"]) { found } }',
      /^types: must be UPPER_SNAKE_CASE/,
    ],
    [
      'edgesBetween types with SQL',
      `{ edgesBetween(from: "chain-a", to: "chain-b", types: ["'; DROP TABLE edges; --"]) { id } }`,
      /^types: must be UPPER_SNAKE_CASE/,
    ],
    [
      'memory with id and key',
      '{ memory(id: "chain-a", key: "chain-a") { id } }',
      /^id: give exactly one of id and key/,
    ],
    ['memory with neither id nor key', '{ memory { id } }', /^id: give exactly one of id and key/],
    [
      'memory id of 257 characters',
      `{ memory(id: "${'a'.repeat(257)}") { id } }`,
      /^id: must be at most 256 characters/,
    ],
    [
      'unknown direction',
      '{ path(from: "chain-a", to: "chain-b", direction: SIDEWAYS) { found } }',
      /Value "SIDEWAYS" does not exist in "Direction" enum/,
    ],
  ])('rejects %s, naming the argument', async (_name, query, message) => {
    await seed(api(), chain);
    expectError(await api().gql(query), 'BAD_USER_INPUT', message);
  });

  it('rejects a variable of the wrong GraphQL type with BAD_USER_INPUT naming the variable', async () => {
    const response = await api().gql(
      'query($hops: Int!) { path(from: "chain-a", to: "chain-b", maxHops: $hops) { found } }',
      { hops: 'x' },
    );
    expectError(
      response,
      'BAD_USER_INPUT',
      /^Variable "\$hops" got invalid value "x"; Int cannot represent non-integer value/,
    );
  });

  it('rejects a missing required variable with BAD_USER_INPUT', async () => {
    const response = await api().gql('query($from: ID!) { path(from: $from, to: "chain-b") { found } }', {});
    expectError(response, 'BAD_USER_INPUT', /Variable "\$from" of required type "ID!" was not provided/);
  });

  it('rejects a null for a required variable with BAD_USER_INPUT', async () => {
    const response = await api().gql('query($from: ID!) { path(from: $from, to: "chain-b") { found } }', {
      from: null,
    });
    expectError(response, 'BAD_USER_INPUT', /Variable "\$from" of non-null type "ID!" must not be null/);
  });

  it('rejects a malformed x-engram-workspace header with HTTP 400', async () => {
    for (const workspace of ['bad space', '../etc', 'x'.repeat(65), '-leading-dash']) {
      const response = await api().gql('{ relationTypes { name } }', {}, { workspace });
      expect(response.status).toBe(400);
      expectError(response, 'BAD_USER_INPUT', /^x-engram-workspace: must be 1-64 letters, digits/);
    }
  });
});
