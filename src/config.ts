import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { type ApiKey, ApiKeyConfigError, checkDistinct, parseApiKeyFile, parseApiKeyList } from './auth/api-keys.js';
import { BACKGROUND_WORKER_ENV } from './cluster/messages.js';
import { count, flag, fraction, optionalFlag, wholeNumber } from './domain/env-rules.js';
import { StartupError } from './domain/errors.js';
import { workspaceName } from './domain/inputs.js';
import { DEFAULT_WEIGHT_POLICY, type WeightPolicy } from './domain/weights.js';
import type { EmbeddingsSettings } from './embeddings/client.js';
import { packagePath } from './package-path.js';
import { StoreSetupError } from './store/adapter.js';
import {
  DEFAULT_STORE_KIND,
  STORE_KINDS,
  type StoreConfig,
  storeConfigFromEnv,
  storeEnvShape,
} from './store/registry.js';

const MAX_WORKERS = 256;
/** How recall spreads activation and how long its records last (src/services/recall/). */
export interface RecallSettings {
  /** Each hop multiplies activation by the edge weight and by this. */
  decay: number;
  /** Most edges one recall's spreading may examine. */
  budget: number;
  /** How long a recall record can be read back and given feedback. */
  ttlSeconds: number;
  /** Weight of an association that USED feedback by recallId creates (services/recall/learning.ts). */
  learnedWeight: number;
  /** Most learned associations one memory may have in each direction; past it, feedback only strengthens existing ones. */
  learnedPerMemory: number;
  /**
   * Shared-term associations (domain/associations.ts): writes index each memory's terms and recall
   * spreads through them. Off (the default): writes keep no terms and recall uses edges only.
   */
  associations: boolean;
  /** A term held by more memories than this is too common to associate anything. */
  associationMaxShared: number;
  /** Most associations one seed spreads along in a recall (its strongest). */
  associationsPerMemory: number;
}

export const DEFAULT_RECALL_SETTINGS: RecallSettings = {
  decay: 0.5,
  budget: 10_000,
  ttlSeconds: 86_400,
  learnedWeight: 0.5,
  learnedPerMemory: 20,
  associations: false,
  associationMaxShared: 20,
  associationsPerMemory: 1,
};

/** Every environment variable Engram reads, with its default; docs/configuration.md is generated from it. */
export const EnvSchema = z.object({
  PORT: count(4000, 0, 65535),
  HOST: z.string().min(1).optional().default('0.0.0.0'),
  ENGRAM_STORE: z.enum(STORE_KINDS).optional().default(DEFAULT_STORE_KIND),
  ...storeEnvShape,
  NODE_ENV: z.string().optional(),
  ENGRAM_MODE: z.enum(['development', 'production']).optional(),
  ENGRAM_GRAPHIQL: optionalFlag(),
  ENGRAM_INTROSPECTION: optionalFlag(),
  ENGRAM_EXPLORER: optionalFlag(),
  ENGRAM_UNMASKED_ERRORS: flag(false),
  ENGRAM_CSRF_PREVENTION: flag(true),
  ENGRAM_API_KEYS: z.string().optional(),
  ENGRAM_API_KEYS_FILE: z.string().min(1).optional(),
  ENGRAM_PERSISTED_ONLY: flag(false),
  ENGRAM_OPERATIONS_DIR: z.string().min(1).optional(),
  ENGRAM_CORS_ORIGINS: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((origin) => origin.trim())
        .filter((origin) => origin !== ''),
    )
    .pipe(
      z.array(
        z.union([
          z.literal('*'),
          z
            .string()
            .regex(/^https?:\/\/[^/\s]+$/, 'origins look like https://app.example.com (scheme and host, no path)'),
        ]),
      ),
    ),
  ENGRAM_RATE_POINTS_PER_SECOND: count(0, 0),
  ENGRAM_RATE_BURST: count(20_000),
  ENGRAM_REQUEST_TIMEOUT_MS: count(10_000),
  ENGRAM_CONCURRENCY: count(8, 0, 1024),
  ENGRAM_QUEUE_MAX: count(1000, 1),
  ENGRAM_QUEUE_WAIT_MS: count(5000, 1),
  ENGRAM_SHUTDOWN_GRACE_MS: count(10_000, 0),
  ENGRAM_METRICS: flag(true),
  ENGRAM_STRICT_TYPES: flag(false),
  ENGRAM_DEFAULT_WORKSPACE: workspaceName.optional().default('default'),
  ENGRAM_WORKSPACE: workspaceName.optional(),
  ENGRAM_MCP_API_KEY: z.string().min(1).optional(),
  ENGRAM_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional().default('info'),
  ENGRAM_MAX_DEPTH: count(12),
  ENGRAM_MAX_COST: count(5000),
  ENGRAM_MAX_ALIASES: count(15),
  ENGRAM_MAX_TOKENS: count(2000),
  ENGRAM_MAX_DIRECTIVES: count(20),
  ENGRAM_MAX_BODY_BYTES: count(262_144),
  ENGRAM_WALK_BUDGET: count(50_000),
  ENGRAM_WORK_BUDGET: count(10_000),
  ENGRAM_ROWS_PER_CALL: count(1_000),
  ENGRAM_FEEDBACK_MAX_EDGES: count(1_000),
  ENGRAM_WEIGHT_FLOOR: fraction(DEFAULT_WEIGHT_POLICY.floor),
  ENGRAM_WEIGHT_CEILING: fraction(DEFAULT_WEIGHT_POLICY.ceiling),
  ENGRAM_PRUNE_THRESHOLD: fraction(DEFAULT_WEIGHT_POLICY.pruneThreshold),
  ENGRAM_DEFAULT_EDGE_WEIGHT: fraction(DEFAULT_WEIGHT_POLICY.defaultEdgeWeight),
  ENGRAM_DEFAULT_MEMORY_WEIGHT: fraction(DEFAULT_WEIGHT_POLICY.defaultMemoryWeight),
  ENGRAM_AGENT_DELTA: fraction(DEFAULT_WEIGHT_POLICY.tierDelta.AGENT),
  ENGRAM_CONSCIOUS_DELTA: fraction(DEFAULT_WEIGHT_POLICY.tierDelta.CONSCIOUS),
  ENGRAM_MANUAL_DELTA: fraction(DEFAULT_WEIGHT_POLICY.tierDelta.MANUAL),
  ENGRAM_WORKERS: wholeNumber(1, MAX_WORKERS).optional(),
  ENGRAM_RECALL_DECAY: fraction(DEFAULT_RECALL_SETTINGS.decay),
  ENGRAM_RECALL_BUDGET: count(DEFAULT_RECALL_SETTINGS.budget),
  ENGRAM_RECALL_TTL_SECONDS: count(DEFAULT_RECALL_SETTINGS.ttlSeconds),
  ENGRAM_RECALL_LEARNED_WEIGHT: fraction(DEFAULT_RECALL_SETTINGS.learnedWeight),
  ENGRAM_RECALL_LEARNED_PER_MEMORY: count(DEFAULT_RECALL_SETTINGS.learnedPerMemory, 0, 1000),
  ENGRAM_ASSOCIATIONS: flag(DEFAULT_RECALL_SETTINGS.associations),
  ENGRAM_ASSOCIATION_MAX_SHARED: count(DEFAULT_RECALL_SETTINGS.associationMaxShared, 2, 1000),
  ENGRAM_ASSOCIATIONS_PER_MEMORY: count(DEFAULT_RECALL_SETTINGS.associationsPerMemory, 1, 100),
  ENGRAM_EMBEDDINGS_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  ENGRAM_EMBEDDINGS_MODEL: z.string().min(1).optional(),
  ENGRAM_EMBEDDINGS_KEY: z.string().min(1).optional(),
  ENGRAM_EMBEDDINGS_BATCH: count(32, 1, 512),
  ENGRAM_EMBEDDINGS_TIMEOUT_MS: count(10_000),
  ENGRAM_EMBEDDINGS_RETRIES: count(2, 0, 10),
  ENGRAM_EMBEDDINGS_BACKFILL_MS: count(30_000, 100),
  ENGRAM_EMBEDDINGS_QUERY_CACHE: count(1000, 0, 100_000),
});

export interface QueryLimits {
  maxDepth: number;
  maxCost: number;
  maxAliases: number;
  maxTokens: number;
  maxDirectives: number;
  maxBodyBytes: number;
  /** Edges one path or traverse may examine before it stops. */
  walkBudget: number;
  /** Rows (memories, edges, weight events) one request may read or write across all its store calls. */
  workBudget: number;
  /** Most rows one store call reads: bigger batches are split, with other requests served between the parts. */
  rowsPerCall: number;
  /** feedback without `via`, and reinforceCoRetrieval, touch at most this many edges; more is refused. */
  feedbackMaxEdges: number;
}

/** Per-workspace quota of actual work: a leaky bucket of `burst` points draining at `pointsPerSecond`. */
export interface RateLimit {
  /** 0 turns the budget off. */
  pointsPerSecond: number;
  burst: number;
}

/** The fair scheduler in front of execution (src/limits/fair-scheduler.ts). */
interface AdmissionSettings {
  /** Operations executing at once in this process; 0 turns the scheduler off. */
  concurrency: number;
  /** Operations waiting for a seat, all workspaces together. */
  maxQueued: number;
  /** Longest an operation waits for a seat. */
  maxWaitMs: number;
}

export interface Config {
  port: number;
  host: string;
  /** The selected store's settings; each store's adapter (src/store/registry.ts) defines its own. */
  store: StoreConfig;
  /** production: NODE_ENV=production or ENGRAM_MODE=production. */
  mode: 'development' | 'production';
  graphiql: boolean;
  /** The graph explorer page at /explore; like GraphiQL, on in development and off in production unless enabled. */
  explorer: boolean;
  introspection: boolean;
  /** Development only: unexpected errors carry their internal message to the client. */
  unmaskedErrors: boolean;
  csrfPrevention: boolean;
  /** Empty: no keys, the workspace comes from the x-engram-workspace header (local use). */
  apiKeys: ApiKey[];
  persistedOnly: boolean;
  /** Folder of the trusted documents (*.graphql) for ENGRAM_PERSISTED_ONLY. */
  operationsDir: string;
  /** Empty: no cross-origin access. ['*']: any origin. */
  corsOrigins: string[];
  rateLimit: RateLimit;
  admission: AdmissionSettings;
  requestTimeoutMs: number;
  shutdownGraceMs: number;
  metrics: boolean;
  strictTypes: boolean;
  defaultWorkspace: string;
  /** The workspace the stdio MCP server (`engram mcp`) acts in; default: defaultWorkspace. */
  mcpWorkspace: string;
  /** The key the stdio MCP server presents when API keys are configured (its workspace comes from the key). */
  mcpApiKey: string | null;
  logLevel: string;
  limits: QueryLimits;
  policy: WeightPolicy;
  /** Server processes sharing the port (src/cluster/); 1 is a single process. */
  workers: number;
  /**
   * Whether this process is the worker slot the primary picked for background work (the embeddings
   * back-fill); set by the primary through BACKGROUND_WORKER_ENV, never by an operator.
   */
  backgroundWorkerSlot: boolean;
  recall: RecallSettings;
  /** The embeddings endpoint (docs/vectors.md); null when ENGRAM_EMBEDDINGS_URL is not set. */
  embeddings: EmbeddingsConfig | null;
}

interface EmbeddingsConfig extends EmbeddingsSettings {
  /** Pause between back-fill rounds. */
  backfillMs: number;
  /** Most query vectors kept per process (query-embeddings.ts); 0 keeps none. */
  queryCache: number;
}

export class ConfigError extends StartupError {
  override name = 'ConfigError';
}

/** A store adapter's complaint about its settings, as the ConfigError start-up prints; anything else as it is. */
export const asConfigError = (error: unknown): unknown =>
  error instanceof StoreSetupError ? new ConfigError(`Invalid configuration: ${error.message}`) : error;

/** The store's settings from its adapter, its complaint (a missing variable) as a ConfigError. */
function storeConfig(e: z.infer<typeof EnvSchema>): StoreConfig {
  try {
    return storeConfigFromEnv(e.ENGRAM_STORE, e);
  } catch (error) {
    throw asConfigError(error);
  }
}

/** Reads the environment once; a bad value stops start-up with a message naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${shownVariable(issue.path, env)}: ${issue.message}`);
    throw new ConfigError(
      problems.length === 1
        ? `Invalid configuration: ${problems[0]}`
        : `Invalid configuration:\n  ${problems.join('\n  ')}`,
    );
  }
  const e = parsed.data;
  if (e.ENGRAM_WEIGHT_FLOOR >= e.ENGRAM_WEIGHT_CEILING) {
    throw new ConfigError('Invalid configuration: ENGRAM_WEIGHT_FLOOR must be below ENGRAM_WEIGHT_CEILING');
  }
  const mode = e.NODE_ENV === 'production' || e.ENGRAM_MODE === 'production' ? 'production' : 'development';
  refuseDevelopmentSettings(mode, e);
  const graphiql = e.ENGRAM_GRAPHIQL ?? mode === 'development';
  return {
    port: e.PORT,
    host: e.HOST,
    store: storeConfig(e),
    mode,
    graphiql,
    explorer: e.ENGRAM_EXPLORER ?? mode === 'development',
    // GraphiQL needs introspection: enabling it in production enables introspection too, unless turned off.
    introspection: e.ENGRAM_INTROSPECTION ?? (mode === 'development' || graphiql),
    unmaskedErrors: e.ENGRAM_UNMASKED_ERRORS,
    csrfPrevention: e.ENGRAM_CSRF_PREVENTION,
    apiKeys: loadApiKeys(e.ENGRAM_API_KEYS, e.ENGRAM_API_KEYS_FILE),
    persistedOnly: e.ENGRAM_PERSISTED_ONLY,
    operationsDir: e.ENGRAM_OPERATIONS_DIR ?? packagePath('schema/operations'),
    corsOrigins: e.ENGRAM_CORS_ORIGINS,
    rateLimit: { pointsPerSecond: e.ENGRAM_RATE_POINTS_PER_SECOND, burst: e.ENGRAM_RATE_BURST },
    admission: { concurrency: e.ENGRAM_CONCURRENCY, maxQueued: e.ENGRAM_QUEUE_MAX, maxWaitMs: e.ENGRAM_QUEUE_WAIT_MS },
    requestTimeoutMs: e.ENGRAM_REQUEST_TIMEOUT_MS,
    shutdownGraceMs: e.ENGRAM_SHUTDOWN_GRACE_MS,
    metrics: e.ENGRAM_METRICS,
    strictTypes: e.ENGRAM_STRICT_TYPES,
    workers: e.ENGRAM_WORKERS ?? defaultWorkers(env),
    backgroundWorkerSlot: env[BACKGROUND_WORKER_ENV] === '1',
    defaultWorkspace: e.ENGRAM_DEFAULT_WORKSPACE,
    mcpWorkspace: e.ENGRAM_WORKSPACE ?? e.ENGRAM_DEFAULT_WORKSPACE,
    mcpApiKey: e.ENGRAM_MCP_API_KEY ?? null,
    logLevel: e.ENGRAM_LOG_LEVEL,
    limits: {
      maxDepth: e.ENGRAM_MAX_DEPTH,
      maxCost: e.ENGRAM_MAX_COST,
      maxAliases: e.ENGRAM_MAX_ALIASES,
      maxTokens: e.ENGRAM_MAX_TOKENS,
      maxDirectives: e.ENGRAM_MAX_DIRECTIVES,
      maxBodyBytes: e.ENGRAM_MAX_BODY_BYTES,
      walkBudget: e.ENGRAM_WALK_BUDGET,
      workBudget: e.ENGRAM_WORK_BUDGET,
      rowsPerCall: e.ENGRAM_ROWS_PER_CALL,
      feedbackMaxEdges: e.ENGRAM_FEEDBACK_MAX_EDGES,
    },
    policy: {
      ...DEFAULT_WEIGHT_POLICY,
      floor: e.ENGRAM_WEIGHT_FLOOR,
      ceiling: e.ENGRAM_WEIGHT_CEILING,
      pruneThreshold: e.ENGRAM_PRUNE_THRESHOLD,
      defaultEdgeWeight: e.ENGRAM_DEFAULT_EDGE_WEIGHT,
      defaultMemoryWeight: e.ENGRAM_DEFAULT_MEMORY_WEIGHT,
      tierDelta: { AGENT: e.ENGRAM_AGENT_DELTA, CONSCIOUS: e.ENGRAM_CONSCIOUS_DELTA, MANUAL: e.ENGRAM_MANUAL_DELTA },
    },
    recall: {
      decay: e.ENGRAM_RECALL_DECAY,
      budget: e.ENGRAM_RECALL_BUDGET,
      ttlSeconds: e.ENGRAM_RECALL_TTL_SECONDS,
      learnedWeight: e.ENGRAM_RECALL_LEARNED_WEIGHT,
      learnedPerMemory: e.ENGRAM_RECALL_LEARNED_PER_MEMORY,
      associations: e.ENGRAM_ASSOCIATIONS,
      associationMaxShared: e.ENGRAM_ASSOCIATION_MAX_SHARED,
      associationsPerMemory: e.ENGRAM_ASSOCIATIONS_PER_MEMORY,
    },
    embeddings: embeddingsConfig(e),
  };
}

function embeddingsConfig(e: z.infer<typeof EnvSchema>): EmbeddingsConfig | null {
  if (e.ENGRAM_EMBEDDINGS_URL === undefined) return null;
  if (e.ENGRAM_EMBEDDINGS_MODEL === undefined) {
    throw new ConfigError(
      'Invalid configuration: ENGRAM_EMBEDDINGS_URL is set, so ENGRAM_EMBEDDINGS_MODEL must name the model',
    );
  }
  return {
    url: e.ENGRAM_EMBEDDINGS_URL,
    model: e.ENGRAM_EMBEDDINGS_MODEL,
    key: e.ENGRAM_EMBEDDINGS_KEY ?? null,
    batch: e.ENGRAM_EMBEDDINGS_BATCH,
    timeoutMs: e.ENGRAM_EMBEDDINGS_TIMEOUT_MS,
    retries: e.ENGRAM_EMBEDDINGS_RETRIES,
    backfillMs: e.ENGRAM_EMBEDDINGS_BACKFILL_MS,
    queryCache: e.ENGRAM_EMBEDDINGS_QUERY_CACHE,
  };
}

/**
 * Production refuses settings that only make sense on a developer's machine, naming each one,
 * rather than running with them quietly.
 */
function refuseDevelopmentSettings(mode: Config['mode'], e: z.infer<typeof EnvSchema>): void {
  if (mode !== 'production') return;
  const refused: string[] = [];
  if (e.ENGRAM_UNMASKED_ERRORS) refused.push('ENGRAM_UNMASKED_ERRORS=true (sends internal error messages to clients)');
  if (!e.ENGRAM_CSRF_PREVENTION)
    refused.push('ENGRAM_CSRF_PREVENTION=false (lets other sites post to the API from a browser)');
  if (refused.length > 0) {
    throw new ConfigError(
      `Refusing to start in production mode (NODE_ENV=production or ENGRAM_MODE=production) with development-only settings:\n  ${refused.join('\n  ')}\nRemove them, or run in development mode.`,
    );
  }
}

function loadApiKeys(list: string | undefined, file: string | undefined): ApiKey[] {
  try {
    const keys = [...(list ? parseApiKeyList(list) : []), ...(file ? parseApiKeyFile(file) : [])];
    checkDistinct(keys);
    return keys;
  } catch (error) {
    if (error instanceof ApiKeyConfigError) throw new ConfigError(`Invalid configuration: ${error.message}`);
    throw error;
  }
}

/** Values that may be secrets are never echoed. */
const SECRET = /KEY|PASSWORD|TOKEN|SECRET/;

/** NAME=value, so the message shows what was read; the value is quoted when it is long or not plain. */
function shownVariable(path: readonly PropertyKey[], env: Record<string, string | undefined>): string {
  const name = String(path[0]);
  // Credentials in a URI (scheme://user:password@host) are never echoed, whichever variable holds it.
  const value = env[name]?.replace(/\/\/[^/@\s]*@/, '//***@');
  if (value === undefined || SECRET.test(name)) return path.map(String).join('.');
  return /^[\x21-\x7e]{1,60}$/.test(value) ? `${name}=${value}` : `${name}=${JSON.stringify(value.slice(0, 60))}`;
}

/** One per core, except in tests (which start many servers and count on one process each) unless set. */
function defaultWorkers(env: Record<string, string | undefined>): number {
  return env.NODE_ENV === 'test' || env.VITEST !== undefined ? 1 : availableParallelism();
}
