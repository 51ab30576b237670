import { type Config, ConfigError } from '../config.js';
import { StoreSetupError } from './adapter.js';
import type { GraphStore } from './port.js';
import { openStore } from './registry.js';

/**
 * The configured store (registry.ts knows which exist). Settings the store cannot work with stop
 * start-up with a ConfigError naming the variable; `bulk` opens it as engram import / export do.
 */
export async function createStore(
  config: Pick<Config, 'store'>,
  purpose: 'serve' | 'bulk' = 'serve',
): Promise<GraphStore> {
  try {
    return await openStore(config.store, purpose);
  } catch (error) {
    if (error instanceof StoreSetupError) throw new ConfigError(`Invalid configuration: ${error.message}`);
    throw error;
  }
}
