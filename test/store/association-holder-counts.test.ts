import { describe, expect, it } from 'vitest';
import type { NewMemory } from '../../src/domain/types.js';
import { plainMemory } from '../helpers/records.js';
import { NOW, runsDuring, tempDatabase } from './support.js';

/**
 * The SQLite store counts how many memories hold each association term of a recall's sources, and
 * keeps each count until a memory's text changes on any connection of the file.
 */
const db = tempDatabase('engram-association-counts-');

const QUERY = { maxShared: 2, budget: 1_000 };
const withTerms = (id: string, terms: string[]): NewMemory => ({ ...plainMemory(id), terms });

/** Runs of the holder count while `work` runs, on every connection. */
const holderCounts = async (work: () => Promise<unknown>): Promise<number> =>
  (
    await runsDuring(
      'get',
      (source) => (source.includes('COUNT(*) AS n FROM (SELECT 1 FROM term_postings') ? source : undefined),
      work,
    )
  ).length;

describe('SQLite association candidates: holder counts', () => {
  it('counts each term once until a memory text changes, also on another connection', async () => {
    const reader = db.open();
    const writer = db.open();
    await writer.createMemory('ws', withTerms('a', ['cyrus', 'team']), NOW);
    await writer.createMemory('ws', withTerms('b', ['cyrus', 'team']), NOW);
    await writer.createMemory('ws', withTerms('c', ['team']), NOW);
    const candidates = async () =>
      (await reader.associationCandidates('ws', ['a'], QUERY)).candidates.map((candidate) => candidate.memoryId);

    expect(await holderCounts(candidates)).toBe(2);
    let again: string[] = [];
    expect(
      await holderCounts(async () => {
        again = await candidates();
      }),
    ).toBe(0);
    expect(again).toEqual(['b']);

    // A third holder of "cyrus", written by another connection: over the ceiling of 2, so followed nowhere.
    await writer.createMemory('ws', withTerms('d', ['cyrus']), NOW);
    let after: string[] = [];
    expect(
      await holderCounts(async () => {
        after = await candidates();
      }),
    ).toBe(2);
    expect(after).toEqual([]);

    // Deleting it brings "cyrus" back under the ceiling.
    await writer.deleteMemory('ws', 'd');
    expect(await candidates()).toEqual(['b']);
  });
});
