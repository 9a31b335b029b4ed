// The open chat: its items, the running turn and the context gauge. Run events are queued
// as they arrive and applied once per animation frame, so a fast stream costs one DOM
// update per frame however many chunks came in.
import { errText, type Api, type RunEvent } from '../api';
import { itemsFromSession } from './history';
import { applyEvent, newTurn, type Item, type Turn } from './turn';

export type Scheduler = (fn: () => void) => void;

export interface Attachment {
  name: string;
  url: string; // data: URL
}

/** Per-chunk timing for the benchmark: arrival and the frame that showed it. */
export interface PerfProbe {
  arrived(n: number): void;
  flushed(): void;
}

export function createChatStore(
  api: Pick<Api, 'send' | 'followRun' | 'stop' | 'continueRun' | 'loadSession' | 'sessionUsage'>,
  opts: { schedule?: Scheduler; onChange?: (sessionId: string) => void; probe?: PerfProbe } = {},
) {
  const schedule: Scheduler = opts.schedule ?? ((fn) => requestAnimationFrame(() => fn()));
  const s = $state({
    sessionId: '',
    items: [] as Item[],
    running: '' as string, // run id
    interrupted: false,
    loading: false,
    error: '',
    contextUsed: 0,
    contextLimit: 0,
    lastInput: null as { text: string; images: string[] } | null,
  });
  let queue: RunEvent[] = [];
  let scheduled = false;
  let unfollow: (() => void) | null = null;
  let current: Turn | null = null;
  let generation = 0; // bumps when another chat opens: stale events are dropped
  // Wails may deliver a run's events out of order; they are put back in seq order here.
  let nextSeq = 1;
  let early = new Map<number, RunEvent>();

  function flush() {
    scheduled = false;
    const evs = queue;
    queue = [];
    const turn = current;
    if (!turn) return;
    for (const ev of evs) {
      applyEvent(turn, ev);
      if (ev.type === 'usage') {
        s.contextUsed = turn.contextUsed;
        s.contextLimit = turn.contextLimit;
      }
      if (ev.type === 'run_started' && ev.sessionId && !s.sessionId) {
        s.sessionId = ev.sessionId;
        opts.onChange?.(s.sessionId); // a new chat: list it now, not when the answer ends
      }
      if (ev.type === 'run_finished') finish(turn);
    }
    opts.probe?.flushed();
  }

  function finish(turn: Turn) {
    s.running = '';
    unfollow?.();
    unfollow = null;
    current = null;
    if (turn.newSessionId) {
      void open(turn.newSessionId);
    }
    opts.onChange?.(s.sessionId);
  }

  function onEvent(gen: number, ev: RunEvent) {
    if (gen !== generation) return;
    opts.probe?.arrived(1);
    if (!ev.seq) {
      queue.push(ev);
    } else if (ev.seq === nextSeq) {
      queue.push(ev);
      nextSeq++;
      for (let e = early.get(nextSeq); e; e = early.get(nextSeq)) {
        early.delete(nextSeq);
        queue.push(e);
        nextSeq++;
      }
    } else if (ev.seq > nextSeq) {
      early.set(ev.seq, ev);
      return;
    } else {
      return; // a duplicate
    }
    if (!scheduled) {
      scheduled = true;
      schedule(flush);
    }
  }

  async function startRun(start: () => Promise<string>) {
    const gen = generation;
    s.error = '';
    let runId: string;
    try {
      runId = await start();
    } catch (err) {
      s.error = errText(err);
      return false;
    }
    if (gen !== generation) return false;
    nextSeq = 1;
    early = new Map();
    const proxy = newTurn(runId);
    s.items.push(proxy);
    current = s.items[s.items.length - 1] as Turn; // the reactive proxy
    s.running = runId;
    unfollow = await api.followRun(runId, (ev) => onEvent(gen, ev));
    return true;
  }

  async function send(text: string, images: Attachment[] = [], model = '') {
    if (s.running) return false;
    const imgs = images.map((a) => a.url);
    if (!text.trim() && imgs.length === 0) return false;
    s.lastInput = { text, images: imgs };
    s.items.push({ kind: 'user', key: `u-${Date.now()}-${s.items.length}`, text, images: imgs });
    s.interrupted = false;
    const ok = await startRun(() => api.send({ sessionId: s.sessionId, text, images: imgs, model }));
    if (!ok) s.items.pop();
    return ok;
  }

  async function retry() {
    if (!s.lastInput || s.running) return false;
    return send(s.lastInput.text, s.lastInput.images.map((url, i) => ({ name: `image-${i}`, url })));
  }

  async function stop() {
    if (!s.running || !s.sessionId) return false;
    return api.stop(s.sessionId);
  }

  async function continueRun() {
    if (!s.sessionId || s.running) return false;
    s.interrupted = false;
    return startRun(() => api.continueRun(s.sessionId));
  }

  function reset() {
    generation++;
    unfollow?.();
    unfollow = null;
    current = null;
    queue = [];
    s.running = '';
    s.error = '';
    s.lastInput = null;
  }

  async function open(id: string) {
    reset();
    const gen = generation;
    s.sessionId = id;
    s.loading = true;
    try {
      const data = await api.loadSession(id);
      if (gen !== generation) return;
      const { items, interrupted } = itemsFromSession(data);
      s.items = items;
      s.interrupted = interrupted;
      // A chat whose last reply failed offers Retry with its last question.
      const last = items[items.length - 1];
      const q = items[items.length - 2];
      if (last?.kind === 'assistant' && last.status === 'error' && q?.kind === 'user') {
        s.lastInput = { text: q.text, images: q.images };
      }
      const u = await api.sessionUsage(id).catch(() => null);
      s.contextUsed = u?.contextUsed ?? 0;
      s.contextLimit = u?.contextLimit ?? 0;
    } catch (err) {
      s.error = errText(err);
      s.items = [];
    } finally {
      if (gen === generation) s.loading = false;
    }
  }

  function newChat() {
    reset();
    s.sessionId = '';
    s.items = [];
    s.interrupted = false;
    s.contextUsed = 0;
    s.contextLimit = 0;
  }

  return {
    get sessionId() {
      return s.sessionId;
    },
    get items() {
      return s.items;
    },
    get running() {
      return s.running;
    },
    get interrupted() {
      return s.interrupted;
    },
    get loading() {
      return s.loading;
    },
    get error() {
      return s.error;
    },
    get contextUsed() {
      return s.contextUsed;
    },
    get contextLimit() {
      return s.contextLimit;
    },
    get canRetry() {
      return !!s.lastInput && !s.running;
    },
    send,
    retry,
    stop,
    continueRun,
    open,
    newChat,
  };
}

export type ChatStore = ReturnType<typeof createChatStore>;
