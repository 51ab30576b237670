import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { GraphQLError } from 'graphql';
import { createYoga, useReadinessCheck, type YogaServerInstance } from 'graphql-yoga';
import type { Config } from './config.js';
import { workspaceName } from './domain/inputs.js';
import type { EngramContext } from './graphql/context.js';
import { schema } from './graphql/index.js';
import { maskError, useErrorCodes } from './http/use-error-codes.js';
import { useLimits } from './http/use-limits.js';
import { createLoaders } from './loaders/index.js';
import type { Logger } from './logger.js';
import type { GraphStore } from './store/port.js';

export const WORKSPACE_HEADER = 'x-engram-workspace';

export interface AppDeps {
  config: Config;
  store: GraphStore;
  logger: Logger;
  /** True once shutdown began: /ready answers 503 so load balancers stop sending traffic. */
  isDraining?: () => boolean;
}

export type EngramApp = YogaServerInstance<Record<string, unknown>, EngramContext>;

const EXAMPLE_QUERY = `# Welcome to Engram. Run this, then open the Docs panel (top left) to explore.
# Create two memories and link them:
#
# mutation {
#   a: createMemory(input: { key: "postgres-choice", title: "We chose Postgres", kind: "decision" }) { id }
#   b: createMemory(input: { key: "need-acid", title: "We need ACID transactions", kind: "fact" }) { id }
#   link(input: { from: "postgres-choice", to: "need-acid", type: "CAUSED_BY" }) { id weight }
# }

query Explore {
  relationTypes { name description }
  searchMemories(query: "postgres", limit: 5) {
    id key title kind weight
    neighbors(limit: 5) { direction edge { type weight pruned } memory { key title } }
  }
}
`;

function workspaceOf(request: Request, fallback: string): string {
  const header = request.headers.get(WORKSPACE_HEADER);
  if (header === null || header === '') return fallback;
  const parsed = workspaceName.safeParse(header);
  if (!parsed.success) {
    throw new GraphQLError(`${WORKSPACE_HEADER}: ${parsed.error.issues[0]?.message ?? 'invalid workspace name'}`, {
      extensions: { code: 'BAD_USER_INPUT', retryable: false, http: { status: 400 } },
    });
  }
  return parsed.data;
}

/** Builds the yoga instance with every plugin; it never listens (server.ts does, tests use app.fetch). */
export function createApp(deps: AppDeps): EngramApp {
  const { config, store, logger } = deps;
  return createYoga<Record<string, unknown>, EngramContext>({
    schema,
    graphqlEndpoint: '/graphql',
    healthCheckEndpoint: '/health',
    landingPage: false,
    batching: false,
    maxRequestBodySize: config.limits.maxBodyBytes,
    logging: logger,
    graphiql: config.graphiql ? { title: 'Engram', defaultQuery: EXAMPLE_QUERY, headers: JSON.stringify({ [WORKSPACE_HEADER]: 'default' }) } : false,
    renderGraphiQL,
    maskedErrors: { maskError: maskError(logger) },
    context: ({ request }): EngramContext => {
      const workspace = workspaceOf(request, config.defaultWorkspace);
      return {
        workspace,
        store,
        loaders: createLoaders(store, workspace),
        policy: config.policy,
        limits: config.limits,
        strictTypes: config.strictTypes,
      };
    },
    plugins: [
      useLimits(config.limits, { suggestions: config.graphiql }),
      useErrorCodes(),
      useReadinessCheck({
        endpoint: '/ready',
        // No error text in the body: it could name hosts or files.
        check: async () => {
          if (deps.isDraining?.()) return false;
          try {
            await store.ping();
            return true;
          } catch {
            return false;
          }
        },
      }),
    ],
  });
}
