/** Small pieces several panels draw. */
import { h } from './dom.js';
import { kindColour } from './graph.js';
import type { MemoryNode } from './types.js';

/** A dot in the kind's colour (set through CSSOM, so the page needs no inline-style CSP exception). */
export function swatch(kind: string | null): HTMLSpanElement {
  const dot = h('span', { class: 'swatch', 'aria-hidden': 'true' });
  dot.style.backgroundColor = kindColour(kind);
  return dot;
}

/** A list entry that opens a memory: the keyboard way to everything drawn on the canvas. */
export function memoryButton(
  memory: Pick<MemoryNode, 'id' | 'title' | 'kind'>,
  open: (id: string) => void,
  extra?: string | null,
): HTMLButtonElement {
  return h(
    'button',
    { type: 'button', class: 'item', 'data-memory-id': memory.id, onclick: () => open(memory.id) },
    swatch(memory.kind),
    h('span', { class: 'title' }, memory.title),
    extra ? h('span', { class: 'hint' }, extra) : null,
  );
}

export const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;
