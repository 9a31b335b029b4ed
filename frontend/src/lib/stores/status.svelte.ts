// The footer's view of the backend: workspace, model, config problems and whether Ollama
// answers. A window at rest does no work: the status is polled only while something is
// being waited for (Ollama not answering yet, the backend not reachable) and the window
// is visible; otherwise it is refreshed when the user comes back to the window or acts in
// it, at most once an interval. See docs/performance.md.
import { errText, type Status } from '../api';

export type Fetcher = () => Promise<Status>;

/** Where start listens for the user coming back (the window and its document by default). */
export interface ActivitySource {
  addEventListener(type: string, fn: () => void, opts?: AddEventListenerOptions): void;
  removeEventListener(type: string, fn: () => void, opts?: EventListenerOptions): void;
  /** Whether the window is on screen ("hidden" when minimised or hidden to the tray). */
  visible(): boolean;
}

/** The events that mean the user is at the window. */
const ACTIVITY = ['focus', 'visibilitychange', 'pointerdown', 'keydown'] as const;

function windowSource(): ActivitySource | null {
  if (typeof window === 'undefined' || typeof document === 'undefined') return null;
  return {
    addEventListener: (type, fn, opts) =>
      (type === 'visibilitychange' ? document : window).addEventListener(type, fn, opts),
    removeEventListener: (type, fn, opts) =>
      (type === 'visibilitychange' ? document : window).removeEventListener(type, fn, opts),
    visible: () => document.visibilityState !== 'hidden',
  };
}

/** Whether the status says the app is waiting for something outside it to come up. */
export function waiting(status: Status | null, error: string): boolean {
  return error !== '' || status === null || (status.modelProvider === 'ollama' && !status.ollamaReachable);
}

export interface StatusStore {
  readonly current: Status | null;
  readonly error: string;
  readonly loading: boolean;
  refresh(): Promise<void>;
  start(intervalMs?: number, source?: ActivitySource | null): () => void;
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
        s.error = errText(err);
      } finally {
        s.loading = false;
        inflight = null;
      }
    })();
    return inflight;
  }

  function start(intervalMs = 5000, source: ActivitySource | null = windowSource()): () => void {
    let last = 0; // when the last refresh started (Date.now)
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const check = async () => {
      last = Date.now();
      await refresh();
      if (!stopped) plan();
    };
    // One timer at most, and only while waiting for something on a visible window.
    const plan = () => {
      clearTimeout(timer);
      timer = undefined;
      if (waiting(s.current, s.error) && (source?.visible() ?? true)) {
        timer = setTimeout(() => void check(), intervalMs);
      }
    };
    const onActivity = () => {
      if (source && !source.visible()) {
        plan(); // hidden: no timer until it is back
        return;
      }
      if (Date.now() - last >= intervalMs) void check();
      else if (timer === undefined) plan();
    };
    for (const type of ACTIVITY) source?.addEventListener(type, onActivity, { passive: true, capture: true });
    void check();
    return () => {
      stopped = true;
      clearTimeout(timer);
      for (const type of ACTIVITY) source?.removeEventListener(type, onActivity, { capture: true });
    };
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
  // A button beside the hint starts an Ollama Hearth can start; else the hint says what to do.
  if (status && !status.ollamaReachable && status.modelProvider === 'ollama')
    return status.ollamaEngine?.startable ? 'chat.disabledOllamaStart' : 'chat.disabledOllama';
  if (status && !status.modelConfigured) return 'chat.disabledModel';
  return 'chat.ready';
}

/** Whether a message can be sent: a model is set up and, for Ollama, it answers. */
export function canChat(status: Status | null): boolean {
  return composerHintKey(status) === 'chat.ready';
}
