/** The shortest-path panel: the two ends picked from the details panel, the search, and the highlighted answer. */
import type { ExplorerActions } from './actions.js';
import { type ApiClient, operations } from './api.js';
import { h } from './dom.js';
import type { Elements } from './elements.js';
import type { Filters } from './filters.js';
import type { GraphView } from './graph.js';
import type { LocationSync } from './location-sync.js';
import { type ExplorerState, memoryRef } from './state.js';
import type { StatusLine } from './status.js';
import { type MemoryNode, toEdgeView, toMemoryNode } from './types.js';
import { DEFAULT_MAX_HOPS, type PathLocation } from './url-state.js';
import { memoryButton, plural } from './widgets.js';

export interface PathPanelDeps {
  el: Elements;
  state: ExplorerState;
  api: ApiClient;
  status: StatusLine;
  filters: Filters;
  view: GraphView;
  address: LocationSync;
  actions: ExplorerActions;
  afterGraphChange(): void;
}

export interface PathPanel {
  setEnd(end: 'from' | 'to', memory: MemoryNode): void;
  /** Shows the path an address names: looks both ends up, then searches as the Find button does. */
  restore(path: PathLocation): Promise<void>;
  /** Takes the highlight off; `forget` also drops the ends (the graph was cleared). */
  clear(options?: { forget?: boolean }): void;
}

const clampHops = (value: string): number => Math.min(10, Math.max(1, Math.round(Number(value) || DEFAULT_MAX_HOPS)));

export function createPathPanel(deps: PathPanelDeps): PathPanel {
  const { el, state, api, status, filters, view, address, actions } = deps;
  const open = (id: string) => void status.run(() => actions.openMemory(id));

  function renderEnds(): void {
    el.pathFrom.textContent = state.pathFrom?.title ?? 'pick a memory';
    el.pathTo.textContent = state.pathTo?.title ?? 'pick a memory';
    el.findPath.disabled = !(state.pathFrom && state.pathTo);
  }

  function clear({ forget = false } = {}): void {
    state.path = null;
    view.clearPath();
    el.pathResult.textContent = '';
    el.pathSteps.replaceChildren();
    if (forget) {
      state.pathFrom = null;
      state.pathTo = null;
      renderEnds();
    }
  }

  async function find(): Promise<void> {
    const from = state.pathFrom;
    const to = state.pathTo;
    if (!from || !to) return;
    const maxHops = clampHops(el.maxHops.value);
    el.maxHops.value = String(maxHops);
    const { path } = await api.run(operations.path, {
      from: from.id,
      to: to.id,
      maxHops,
      types: filters.types(),
      direction: filters.direction(),
    });
    address.record({ path: { from: memoryRef(from), to: memoryRef(to), maxHops } });
    clear();
    if (!path.found) {
      el.pathResult.textContent = path.message ?? 'No path found';
      status.show(path.message ?? 'No path found');
      return;
    }
    const memories = path.steps.map((step) => toMemoryNode(step.memory));
    const edges = path.steps.flatMap((step) => (step.edgeToNext ? [toEdgeView(step.edgeToNext)] : []));
    const grows = memories.some((memory) => !view.hasMemory(memory.id));
    for (const memory of memories) state.memories.set(memory.id, memory);
    for (const edge of edges) state.edges.set(edge.id, edge);
    // Each new memory starts beside the one before it on the path, so the layout stays readable.
    let previous = from.id;
    for (const memory of memories) {
      view.putMemories([memory], previous);
      previous = memory.id;
    }
    view.putEdges(edges);
    if (grows) view.layout();
    state.path = { memoryIds: memories.map((memory) => memory.id), edgeIds: edges.map((edge) => edge.id) };
    deps.afterGraphChange();
    el.pathResult.textContent = `${plural(path.hops, 'hop')} from ${from.title} to ${to.title}`;
    el.pathSteps.replaceChildren(
      ...path.steps.map((step) =>
        h(
          'li',
          {},
          memoryButton(step.memory, open),
          step.edgeToNext ? h('span', { class: 'via' }, step.edgeToNext.type) : null,
        ),
      ),
    );
    status.show(`Path found: ${plural(path.hops, 'hop')}`);
  }

  async function lookUp(ref: string): Promise<MemoryNode | null> {
    const { memory } = await api.run(operations.neighborhood, { id: ref, limit: 1 });
    return memory ? toMemoryNode(memory) : null;
  }

  el.findPath.addEventListener('click', () => void status.run(find));
  el.clearPath.addEventListener('click', () => {
    clear();
    address.record({ path: null });
  });
  renderEnds();

  return {
    setEnd(end, memory) {
      if (end === 'from') state.pathFrom = memory;
      else state.pathTo = memory;
      renderEnds();
      status.show(`Path ${end === 'from' ? 'start' : 'end'}: ${memory.title}`);
    },
    async restore({ from, to, maxHops }) {
      const [start, end] = await Promise.all([lookUp(from), lookUp(to)]);
      if (!start || !end) {
        status.show('The path in the address names a memory that is not in this workspace', 'error');
        return;
      }
      state.pathFrom = start;
      state.pathTo = end;
      el.maxHops.value = String(maxHops);
      renderEnds();
      await find();
    },
    clear,
  };
}
