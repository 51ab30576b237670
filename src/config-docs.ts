import { z } from 'zod';
import { EnvSchema } from './config.js';
import { packagePath } from './package-path.js';
import type { EnvVariableDoc } from './store/adapter.js';
import { type StoreKind, storeEnvDocs } from './store/registry.js';

/**
 * The configuration reference (docs/configuration.md) is printed from EnvSchema and this map, so a
 * variable cannot be added, renamed or re-defaulted without the reference following (a test
 * compares the file with `renderConfigDocs()` and requires a description for every variable).
 */

export const CONFIG_DOCS_FILE = packagePath('docs/configuration.md');

/** The reference's own sections; each store's section, from its adapter (envDocs), follows Server. */
const GENERAL_GROUPS = {
  server: 'Server',
  limits: 'Limits',
  weights: 'Weights',
  security: 'Security',
  mcp: 'MCP',
  logs: 'Logs and metrics',
  embeddings: 'Embeddings (vectors)',
} as const;

type Group = keyof typeof GENERAL_GROUPS;

/** Every section, in order. */
const GROUPS: Record<string, string> = (() => {
  const { server, ...rest } = GENERAL_GROUPS;
  return { server, ...Object.fromEntries(storeEnvDocs().map((store) => [store.kind, store.title])), ...rest };
})();

interface VariableDoc extends EnvVariableDoc {
  group: Group | StoreKind;
}

const modeFlag = 'on in development, off in production';
const workspaceRule = '1-64 letters, digits, `_`, `.` or `-`, starting with a letter or digit';

const GENERAL_DOCS: Record<string, VariableDoc> = {
  PORT: { group: 'server', text: 'HTTP port; `0` picks a free one' },
  HOST: { group: 'server', text: 'interface to listen on' },
  ENGRAM_STORE: { group: 'server', text: 'the store: `sqlite` (embedded) or `neo4j`' },
  NODE_ENV: {
    group: 'server',
    text: '`production` turns [production mode](operations.md#production-mode) on',
    default: 'none',
  },
  ENGRAM_MODE: { group: 'server', text: '`production` turns production mode on, whatever `NODE_ENV` says' },
  ENGRAM_GRAPHIQL: {
    group: 'server',
    text: 'serve GraphiQL at `/graphql` to browsers; off also hides "Did you mean" field suggestions',
    default: modeFlag,
  },
  ENGRAM_INTROSPECTION: {
    group: 'server',
    text: 'allow `__schema` / `__type` queries (GraphiQL needs them)',
    default: 'on in development; in production, the value of `ENGRAM_GRAPHIQL`',
  },
  ENGRAM_EXPLORER: {
    group: 'server',
    text: 'serve the graph explorer at `/explore`; off answers 404',
    default: modeFlag,
  },
  ENGRAM_DEFAULT_WORKSPACE: {
    group: 'server',
    text: 'workspace of requests without an `x-engram-workspace` header (when no API keys are configured)',
    rule: workspaceRule,
  },
  ENGRAM_STRICT_TYPES: {
    group: 'server',
    text: 'reject relation types outside the known vocabulary (`relationTypes`)',
  },
  ENGRAM_SHUTDOWN_GRACE_MS: {
    group: 'server',
    text: 'how long requests in flight may take to finish after SIGTERM/SIGINT',
  },
  ENGRAM_MAX_DEPTH: { group: 'limits', text: 'deepest selection a query may have' },
  ENGRAM_MAX_COST: {
    group: 'limits',
    text: 'highest cost of one operation, computed with its variables before anything runs',
  },
  ENGRAM_MAX_ALIASES: { group: 'limits', text: 'most aliases in one query' },
  ENGRAM_MAX_TOKENS: { group: 'limits', text: 'most lexical tokens in one document' },
  ENGRAM_MAX_DIRECTIVES: { group: 'limits', text: 'most directives in one query' },
  ENGRAM_MAX_BODY_BYTES: { group: 'limits', text: 'largest request body; larger bodies get HTTP 413' },
  ENGRAM_WALK_BUDGET: { group: 'limits', text: 'most edges one `path` or `traverse` may examine' },
  ENGRAM_WORK_BUDGET: {
    group: 'limits',
    text: 'most rows one request may read or write across its store calls (`LIMIT_EXCEEDED`, reason `WORK_BUDGET`)',
  },
  ENGRAM_ROWS_PER_CALL: {
    group: 'limits',
    text: 'most rows one store read returns; bigger batches are read in parts, other requests served between',
  },
  ENGRAM_FEEDBACK_MAX_EDGES: {
    group: 'limits',
    text: 'most edges `feedback` without `via`, or `reinforceCoRetrieval`, may change in one call',
  },
  ENGRAM_RATE_POINTS_PER_SECOND: {
    group: 'limits',
    text: "per-workspace quota, charged by actual work (rows read and written, walk steps, 1 per operation): points a second a workspace's bucket drains; `0` (the default) turns quotas off, and the fair scheduler alone shares the server",
  },
  ENGRAM_RATE_BURST: {
    group: 'limits',
    text: "size of each workspace's quota bucket (used when `ENGRAM_RATE_POINTS_PER_SECOND` > 0)",
  },
  ENGRAM_CONCURRENCY: {
    group: 'limits',
    text: 'operations executing at once in each server process; more wait in fair queues, one per workspace (and API key); `0` turns the scheduler off',
  },
  ENGRAM_QUEUE_MAX: {
    group: 'limits',
    text: 'operations waiting for an execution slot, all workspaces together; when full, the workspace with the longest queue is refused (`RATE_LIMITED`, reason `QUEUE_FULL`)',
  },
  ENGRAM_QUEUE_WAIT_MS: {
    group: 'limits',
    text: 'longest an operation waits for an execution slot (`RATE_LIMITED`, reason `QUEUE_TIMEOUT`); the wait also counts against `ENGRAM_REQUEST_TIMEOUT_MS`',
  },
  ENGRAM_REQUEST_TIMEOUT_MS: {
    group: 'limits',
    text: 'deadline of one GraphQL request (`UNAVAILABLE`, reason `DEADLINE_EXCEEDED`)',
  },
  ENGRAM_WEIGHT_FLOOR: { group: 'weights', text: 'lowest weight; must be below `ENGRAM_WEIGHT_CEILING`' },
  ENGRAM_WEIGHT_CEILING: { group: 'weights', text: 'highest weight' },
  ENGRAM_PRUNE_THRESHOLD: { group: 'weights', text: 'edges at or below this weight are pruned' },
  ENGRAM_DEFAULT_EDGE_WEIGHT: { group: 'weights', text: 'starting weight of a new edge' },
  ENGRAM_DEFAULT_MEMORY_WEIGHT: { group: 'weights', text: 'starting weight of a new memory' },
  ENGRAM_AGENT_DELTA: { group: 'weights', text: 'step of an AGENT signal (feedback, strengthen without amount)' },
  ENGRAM_CONSCIOUS_DELTA: { group: 'weights', text: 'step of a CONSCIOUS signal' },
  ENGRAM_MANUAL_DELTA: {
    group: 'weights',
    text: 'step of a MANUAL signal where a step is needed (MANUAL otherwise sets values directly)',
  },
  ENGRAM_RECALL_DECAY: {
    group: 'weights',
    text: '`recall`: each hop multiplies activation by the edge weight and this (docs/recall.md)',
  },
  ENGRAM_RECALL_BUDGET: { group: 'limits', text: 'most edges one `recall` may examine while spreading activation' },
  ENGRAM_RECALL_TTL_SECONDS: {
    group: 'limits',
    text: 'how long a recall record (`recallRecord`, feedback by `recallId`) is kept',
  },
  ENGRAM_RECALL_LEARNED_WEIGHT: {
    group: 'weights',
    text: "starting weight of an association (`RECALLED_WITH`) that `USED` feedback by `recallId` creates from the recall's best word matches to the memory used",
  },
  ENGRAM_RECALL_LEARNED_PER_MEMORY: {
    group: 'limits',
    text: 'most learned `RECALLED_WITH` associations one memory may have in each direction, and most recall cues (questions it answered) it keeps, the newest; past it, feedback only strengthens the associations it has (`0`: feedback learns none)',
  },
  ENGRAM_ASSOCIATIONS: {
    group: 'weights',
    text: "`true`: associations between memories that share rare terms or names: writes index each memory's terms (derived data, not exported) and `recall` spreads through them (docs/recall.md, Associations). Off by default: measured, they lift multi-hop R@10 but not yet R@5. Memories written while it was off get terms when they are next updated or imported",
  },
  ENGRAM_ASSOCIATION_MAX_SHARED: {
    group: 'limits',
    text: 'a term held by more memories than this is too common to associate any (the document-frequency ceiling); also bounds what one term costs a recall',
  },
  ENGRAM_ASSOCIATIONS_PER_MEMORY: {
    group: 'limits',
    text: 'most associations one seed spreads along in a `recall` (its strongest, by the share of its term weight the two have in common); more found more at rank 6-10 of bench/longmem and pushed single-hop answers out of the top 5',
  },
  ENGRAM_API_KEYS: {
    group: 'security',
    text: 'API keys: `KEY=WORKSPACE:ROLE` entries (roles `read`, `write`, `admin`); `sha256:<64 hex>` stands for a key by its digest',
    rule: 'comma-separated entries; plain keys at least 16 characters',
  },
  ENGRAM_API_KEYS_FILE: {
    group: 'security',
    text: 'JSON array of `{"key","workspace","role"}` or `{"sha256","workspace","role"}`; used with `ENGRAM_API_KEYS`',
    rule: 'a file path',
  },
  ENGRAM_UNMASKED_ERRORS: {
    group: 'security',
    text: 'development only: unexpected errors carry their internal message (`extensions.internalMessage`)',
  },
  ENGRAM_CSRF_PREVENTION: {
    group: 'security',
    text: 'refuse requests a browser could send cross-site without a preflight; `false` is development only',
  },
  ENGRAM_CORS_ORIGINS: {
    group: 'security',
    text: 'origins allowed to call the API from a browser, or `*`; unset: no CORS headers',
    rule: 'comma-separated origins, `http(s)://` and a host, no path (`https://app.example.com`), or `*`',
  },
  ENGRAM_PERSISTED_ONLY: { group: 'security', text: 'run only the trusted operations of `ENGRAM_OPERATIONS_DIR`' },
  ENGRAM_OPERATIONS_DIR: {
    group: 'security',
    text: 'folder of the trusted operations (`*.graphql`)',
    default: '`schema/operations` of the installation',
    rule: 'a folder path',
  },
  ENGRAM_WORKSPACE: {
    group: 'mcp',
    text: 'the workspace every tool call of `engram mcp` (stdio) acts in, when no API keys are configured',
    default: 'the value of `ENGRAM_DEFAULT_WORKSPACE`',
    rule: workspaceRule,
  },
  ENGRAM_MCP_API_KEY: {
    group: 'mcp',
    text: 'the key `engram mcp` (stdio) presents when API keys are configured (required then)',
  },
  ENGRAM_LOG_LEVEL: { group: 'logs', text: 'pino level; logs go to stderr as JSON' },
  ENGRAM_METRICS: { group: 'logs', text: 'serve Prometheus metrics at `/metrics` (admin key when keys are set)' },
  ENGRAM_WORKERS: {
    group: 'server',
    text: 'server processes sharing the port and the store ([workers](operations.md#workers)); `1` is a single process',
    default: 'the number of cores (1 when NODE_ENV=test or under vitest)',
  },
  ENGRAM_EMBEDDINGS_URL: {
    group: 'embeddings',
    text: 'OpenAI-compatible embeddings endpoint: a base URL (`/v1/embeddings` is appended) or a URL ending in `/embeddings`; unset: no endpoint ([vectors](vectors.md))',
    default: 'none',
  },
  ENGRAM_EMBEDDINGS_MODEL: {
    group: 'embeddings',
    text: 'the model sent with every request; required with the URL',
    default: 'none',
  },
  ENGRAM_EMBEDDINGS_KEY: {
    group: 'embeddings',
    text: 'sent as `Authorization: Bearer <key>`; unset: no header',
    default: 'none',
  },
  ENGRAM_EMBEDDINGS_BATCH: {
    group: 'embeddings',
    text: 'most texts per endpoint request, and per back-fill round and workspace',
  },
  ENGRAM_EMBEDDINGS_TIMEOUT_MS: { group: 'embeddings', text: 'how long one endpoint request may take' },
  ENGRAM_EMBEDDINGS_RETRIES: {
    group: 'embeddings',
    text: 'further attempts after a request fails with a network error, a timeout, 429 or 5xx',
  },
  ENGRAM_EMBEDDINGS_BACKFILL_MS: {
    group: 'embeddings',
    text: 'pause between back-fill rounds (memories still lacking a vector)',
  },
  ENGRAM_EMBEDDINGS_QUERY_CACHE: {
    group: 'embeddings',
    text: "recall's query vectors kept per process, by workspace and text, so a question asked again is not embedded again; 0 keeps none",
  },
};

/** Every variable's line: the general ones above, then each store's from its adapter. */
const VARIABLE_DOCS: Record<string, VariableDoc> = {
  ...GENERAL_DOCS,
  ...Object.fromEntries(
    storeEnvDocs().flatMap((store) =>
      Object.entries(store.variables).map(([name, doc]) => [name, { ...doc, group: store.kind }]),
    ),
  ),
};

type JsonSchema = { type?: string; enum?: string[]; minimum?: number; maximum?: number; minLength?: number };

function ruleOf(schema: JsonSchema): string {
  if (schema.enum) return schema.enum.map((value) => `\`${value}\``).join(', ');
  const noun = schema.type === 'integer' ? 'integer' : schema.type === 'number' ? 'number' : 'text';
  const bounded = schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER;
  if (schema.minimum !== undefined && bounded) return `${noun} ${schema.minimum}..${schema.maximum}`;
  if (schema.minimum !== undefined) return `${noun} >= ${schema.minimum}`;
  if (schema.minLength) return 'non-empty text';
  return noun;
}

function defaultOf(value: unknown): string {
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return 'none';
  return `\`${String(value)}\``;
}

/** Variables the schema has and the map does not describe, and described ones the schema no longer has. */
export function undocumentedVariables(): { missing: string[]; stale: string[] } {
  const names = Object.keys(EnvSchema.shape);
  return {
    missing: names.filter((name) => !VARIABLE_DOCS[name]),
    stale: Object.keys(VARIABLE_DOCS).filter((name) => !names.includes(name)),
  };
}

export function renderConfigDocs(): string {
  const defaults: Record<string, unknown> = EnvSchema.parse({});
  const properties = (z.toJSONSchema(EnvSchema, { io: 'input', unrepresentable: 'any' }).properties ?? {}) as Record<
    string,
    JsonSchema
  >;
  const lines = [
    '# Configuration',
    '',
    '<!-- Generated from the env schema in src/config.ts and the descriptions in src/config-docs.ts',
    '     by scripts/print-config-docs.ts. Do not edit by hand: test/unit/config-docs.test.ts fails when it drifts. -->',
    '',
    'All configuration comes from environment variables, read once at start-up (`src/config.ts`); a bad',
    'value stops start-up with a message naming the variable. `npm start`, `npx engram mcp` and the other',
    'CLI commands read the same variables. Flags take `true` or `false` (also `1`/`0`, `yes`/`no`, `on`/`off`).',
    'How the settings work together: [operations](operations.md) (security, limits, logs, metrics, shutdown),',
    '[Neo4j](neo4j.md), [MCP](mcp.md), [the explorer](explorer.md).',
    '',
    ...Object.entries(GROUPS).map(
      ([, title]) =>
        `- [${title}](#${title
          .toLowerCase()
          .replace(/[^a-z0-9 -]/g, '')
          .replace(/ /g, '-')})`,
    ),
  ];
  for (const [group, title] of Object.entries(GROUPS)) {
    lines.push('', `## ${title}`, '', '| variable | default | allowed | meaning |', '|---|---|---|---|');
    for (const [name, doc] of Object.entries(VARIABLE_DOCS)) {
      if (doc.group !== group || !(name in EnvSchema.shape)) continue;
      const rule = doc.rule ?? ruleOf(properties[name] ?? {});
      lines.push(`| \`${name}\` | ${doc.default ?? defaultOf(defaults[name])} | ${rule} | ${doc.text} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}
