/** The direction and relation-type filters, used when a memory is expanded and when a path is looked for. */
import { type ApiClient, operations } from './api.js';
import { h } from './dom.js';
import type { Elements } from './elements.js';
import type { ExplorerState } from './state.js';
import type { Direction } from './types.js';

export interface Filters {
  /** Loads the server's relation vocabulary into the type list. */
  load(): Promise<void>;
  /** Redraws the type list: the vocabulary plus any type drawn on the graph, checks kept. */
  render(): void;
  /** The checked types; null when none is checked (all types). */
  types(): string[] | null;
  direction(): Direction;
}

export function createFilters({ el, state, api }: { el: Elements; state: ExplorerState; api: ApiClient }): Filters {
  const types = (): string[] | null => {
    const names = [...el.typeOptions.querySelectorAll<HTMLInputElement>('input:checked')].map((input) => input.value);
    return names.length > 0 ? names : null;
  };

  const render = (): void => {
    const checked = new Set(types() ?? []);
    const drawn = [...state.edges.values()].map((edge) => edge.type);
    const names = [...new Set([...state.relationTypes, ...drawn])].sort();
    el.typeOptions.replaceChildren(
      ...names.map((name) =>
        h('label', { class: 'check' }, h('input', { type: 'checkbox', value: name, checked: checked.has(name) }), name),
      ),
    );
  };

  return {
    async load() {
      const data = await api.run(operations.relationTypes, {});
      state.relationTypes = new Set(data.relationTypes.map((type) => type.name));
      render();
    },
    render,
    types,
    direction: () => el.direction.value as Direction,
  };
}
