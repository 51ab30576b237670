import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/**
 * A file of the package (schema/operations, web/dist, ...) by its path from the package root. The
 * root is found from this module's location, not assumed at a fixed depth: the same code runs from
 * src/ (tsx, tests) and from a bundle in dist/, whose depth differs per entry point.
 */
export function packagePath(relative: string): string {
  root ??= findRoot(dirname(fileURLToPath(import.meta.url)));
  return join(root, relative);
}

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}: Engram's files cannot be found`);
  }
}
