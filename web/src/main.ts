/**
 * Engram explorer: search, open and expand memories, inspect edges and their weight history,
 * find shortest paths, and adjust weights. State lives here; drawing in graph.ts, requests in api.ts.
 */
import { ApiError, createApiClient, operations } from './api.js';
import { renderWeightChart } from './chart.js';
import { byId, formatDate, formatWeight, h } from './dom.js';
import { createGraphView, kindColour, type GraphView } from './graph.js';
import {
  toEdgeView,
  toMemoryNode,
  type Direction,
  type EdgeDetails,
  type EdgeView,
  type MemoryNode,
  type NeighborhoodMemory,
  type WeightChange,
} from './types.js';

const WORKSPACES_KEY = 'engram.explorer.workspaces';
const WORKSPACE_PATTERN = /^[A-Za-z0-9_.:/-]{1,64}$/;
const NEIGHBOR_LIMIT = 30;

type Selection = { memory: string } | { edge: string } | null;
type FeedbackSignal = 'USED' | 'NOT_RELEVANT' | 'NOT_USEFUL';

interface ExplorerState {
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
  path: { memoryIds: string[]; edgeIds: string[] } | null;
  relationTypes: Set<string>;
}

declare global {
  interface Window {
    /** Read-only handle for the browser test and for poking around in devtools. */
    engramExplorer?: { cy: GraphView['cy']; state: ExplorerState };
  }
}

const el = {
  workspaceForm: byId<HTMLFormElement>('workspace-form'),
  workspaceInput: byId<HTMLInputElement>('workspace-input'),
  workspaceList: byId<HTMLDataListElement>('workspace-list'),
  workspaceButton: byId<HTMLButtonElement>('workspace-form').querySelector('button') as HTMLButtonElement,
  apiKeyBox: byId<HTMLDetailsElement>('api-key-box'),
  apiKeyForm: byId<HTMLFormElement>('api-key-form'),
  apiKeyInput: byId<HTMLInputElement>('api-key-input'),
  apiKeyClear: byId<HTMLButtonElement>('api-key-clear'),
  searchForm: byId<HTMLFormElement>('search-form'),
  searchInput: byId<HTMLInputElement>('search-input'),
  searchResults: byId<HTMLUListElement>('search-results'),
  direction: byId<HTMLSelectElement>('direction-select'),
  typeOptions: byId('type-options'),
  showPruned: byId<HTMLInputElement>('show-pruned'),
  pathFrom: byId('path-from'),
  pathTo: byId('path-to'),
  maxHops: byId<HTMLInputElement>('max-hops'),
  findPath: byId<HTMLButtonElement>('find-path'),
  clearPath: byId<HTMLButtonElement>('clear-path'),
  pathResult: byId('path-result'),
  pathSteps: byId<HTMLOListElement>('path-steps'),
  legend: byId<HTMLUListElement>('legend'),
  graph: byId('graph'),
  graphCounts: byId('graph-counts'),
  fitGraph: byId<HTMLButtonElement>('fit-graph'),
  relayout: byId<HTMLButtonElement>('relayout'),
  clearGraph: byId<HTMLButtonElement>('clear-graph'),
  nodeCount: byId('node-count'),
  nodeList: byId<HTMLUListElement>('node-list'),
  details: byId('details'),
  status: byId('status'),
};

const state: ExplorerState = {
  workspace: initialWorkspace(),
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

const api = createApiClient({
  endpoint: '/graphql',
  credentials: () => ({ workspace: state.workspace, apiKey: state.apiKey }),
});
const graph = createGraphView(el.graph, {
  onMemory: (id) => void guarded(() => expand(id)),
  onEdge: (id) => void guarded(() => selectEdge(id)),
  onBackground: () => graph.select(null),
});
window.engramExplorer = { cy: graph.cy, state };

// ---- workspace -------------------------------------------------------------------------------

function storedWorkspaces(): string[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(WORKSPACES_KEY) ?? '[]');
    return Array.isArray(parsed)
      ? parsed.filter((name): name is string => typeof name === 'string' && WORKSPACE_PATTERN.test(name))
      : [];
  } catch {
    return [];
  }
}

function initialWorkspace(): string {
  const fromUrl = new URLSearchParams(location.search).get('workspace');
  if (fromUrl && WORKSPACE_PATTERN.test(fromUrl)) return fromUrl;
  return storedWorkspaces()[0] ?? 'default';
}

function rememberWorkspace(name: string): void {
  const names = [name, ...storedWorkspaces().filter((other) => other !== name)].slice(0, 12);
  try {
    localStorage.setItem(WORKSPACES_KEY, JSON.stringify(names));
  } catch {
    // Storage may be off (private mode); the selector still works for this visit.
  }
  el.workspaceList.replaceChildren(...names.map((value) => h('option', { value })));
  const url = new URL(location.href);
  url.searchParams.set('workspace', name);
  history.replaceState(null, '', url);
}

async function switchWorkspace(name: string): Promise<void> {
  if (!WORKSPACE_PATTERN.test(name)) {
    showStatus('A workspace name is 1..64 letters, digits or _ . : / -', 'error');
    return;
  }
  state.workspace = name;
  el.workspaceInput.value = name;
  rememberWorkspace(name);
  resetGraph();
  el.searchResults.replaceChildren();
  await loadRelationTypes();
  showStatus(`Workspace ${name}`);
}

async function setApiKey(key: string | null): Promise<void> {
  state.apiKey = key;
  el.apiKeyInput.value = '';
  el.apiKeyBox.open = false;
  el.workspaceInput.disabled = key !== null;
  el.workspaceButton.disabled = key !== null;
  el.workspaceInput.value = key ? "the API key's" : state.workspace;
  resetGraph();
  el.searchResults.replaceChildren();
  await loadRelationTypes();
  showStatus(key ? 'Using the API key (its workspace)' : `Workspace ${state.workspace}`);
}

// ---- status ----------------------------------------------------------------------------------

function showStatus(message: string, tone: 'info' | 'error' = 'info'): void {
  el.status.textContent = message;
  el.status.classList.toggle('error', tone === 'error');
}

/** Runs a user action; failures become a status message instead of an unhandled rejection. */
async function guarded(action: () => Promise<void>): Promise<void> {
  document.body.setAttribute('aria-busy', 'true');
  try {
    await action();
  } catch (error) {
    const code = error instanceof ApiError && error.code ? ` (${error.code})` : '';
    showStatus(`${error instanceof Error ? error.message : String(error)}${code}`, 'error');
    if (error instanceof ApiError && error.code === 'UNAUTHENTICATED') {
      el.apiKeyBox.open = true;
      el.apiKeyInput.focus();
    }
  } finally {
    document.body.removeAttribute('aria-busy');
  }
}

// ---- filters ---------------------------------------------------------------------------------

async function loadRelationTypes(): Promise<void> {
  const data = await api.run(operations.relationTypes, {});
  state.relationTypes = new Set(data.relationTypes.map((type) => type.name));
  renderTypeOptions();
}

function renderTypeOptions(): void {
  const checked = new Set(selectedTypes() ?? []);
  const names = [...new Set([...state.relationTypes, ...[...state.edges.values()].map((edge) => edge.type)])].sort();
  el.typeOptions.replaceChildren(
    ...names.map((name) =>
      h('label', { class: 'check' }, h('input', { type: 'checkbox', value: name, checked: checked.has(name) }), name),
    ),
  );
}

function selectedTypes(): string[] | null {
  const names = [...el.typeOptions.querySelectorAll<HTMLInputElement>('input:checked')].map((input) => input.value);
  return names.length > 0 ? names : null;
}

const direction = (): Direction => el.direction.value as Direction;

// ---- search and expand -----------------------------------------------------------------------

async function search(query: string): Promise<void> {
  const data = await api.run(operations.search, { query, limit: 20 });
  const hits = data.searchMemories;
  el.searchResults.replaceChildren(
    ...hits.map((hit) =>
      h(
        'li',
        {},
        h(
          'button',
          {
            type: 'button',
            class: 'item',
            'data-memory-id': hit.id,
            onclick: () => void guarded(() => expand(hit.id)),
          },
          swatch(hit.kind),
          h('span', { class: 'title' }, hit.title),
          hit.kind ? h('span', { class: 'hint' }, hit.kind) : null,
        ),
      ),
    ),
  );
  showStatus(
    hits.length === 0
      ? `Nothing matches “${query}”`
      : `${hits.length} result${hits.length === 1 ? '' : 's'} for “${query}”`,
  );
}

/** Opens a memory: draws it with its neighbors (current filters) and shows its details. */
async function expand(id: string): Promise<void> {
  const data = await api.run(operations.neighborhood, {
    id,
    direction: direction(),
    types: selectedTypes(),
    limit: NEIGHBOR_LIMIT,
  });
  const memory = data.memory;
  if (!memory) {
    showStatus('That memory no longer exists in this workspace', 'error');
    return;
  }
  state.details.set(memory.id, memory);
  const centre = toMemoryNode(memory);
  const neighbors = memory.neighbors.map((neighbor) => toMemoryNode(neighbor.memory));
  const edges = memory.neighbors.map((neighbor) => toEdgeView(neighbor.edge));
  const grows = [centre, ...neighbors].some((node) => !graph.hasMemory(node.id));
  for (const node of [centre, ...neighbors]) state.memories.set(node.id, node);
  for (const edge of edges) state.edges.set(edge.id, edge);
  graph.putMemories([centre]);
  graph.putMemories(neighbors, memory.id);
  graph.putEdges(edges);
  graph.markOpened(memory.id);
  if (grows) graph.layout();
  afterGraphChange();
  select({ memory: memory.id });
  const pruned = edges.filter((edge) => edge.pruned).length;
  showStatus(
    `${memory.title}: ${edges.length} neighbor${edges.length === 1 ? '' : 's'}${pruned ? ` (${pruned} pruned)` : ''}`,
  );
}

function afterGraphChange(): void {
  if (state.path) graph.highlightPath(state.path.memoryIds, state.path.edgeIds);
  renderTypeOptions();
  renderNodeList();
  renderLegend();
  renderCounts();
}

function resetGraph(): void {
  graph.clear();
  state.memories.clear();
  state.edges.clear();
  state.details.clear();
  state.selected = null;
  state.pathFrom = null;
  state.pathTo = null;
  state.path = null;
  renderPathEnds();
  el.pathResult.textContent = '';
  el.pathSteps.replaceChildren();
  el.details.replaceChildren(
    h(
      'p',
      { class: 'hint' },
      'Search and open a memory; then click a node to expand it, or an edge to see its weight history.',
    ),
  );
  afterGraphChange();
}

/** A dot in the kind's colour (set through CSSOM, so the page needs no inline-style CSP exception). */
function swatch(kind: string | null): HTMLSpanElement {
  const dot = h('span', { class: 'swatch', 'aria-hidden': 'true' });
  dot.style.backgroundColor = kindColour(kind);
  return dot;
}

// ---- lists beside the canvas (also the keyboard way in) ---------------------------------------

function memoryButton(memory: MemoryNode, extra?: string): HTMLButtonElement {
  return h(
    'button',
    {
      type: 'button',
      class: 'item',
      'data-memory-id': memory.id,
      onclick: () => void guarded(() => expand(memory.id)),
    },
    swatch(memory.kind),
    h('span', { class: 'title' }, memory.title),
    extra ? h('span', { class: 'hint' }, extra) : null,
  );
}

function renderNodeList(): void {
  const memories = [...state.memories.values()].sort((a, b) => a.title.localeCompare(b.title));
  el.nodeCount.textContent = String(memories.length);
  el.nodeList.replaceChildren(...memories.map((memory) => h('li', {}, memoryButton(memory, memory.kind ?? undefined))));
}

function renderLegend(): void {
  const kinds = [...new Set([...state.memories.values()].map((memory) => memory.kind ?? ''))].sort();
  el.legend.replaceChildren(...kinds.map((kind) => h('li', {}, swatch(kind || null), kind || '(no kind)')));
}

function renderCounts(): void {
  const edges = [...state.edges.values()].filter(
    (edge) => state.memories.has(edge.from) && state.memories.has(edge.to),
  );
  const pruned = edges.filter((edge) => edge.pruned).length;
  el.graphCounts.textContent =
    state.memories.size === 0
      ? ''
      : `${state.memories.size} memories · ${edges.length} edges${pruned ? ` (${pruned} pruned)` : ''}`;
}

// ---- selection and details -------------------------------------------------------------------

function select(selection: Selection): void {
  state.selected = selection;
  graph.select(selection);
  if (selection && 'memory' in selection) renderMemoryDetails(selection.memory);
}

function renderMemoryDetails(id: string): void {
  const memory = state.details.get(id);
  const node = state.memories.get(id);
  if (!memory || !node) return;
  const touching = [...state.edges.values()]
    .filter((edge) => edge.from === id || edge.to === id)
    .sort((a, b) => b.weight - a.weight || a.id.localeCompare(b.id));

  el.details.replaceChildren(
    h('h2', { id: 'detail-title' }, swatch(node.kind), ' ', node.title),
    h(
      'dl',
      {},
      h('dt', {}, 'Key'),
      h('dd', {}, memory.key ?? '—'),
      h('dt', {}, 'Kind'),
      h('dd', {}, memory.kind ?? '—'),
      h('dt', {}, 'Weight'),
      h('dd', { id: 'detail-weight' }, formatWeight(node.weight)),
      h('dt', {}, 'Tags'),
      h(
        'dd',
        {},
        memory.tags.length === 0
          ? '—'
          : h('span', { class: 'tags' }, ...memory.tags.map((tag) => h('span', { class: 'tag' }, tag))),
      ),
      h('dt', {}, 'Created'),
      h('dd', {}, h('time', { datetime: memory.createdAt }, formatDate(memory.createdAt))),
      h('dt', {}, 'Updated'),
      h('dd', {}, h('time', { datetime: memory.updatedAt }, formatDate(memory.updatedAt))),
    ),
    memory.content
      ? h('p', { class: 'content', id: 'detail-content' }, memory.content)
      : h('p', { class: 'hint' }, 'No content.'),
    h(
      'div',
      { class: 'button-row' },
      h(
        'button',
        { type: 'button', id: 'expand-memory', onclick: () => void guarded(() => expand(id)) },
        'Expand neighbors',
      ),
      h(
        'button',
        { type: 'button', id: 'path-start', class: 'secondary', onclick: () => setPathEnd('from', node) },
        'Path start',
      ),
      h(
        'button',
        { type: 'button', id: 'path-end', class: 'secondary', onclick: () => setPathEnd('to', node) },
        'Path end',
      ),
    ),
    h('h3', {}, 'Feedback'),
    h(
      'p',
      { class: 'hint' },
      'Used strengthens the memory and its edges; not relevant weakens its edges; not useful weakens the memory.',
    ),
    h(
      'div',
      { class: 'button-row' },
      feedbackButton(id, 'USED', 'Used'),
      feedbackButton(id, 'NOT_RELEVANT', 'Not relevant'),
      feedbackButton(id, 'NOT_USEFUL', 'Not useful'),
    ),
    h('h3', {}, `Edges on the graph (${touching.length})`),
    h(
      'ul',
      { class: 'result-list', id: 'detail-edges' },
      ...touching.map((edge) => {
        const outgoing = edge.from === id;
        const other = state.memories.get(outgoing ? edge.to : edge.from);
        return h(
          'li',
          {},
          h(
            'button',
            {
              type: 'button',
              class: 'item',
              'data-edge-id': edge.id,
              onclick: () => void guarded(() => selectEdge(edge.id)),
            },
            h('span', { class: 'edge-type' }, `${outgoing ? '→' : '←'} ${edge.type}`),
            h('span', { class: 'title' }, other?.title ?? '?'),
            h('span', { class: 'hint' }, formatWeight(edge.weight)),
            edge.pruned ? h('span', { class: 'badge' }, 'pruned') : null,
          ),
        );
      }),
    ),
  );
}

function feedbackButton(memoryId: string, signal: FeedbackSignal, label: string): HTMLButtonElement {
  return h(
    'button',
    {
      type: 'button',
      class: 'secondary',
      id: `feedback-${signal.toLowerCase().replace('_', '-')}`,
      onclick: () => void guarded(() => giveFeedback(memoryId, signal)),
    },
    label,
  );
}

async function selectEdge(id: string): Promise<void> {
  state.selected = { edge: id };
  graph.select({ edge: id });
  const data = await api.run(operations.edge, { id, historyLimit: 50 });
  if (!data.edge) {
    showStatus('That edge no longer exists', 'error');
    return;
  }
  renderEdgeDetails(data.edge);
}

function renderEdgeDetails(edge: EdgeDetails): void {
  const amount = h('input', { id: 'adjust-amount', type: 'number', min: 0.01, max: 1, step: 0.05, value: '0.1' });
  const memoryLink = (memory: { id: string; title: string }) =>
    h('button', { type: 'button', class: 'link', onclick: () => void guarded(() => expand(memory.id)) }, memory.title);

  el.details.replaceChildren(
    h(
      'h2',
      { id: 'detail-title' },
      h('span', { class: 'edge-type' }, edge.type),
      edge.pruned ? h('span', { class: 'badge' }, 'pruned') : null,
    ),
    h('p', {}, memoryLink(edge.from), ' → ', memoryLink(edge.to)),
    h(
      'dl',
      {},
      h('dt', {}, 'Weight'),
      h('dd', { id: 'detail-weight' }, formatWeight(edge.weight)),
      h('dt', {}, 'Pruned'),
      h('dd', { id: 'detail-pruned' }, edge.pruned ? 'yes: hidden from neighbors, path and traverse' : 'no'),
      h('dt', {}, 'Created'),
      h('dd', {}, h('time', { datetime: edge.createdAt }, formatDate(edge.createdAt))),
      h('dt', {}, 'Updated'),
      h('dd', {}, h('time', { datetime: edge.updatedAt }, formatDate(edge.updatedAt))),
      h('dt', {}, 'Confirmed'),
      h('dd', {}, edge.lastConfirmedAt ? formatDate(edge.lastConfirmedAt) : '—'),
    ),
    h(
      'div',
      { class: 'adjust' },
      h('div', {}, h('label', { for: 'adjust-amount' }, 'Amount'), amount),
      h(
        'button',
        {
          type: 'button',
          id: 'weaken-edge',
          class: 'danger',
          onclick: () => void guarded(() => adjustEdge(edge, 'weaken', Number(amount.value))),
        },
        'Weaken',
      ),
      h(
        'button',
        {
          type: 'button',
          id: 'strengthen-edge',
          onclick: () => void guarded(() => adjustEdge(edge, 'strengthen', Number(amount.value))),
        },
        'Strengthen',
      ),
    ),
    h('h3', {}, 'Weight history'),
    renderWeightChart({ history: edge.history, weight: edge.weight, createdAt: edge.createdAt }),
    edge.history.length === 0
      ? h('p', { class: 'hint' }, 'No changes yet.')
      : h(
          'ol',
          { class: 'events', id: 'history-events', reversed: true },
          ...edge.history.map((event) =>
            h(
              'li',
              {},
              h('time', { datetime: event.at }, formatDate(event.at)),
              ` · ${event.source} · ${formatWeight(event.old)} → ${formatWeight(event.new)}`,
              event.reason ? ` · ${event.reason}` : '',
            ),
          ),
        ),
  );
}

// ---- weight changes --------------------------------------------------------------------------

function applyChanges(changes: readonly WeightChange[]): void {
  for (const change of changes) {
    if (change.edge) {
      const edge = toEdgeView(change.edge);
      if (state.edges.has(edge.id) || (state.memories.has(edge.from) && state.memories.has(edge.to))) {
        state.edges.set(edge.id, edge);
        graph.putEdges([edge]);
      }
    }
    if (change.memory) {
      const node = state.memories.get(change.memory.id);
      if (node) {
        const updated = { ...node, weight: change.memory.weight };
        state.memories.set(node.id, updated);
        graph.putMemories([updated]);
        const details = state.details.get(node.id);
        if (details) state.details.set(node.id, { ...details, weight: change.memory.weight });
      }
    }
  }
  afterGraphChange();
}

async function adjustEdge(edge: EdgeDetails, how: 'weaken' | 'strengthen', amount: number): Promise<void> {
  if (!(amount > 0 && amount <= 1)) {
    showStatus('The amount must be above 0 and at most 1', 'error');
    return;
  }
  const variables = { from: edge.from.id, to: edge.to.id, type: edge.type, amount, reason: 'explorer' };
  const change =
    how === 'weaken'
      ? (await api.run(operations.weaken, variables)).weaken
      : (await api.run(operations.strengthen, variables)).strengthen;
  applyChanges([change]);
  await selectEdge(edge.id);
  const verb = how === 'weaken' ? 'Weakened' : 'Strengthened';
  showStatus(
    `${verb} ${edge.type}: ${formatWeight(change.previousWeight)} → ${formatWeight(change.newWeight)}${change.pruned ? ' (pruned)' : ''}`,
  );
}

async function giveFeedback(memoryId: string, signal: FeedbackSignal): Promise<void> {
  const data = await api.run(operations.feedback, { memoryId, signal, reason: 'explorer' });
  applyChanges(data.feedback);
  renderMemoryDetails(memoryId);
  const changed = data.feedback.length;
  showStatus(
    `Feedback ${signal.toLowerCase().replace('_', ' ')}: ${changed} weight${changed === 1 ? '' : 's'} changed`,
  );
}

// ---- shortest path ---------------------------------------------------------------------------

function setPathEnd(end: 'from' | 'to', memory: MemoryNode): void {
  if (end === 'from') state.pathFrom = memory;
  else state.pathTo = memory;
  renderPathEnds();
  showStatus(`Path ${end === 'from' ? 'start' : 'end'}: ${memory.title}`);
}

function renderPathEnds(): void {
  el.pathFrom.textContent = state.pathFrom?.title ?? 'pick a memory';
  el.pathTo.textContent = state.pathTo?.title ?? 'pick a memory';
  el.findPath.disabled = !(state.pathFrom && state.pathTo);
}

async function findPath(): Promise<void> {
  const from = state.pathFrom;
  const to = state.pathTo;
  if (!from || !to) return;
  const maxHops = Math.min(10, Math.max(1, Math.round(Number(el.maxHops.value) || 4)));
  el.maxHops.value = String(maxHops);
  const { path } = await api.run(operations.path, {
    from: from.id,
    to: to.id,
    maxHops,
    types: selectedTypes(),
    direction: direction(),
  });
  el.pathSteps.replaceChildren();
  if (!path.found) {
    state.path = null;
    graph.clearPath();
    el.pathResult.textContent = path.message ?? 'No path found';
    showStatus(path.message ?? 'No path found');
    return;
  }
  const memories = path.steps.map((step) => toMemoryNode(step.memory));
  const edges = path.steps.flatMap((step) => (step.edgeToNext ? [toEdgeView(step.edgeToNext)] : []));
  const missing = memories.filter((memory) => !graph.hasMemory(memory.id));
  for (const memory of memories) state.memories.set(memory.id, memory);
  for (const edge of edges) state.edges.set(edge.id, edge);
  memories.forEach((memory, index) => graph.putMemories([memory], memories[index - 1]?.id ?? from.id));
  graph.putEdges(edges);
  if (missing.length > 0) graph.layout();
  state.path = { memoryIds: memories.map((memory) => memory.id), edgeIds: edges.map((edge) => edge.id) };
  afterGraphChange();
  el.pathResult.textContent = `${path.hops} hop${path.hops === 1 ? '' : 's'} from ${from.title} to ${to.title}`;
  el.pathSteps.replaceChildren(
    ...path.steps.map((step) =>
      h(
        'li',
        {},
        memoryButton(toMemoryNode(step.memory)),
        step.edgeToNext ? h('span', { class: 'via' }, step.edgeToNext.type) : null,
      ),
    ),
  );
  showStatus(`Path found: ${path.hops} hop${path.hops === 1 ? '' : 's'}`);
}

function clearPath(): void {
  state.path = null;
  graph.clearPath();
  el.pathResult.textContent = '';
  el.pathSteps.replaceChildren();
}

// ---- wiring ----------------------------------------------------------------------------------

el.workspaceForm.addEventListener('submit', (event) => {
  event.preventDefault();
  void guarded(() => switchWorkspace(el.workspaceInput.value.trim()));
});
el.apiKeyForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const key = el.apiKeyInput.value.trim();
  if (key) void guarded(() => setApiKey(key));
});
el.apiKeyClear.addEventListener('click', () => void guarded(() => setApiKey(null)));
el.searchForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const query = el.searchInput.value.trim();
  if (query) void guarded(() => search(query));
});
el.showPruned.addEventListener('change', () => graph.setShowPruned(el.showPruned.checked));
el.findPath.addEventListener('click', () => void guarded(findPath));
el.clearPath.addEventListener('click', clearPath);
el.fitGraph.addEventListener('click', () => graph.fit());
el.relayout.addEventListener('click', () => graph.layout());
el.clearGraph.addEventListener('click', () => {
  resetGraph();
  showStatus('Graph cleared');
});

el.workspaceInput.value = state.workspace;
rememberWorkspace(state.workspace);
renderPathEnds();
void guarded(loadRelationTypes).then(() => document.body.setAttribute('data-ready', 'true'));
