// The open chat: its items, the running turn and the context gauge. Run events are queued
// as they arrive and applied once per animation frame, so a fast stream costs one DOM
// update per frame however many chunks came in. A run keeps going when another chat is
// opened; its events are then applied off screen, and reopening its chat shows it live.
import { errText, type Api, type ApprovalDecision, type PendingApproval, type RunEvent } from '../api';
import { itemsFromSession } from './history';
import { applyEvent, newTurn, prettyArgs, waitingCalls, type Item, type Turn } from './turn';

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

/** One followed run: Wails may deliver its events out of order, so they are put back in seq order. */
interface Follower {
  runId: string;
  sessionId: string;
  turn: Turn;
  nextSeq: number;
  early: Map<number, RunEvent>;
  queue: RunEvent[];
  unfollow: (() => void) | null;
  done: boolean;
  /** Picked up mid-run (a call waiting for approval after a reload): its first event sets nextSeq. */
  adopted: boolean;
}

export function createChatStore(
  api: Pick<
    Api,
    'send' | 'followRun' | 'stop' | 'continueRun' | 'loadSession' | 'sessionUsage' | 'approve' | 'pendingApprovals'
  >,
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
    busy: [] as string[], // sessions with a reply running, shown or not
    asking: [] as string[], // sessions of runs off screen with a call waiting for approval
  });
  const followers = new Map<string, Follower>();
  let active: Follower | null = null; // the run shown in the open chat
  let scheduled = false;
  let generation = 0; // bumps when another chat opens

  function syncBusy() {
    s.busy = [...followers.values()].filter((f) => !f.done && f.sessionId).map((f) => f.sessionId);
    syncAsking();
  }

  function syncAsking() {
    const asking = [...followers.values()]
      .filter((f) => f !== active && !f.done && f.sessionId && waitingCalls([f.turn]).length > 0)
      .map((f) => f.sessionId);
    if (asking.join() !== s.asking.join()) s.asking = asking;
  }

  /** Applies f's queued events to its turn; reports whether the run finished. */
  function drain(f: Follower): void {
    const evs = f.queue;
    f.queue = [];
    for (const ev of evs) {
      applyEvent(f.turn, ev);
      if (ev.sessionId && f.sessionId !== ev.sessionId) {
        f.sessionId = ev.sessionId;
        syncBusy();
      }
      if (f === active) {
        if (ev.type === 'usage') {
          s.contextUsed = f.turn.contextUsed;
          s.contextLimit = f.turn.contextLimit;
        }
        if (ev.type === 'run_started' && ev.sessionId && !s.sessionId) {
          s.sessionId = ev.sessionId;
          opts.onChange?.(s.sessionId); // a new chat: list it now, not when the answer ends
        }
      }
      if (ev.type === 'approval') {
        if (ev.state === 'requested') void fillPending(f);
        if (f !== active) syncAsking();
      }
      if (ev.type === 'run_finished') finish(f);
    }
  }

  /** Adds what the gate knows of f's waiting calls (the reason, masked arguments) to their cards. */
  async function fillPending(f: Follower) {
    let list: PendingApproval[];
    try {
      list = await api.pendingApprovals();
    } catch {
      return; // the card still works with the call's own arguments
    }
    for (const p of list) if (p.runId === f.runId) describe(f.turn, p);
  }

  function describe(turn: Turn, p: PendingApproval) {
    const part = turn.parts.find((x) => x.kind === 'tool' && x.callId === p.callId);
    if (part?.kind !== 'tool' || part.approval?.state !== 'requested') return;
    part.approval.reason = p.reason;
    part.approval.why = p.why;
    part.approval.maskedArgs = prettyArgs(p.args);
  }

  function flush() {
    scheduled = false;
    if (active) drain(active);
    opts.probe?.flushed();
  }

  function finish(f: Follower) {
    f.done = true;
    f.unfollow?.();
    f.unfollow = null;
    followers.delete(f.runId);
    syncBusy();
    if (f === active) {
      active = null;
      s.running = '';
      if (f.turn.newSessionId) void open(f.turn.newSessionId);
      // An adopted run showed only its end: the whole turn is on disk now.
      else if (f.adopted && f.sessionId) void open(f.sessionId);
    }
    opts.onChange?.(f.sessionId || s.sessionId);
  }

  function onEvent(f: Follower, ev: RunEvent) {
    if (f.done) return;
    opts.probe?.arrived(1);
    if (f.nextSeq === 0 && ev.seq) f.nextSeq = ev.seq;
    if (!ev.seq) {
      f.queue.push(ev);
    } else if (ev.seq === f.nextSeq) {
      f.queue.push(ev);
      f.nextSeq++;
      for (let e = f.early.get(f.nextSeq); e; e = f.early.get(f.nextSeq)) {
        f.early.delete(f.nextSeq);
        f.queue.push(e);
        f.nextSeq++;
      }
    } else if (ev.seq > f.nextSeq) {
      f.early.set(ev.seq, ev);
      return;
    } else {
      return; // a duplicate
    }
    if (f !== active) {
      drain(f); // off screen: no frame to wait for
    } else if (!scheduled) {
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
    const shown = gen === generation;
    const f: Follower = {
      runId,
      sessionId: shown ? s.sessionId : '',
      turn: newTurn(runId),
      nextSeq: 1,
      early: new Map(),
      queue: [],
      unfollow: null,
      done: false,
      adopted: false,
    };
    if (shown) {
      s.items.push(f.turn);
      f.turn = s.items[s.items.length - 1] as Turn; // the reactive proxy
      active = f;
      s.running = runId;
    }
    followers.set(runId, f);
    syncBusy();
    f.unfollow = await api.followRun(runId, (ev) => onEvent(f, ev));
    if (f.done) f.unfollow();
    return shown;
  }

  async function send(text: string, images: Attachment[] = [], model = '') {
    if (s.running) return false;
    const imgs = images.map((a) => a.url);
    if (!text.trim() && imgs.length === 0) return false;
    s.lastInput = { text, images: imgs };
    s.items.push({ kind: 'user', key: `u-${Date.now()}-${s.items.length}`, text, images: imgs });
    s.interrupted = false;
    const ok = await startRun(() => api.send({ sessionId: s.sessionId, text, images: imgs, model }));
    if (!ok && s.error) s.items.pop();
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

  /** Leaves the open chat; its run, if any, goes on off screen. */
  function leave() {
    generation++;
    if (active) {
      const f = active;
      active = null;
      drain(f);
    }
    syncAsking();
    scheduled = false;
    s.running = '';
    s.error = '';
    s.lastInput = null;
  }

  async function open(id: string) {
    leave();
    const gen = generation;
    s.sessionId = id;
    s.loading = true;
    try {
      const data = await api.loadSession(id);
      if (gen !== generation) return;
      const { items, interrupted } = itemsFromSession(data);
      const live = [...followers.values()].find((f) => f.sessionId === id && !f.done);
      if (live) {
        // What the run wrote so far is on disk too: show the live turn instead.
        s.items = items.filter((it) => !(it.kind === 'assistant' && it.runId === live.runId));
        s.items.push(live.turn);
        live.turn = s.items[s.items.length - 1] as Turn;
        active = live;
        s.running = live.runId;
        s.interrupted = false;
        syncAsking();
      } else {
        s.items = items;
        s.interrupted = interrupted;
      }
      // A chat whose last reply failed offers Retry with its last question.
      const last = s.items[s.items.length - 1];
      const q = s.items[s.items.length - 2];
      if (!live && last?.kind === 'assistant' && last.status === 'error' && q?.kind === 'user') {
        s.lastInput = { text: q.text, images: q.images };
      }
      if (!live) await adoptPending(id, gen);
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

  /**
   * Shows the calls of chat id that wait for approval although no run of this window
   * follows them (the window was reloaded): their run is followed from here on.
   */
  async function adoptPending(id: string, gen: number) {
    const list = (await api.pendingApprovals().catch(() => [] as PendingApproval[])).filter((p) => p.sessionId === id);
    if (gen !== generation || list.length === 0 || active) return;
    const runId = list[0].runId;
    const turn = newTurn(runId, `p-${runId}`);
    for (const p of list.filter((x) => x.runId === runId)) {
      const args = prettyArgs(p.args);
      turn.parts.push({
        kind: 'tool',
        callId: p.callId,
        name: p.tool,
        args,
        approval: { state: 'requested', scope: '', reason: p.reason, why: p.why, maskedArgs: args, sending: false, error: '' },
      });
    }
    s.items.push(turn);
    const f: Follower = {
      runId,
      sessionId: id,
      turn: s.items[s.items.length - 1] as Turn,
      nextSeq: 0,
      early: new Map(),
      queue: [],
      unfollow: null,
      done: false,
      adopted: true,
    };
    active = f;
    s.running = runId;
    s.interrupted = false;
    followers.set(runId, f);
    syncBusy();
    f.unfollow = await api.followRun(runId, (ev) => onEvent(f, ev));
    if (f.done) f.unfollow();
  }

  /** The chat with the oldest call waiting for approval, or '' (the window opens it on load). */
  async function pendingChat(): Promise<string> {
    const list = await api.pendingApprovals().catch(() => [] as PendingApproval[]);
    return list[0]?.sessionId ?? '';
  }

  /** Answers a call waiting for approval; its card resolves when the approval event arrives. */
  async function approve(runId: string, callId: string, decision: ApprovalDecision) {
    const turn = s.items.find((it): it is Turn => it.kind === 'assistant' && it.runId === runId);
    const part = turn?.parts.find((p) => p.kind === 'tool' && p.callId === callId);
    const a = part?.kind === 'tool' ? part.approval : undefined;
    if (a) {
      if (a.sending || a.state !== 'requested') return false;
      a.sending = true;
      a.error = '';
    }
    try {
      await api.approve(runId, callId, decision);
      return true; // still sending until the approval event resolves the card
    } catch (err) {
      if (a) {
        a.error = errText(err);
        a.sending = false;
      }
      return false;
    }
  }

  function newChat() {
    leave();
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
    /** Session ids of other chats whose reply waits for an approval. */
    get asking() {
      return s.asking;
    },
    /** Session ids with a reply running, in this chat or off screen. */
    get busy() {
      return s.busy;
    },
    /** The calls of the open chat waiting for approval, oldest first. */
    get waiting() {
      return waitingCalls(s.items);
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
    approve,
    pendingChat,
  };
}

export type ChatStore = ReturnType<typeof createChatStore>;
