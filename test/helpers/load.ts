import { Agent, request } from 'node:http';

/** One answer of a load run: its workspace, status, first error code (or 'ok') and actual cost. */
export interface LoadAnswer {
  workspace: string;
  status: number;
  code: string;
  /** extensions.cost.actual; 0 when the answer has none. */
  actual: number;
}

export interface LoadPlan {
  port: number;
  workspace: string;
  /** Requests in flight at once, each on its own kept-alive connection. */
  connections: number;
  /** The operation of the i-th request. */
  operation(i: number): { query: string; variables?: Record<string, unknown> };
  /** Stop after this many requests (all connections together) ... */
  requests?: number;
  /** ... or once this returns true. */
  until?: () => boolean;
}

/**
 * Sends a plan's requests as fast as its connections allow, over real sockets, and collects every
 * answer. Bounded by `requests` or `until` (one of them must be given); never rejects: a network
 * failure is an answer with status 0 and code `network:<error>`.
 */
export async function runLoad(plan: LoadPlan): Promise<LoadAnswer[]> {
  if (plan.requests === undefined && plan.until === undefined) throw new Error('a load needs requests or until');
  const agent = new Agent({ keepAlive: true, maxSockets: plan.connections });
  const answers: LoadAnswer[] = [];
  let next = 0;
  const more = () => (plan.requests === undefined || next < plan.requests) && !(plan.until?.() ?? false);
  try {
    await Promise.all(
      Array.from({ length: plan.connections }, async () => {
        while (more()) {
          const body = JSON.stringify(plan.operation(next++));
          answers.push(await post(agent, plan.port, plan.workspace, body));
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  return answers;
}

function post(agent: Agent, port: number, workspace: string, body: string): Promise<LoadAnswer> {
  return new Promise((resolve) => {
    const failed = (error: Error) =>
      resolve({
        workspace,
        status: 0,
        code: `network:${(error as NodeJS.ErrnoException).code ?? error.message}`,
        actual: 0,
      });
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/graphql',
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-engram-workspace': workspace,
        },
        timeout: 30_000,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('error', failed);
        response.on('end', () => {
          try {
            const json = JSON.parse(text) as {
              errors?: { extensions?: { code?: string } }[];
              extensions?: { cost?: { actual?: number } };
            };
            resolve({
              workspace,
              status: response.statusCode ?? 0,
              code: json.errors?.[0]?.extensions?.code ?? 'ok',
              actual: json.extensions?.cost?.actual ?? 0,
            });
          } catch {
            resolve({ workspace, status: response.statusCode ?? 0, code: 'unparsable', actual: 0 });
          }
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', failed);
    req.end(body);
  });
}

/** Answers counted by code: { ok: 9990, RATE_LIMITED: 10 }. */
export function countCodes(answers: readonly LoadAnswer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const answer of answers) counts[answer.code] = (counts[answer.code] ?? 0) + 1;
  return counts;
}
