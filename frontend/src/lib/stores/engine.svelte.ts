// Starting the Ollama that does not answer, from wherever the window says so (the footer,
// the composer's hint, a chat's error card, the Models view, the first-run card): one
// start at a time, its error kept for the button that asked, the status refreshed after.
import { errText, type Api, type Status } from '../api';
import type { StatusStore } from './status.svelte';

/** Whether the window can offer to start Ollama: it does not answer, the host is this
 *  machine's and `ollama` is installed. */
export function canStartOllama(status: Status | null | undefined): boolean {
  return !!status && !status.ollamaReachable && !!status.ollamaEngine?.startable;
}

export function createEngineStore(api: Pick<Api, 'startOllama'>, status: Pick<StatusStore, 'refresh'>, after?: () => void) {
  const s = $state({ starting: false, error: '' });

  /** Starts Ollama; resolves true once it answers. */
  async function start(): Promise<boolean> {
    if (s.starting) return false;
    s.starting = true;
    s.error = '';
    try {
      await api.startOllama();
      return true;
    } catch (err) {
      s.error = errText(err);
      return false;
    } finally {
      s.starting = false;
      await status.refresh();
      after?.();
    }
  }

  return {
    get starting() {
      return s.starting;
    },
    get error() {
      return s.error;
    },
    start,
  };
}

export type EngineStore = ReturnType<typeof createEngineStore>;
