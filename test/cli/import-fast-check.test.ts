import { describe, expect, it } from 'vitest';
import { asWellFormedRecord } from '../../src/cli/import-fast-check.js';
import { GraphLine } from '../../src/domain/graph-records.js';

const TAKEN_AS_THEY_ARE = [
  '{"record":"memory","id":"m1","title":"one"}',
  '{"record":"memory","id":"m1","key":"k/1","title":"ünïcödé 🚀","content":"a\\nb\\tc","kind":"fact","tags":["x","y"],"weight":0,"metadata":null}',
  '{"record":"memory","id":"m1","key":null,"title":"t","content":null,"kind":null,"tags":null,"weight":1}',
  '{"record":"edge","from":"m1","to":"m2","type":"CAUSED_BY"}',
  '{"record":"edge","from":"m1","to":"m2","type":"X9","weight":0.25,"metadata":null}',
];

/** Valid lines zod would change (trim, normalise), lines with metadata, and invalid lines: all left to GraphLine. */
const LEFT_TO_THE_SCHEMA = [
  '{"record":"memory","id":"m1","title":" padded"}',
  '{"record":"memory","id":"m1","title":"t","tags":["ok"," padded"]}',
  '{"record":"memory","id":"m1","title":"t","metadata":{"a":1}}',
  '{"record":"edge","from":"m1","to":"m2","type":"caused-by"}',
  '{"record":"memory","id":"m1","title":""}',
  '{"record":"memory","id":"-m1","title":"t"}',
  '{"record":"memory","id":"m1","title":"t","extra":1}',
  '{"record":"memory","id":"m1","title":"t","__proto__":1}',
  '{"record":"memory","id":"m1","title":"a\\u0000b"}',
  '{"record":"memory","id":"m1","title":"t","content":"\\ud800"}',
  '{"record":"edge","from":"m1","to":"m1","type":"X"}',
  '{"record":"edge","from":"m1","to":"m2","type":"X","weight":1.5}',
  '{"record":"edge","from":"m1","to":"m2","type":"X","weight":1e400}',
  '{"record":"node","id":"m1"}',
  '[1]',
  'null',
];

describe('the import’s fast path for well-formed lines', () => {
  it.each(TAKEN_AS_THEY_ARE)('takes %s as the schema would return it', (text) => {
    const record = asWellFormedRecord(JSON.parse(text));
    expect(record).not.toBeNull();
    expect({ ...record }).toStrictEqual({ ...GraphLine.parse(JSON.parse(text)) });
  });

  it.each(LEFT_TO_THE_SCHEMA)('leaves %s to the schema', (text) => {
    expect(asWellFormedRecord(JSON.parse(text))).toBeNull();
  });
});
