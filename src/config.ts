import { z } from 'zod';
import { DEFAULT_WEIGHT_POLICY, type WeightPolicy } from './domain/weights.js';
import { workspaceName } from './domain/inputs.js';

const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], { message: 'must be true or false' })
    .optional()
    .transform((value) => (value === undefined ? fallback : ['true', '1', 'yes', 'on'].includes(value)));

const count = (fallback: number, min = 1) => z.coerce.number().int().min(min).optional().default(fallback);
const fraction = (fallback: number) => z.coerce.number().min(0).max(1).optional().default(fallback);

/** Every environment variable Engram reads, with its default. README "Configuration" mirrors this. */
const EnvSchema = z.object({
  PORT: count(4000, 0).pipe(z.number().max(65535)),
  HOST: z.string().min(1).optional().default('0.0.0.0'),
  ENGRAM_STORE: z.enum(['sqlite', 'neo4j']).optional().default('sqlite'),
  ENGRAM_SQLITE_PATH: z.string().min(1).optional().default('./data/engram.db'),
  ENGRAM_SQLITE_BUSY_TIMEOUT_MS: count(5000, 0),
  ENGRAM_GRAPHIQL: flag(true),
  ENGRAM_STRICT_TYPES: flag(false),
  ENGRAM_DEFAULT_WORKSPACE: workspaceName.optional().default('default'),
  ENGRAM_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional().default('info'),
  ENGRAM_MAX_DEPTH: count(12),
  ENGRAM_MAX_COST: count(5000),
  ENGRAM_MAX_ALIASES: count(15),
  ENGRAM_MAX_TOKENS: count(2000),
  ENGRAM_MAX_DIRECTIVES: count(20),
  ENGRAM_MAX_BODY_BYTES: count(262_144),
  ENGRAM_WALK_BUDGET: count(200_000),
  ENGRAM_WEIGHT_FLOOR: fraction(DEFAULT_WEIGHT_POLICY.floor),
  ENGRAM_WEIGHT_CEILING: fraction(DEFAULT_WEIGHT_POLICY.ceiling),
  ENGRAM_PRUNE_THRESHOLD: fraction(DEFAULT_WEIGHT_POLICY.pruneThreshold),
  ENGRAM_DEFAULT_EDGE_WEIGHT: fraction(DEFAULT_WEIGHT_POLICY.defaultEdgeWeight),
  ENGRAM_DEFAULT_MEMORY_WEIGHT: fraction(DEFAULT_WEIGHT_POLICY.defaultMemoryWeight),
  ENGRAM_AGENT_DELTA: fraction(DEFAULT_WEIGHT_POLICY.tierDelta.AGENT),
  ENGRAM_CONSCIOUS_DELTA: fraction(DEFAULT_WEIGHT_POLICY.tierDelta.CONSCIOUS),
  ENGRAM_MANUAL_DELTA: fraction(DEFAULT_WEIGHT_POLICY.tierDelta.MANUAL),
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
}

export interface Config {
  port: number;
  host: string;
  store: { kind: 'sqlite'; path: string; busyTimeoutMs: number } | { kind: 'neo4j' };
  graphiql: boolean;
  strictTypes: boolean;
  defaultWorkspace: string;
  logLevel: string;
  limits: QueryLimits;
  policy: WeightPolicy;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads the environment once; a bad value stops start-up with a message naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  if (e.ENGRAM_WEIGHT_FLOOR >= e.ENGRAM_WEIGHT_CEILING) {
    throw new ConfigError('Invalid configuration: ENGRAM_WEIGHT_FLOOR must be below ENGRAM_WEIGHT_CEILING');
  }
  return {
    port: e.PORT,
    host: e.HOST,
    store:
      e.ENGRAM_STORE === 'sqlite'
        ? { kind: 'sqlite', path: e.ENGRAM_SQLITE_PATH, busyTimeoutMs: e.ENGRAM_SQLITE_BUSY_TIMEOUT_MS }
        : { kind: 'neo4j' },
    graphiql: e.ENGRAM_GRAPHIQL,
    strictTypes: e.ENGRAM_STRICT_TYPES,
    defaultWorkspace: e.ENGRAM_DEFAULT_WORKSPACE,
    logLevel: e.ENGRAM_LOG_LEVEL,
    limits: {
      maxDepth: e.ENGRAM_MAX_DEPTH,
      maxCost: e.ENGRAM_MAX_COST,
      maxAliases: e.ENGRAM_MAX_ALIASES,
      maxTokens: e.ENGRAM_MAX_TOKENS,
      maxDirectives: e.ENGRAM_MAX_DIRECTIVES,
      maxBodyBytes: e.ENGRAM_MAX_BODY_BYTES,
      walkBudget: e.ENGRAM_WALK_BUDGET,
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
  };
}
