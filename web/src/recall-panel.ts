/**
 * The recall box: words and/or the selected memory in, ranked results out, each result's
 * activation path drawn and highlighted, and per-result feedback that trains that recorded path.
 */
import type { ExplorerActions, FeedbackSignal } from './actions.js';
import { type ApiClient, operations } from './api.js';
import { h } from './dom.js';
import type { Elements } from './elements.js';
import type { GraphView } from './graph.js';
import type { LocationSync } from './location-sync.js';
import { type ExplorerState, memoryRef } from './state.js';
import type { StatusLine } from './status.js';
import { type MemoryNode, type RecalledMemory, toEdgeView, toMemoryNode, type WeightChange } from './types.js';
import type { RecallLocation } from './url-state.js';
import { memoryButton, plural } from './widgets.js';

const RESULT_LIMIT = 10;

export interface RecallPanelDeps {
  el: Elements;
  state: ExplorerState;
  api: ApiClient;
  status: StatusLine;
  view: GraphView;
  address: LocationSync;
  actions: ExplorerActions;
  applyChanges(changes: readonly WeightChange[]): void;
  afterGraphChange(): void;
}

export interface RecallPanel {
  /** Runs the recall an address names (the seed looked up by id or key). */
  restore(recall: RecallLocation): Promise<void>;
  clear(): void;
}

const LABELS: Record<FeedbackSignal, string> = { USED: 'Used', NOT_RELEVANT: 'Not relevant', NOT_USEFUL: 'Not useful' };

/** A seed matched by itself (no edge led to it), so there is no routing to call wrong: only its content. */
const signalsFor = (result: RecalledMemory): FeedbackSignal[] =>
  result.path.length ? ['USED', 'NOT_RELEVANT'] : ['USED', 'NOT_USEFUL'];

/** `0.812 · lexical 0.90 · graph 0.31`: the score and the signals that reached the memory. */
function scoreLine(result: RecalledMemory): string {
  const parts = [result.score.toFixed(3)];
  for (const [name, value] of [
    ['lexical', result.lexical],
    ['vector', result.vector],
    ['graph', result.graph],
  ] as const)
    if (value !== null) parts.push(`${name} ${value.toFixed(2)}`);
  if (result.seed) parts.push('seed');
  return parts.join(' · ');
}

/** The memories a result's path runs through, the result itself included. */
function pathMemories(result: RecalledMemory): MemoryNode[] {
  const nodes = new Map<string, MemoryNode>([[result.memory.id, toMemoryNode(result.memory)]]);
  for (const edge of result.path) for (const end of [edge.from, edge.to]) nodes.set(end.id, toMemoryNode(end));
  return [...nodes.values()];
}

export function createRecallPanel(deps: RecallPanelDeps): RecallPanel {
  const { el, state, api, status, view, address, actions } = deps;
  const open = (id: string) => void status.run(() => actions.openMemory(id));
  let recallId: string | null = null;
  let results: RecalledMemory[] = [];

  function highlight(chosen: readonly RecalledMemory[]): void {
    const memoryIds = new Set(chosen.flatMap((result) => pathMemories(result).map((memory) => memory.id)));
    const edgeIds = new Set(chosen.flatMap((result) => result.path.map((edge) => edge.id)));
    state.path = { memoryIds: [...memoryIds], edgeIds: [...edgeIds] };
    view.highlightPath(state.path.memoryIds, state.path.edgeIds);
    const showing = new Set(chosen.map((result) => result.memory.id));
    for (const item of el.recallResults.children)
      item.classList.toggle('showing', showing.has((item as HTMLElement).dataset.memoryId ?? ''));
  }

  function draw(): void {
    const memories = new Map(results.flatMap(pathMemories).map((memory) => [memory.id, memory]));
    const edges = new Map(results.flatMap((result) => result.path.map((edge) => [edge.id, toEdgeView(edge)] as const)));
    const grows = [...memories.keys()].some((id) => !view.hasMemory(id));
    for (const memory of memories.values()) state.memories.set(memory.id, memory);
    for (const edge of edges.values()) state.edges.set(edge.id, edge);
    view.putMemories(
      [...memories.values()],
      state.selected && 'memory' in state.selected ? state.selected.memory : undefined,
    );
    view.putEdges([...edges.values()]);
    if (grows) view.layout();
    highlight(results);
    deps.afterGraphChange();
  }

  async function feedback(result: RecalledMemory, signal: FeedbackSignal, item: HTMLElement): Promise<void> {
    // Without a stored recall the path is named edge by edge, so the same edges still learn.
    const target = recallId ? { recallId } : { via: result.path.map((edge) => edge.id) };
    const { feedback } = await api.run(operations.feedback, { memoryId: result.memory.id, signal, ...target });
    deps.applyChanges(feedback);
    item.dataset.feedback = signal;
    highlight([result]);
    status.show(`${LABELS[signal]}: ${result.memory.title}, ${plural(feedback.length, 'weight')} changed`);
  }

  function resultItem(result: RecalledMemory): HTMLLIElement {
    const item = h('li', { 'data-memory-id': result.memory.id });
    const hops = result.path.length ? plural(result.path.length, 'hop') : 'matched';
    item.append(
      memoryButton(result.memory, open, hops),
      h('span', { class: 'score' }, scoreLine(result)),
      h(
        'div',
        { class: 'button-row' },
        h(
          'button',
          { type: 'button', class: 'secondary', 'data-action': 'path', onclick: () => highlight([result]) },
          'Show path',
        ),
        ...signalsFor(result).map((signal) =>
          h(
            'button',
            {
              type: 'button',
              class: 'secondary',
              'data-signal': signal,
              onclick: () => void status.run(() => feedback(result, signal, item)),
            },
            LABELS[signal],
          ),
        ),
      ),
    );
    return item;
  }

  async function recall(query: string, seed: string | null): Promise<void> {
    const answer = (
      await api.run(operations.recall, {
        ...(query ? { query } : {}),
        ...(seed ? { seeds: [seed] } : {}),
        limit: RESULT_LIMIT,
      })
    ).recall;
    recallId = answer.id;
    results = answer.results;
    el.recallInput.value = query;
    el.recallResults.replaceChildren(...results.map(resultItem));
    const what = query ? `“${query}”` : 'the selected memory';
    const notes = [
      recallId ? '' : ' (not stored: feedback names the path edges)',
      answer.truncated ? ' (spreading stopped at the work budget: memories further out may be missing)' : '',
    ].join('');
    el.recallSummary.textContent = results.length
      ? `${plural(results.length, 'result')} for ${what}${notes}`
      : `Nothing recalled for ${what}`;
    address.record({ recall: { query, seed } });
    if (results.length) draw();
    status.show(el.recallSummary.textContent);
  }

  function selectedRef(): string | null {
    const selected = state.selected;
    if (!(selected && 'memory' in selected)) return null;
    const memory = state.memories.get(selected.memory);
    return memory ? memoryRef(memory) : selected.memory;
  }

  el.recallForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const query = el.recallInput.value.trim();
    const seed = el.recallFromSelected.checked ? selectedRef() : null;
    if (!query && !seed) {
      status.show('Type words to recall, or select a memory and tick “Start from the selected memory”', 'error');
      return;
    }
    void status.run(() => recall(query, seed));
  });

  return {
    restore: ({ query, seed }) => recall(query, seed),
    clear() {
      recallId = null;
      results = [];
      el.recallResults.replaceChildren();
      el.recallSummary.textContent = '';
    },
  };
}
