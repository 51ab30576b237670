/**
 * Engram explorer: search, open and expand memories, inspect edges and their weight history,
 * find shortest paths, recall along weighted edges, and adjust weights. This file only composes: createExplorer makes the
 * state and the panels, hands each the actions of the others, and restores the view the address
 * bar names (see url-state.ts).
 */
import type { ExplorerActions } from './actions.js';
import { createApiClient } from './api.js';
import { createEdgeDetails } from './edge-details.js';
import { findElements } from './elements.js';
import { createFilters } from './filters.js';
import type { GraphView } from './graph.js';
import { createGraphPanel } from './graph-panel.js';
import { createLocationSync } from './location-sync.js';
import { createMemoryDetails } from './memory-details.js';
import { createPathPanel } from './path-panel.js';
import { createRecallPanel } from './recall-panel.js';
import { createSearchPanel } from './search-panel.js';
import { createState, type ExplorerState } from './state.js';
import { createStatusLine } from './status.js';
import type { ExplorerLocation } from './url-state.js';
import { createWeights } from './weights.js';
import { createWorkspacePanel, initialWorkspace } from './workspace-panel.js';

declare global {
  interface Window {
    /** Read-only handle for the browser test and for poking around in devtools. */
    engramExplorer?: { cy: GraphView['cy']; state: ExplorerState };
  }
}

function createExplorer(): { start(): Promise<void> } {
  const el = findElements();
  const state = createState(initialWorkspace());
  const status = createStatusLine(el);
  const address = createLocationSync(window);
  const api = createApiClient({
    endpoint: '/graphql',
    credentials: () => ({ workspace: state.workspace, apiKey: state.apiKey }),
  });

  // Every panel reaches the others through these; they are called only after all panels exist.
  const actions: ExplorerActions = {
    openMemory: (ref) => graph.expand(ref),
    openEdge: (id) => edgeDetails.open(id),
    setPathEnd: (end, memory) => path.setEnd(end, memory),
    adjustEdge: (edge, how, amount) => weights.adjustEdge(edge, how, amount),
    giveFeedback: (memoryId, signal) => weights.giveFeedback(memoryId, signal),
  };

  const filters = createFilters({ el, state, api });
  const memoryDetails = createMemoryDetails({ el, state, status, actions });
  const showMemoryDetails = (id: string) => memoryDetails.render(id);
  const graph = createGraphPanel({ el, state, api, status, filters, address, actions, showMemoryDetails });
  const view = graph.view;
  const edgeDetails = createEdgeDetails({ el, state, api, status, view, actions });
  const weights = createWeights({ api, status, actions, applyChanges: graph.applyChanges, showMemoryDetails });
  const path = createPathPanel({
    el,
    state,
    api,
    status,
    filters,
    view,
    address,
    actions,
    afterGraphChange: graph.afterChange,
  });
  const search = createSearchPanel({ el, api, status, actions });
  const recall = createRecallPanel({
    el,
    state,
    api,
    status,
    view,
    address,
    actions,
    applyChanges: graph.applyChanges,
    afterGraphChange: graph.afterChange,
  });

  function clearGraph(): void {
    graph.clear();
    path.clear({ forget: true });
    recall.clear();
    memoryDetails.reset();
    address.reset();
  }

  const workspace = createWorkspacePanel({
    el,
    state,
    status,
    onSwitch: async () => {
      clearGraph();
      search.clear();
      await filters.load();
    },
  });

  /** Brings the page to a location: path and recall first, so the opened memory's details end up shown. */
  async function show(target: ExplorerLocation): Promise<void> {
    if (target.path) await path.restore(target.path);
    else path.clear();
    if (target.recall) await recall.restore(target.recall);
    else recall.clear();
    if (target.memory) await graph.expand(target.memory);
  }

  el.clearGraph.addEventListener('click', () => {
    clearGraph();
    status.show('Graph cleared');
  });
  address.onNavigate((target) => void status.run(() => address.restoring(() => show(target))));
  window.engramExplorer = { cy: view.cy, state };

  return {
    async start() {
      workspace.start();
      await status.run(async () => {
        await filters.load();
        await address.restoring(() => show(address.current()));
      });
      document.body.setAttribute('data-ready', 'true');
    },
  };
}

void createExplorer().start();
