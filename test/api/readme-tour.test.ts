import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * The README's GraphiQL tour, run as written, in order, on a fresh workspace: a changed API that
 * breaks a step a new user copies fails here. `<recall id>` is the one placeholder, filled from
 * the recall step's answer as a user would paste it.
 */
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const TOUR = README.slice(README.indexOf('## A two-minute tour in GraphiQL'));
const STEPS = [...TOUR.slice(0, TOUR.indexOf('\n## ', 4)).matchAll(/```graphql\n([\s\S]*?)```/g)].map(
  ([, block]) => block as string,
);

describe('the README tour', () => {
  let app: TestApp;
  const answers: Record<string, any>[] = [];
  beforeAll(async () => {
    app = await createTestApp();
    let recallId = '';
    for (const step of STEPS) {
      const answer = await app.gql(step.replace('<recall id>', recallId));
      expect(answer.errors, step).toBeUndefined();
      answers.push(answer.data ?? {});
      recallId = answer.data?.recall?.id ?? recallId;
    }
  });
  afterAll(async () => {
    await app?.close();
  });

  it('has its steps, and every one answers without errors', () => {
    expect(STEPS.length).toBeGreaterThanOrEqual(6);
    expect(answers).toHaveLength(STEPS.length);
  });

  it('recalls audit-trail one weighted hop from the lexical hit, and feedback by recallId strengthens that hop', () => {
    const recall = answers.find((answer) => answer.recall)?.recall;
    expect(recall.id).toEqual(expect.any(String));
    expect(recall.results[0]).toMatchObject({ seed: true, memory: { key: 'need-acid' }, path: [] });
    const audit = recall.results.find((result: any) => result.memory.key === 'audit-trail');
    expect(audit).toMatchObject({ seed: false, path: [{ type: 'CAUSED_BY', weight: 0.8 }] });

    const feedback = answers.find((answer) => answer.feedback)?.feedback;
    const edge = feedback.find((change: any) => change.edge);
    expect(edge).toMatchObject({ edge: { type: 'CAUSED_BY' }, event: { reason: `recall ${recall.id}` } });
    expect(edge.newWeight).toBeGreaterThan(0.8);
  });
});
