/** The details panel for a memory: its record, path-end and feedback buttons, and the edges drawn on it. */
import type { ExplorerActions, FeedbackSignal } from './actions.js';
import { formatDate, formatWeight, h } from './dom.js';
import type { Elements } from './elements.js';
import type { ExplorerState } from './state.js';
import type { StatusLine } from './status.js';
import type { EdgeView } from './types.js';
import { swatch } from './widgets.js';

const FEEDBACK: readonly { signal: FeedbackSignal; label: string }[] = [
  { signal: 'USED', label: 'Used' },
  { signal: 'NOT_RELEVANT', label: 'Not relevant' },
  { signal: 'NOT_USEFUL', label: 'Not useful' },
];

export interface MemoryDetails {
  /** Shows a memory that is drawn and was opened (its full record is in the state). */
  render(id: string): void;
  /** The hint shown when nothing is selected. */
  reset(): void;
}

export interface MemoryDetailsDeps {
  el: Elements;
  state: ExplorerState;
  status: StatusLine;
  actions: ExplorerActions;
}

export function createMemoryDetails({ el, state, status, actions }: MemoryDetailsDeps): MemoryDetails {
  const onClickRun = (action: () => Promise<void>) => () => void status.run(action);

  const edgeItem = (id: string, edge: EdgeView) => {
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
          onclick: onClickRun(() => actions.openEdge(edge.id)),
        },
        h('span', { class: 'edge-type' }, `${outgoing ? '→' : '←'} ${edge.type}`),
        h('span', { class: 'title' }, other?.title ?? '?'),
        h('span', { class: 'hint' }, formatWeight(edge.weight)),
        edge.pruned ? h('span', { class: 'badge' }, 'pruned') : null,
      ),
    );
  };

  function render(id: string): void {
    const memory = state.details.get(id);
    const node = state.memories.get(id);
    if (!memory || !node) return;
    const touching = [...state.edges.values()]
      .filter((edge) => edge.from === id || edge.to === id)
      .sort((a, b) => b.weight - a.weight || a.id.localeCompare(b.id));
    const field = (label: string, value: Node | string, attributes: Record<string, string> = {}) => [
      h('dt', {}, label),
      h('dd', attributes, value),
    ];
    const time = (iso: string) => h('time', { datetime: iso }, formatDate(iso));
    const tags =
      memory.tags.length === 0
        ? '—'
        : h('span', { class: 'tags' }, ...memory.tags.map((tag) => h('span', { class: 'tag' }, tag)));

    el.details.replaceChildren(
      h('h2', { id: 'detail-title' }, swatch(node.kind), ' ', node.title),
      h(
        'dl',
        {},
        ...field('Key', memory.key ?? '—'),
        ...field('Kind', memory.kind ?? '—'),
        ...field('Weight', formatWeight(node.weight), { id: 'detail-weight' }),
        ...field('Tags', tags),
        ...field('Created', time(memory.createdAt)),
        ...field('Updated', time(memory.updatedAt)),
      ),
      memory.content
        ? h('p', { class: 'content', id: 'detail-content' }, memory.content)
        : h('p', { class: 'hint' }, 'No content.'),
      h(
        'div',
        { class: 'button-row' },
        h(
          'button',
          { type: 'button', id: 'expand-memory', onclick: onClickRun(() => actions.openMemory(id)) },
          'Expand neighbors',
        ),
        h(
          'button',
          { type: 'button', id: 'path-start', class: 'secondary', onclick: () => actions.setPathEnd('from', node) },
          'Path start',
        ),
        h(
          'button',
          { type: 'button', id: 'path-end', class: 'secondary', onclick: () => actions.setPathEnd('to', node) },
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
        ...FEEDBACK.map(({ signal, label }) =>
          h(
            'button',
            {
              type: 'button',
              class: 'secondary',
              id: `feedback-${signal.toLowerCase().replace('_', '-')}`,
              onclick: onClickRun(() => actions.giveFeedback(id, signal)),
            },
            label,
          ),
        ),
      ),
      h('h3', {}, `Edges on the graph (${touching.length})`),
      h('ul', { class: 'result-list', id: 'detail-edges' }, ...touching.map((edge) => edgeItem(id, edge))),
    );
  }

  return {
    render,
    reset() {
      el.details.replaceChildren(
        h(
          'p',
          { class: 'hint' },
          'Search and open a memory; then click a node to expand it, or an edge to see its weight history.',
        ),
      );
    },
  };
}
