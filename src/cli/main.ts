/**
 * `engram <command>`: each command lives in its own module, loaded only when asked for, so
 * `engram mcp` does not pay for the import tooling and vice versa.
 */
import { StartupError } from '../domain/errors.js';

interface Command {
  summary: string;
  load: () => Promise<{ run(argv: string[]): Promise<void> }>;
}

const COMMANDS: Record<string, Command> = {
  serve: { summary: 'start the HTTP server (what `npm start` runs)', load: () => import('./serve-command.js') },
  mcp: {
    summary: 'serve the MCP tools over stdio, for an agent (--profile server-memory: the official memory server)',
    load: () => import('./mcp-command.js'),
  },
  import: {
    summary: 'load memories and edges from an NDJSON file, or a server-memory memory.jsonl (idempotent)',
    load: () => import('./import-command.js'),
  },
  export: { summary: 'write a workspace to stdout as NDJSON', load: () => import('./export-command.js') },
};

const HELP_FLAGS = new Set(['--help', '-h', 'help']);

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(8)} ${command.summary}`);
  return [
    'Usage: engram <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    '`engram <command> --help` describes a command. In a checkout, run it as `npx engram <command>`',
    'or `npm run engram -- <command>`. The store comes from the same variables as the server',
    '(ENGRAM_STORE, ENGRAM_SQLITE_PATH, ...).',
    '',
  ].join('\n');
}

export async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (command) {
    try {
      await (await command.load()).run(rest);
    } catch (error) {
      // A start-up mistake (a bad variable, a path the store cannot open) is one line, as the server prints it.
      if (!(error instanceof StartupError)) throw error;
      process.stderr.write(`engram ${name}: ${error.message}\n`);
      process.exitCode = 1;
    }
    return;
  }
  // Asked-for help is the output (stdout, exit 0); a missing or unknown command is an error.
  if (name && HELP_FLAGS.has(name)) {
    process.stdout.write(usage());
    return;
  }
  process.stderr.write(`${name ? `engram: unknown command "${name}"\n\n` : ''}${usage()}`);
  process.exitCode = 2;
}
