/** What the explorer holds between actions. One instance per page, made by createState and passed to the panels. */
import type { EdgeView, MemoryNode, NeighborhoodMemory } from './types.js';

type Selection = { memory: string } | { edge: string } | null;

interface ShownPath {
  memoryIds: string[];
  edgeIds: string[];
}

export interface ExplorerState {
  workspace: string;
  /** Set when the server uses API keys; never stored beyond this page's memory. */
  apiKey: string | null;
  /** Everything drawn, by id. */
  memories: Map<string, MemoryNode>;
  edges: Map<string, EdgeView>;
  /** Full records of the memories opened or expanded (content, tags, dates). */
  details: Map<string, NeighborhoodMemory>;
  selected: Selection;
  pathFrom: MemoryNode | null;
  pathTo: MemoryNode | null;
  path: ShownPath | null;
  relationTypes: Set<string>;
}

export function createState(workspace: string): ExplorerState {
  return {
    workspace,
    apiKey: null,
    memories: new Map(),
    edges: new Map(),
    details: new Map(),
    selected: null,
    pathFrom: null,
    pathTo: null,
    path: null,
    relationTypes: new Set(),
  };
}

/** Empties what is drawn and picked; the workspace, key and vocabulary stay. */
export function clearGraphState(state: ExplorerState): void {
  state.memories.clear();
  state.edges.clear();
  state.details.clear();
  state.selected = null;
  state.pathFrom = null;
  state.pathTo = null;
  state.path = null;
}

/** How a memory is named in the address bar and in messages: its key when it has one. */
export const memoryRef = (memory: { id: string; key: string | null }): string => memory.key ?? memory.id;
