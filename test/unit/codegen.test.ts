import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate, loadCodegenConfig } from '@graphql-codegen/cli';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const GENERATED = join(ROOT, 'src/generated');

describe('src/generated', () => {
  it('matches what `npm run codegen` makes of schema/schema.graphql and schema/operations (run it after changing either)', async () => {
    const { config } = await loadCodegenConfig({ configFilePath: join(ROOT, 'codegen.yml') });
    const outputs: { filename: string; content: string }[] = await generate(
      { ...config, cwd: ROOT, silent: true },
      false,
    );
    const expected = Object.fromEntries(
      outputs.map((file) => [relative(ROOT, join(ROOT, file.filename)), file.content]),
    );
    const actual = Object.fromEntries(
      readdirSync(GENERATED).map((name) => [
        relative(ROOT, join(GENERATED, name)),
        readFileSync(join(GENERATED, name), 'utf8'),
      ]),
    );
    expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
    for (const [file, content] of Object.entries(expected)) expect(actual[file], file).toBe(content);
  });
});
