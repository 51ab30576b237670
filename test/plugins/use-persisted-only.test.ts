import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useErrors } from '../../src/plugins/use-errors.js';
import { loadTrustedDocuments, usePersistedOnly } from '../../src/plugins/use-persisted-only.js';
import { minimalYoga } from './support.js';

// An operations folder like schema/operations: the fragment lives in a file of its own.
const dir = mkdtempSync(join(tmpdir(), 'engram-operations-'));
writeFileSync(join(dir, 'probe.graphql'), 'query Probe {\n  ...Okay\n}\n');
writeFileSync(join(dir, 'fragments.graphql'), 'fragment Okay on Query {\n  ok\n}\n');
const documents = loadTrustedDocuments(dir);
const [probeHash] = documents.keys();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fetch = minimalYoga([useErrors(), ...usePersistedOnly({ documents, maxTokens: 1000 })]);
const post = (body: Record<string, unknown>) =>
  fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const refusalOf = async (response: Response) => {
  const { errors } = (await response.json()) as { errors: { extensions: { code: string } }[] };
  return { status: response.status, code: errors[0]?.extensions.code };
};

describe('usePersistedOnly', () => {
  it('runs a trusted operation named by its sha256 hash', async () => {
    const response = await post({ extensions: { persistedQuery: { version: 1, sha256Hash: probeHash } } });
    expect(await response.json()).toEqual({ data: { ok: true } });
  });

  it('runs a trusted operation sent as its text, whatever its formatting, but not another text under its name', async () => {
    const query = 'fragment Okay on Query { ok } # the fragment first\nquery Probe { ...Okay }';
    expect(await (await post({ query })).json()).toEqual({ data: { ok: true } });
    const impostor = await post({ query: 'query Probe { ok }' });
    expect(await refusalOf(impostor)).toEqual({ status: 400, code: 'PERSISTED_QUERY_REQUIRED' });
  });

  it('refuses any other document with 400 PERSISTED_QUERY_REQUIRED, before parsing it', async () => {
    for (const query of ['{ ok }', 'mutation { touch }', '{ ok']) {
      expect(await refusalOf(await post({ query })), query).toEqual({ status: 400, code: 'PERSISTED_QUERY_REQUIRED' });
    }
  });

  it('refuses an unknown hash with 400 PERSISTED_QUERY_NOT_FOUND', async () => {
    const response = await post({ extensions: { persistedQuery: { version: 1, sha256Hash: '0'.repeat(64) } } });
    expect(await refusalOf(response)).toEqual({ status: 400, code: 'PERSISTED_QUERY_NOT_FOUND' });
  });
});
