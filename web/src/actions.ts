/**
 * The things one panel asks another to do. Panels get this interface rather than each other, so
 * none imports another and main.ts decides who answers.
 */
import type { EdgeDetails, MemoryNode } from './types.js';

export type FeedbackSignal = 'USED' | 'NOT_RELEVANT' | 'NOT_USEFUL';

export interface ExplorerActions {
  /** Draws a memory with its neighbors, shows its details, and records it in the address bar. */
  openMemory(ref: string): Promise<void>;
  openEdge(id: string): Promise<void>;
  setPathEnd(end: 'from' | 'to', memory: MemoryNode): void;
  adjustEdge(edge: EdgeDetails, how: 'weaken' | 'strengthen', amount: number): Promise<void>;
  giveFeedback(memoryId: string, signal: FeedbackSignal): Promise<void>;
}
