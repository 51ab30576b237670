import { expect } from 'vitest';
import type { TestApp } from '../../helpers/app.js';
import { useTestApp } from '../support.js';

export interface PathAnswer {
  found: boolean;
  hops: number;
  message: string | null;
  steps: { memory: { key: string }; edgeToNext: { id: string } | null }[];
}

export const PATH_FIELDS = 'found hops message steps { memory { key } edgeToNext { id } }';

export const stepKeys = (answer: PathAnswer) => answer.steps.map((step) => step.memory.key);

/** A fresh app per test, with the path helpers bound to it. */
export function usePathApp(): {
  api: () => TestApp;
  path: (args: string) => Promise<PathAnswer>;
  extendChain: () => Promise<void>;
} {
  const api = useTestApp();

  async function path(args: string): Promise<PathAnswer> {
    const response = await api().gql(`{ path(${args}) { ${PATH_FIELDS} } }`);
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    return response.data?.path as PathAnswer;
  }

  /** Appends chain-f after chain-e, so chain-a to chain-f takes 5 hops. */
  async function extendChain(): Promise<void> {
    await api().gql(`mutation {
    createMemory(input: { key: "chain-f", title: "Chain F" }) { id }
    link(input: { from: "chain-e", to: "chain-f", type: "CAUSED_BY" }) { id }
  }`);
  }

  return { api, path, extendChain };
}
