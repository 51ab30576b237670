// @ts-check
/**
 * The compiled build: each entry point (ENTRY_POINTS, and the import's parse worker) becomes one
 * bundle in dist/ at the place its source has in src/, holding Engram's code and the dependencies
 * it imports (graphql, yoga, Pothos, zod, the MCP SDK, ...); the code entry points share, and what
 * they load on demand (each CLI command, the Neo4j store), goes to dist/chunks/. The explorer page
 * is built into web/dist.
 *
 *   npm run build               node scripts/build.mjs             always builds
 *   npm start (its prestart)    node scripts/build.mjs --if-stale  builds only when the inputs changed
 *
 * Bundles rather than one file per module: Node loaded about 1,300 files to start `engram mcp`,
 * and resolving and compiling them took most of its start (1.5-2.0 s, against 0.85-0.95 s
 * bundled; docs/development.md#the-build). Every process pays it: each MCP session an agent opens,
 * each CLI command, each cluster worker. Modules find checked-in files from the package root
 * (src/package-path.ts), whatever file their code ends up in. esbuild rather than tsc: it builds
 * in a second or two, so `npm start` stays quick after an edit; `npm run typecheck` is what checks
 * the types.
 *
 * Plain JavaScript because it runs before anything is compiled, on a Node that cannot run
 * TypeScript. Building needs the dev dependencies (esbuild; tsx loads web/build.ts); without them
 * an existing dist/ is started as it is, with a warning.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BUILD_INFO = 'build-info.json';

/** What the build reads: a change to any of these makes dist/ stale. */
const INPUTS = ['src', 'web', 'schema/operations', 'scripts/build.mjs', 'tsconfig.json', 'package-lock.json'];
/** Outputs living inside the inputs' folders. */
const NOT_INPUTS = new Set(['web/dist']);

/** Files `node` starts from; a build missing any of them is not a build. */
export const ENTRY_POINTS = ['server.js', 'cli/main.js', 'mcp/stdio.js'];
/** Bundled too; src/cli/parsed-batches.ts starts it from its chunk as ../cli/ (see chunkNames). */
const WORKER_ENTRY_POINTS = ['cli/import-parse-worker.js'];

/**
 * Left in node_modules, loaded from there at run time: native code (better-sqlite3, the sqlite-vec
 * extension, which each find their binaries beside themselves), pino (its transports run files of
 * their own in worker threads), and the ~9 MB GraphiQL page, which app.ts imports on its first
 * request. The Neo4j driver is bundled into the Neo4j store's chunk, which only a process that
 * opens that store loads.
 */
const EXTERNAL = ['better-sqlite3', 'sqlite-vec', 'pino', '@graphql-yoga/render-graphiql'];

/**
 * CommonJS dependencies inside an ES module bundle still call require() (for node: built-ins and
 * the external packages); an ES module has no require of its own.
 */
const REQUIRE_SHIM =
  "import { createRequire as __engramCreateRequire } from 'node:module';\nconst require = __engramCreateRequire(import.meta.url);";

/**
 * @param {string} root
 * @param {string} path relative to root
 * @returns {string[]} files under path (or path itself), relative to root, sorted
 */
function listFiles(root, path) {
  if (NOT_INPUTS.has(path)) return [];
  const absolute = join(root, path);
  let entries;
  try {
    entries = readdirSync(absolute, { withFileTypes: true });
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOTDIR') return [path];
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return [];
    throw error;
  }
  const files = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const child = `${path}/${entry.name}`;
    if (entry.isDirectory()) files.push(...listFiles(root, child));
    else if (entry.isFile()) files.push(child);
  }
  return files;
}

/**
 * A hash of every input's path and contents: content, not mtimes, so a checkout, a copy or a
 * clock change never makes an old build look current. Read synchronously: bin/engram.js asks
 * before anything else runs, and isBuildCurrent took 74-222 ms of every CLI start in a checkout
 * reading the 320 files one await at a time, against 22-26 ms read in one go.
 * @param {string} [root]
 * @returns {string}
 */
export function fingerprintSources(root = ROOT) {
  const hash = createHash('sha256');
  for (const input of INPUTS) {
    for (const file of listFiles(root, input)) {
      hash.update(`${file}\0`);
      hash.update(readFileSync(join(root, file)));
      hash.update('\0');
    }
  }
  return hash.digest('hex');
}

/**
 * True when dist/ and the explorer page hold a complete build of the sources as they are now.
 * @param {{ root?: string, outDir?: string, explorerOutDir?: string }} [options]
 */
export async function isBuildCurrent(options = {}) {
  const root = options.root ?? ROOT;
  const outDir = options.outDir ?? join(root, 'dist');
  const explorerOutDir = options.explorerOutDir ?? join(root, 'web/dist');
  let recorded;
  try {
    recorded = JSON.parse(await readFile(join(outDir, BUILD_INFO), 'utf8')).fingerprint;
  } catch {
    return false;
  }
  if (![...ENTRY_POINTS.map((entry) => join(outDir, entry)), join(explorerOutDir, 'index.html')].every(existsSync)) {
    return false;
  }
  return recorded === fingerprintSources(root);
}

/** The dev dependencies that build are not installed. */
export class BuildToolsMissingError extends Error {
  name = 'BuildToolsMissingError';
}

/**
 * Compiles src/ into outDir and the explorer page into explorerOutDir. The build record is
 * written last, so an interrupted build reads as stale and is redone.
 * @param {{ root?: string, outDir?: string, explorerOutDir?: string }} [options]
 */
export async function build(options = {}) {
  const started = performance.now();
  const root = options.root ?? ROOT;
  const outDir = resolve(options.outDir ?? join(root, 'dist'));
  let esbuild;
  let tsx;
  try {
    esbuild = await import('esbuild');
    tsx = await import('tsx/esm/api');
  } catch (error) {
    throw new BuildToolsMissingError('esbuild and tsx (dev dependencies) are not installed', { cause: error });
  }
  // Before compiling, so sources edited during the build leave it stale rather than current.
  const fingerprint = fingerprintSources(root);
  const entries = [...ENTRY_POINTS, ...WORKER_ENTRY_POINTS];
  await rm(outDir, { recursive: true, force: true });
  const result = await esbuild.build({
    entryPoints: entries.map((entry) => join(root, 'src', entry.replace(/\.js$/, '.ts'))),
    outbase: join(root, 'src'),
    outdir: outDir,
    // The metafile names inputs from the package root (counted below), whatever the working directory.
    absWorkingDir: root,
    bundle: true,
    splitting: true,
    // One folder below dist/, as src/cli/ is below src/: parsed-batches.ts finds the worker at
    // ../cli/ from either.
    chunkNames: 'chunks/[name]-[hash]',
    external: EXTERNAL,
    banner: { js: REQUIRE_SHIM },
    platform: 'node',
    format: 'esm',
    target: 'node20.10',
    // Stack traces map back to src/ and node_modules/ (npm start passes --enable-source-maps);
    // the sources themselves stay out of the maps, which are read only when an error is printed.
    sourcemap: 'linked',
    sourcesContent: false,
    metafile: true,
    logLevel: 'warning',
  });
  const explorerUrl = pathToFileURL(join(root, 'web/build.ts')).href;
  const explorer = await tsx.tsImport(explorerUrl, import.meta.url);
  await explorer.buildExplorer(options.explorerOutDir ? { outDir: options.explorerOutDir } : {});
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, BUILD_INFO), `${JSON.stringify({ fingerprint }, null, 2)}\n`);
  const modules = Object.keys(result.metafile.inputs).filter((input) => input.startsWith('src/')).length;
  return { outDir, entries: entries.length, modules, millis: Math.round(performance.now() - started) };
}

/** @param {string[]} argv */
async function main(argv) {
  /** @param {string} flag */
  const optionValue = (flag) => {
    const index = argv.indexOf(flag);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const outDir = optionValue('--out-dir');
  const explorerOutDir = optionValue('--explorer-out-dir');
  if (argv.includes('--if-stale') && (await isBuildCurrent({ outDir, explorerOutDir }))) return;
  try {
    const result = await build({ outDir, explorerOutDir });
    console.error(
      `build: ${result.modules} modules in ${result.entries} bundles into ${relative(process.cwd(), result.outDir) || '.'}/ and the explorer page in ${result.millis} ms`,
    );
  } catch (error) {
    if (!(error instanceof BuildToolsMissingError)) throw error;
    if (ENTRY_POINTS.every((entry) => existsSync(join(outDir ?? join(ROOT, 'dist'), entry)))) {
      console.error(`build: skipped (${error.message}); starting the existing dist/, which may be older than src/`);
      return;
    }
    throw new Error(
      `dist/ is missing and cannot be built: ${error.message}. Run \`npm install\` (without --omit=dev), then \`npm start\`.`,
    );
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
