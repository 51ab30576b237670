import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createAuthenticator } from '../../src/plugins/use-auth.js';
import { useErrors } from '../../src/plugins/use-errors.js';
import { useRequestLog } from '../../src/plugins/use-request-log.js';
import { minimalYoga } from './support.js';

function appWithLog() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const authenticate = createAuthenticator({ keys: [], defaultWorkspace: 'default' });
  const fetch = minimalYoga([useErrors(), useRequestLog({ logger, authenticate })]);
  return { fetch, lines };
}

describe('useRequestLog', () => {
  it('logs one line per request with id, operation, workspace, status and outcome; echoes the id', async () => {
    const { fetch, lines } = appWithLog();
    const response = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'abc-123', 'x-engram-workspace': 'lab' },
      body: JSON.stringify({ query: 'query Probe { ok }' }),
    });
    expect(response.headers.get('x-request-id')).toBe('abc-123');
    const requestLines = lines.filter((line) => line.msg === 'request');
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).toMatchObject({
      reqId: 'abc-123',
      method: 'POST',
      path: '/graphql',
      status: 200,
      op: 'Probe',
      opType: 'query',
      workspace: 'lab',
      outcome: 'ok',
    });
  });

  it('records the error codes and never the document, and replaces a request id that could forge log lines', async () => {
    const { fetch, lines } = appWithLog();
    const response = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'bad id\nforged' },
      body: JSON.stringify({ query: '{ secretField }' }),
    });
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const line = lines.find((entry) => entry.msg === 'request');
    expect(line).toMatchObject({ outcome: 'error', codes: ['GRAPHQL_VALIDATION_FAILED'] });
    expect(JSON.stringify(lines)).not.toContain('secretField');
  });
});
