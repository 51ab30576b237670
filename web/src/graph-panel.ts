/**
 * The canvas and what feeds it: opening (expanding) a memory, applying weight changes, the
 * toolbar, and keeping the lists beside the canvas in step with the drawing.
 */
import type { ExplorerActions } from './actions.js';
import { type ApiClient, operations } from './api.js';
import type { Elements } from './elements.js';
import type { Filters } from './filters.js';
import { createGraphView, type GraphView } from './graph.js';
import { renderGraphLists } from './graph-lists.js';
import type { LocationSync } from './location-sync.js';
import { clearGraphState, type ExplorerState, memoryRef } from './state.js';
import type { StatusLine } from './status.js';
import { toEdgeView, toMemoryNode, type WeightChange } from './types.js';
import { plural } from './widgets.js';

const NEIGHBOR_LIMIT = 30;

export interface GraphPanelDeps {
  el: Elements;
  state: ExplorerState;
  api: ApiClient;
  status: StatusLine;
  filters: Filters;
  address: LocationSync;
  actions: ExplorerActions;
  showMemoryDetails(id: string): void;
}

export interface GraphPanel {
  readonly view: GraphView;
  /** Draws a memory (by id or key) with its neighbors under the current filters and shows its details. */
  expand(ref: string): Promise<void>;
  /** Redraws everything derived from the drawing (path highlight, filters, lists). */
  afterChange(): void;
  applyChanges(changes: readonly WeightChange[]): void;
  clear(): void;
}

export function createGraphPanel(deps: GraphPanelDeps): GraphPanel {
  const { el, state, api, status, filters, address, actions } = deps;
  const open = (id: string) => void status.run(() => actions.openMemory(id));

  const view = createGraphView(el.graph, {
    onMemory: open,
    onEdge: (id) => void status.run(() => actions.openEdge(id)),
    onBackground: () => view.select(null),
  });

  function afterChange(): void {
    if (state.path) view.highlightPath(state.path.memoryIds, state.path.edgeIds);
    filters.render();
    renderGraphLists(el, state, open);
  }

  async function expand(ref: string): Promise<void> {
    const { memory } = await api.run(operations.neighborhood, {
      id: ref,
      direction: filters.direction(),
      types: filters.types(),
      limit: NEIGHBOR_LIMIT,
    });
    if (!memory) {
      status.show('That memory no longer exists in this workspace', 'error');
      return;
    }
    state.details.set(memory.id, memory);
    const centre = toMemoryNode(memory);
    const neighbors = memory.neighbors.map((neighbor) => toMemoryNode(neighbor.memory));
    const edges = memory.neighbors.map((neighbor) => toEdgeView(neighbor.edge));
    const grows = [centre, ...neighbors].some((node) => !view.hasMemory(node.id));
    for (const node of [centre, ...neighbors]) state.memories.set(node.id, node);
    for (const edge of edges) state.edges.set(edge.id, edge);
    view.putMemories([centre]);
    view.putMemories(neighbors, memory.id);
    view.putEdges(edges);
    view.markOpened(memory.id);
    if (grows) view.layout();
    afterChange();
    state.selected = { memory: memory.id };
    view.select(state.selected);
    deps.showMemoryDetails(memory.id);
    address.record({ memory: memoryRef(memory) });
    const pruned = edges.filter((edge) => edge.pruned).length;
    status.show(`${memory.title}: ${plural(edges.length, 'neighbor')}${pruned ? ` (${pruned} pruned)` : ''}`);
  }

  function applyChanges(changes: readonly WeightChange[]): void {
    for (const change of changes) {
      if (change.edge) {
        const edge = toEdgeView(change.edge);
        if (state.edges.has(edge.id) || (state.memories.has(edge.from) && state.memories.has(edge.to))) {
          state.edges.set(edge.id, edge);
          view.putEdges([edge]);
        }
      }
      const node = change.memory ? state.memories.get(change.memory.id) : undefined;
      if (change.memory && node) {
        const weight = change.memory.weight;
        state.memories.set(node.id, { ...node, weight });
        view.putMemories([{ ...node, weight }]);
        const details = state.details.get(node.id);
        if (details) state.details.set(node.id, { ...details, weight });
      }
    }
    afterChange();
  }

  function clear(): void {
    view.clear();
    clearGraphState(state);
    afterChange();
  }

  el.showPruned.addEventListener('change', () => view.setShowPruned(el.showPruned.checked));
  el.fitGraph.addEventListener('click', () => view.fit());
  el.relayout.addEventListener('click', () => view.layout());

  return { view, expand, afterChange, applyChanges, clear };
}
