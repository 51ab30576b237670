/** The workspace selector (remembered in localStorage and the address bar) and the API key box. */
import { h } from './dom.js';
import type { Elements } from './elements.js';
import type { ExplorerState } from './state.js';
import type { StatusLine } from './status.js';

const WORKSPACES_KEY = 'engram.explorer.workspaces';
const WORKSPACE_PATTERN = /^[A-Za-z0-9_.:/-]{1,64}$/;
const REMEMBERED = 12;

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

/** `?workspace=` when valid, else the last one used here, else `default`. */
export function initialWorkspace(): string {
  const fromUrl = new URLSearchParams(location.search).get('workspace');
  if (fromUrl && WORKSPACE_PATTERN.test(fromUrl)) return fromUrl;
  return storedWorkspaces()[0] ?? 'default';
}

export interface WorkspacePanelDeps {
  el: Elements;
  state: ExplorerState;
  status: StatusLine;
  /** Everything drawn belonged to the old workspace or key: start over. */
  onSwitch(): Promise<void>;
}

export function createWorkspacePanel({ el, state, status, onSwitch }: WorkspacePanelDeps): { start(): void } {
  function remember(name: string): void {
    const names = [name, ...storedWorkspaces().filter((other) => other !== name)].slice(0, REMEMBERED);
    try {
      localStorage.setItem(WORKSPACES_KEY, JSON.stringify(names));
    } catch {
      // Storage may be off (private mode); the selector still works for this visit.
    }
    el.workspaceList.replaceChildren(...names.map((value) => h('option', { value })));
    const url = new URL(location.href);
    url.searchParams.set('workspace', name);
    history.replaceState(history.state, '', url);
  }

  async function switchTo(name: string): Promise<void> {
    if (!WORKSPACE_PATTERN.test(name)) {
      status.show('A workspace name is 1..64 letters, digits or _ . : / -', 'error');
      return;
    }
    state.workspace = name;
    el.workspaceInput.value = name;
    remember(name);
    await onSwitch();
    status.show(`Workspace ${name}`);
  }

  async function useApiKey(key: string | null): Promise<void> {
    state.apiKey = key;
    el.apiKeyInput.value = '';
    el.apiKeyBox.open = false;
    el.workspaceInput.disabled = key !== null;
    el.workspaceButton.disabled = key !== null;
    el.workspaceInput.value = key ? "the API key's" : state.workspace;
    await onSwitch();
    status.show(key ? 'Using the API key (its workspace)' : `Workspace ${state.workspace}`);
  }

  el.workspaceForm.addEventListener('submit', (event) => {
    event.preventDefault();
    void status.run(() => switchTo(el.workspaceInput.value.trim()));
  });
  el.apiKeyForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const key = el.apiKeyInput.value.trim();
    if (key) void status.run(() => useApiKey(key));
  });
  el.apiKeyClear.addEventListener('click', () => void status.run(() => useApiKey(null)));

  return {
    start() {
      el.workspaceInput.value = state.workspace;
      remember(state.workspace);
    },
  };
}
