import { describe, expect, it } from 'vitest';
import { associationQuestion } from '../../src/domain/associations.js';
import { memoryNames, vectorBridge } from '../../src/domain/vector-bridges.js';

const note = (id: string, title: string, content: string | null = null, tags: string[] = []) => ({
  id,
  title,
  content,
  tags,
});

const QUESTION = associationQuestion('When will the owner of the Nimbus ETL job be back?');
const OWNER = note('owner', 'Nimbus: team', 'Pavel owns the ETL job.');

describe('memoryNames', () => {
  it('reads the words a memory capitalises inside a sentence, the content first word included', () => {
    expect([...memoryNames(OWNER)].sort()).toEqual(['etl', 'pavel']);
    expect([...memoryNames(note('t', 'Lunch. Then a walk with Mira'))]).toEqual(['mira']);
  });
});

describe('vectorBridge', () => {
  it("takes the most similar match holding a name of the source the question does not say, and one of the question's", () => {
    const bridge = vectorBridge(OWNER, QUESTION, [
      { memory: OWNER, similarity: 0.9 },
      // Most similar, but another subject: no name of the question.
      { memory: note('other', 'Lumen: calendar', 'Pavel is on leave until May.'), similarity: 0.85 },
      // The question's subject, but not through the source's name.
      { memory: note('job', 'Nimbus: ETL', 'The job failed twice.'), similarity: 0.8 },
      { memory: note('leave', 'Nimbus: calendar', 'Pavel is on leave until October.'), similarity: 0.7 },
      { memory: note('lunch', 'Nimbus: daily notes', 'Pavel paired with Ruth.'), similarity: 0.6 },
    ]);
    expect(bridge).toEqual({ from: 'owner', to: 'leave', similarity: 0.7, names: ['pavel'] });
  });

  it('matches names as whole words, in tags too', () => {
    const bridge = vectorBridge(OWNER, QUESTION, [
      { memory: note('prefix', 'Nimbus: team', 'Pavelson joined.'), similarity: 0.9 },
      { memory: note('tagged', 'Away until October', null, ['nimbus', 'pavel']), similarity: 0.5 },
    ]);
    expect(bridge?.to).toBe('tagged');
  });

  it('makes no bridge for a question without names, a source without other names, or no match holding both', () => {
    const leave = { memory: note('leave', 'Nimbus: calendar', 'Pavel is on leave until October.'), similarity: 0.7 };
    expect(vectorBridge(OWNER, associationQuestion('when will the owner be back?'), [leave])).toBeNull();
    expect(vectorBridge(note('plain', 'Nimbus: the ETL job'), QUESTION, [leave])).toBeNull();
    expect(
      vectorBridge(note('owner', 'Nimbus: team', 'Pavel owns it.'), associationQuestion('When will Pavel be back?'), [
        leave,
      ]),
      'the only other name is a word of the question',
    ).toBeNull();
    expect(vectorBridge(OWNER, QUESTION, [])).toBeNull();
  });
});
