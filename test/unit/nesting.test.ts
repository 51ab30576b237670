import { describe, expect, it } from 'vitest';
import { nestedDeeperThan } from '../../src/domain/json-depth.js';
import { documentNesting } from '../../src/limits/document-nesting.js';

describe('documentNesting', () => {
  it('counts { [ ( nesting, and ignores brackets in strings, block strings and comments', () => {
    expect(documentNesting('{ a }')).toBe(1);
    expect(documentNesting('{ a(b: [[1]]) { c } }')).toBe(4);
    expect(documentNesting('{ a(b: "[[[[\\"[[") }')).toBe(2);
    expect(documentNesting('{ a(b: """ {{{{ \\""" [[[ """) }')).toBe(2);
    expect(documentNesting('# {{{{{{\n{ a }')).toBe(1);
  });

  it('stops counting past the limit, on a document of any depth', () => {
    const deep = `${'['.repeat(1_000_000)}1${']'.repeat(1_000_000)}`;
    expect(documentNesting(deep, 60)).toBe(61);
  });
});

describe('nestedDeeperThan', () => {
  it('measures objects and arrays, scalars being depth 0', () => {
    expect(nestedDeeperThan(1, 0)).toBe(false);
    expect(nestedDeeperThan({}, 0)).toBe(true);
    expect(nestedDeeperThan({ a: [1, { b: 2 }] }, 3)).toBe(false);
    expect(nestedDeeperThan({ a: [1, { b: 2 }] }, 2)).toBe(true);
  });

  it('walks a value nested 1,000,000 levels without overflowing the stack', () => {
    let value: unknown = 1;
    for (let i = 0; i < 1_000_000; i++) value = [value];
    expect(nestedDeeperThan(value, 32)).toBe(true);
  });
});
