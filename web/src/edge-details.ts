/** The details panel for an edge: its weights, the weaken/strengthen controls and its weight history. */
import type { ExplorerActions } from './actions.js';
import { type ApiClient, operations } from './api.js';
import { renderWeightChart } from './chart.js';
import { formatDate, formatWeight, h } from './dom.js';
import type { Elements } from './elements.js';
import type { GraphView } from './graph.js';
import type { ExplorerState } from './state.js';
import type { StatusLine } from './status.js';
import type { EdgeDetails } from './types.js';

const HISTORY_LIMIT = 50;

export interface EdgeDetailsDeps {
  el: Elements;
  state: ExplorerState;
  api: ApiClient;
  status: StatusLine;
  view: GraphView;
  actions: ExplorerActions;
}

export function createEdgeDetails(deps: EdgeDetailsDeps): { open(id: string): Promise<void> } {
  const { el, state, api, status, view, actions } = deps;
  const onClickRun = (action: () => Promise<void>) => () => void status.run(action);

  function render(edge: EdgeDetails): void {
    const amount = h('input', { id: 'adjust-amount', type: 'number', min: 0.01, max: 1, step: 0.05, value: '0.1' });
    const memoryLink = (memory: { id: string; title: string }) =>
      h(
        'button',
        { type: 'button', class: 'link', onclick: onClickRun(() => actions.openMemory(memory.id)) },
        memory.title,
      );
    const adjust = (how: 'weaken' | 'strengthen') =>
      onClickRun(() => actions.adjustEdge(edge, how, Number(amount.value)));
    const time = (iso: string) => h('time', { datetime: iso }, formatDate(iso));

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
        h('dd', {}, time(edge.createdAt)),
        h('dt', {}, 'Updated'),
        h('dd', {}, time(edge.updatedAt)),
        h('dt', {}, 'Confirmed'),
        h('dd', {}, edge.lastConfirmedAt ? formatDate(edge.lastConfirmedAt) : '—'),
      ),
      h(
        'div',
        { class: 'adjust' },
        h('div', {}, h('label', { for: 'adjust-amount' }, 'Amount'), amount),
        h('button', { type: 'button', id: 'weaken-edge', class: 'danger', onclick: adjust('weaken') }, 'Weaken'),
        h('button', { type: 'button', id: 'strengthen-edge', onclick: adjust('strengthen') }, 'Strengthen'),
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
                time(event.at),
                ` · ${event.source} · ${formatWeight(event.old)} → ${formatWeight(event.new)}`,
                event.reason ? ` · ${event.reason}` : '',
              ),
            ),
          ),
    );
  }

  return {
    async open(id) {
      state.selected = { edge: id };
      view.select(state.selected);
      const { edge } = await api.run(operations.edge, { id, historyLimit: HISTORY_LIMIT });
      if (!edge) {
        status.show('That edge no longer exists', 'error');
        return;
      }
      render(edge);
    },
  };
}
