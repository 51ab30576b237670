import type { z } from 'zod';
import type { EnvVariableDoc, StoreAdapter } from './adapter.js';
import { neo4jAdapter } from './neo4j/adapter.js';
import type { GraphStore } from './port.js';
import { sqliteAdapter } from './sqlite/adapter.js';

/**
 * Every store Engram can run on, and the only place that lists them. A new store is a folder with
 * an adapter.ts (its variables, their documentation, how to open it), one line here, and one
 * runStoreContract call in test/contract.
 */
const STORE_ADAPTERS = [sqliteAdapter, neo4jAdapter] as const;

type RegisteredAdapter = (typeof STORE_ADAPTERS)[number];

export type StoreKind = RegisteredAdapter['kind'];
/** The selected store's settings (Config['store']): one member per adapter, told apart by `kind`. */
export type StoreConfig = ReturnType<RegisteredAdapter['fromEnv']>;

type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void
  ? I
  : never;
/** The environment variables of every store, in one shape (they are all checked at start-up). */
export type StoreEnvShape = UnionToIntersection<RegisteredAdapter['envSchema']['shape']>;
export type StoreEnv = z.output<z.ZodObject<StoreEnvShape>>;

/** ENGRAM_STORE without the variable set. */
export const DEFAULT_STORE_KIND: StoreKind = sqliteAdapter.kind;

/** Each store's section of docs/configuration.md (its adapter's envDocs), in registry order. */
export function storeEnvDocs(): { kind: StoreKind; title: string; variables: Record<string, EnvVariableDoc> }[] {
  return STORE_ADAPTERS.map((adapter) => ({ kind: adapter.kind, ...adapter.envDocs }));
}

/** The values ENGRAM_STORE accepts, in registry order. */
export const STORE_KINDS = STORE_ADAPTERS.map((adapter) => adapter.kind) as [StoreKind, ...StoreKind[]];

export const storeEnvShape = Object.assign(
  {},
  ...STORE_ADAPTERS.map((adapter) => adapter.envSchema.shape),
) as StoreEnvShape;

/**
 * The adapter of a kind, typed for settings of that kind. Each adapter's settings carry its own
 * kind (fromEnv sets it), so settings and adapter always match; TypeScript cannot follow that
 * through the list, hence the one cast.
 */
function adapterFor(kind: StoreKind): StoreAdapter<StoreKind, z.ZodRawShape, StoreConfig> {
  const adapter = STORE_ADAPTERS.find((candidate) => candidate.kind === kind);
  if (!adapter) throw new Error(`No store adapter "${kind}"`);
  return adapter as unknown as StoreAdapter<StoreKind, z.ZodRawShape, StoreConfig>;
}

/** The selected store's settings; StoreSetupError when one of its variables is missing. */
export function storeConfigFromEnv(kind: StoreKind, env: StoreEnv): StoreConfig {
  return adapterFor(kind).fromEnv(env);
}

/** Who opens the store: the server, or engram import / export (`bulk`). */
export type StorePurpose = 'serve' | 'bulk';

/** Opens the configured store, for the server or, with `bulk`, for engram import / export. */
export function openStore(settings: StoreConfig, purpose: StorePurpose = 'serve'): Promise<GraphStore> {
  const adapter = adapterFor(settings.kind);
  return purpose === 'bulk' && adapter.createForBulk ? adapter.createForBulk(settings) : adapter.create(settings);
}

/** Records per import transaction on this store, when it names its own. */
export function importBatchSizeFor(kind: StoreKind): number | undefined {
  return adapterFor(kind).importBatchSize;
}
