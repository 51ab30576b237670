import { describe, expect, it } from 'vitest';
import { associationQuestion } from '../../src/domain/associations.js';
import {
  holdsEveryName,
  MAX_QUESTION_NAMES,
  namesFirst,
  questionNames as namesOf,
} from '../../src/domain/question-names.js';

const questionNames = (text: string) => namesOf(associationQuestion(text));

const memory = (title: string, content: string | null = null, tags: string[] = []) => ({ title, content, tags });

describe('questionNames', () => {
  it('reads the capitalised words past a sentence start, lower-cased, in order', () => {
    expect(questionNames("Until when is Iris's login service owner away?")).toEqual(['iris']);
    expect(questionNames('When will the owner of the Nimbus ETL job be back?')).toEqual(['nimbus', 'etl']);
    expect(questionNames('What did Leo say? Where is Rosa now?')).toEqual(['leo', 'rosa']);
  });

  it('reads none from a question without them, and at most MAX_QUESTION_NAMES', () => {
    expect(questionNames('what workout does she do now')).toEqual([]);
    const many = Array.from({ length: 12 }, (_, i) => `Name${String.fromCharCode(97 + i)}`).join(' and ');
    expect(questionNames(`Who met ${many}?`)).toHaveLength(MAX_QUESTION_NAMES);
  });
});

describe('holdsEveryName', () => {
  it('finds a name as a whole word in the title, content or tags, in any case', () => {
    expect(holdsEveryName(memory('Iris: calendar', 'Ruth is on leave'), ['iris', 'ruth'])).toBe(true);
    expect(holdsEveryName(memory('calendar', 'on leave', ['IRIS']), ['iris'])).toBe(true);
    expect(holdsEveryName(memory("Iris's team"), ['iris'])).toBe(true);
  });

  it('does not count a name inside a longer word, and needs every name', () => {
    expect(holdsEveryName(memory('Irises in bloom', 'Osiris'), ['iris'])).toBe(false);
    expect(holdsEveryName(memory('Irises in bloom; iris later'), ['iris'])).toBe(true);
    expect(holdsEveryName(memory('Iris: calendar'), ['iris', 'ruth'])).toBe(false);
    expect(holdsEveryName(memory('anything'), [])).toBe(true);
  });
});

describe('namesFirst', () => {
  const hits = [memory('Lumen: Joanna is away until February'), memory('Iris: Ruth on leave'), memory('Iris: standup')];

  it('puts the matches holding every name first, each part in its own order', () => {
    expect(namesFirst(hits, ['iris']).map((hit) => hit.title)).toEqual([
      'Iris: Ruth on leave',
      'Iris: standup',
      'Lumen: Joanna is away until February',
    ]);
  });

  it('keeps the order without names, or when no match holds them', () => {
    expect(namesFirst(hits, [])).toEqual(hits);
    expect(namesFirst(hits, ['atlas'])).toEqual(hits);
  });
});
