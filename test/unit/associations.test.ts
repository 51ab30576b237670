import { describe, expect, it } from 'vitest';
import {
  associationQuestion,
  associationSteps,
  associationTerms,
  MAX_TERMS_PER_MEMORY,
  termWeight,
} from '../../src/domain/associations.js';

const text = (title: string, content: string | null = null, tags: string[] = []) => ({ title, content, tags });

describe('associationTerms', () => {
  it('keeps distinct lower-cased words of title, content and tags, without short words, stop words and numbers', () => {
    expect(associationTerms(text('Rosa: my team lead Cyrus is great', 'He moved in 2024', ['Work']))).toEqual([
      'cyrus',
      'lead',
      'moved',
      'rosa',
      'team',
      'work',
    ]);
  });

  it('keeps names first, then longer words, when a text has more terms than the cap', () => {
    const words = Array.from({ length: 40 }, (_, at) => `word${String.fromCharCode(97 + (at % 26))}${at}`);
    const terms = associationTerms(text('Bologna', words.join(' ')));
    expect(terms).toHaveLength(MAX_TERMS_PER_MEMORY);
    expect(terms).toContain('bologna');
    expect([...terms].sort()).toEqual(terms);
  });
});

describe('associationSteps', () => {
  const max = 20;

  it('weighs a candidate by the share of the source term weight it shares, common terms included', () => {
    const steps = associationSteps(
      {
        sources: [
          {
            memoryId: 'intro',
            terms: [
              { term: 'cyrus', holders: 3 },
              { term: 'rosa', holders: 21 },
              { term: 'lead', holders: 1 },
            ],
          },
        ],
        candidates: [
          { memoryId: 'news', terms: ['bologna', 'cyrus', 'rosa'] },
          { memoryId: 'other', terms: ['cyrus'] },
        ],
        truncated: false,
      },
      4,
      max,
    );
    const mass = termWeight(3, max) + termWeight(21, max) + termWeight(1, max);
    expect(steps.map((step) => [step.to, step.weight, step.terms])).toEqual([
      ['news', (termWeight(3, max) + termWeight(21, max)) / mass, ['cyrus']],
      ['other', termWeight(3, max) / mass, ['cyrus']],
    ]);
  });

  it('finds nothing through a common term, and keeps the strongest perMemory per source', () => {
    const answer = {
      sources: [{ memoryId: 's', terms: [{ term: 'common', holders: 21 }] }],
      candidates: [{ memoryId: 'x', terms: ['common'] }],
      truncated: false,
    };
    expect(associationSteps(answer, 4, max)).toEqual([]);
    const many = {
      sources: [{ memoryId: 's', terms: [{ term: 'rare', holders: 4 }] }],
      candidates: ['c', 'a', 'b'].map((memoryId) => ({ memoryId, terms: ['rare'] })),
      truncated: false,
    };
    expect(associationSteps(many, 2, max).map((step) => step.to)).toEqual(['a', 'b']);
  });

  describe('asked with a question', () => {
    // Leo's intro of his cousin Vera; Vera's news in Leo's turns and in Greta's; Greta's baby news.
    const answer = {
      sources: [
        {
          memoryId: 'intro',
          terms: [
            { term: 'leo', holders: 21 },
            { term: 'cousin', holders: 8 },
            { term: 'vera', holders: 3 },
            { term: 'called', holders: 21 },
          ],
        },
      ],
      candidates: [
        { memoryId: 'news', terms: ['arthur', 'baby', 'leo', 'vera'] },
        { memoryId: 'greta', terms: ['greta', 'vera', 'called'] },
        { memoryId: 'cousin', terms: ['cousin', 'greta', 'leo'] },
      ],
      truncated: false,
    };
    const question = associationQuestion("What is the name of Leo's cousin's baby?");

    it("reads the question's terms and its names (capitalised, not starting a sentence)", () => {
      expect([...question.terms].sort()).toEqual(['baby', 'cousin', 'leo', 'name']);
      expect([...question.names]).toEqual(['leo']);
      expect([...associationQuestion('Rosa moved. Then she left for Bologna').names]).toEqual(['bologna']);
      expect([...associationQuestion('team lead').names]).toEqual([]);
    });

    it("goes only through terms the question does not hold, to memories holding the question's names", () => {
      // Through cousin (the question's) nothing; greta holds vera but not leo. The weight is the
      // share of the intro's weight beyond the question (vera, called) that news shares: vera.
      const steps = associationSteps(answer, 4, max, question);
      expect(steps.map((step) => [step.to, step.weight, step.terms])).toEqual([
        ['news', termWeight(3, max) / (termWeight(3, max) + termWeight(21, max)), ['vera']],
      ]);
    });

    it('without names, any holder of the bridge is a candidate', () => {
      const steps = associationSteps(answer, 4, max, associationQuestion('cousin baby'));
      expect(steps.map((step) => step.to)).toEqual(['greta', 'news']);
    });
  });

  it('weighs a term two memories share most, and every term past the ceiling 1', () => {
    expect(termWeight(2, max)).toBeCloseTo(Math.log2(21), 12);
    expect(termWeight(21, max)).toBe(1);
    expect(termWeight(500, max)).toBe(1);
  });
});
