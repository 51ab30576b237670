import { pino, type Logger } from 'pino';

/**
 * Logs go to stderr (fd 2): the MCP server speaks its protocol on stdout, and sharing one logger
 * setup keeps every entry point safe.
 */
export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'engram' } }, pino.destination(2));
}

export type { Logger };
