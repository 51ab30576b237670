/**
 * The long-memory retrieval benchmark (issue 25, item 5); see bench/longmem/README.md.
 *
 *   npx tsx bench/longmem/run.ts [--shape dialogue|notes|all] [--seed N[,N...]] [--scale F] [--asks N]
 *                                [--vectors] [--backend numpy|sentence-transformers|auto]
 *                                [--embeddings-url URL --embeddings-model NAME] [--json FILE] [--keep]
 *
 * Markdown tables go to stdout, progress to stderr. Everything runs in this process on a temporary
 * SQLite file, except the embeddings server of --vectors (Python, 127.0.0.1, stopped at the end).
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { SHAPES, type Shape } from './generator.js';
import { runShape, type ShapeResult } from './harness.js';
import { renderShape } from './report.js';
import { type Backend, type Endpoint, externalEndpoint, startEndpoint } from './vectors.js';

const { values } = parseArgs({
  options: {
    shape: { type: 'string', default: 'all' },
    seed: { type: 'string', default: '42' },
    scale: { type: 'string', default: '1' },
    asks: { type: 'string', default: '1' },
    vectors: { type: 'boolean', default: false },
    backend: { type: 'string', default: 'numpy' },
    'embeddings-url': { type: 'string' },
    'embeddings-model': { type: 'string', default: 'all-MiniLM-L6-v2' },
    json: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});

const log = (message: string) => process.stderr.write(`longmem: ${message}\n`);
const shapes: Shape[] = values.shape === 'all' ? [...SHAPES] : [values.shape as Shape];
if (!shapes.every((shape) => SHAPES.includes(shape)))
  throw new Error(`--shape must be one of ${SHAPES.join(', ')} or all`);
const seeds = values.seed.split(',').map(Number);
if (!seeds.every(Number.isInteger)) throw new Error('--seed takes integers, comma-separated');
const scale = Number(values.scale);
if (!(scale > 0)) throw new Error('--scale must be > 0');
const asks = Number(values.asks);
if (!Number.isInteger(asks) || asks < 1) throw new Error('--asks takes an integer >= 1');
const backend = values.backend as Backend;
if (!['numpy', 'sentence-transformers', 'auto'].includes(backend))
  throw new Error('--backend is numpy, sentence-transformers or auto');

let endpoint: Endpoint | null = null;
const results: ShapeResult[] = [];
const stop = async () => {
  await endpoint?.stop();
  endpoint = null;
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void stop().finally(() => process.exit(130));
  });
}
try {
  if (values['embeddings-url']) endpoint = externalEndpoint(values['embeddings-url'], values['embeddings-model']);
  else if (values.vectors) endpoint = await startEndpoint({ log, backend });
  for (const seed of seeds) {
    for (const shape of shapes) {
      const started = performance.now();
      const result = await runShape({
        shape,
        seed,
        scale,
        asks,
        endpoint,
        backendName: values['embeddings-url'] ? 'external endpoint' : `embeddings_server.py, ${backend} backend`,
        log,
        keep: values.keep,
      });
      log(`${shape} seed ${seed} done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
      results.push(result);
      process.stdout.write(`${renderShape(result)}\n\n`);
    }
  }
} finally {
  await stop();
}
if (values.json) {
  writeFileSync(
    values.json,
    `${JSON.stringify({ at: new Date().toISOString(), argv: process.argv.slice(2), results }, null, 1)}\n`,
  );
  log(`results written to ${values.json}`);
}
