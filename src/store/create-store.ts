import { asConfigError, type Config } from '../config.js';
import type { GraphStore } from './port.js';
import { openStore, type StorePurpose } from './registry.js';

/**
 * The configured store (registry.ts knows which exist). Settings the store cannot work with stop
 * start-up with a ConfigError naming the variable; `bulk` opens it as engram import / export do.
 */
export async function createStore(config: Pick<Config, 'store'>, purpose: StorePurpose = 'serve'): Promise<GraphStore> {
  try {
    return await openStore(config.store, purpose);
  } catch (error) {
    throw asConfigError(error);
  }
}
