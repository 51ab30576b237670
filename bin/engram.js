#!/usr/bin/env node
/**
 * `engram <command>`. Runs the compiled CLI (dist/, from `npm run build` or `npm start`) when it
 * was built from the sources as they are now, or when there are no sources (an image holding only
 * dist/). In a checkout whose sources changed since the last build it runs them through tsx (a
 * dev dependency) instead, so an edit is never answered by a stale build.
 */
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/cli/main.js', import.meta.url);
const sources = new URL('../src/cli/main.ts', import.meta.url);

async function compiledIsCurrent() {
  if (!existsSync(compiled)) return false;
  if (!existsSync(sources)) return true;
  const { isBuildCurrent } = await import('../scripts/build.mjs');
  return isBuildCurrent();
}

async function loadMain() {
  if (await compiledIsCurrent()) return import(compiled.href);
  let tsx;
  try {
    tsx = await import('tsx/esm/api');
  } catch {
    if (existsSync(compiled)) {
      process.stderr.write('engram: dist/ is older than src/ and tsx is not installed: running dist/ as built\n');
      return import(compiled.href);
    }
    process.stderr.write(
      'engram: no build in dist/ and no tsx to run the sources: run `npm install && npm run build`\n',
    );
    process.exit(1);
  }
  tsx.register();
  return import(sources.href);
}

await (await loadMain()).main(process.argv.slice(2));
