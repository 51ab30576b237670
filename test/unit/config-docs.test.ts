import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EnvSchema } from '../../src/config.js';
import { CONFIG_DOCS_FILE, renderConfigDocs, undocumentedVariables } from '../../src/config-docs.js';

describe('docs/configuration.md', () => {
  it('describes every variable of the env schema, and no variable the schema lacks', () => {
    expect(undocumentedVariables()).toEqual({ missing: [], stale: [] });
  });

  it('matches what scripts/print-config-docs.ts prints (run `npx tsx scripts/print-config-docs.ts` after changing the env schema)', () => {
    expect(readFileSync(CONFIG_DOCS_FILE, 'utf8')).toBe(renderConfigDocs());
  });

  it('lists each variable once, with the default an empty environment parses to', () => {
    const docs = renderConfigDocs();
    for (const name of Object.keys(EnvSchema.shape)) {
      expect(docs.match(new RegExp(`^\\| \`${name}\` \\|`, 'gm')), name).toHaveLength(1);
    }
    expect(docs).toMatch(/^\| `PORT` \| `4000` \| integer 0\.\.65535 \|/m);
    expect(docs).toMatch(/^\| `ENGRAM_PRUNE_THRESHOLD` \| `0\.05` \| number 0\.\.1 \|/m);
    expect(docs).toMatch(/^\| `ENGRAM_STORE` \| `sqlite` \| `sqlite`, `neo4j` \|/m);
  });
});
