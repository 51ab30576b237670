import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CliReply, CliRequest } from './cli-session-child.js';

interface CliResult {
  stderr: string;
  exitCode: number;
}

export interface CliSession {
  /** Runs `engram <argv>` in the session's process with these variables added; rejects if the command crashed. */
  run(argv: string[], env: Record<string, string>): Promise<CliResult>;
  /** Ends the process; safe to call twice. */
  close(): Promise<void>;
}

/** Repository root: the child runs `node --import tsx test/helpers/cli-session-child.ts` from here. */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * One real process running the engram CLI's commands on request, for tests that run many commands
 * where the behaviour under test is what a command does, not how the process starts (the bin's
 * start-up has its own tests in test/cli/import-export.test.ts).
 */
export function createCliSession(): CliSession {
  const child: ChildProcess = fork('test/helpers/cli-session-child.ts', [], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, { resolve: (result: CliResult) => void; reject: (error: Error) => void }>();
  let next = 0;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      for (const { reject } of waiting.values())
        reject(new Error(`CLI session exited (code ${code}, signal ${signal})`));
      waiting.clear();
      resolve();
    });
  });
  child.on('message', (reply: CliReply) => {
    const pending = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (reply.crash) pending?.reject(new Error(`engram crashed: ${reply.crash}\nstderr: ${reply.stderr}`));
    else pending?.resolve({ stderr: reply.stderr, exitCode: reply.exitCode });
  });

  return {
    run(argv, env) {
      const id = next++;
      const request: CliRequest = { id, argv, env };
      return new Promise<CliResult>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        child.send(request);
      });
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill();
      await exited;
    },
  };
}
