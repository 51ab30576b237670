/**
 * The child of createCliSession (cli-session.ts): runs `engram <argv>` commands one after another
 * through the CLI's own entry (src/cli/main.ts from the sources; bin/engram.js runs its compiled
 * copy), each
 * with its own environment, and answers each with what the command wrote to stderr and its exit
 * code. One process serves many commands, so a test that repeats commands pays the start-up once.
 */
import { main } from '../../src/cli/main.js';

export interface CliRequest {
  id: number;
  argv: string[];
  env: Record<string, string>;
}

export interface CliReply {
  id: number;
  stderr: string;
  exitCode: number;
  /** A throw out of main(): the bin would have crashed with it. */
  crash?: string;
}

const send = (reply: CliReply) => process.send?.(reply);

/** Commands run one at a time, as separate bin processes would, never interleaved. */
let queue = Promise.resolve();

process.on('message', (request: CliRequest) => {
  queue = queue.then(() => runOne(request));
});

async function runOne({ id, argv, env }: CliRequest): Promise<void> {
  const before = { ...process.env };
  Object.assign(process.env, env);
  process.exitCode = undefined;
  let stderr = '';
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  }) as typeof process.stderr.write;
  try {
    await main(argv);
    send({ id, stderr, exitCode: Number(process.exitCode ?? 0) });
  } catch (error) {
    send({ id, stderr, exitCode: 1, crash: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  } finally {
    process.stderr.write = write;
    process.exitCode = undefined;
    for (const key of Object.keys(env)) {
      if (key in before) process.env[key] = before[key];
      else delete process.env[key];
    }
  }
}
