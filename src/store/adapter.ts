import type { z } from 'zod';
import type { GraphStore } from './port.js';

/**
 * What a store brings to Engram, in one object its folder exports (sqlite/adapter.ts,
 * neo4j/adapter.ts) and registry.ts lists: its environment variables, how they become settings,
 * and how to open it. Config, the server, the CLI and the tests learn about a store from that entry.
 */
/** One variable's line in docs/configuration.md (the default and rule are read from the schema unless given). */
export interface EnvVariableDoc {
  /** What the variable changes, in one line. */
  text: string;
  /** Shown instead of the parsed default, where the default is computed elsewhere. */
  default?: string;
  /** Shown instead of the rule read from the schema, where the schema's pattern would not read well. */
  rule?: string;
}

export interface StoreAdapter<Kind extends string, Shape extends z.ZodRawShape, Settings extends { kind: Kind }> {
  /** The value of ENGRAM_STORE that selects this store. */
  readonly kind: Kind;
  /** Its section of docs/configuration.md: the heading and a line for each of its variables. */
  readonly envDocs: { readonly title: string; readonly variables: { readonly [Name in keyof Shape]: EnvVariableDoc } };
  /**
   * The environment variables this store reads, with defaults and rules. Every store's variables
   * are checked whichever store is selected, so a malformed one fails at start-up, not on a switch.
   */
  readonly envSchema: z.ZodObject<Shape>;
  /** This store's settings from the parsed environment; StoreSetupError names a missing variable. */
  fromEnv(env: z.output<z.ZodObject<Shape>>): Settings;
  /**
   * Opens the store for the server. Rejects with StoreSetupError when the settings cannot work
   * (start-up stops with its message); a server that is merely down still opens (/ready says 503).
   */
  create(settings: Settings): Promise<GraphStore>;
  /** How a bulk command (engram import / export) opens the store, when it needs more than `create` gives (caches, timeouts). */
  createForBulk?(settings: Settings): Promise<GraphStore>;
  /** Records per import transaction, when the CLI's default does not suit the store. */
  readonly importBatchSize?: number;
}

/** The store's settings cannot work as given; the message names the variable or the fix. */
export class StoreSetupError extends Error {
  override name = 'StoreSetupError';
}
