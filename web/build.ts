/**
 * Builds the explorer page (web/) into web/dist with esbuild: one ES module bundle (Cytoscape
 * included), the stylesheet and index.html. The operation documents of schema/operations are
 * inlined by esbuild's text loader, so the page sends exactly the checked-in documents.
 *
 *   npm run build:web            build, fail loudly on errors
 *   tsx web/build.ts --if-possible   (prestart) as above, but where esbuild is not installed
 *                                    (production install without dev dependencies) say so and
 *                                    exit 0, so `npm start` still starts the API
 *
 * Files are written under a temporary name and renamed into place, so a server reading web/dist
 * while another process builds never sees half a file.
 */
import { copyFile, mkdir, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const WEB_DIR = dirname(fileURLToPath(import.meta.url));
export const DEFAULT_OUT_DIR = join(WEB_DIR, 'dist');

/** esbuild could not be loaded (a production install without dev dependencies). */
export class BuilderUnavailableError extends Error {
  override name = 'BuilderUnavailableError';
}

export interface BuildResult {
  outDir: string;
  files: string[];
  millis: number;
}

let sequence = 0;

async function writeAtomically(path: string, contents: Uint8Array | string): Promise<void> {
  const temporary = `${path}.${process.pid}.${++sequence}.tmp`;
  await writeFile(temporary, contents);
  await rename(temporary, path);
}

async function copyAtomically(from: string, to: string): Promise<void> {
  const temporary = `${to}.${process.pid}.${++sequence}.tmp`;
  await copyFile(from, temporary);
  await rename(temporary, to);
}

export async function buildExplorer(options: { outDir?: string; minify?: boolean } = {}): Promise<BuildResult> {
  const started = performance.now();
  const outDir = resolve(options.outDir ?? DEFAULT_OUT_DIR);
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch (error) {
    throw new BuilderUnavailableError(
      'esbuild is not installed (a dev dependency); the explorer page cannot be built',
      { cause: error },
    );
  }
  const result = await esbuild.build({
    entryPoints: { app: join(WEB_DIR, 'src/main.ts') },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome110', 'firefox115', 'safari16'],
    loader: { '.graphql': 'text' },
    minify: options.minify ?? true,
    sourcemap: 'linked',
    legalComments: 'linked',
    outdir: outDir,
    write: false,
    logLevel: 'silent',
  });
  await mkdir(outDir, { recursive: true });
  const files: string[] = [];
  for (const file of result.outputFiles) {
    await writeAtomically(file.path, file.contents);
    files.push(basename(file.path));
  }
  for (const asset of ['style.css', 'favicon.svg']) await copyAtomically(join(WEB_DIR, asset), join(outDir, asset));
  // Last, so a page never references a bundle that is not there yet.
  await copyAtomically(join(WEB_DIR, 'index.html'), join(outDir, 'index.html'));
  files.push('style.css', 'favicon.svg', 'index.html');
  return { outDir, files, millis: Math.round(performance.now() - started) };
}

async function main(argv: string[]): Promise<void> {
  const ifPossible = argv.includes('--if-possible');
  try {
    const { outDir, files, millis } = await buildExplorer();
    console.error(`explorer: built ${files.length} files into ${outDir} in ${millis} ms`);
  } catch (error) {
    if (ifPossible && error instanceof BuilderUnavailableError) {
      console.error(`explorer: not built (${error.message}); /explore will say so`);
      return;
    }
    throw error;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
