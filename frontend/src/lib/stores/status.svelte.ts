// The footer's view of the backend: workspace, model, config problems and whether Ollama
// answers. Polled so the footer notices when Ollama is started or stopped.
import type { Status } from '../api';

export type Fetcher = () => Promise<Status>;

export interface StatusStore {
  readonly current: Status | null;
  readonly error: string;
  readonly loading: boolean;
  refresh(): Promise<void>;
  start(intervalMs?: number): () => void;
}

export function createStatusStore(fetch: Fetcher): StatusStore {
  const s = $state({ current: null as Status | null, error: '', loading: false });
  let inflight: Promise<void> | null = null;

  async function refresh(): Promise<void> {
    // Coalesce: a slow Ollama check must not pile up overlapping requests.
    if (inflight) return inflight;
    s.loading = true;
    inflight = (async () => {
      try {
        s.current = await fetch();
        s.error = '';
      } catch (err) {
        s.error = err instanceof Error ? err.message : String(err);
      } finally {
        s.loading = false;
        inflight = null;
      }
    })();
    return inflight;
  }

  function start(intervalMs = 5000): () => void {
    void refresh();
    const timer = setInterval(() => void refresh(), intervalMs);
    return () => clearInterval(timer);
  }

  return {
    get current() {
      return s.current;
    },
    get error() {
      return s.error;
    },
    get loading() {
      return s.loading;
    },
    refresh,
    start,
  };
}

/** The line under the composer, as an i18n key: what to fix first, else the shortcuts. */
export function composerHintKey(status: Status | null): string {
  if (status && !status.ollamaReachable && status.modelProvider === 'ollama') return 'chat.disabledOllama';
  if (status && !status.modelConfigured) return 'chat.disabledModel';
  return 'chat.ready';
}

/** Whether a message can be sent: a model is set up and, for Ollama, it answers. */
export function canChat(status: Status | null): boolean {
  return composerHintKey(status) === 'chat.ready';
}
