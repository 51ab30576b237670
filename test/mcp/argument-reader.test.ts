import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { advertiseOnly } from '../../src/mcp/advertise.js';
import { aliasSentence, closestName, readArguments } from '../../src/mcp/strict-input.js';

/** The argument reader alone (the stdio suite, strict-inputs.test.ts, drives it through real tools). */
const schema = z.object({
  source_id: z.string().describe('The start.'),
  target_id: z.string(),
  max_depth: z.number().int().optional(),
});
const aliases = { from_id: 'source_id', to_id: 'target_id' };

describe('closestName', () => {
  it('matches other spellings of the same name', () => {
    expect(closestName('sourceId', ['source_id', 'target_id'])).toBe('source_id');
    expect(closestName('SOURCE-ID', ['source_id', 'target_id'])).toBe('source_id');
  });

  it('matches a typo and a name the valid one contains', () => {
    expect(closestName('taget_id', ['source_id', 'target_id'])).toBe('target_id');
    expect(closestName('traget_id', ['source_id', 'target_id'])).toBe('target_id');
    expect(closestName('depth', ['memory_id', 'max_depth'])).toBe('max_depth');
  });

  it('gives nothing when no name is close', () => {
    expect(closestName('colour', ['source_id', 'target_id'])).toBeNull();
    expect(closestName('x', [])).toBeNull();
  });
});

describe('readArguments', () => {
  it('maps aliases onto the tool’s names and parses', () => {
    expect(readArguments(schema, aliases, { from_id: 'a', target_id: 'b' })).toEqual({
      input: { source_id: 'a', target_id: 'b' },
    });
  });

  it('refuses a JSON value that is not an object', () => {
    const read = readArguments(schema, aliases, ['a']);
    expect(read).toEqual({
      errors: [
        { code: 'BAD_USER_INPUT', message: 'arguments must be a JSON object', argument: 'arguments', retryable: false },
      ],
    });
  });

  it('reports unknown names before checking values, one error each', () => {
    const read = readArguments(schema, aliases, { source_idd: 'a', max_detph: 'x' });
    expect('errors' in read && read.errors.map((error) => error.message)).toEqual([
      'unknown argument source_idd; did you mean source_id?',
      'unknown argument max_detph; did you mean max_depth?',
    ]);
  });

  it('tells a missing argument from a wrong-typed one', () => {
    const read = readArguments(schema, aliases, { source_id: 'a', max_depth: 'two' });
    const messages = 'errors' in read ? read.errors.map((error) => error.message) : [];
    expect(messages).toHaveLength(2);
    expect(messages[0]).toBe('missing required argument target_id');
    expect(messages[1]).toMatch(/^max_depth: /);
  });

  it('quotes the description of a missing argument', () => {
    const read = readArguments(schema, aliases, { target_id: 'b' });
    expect('errors' in read && read.errors[0]?.message).toBe('missing required argument source_id (The start)');
  });
});

describe('advertiseOnly', () => {
  it('lets the SDK accept anything but advertises the tool’s JSON schema', async () => {
    const standard = advertiseOnly(schema)['~standard'];
    expect(await standard.validate({ anything: 1 })).toEqual({ value: { anything: 1 } });
    expect(standard.jsonSchema.input({ target: 'draft-2020-12' })).toMatchObject({
      type: 'object',
      required: ['source_id', 'target_id'],
    });
  });
});

describe('aliasSentence', () => {
  it('is empty without aliases and lists them otherwise', () => {
    expect(aliasSentence({})).toBe('');
    expect(aliasSentence(aliases)).toBe(' Aliases: from_id (source_id); to_id (target_id).');
  });
});
