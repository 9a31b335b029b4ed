// The open chat: its items, the running turn and the context gauge. Run events are queued
// as they arrive and applied once per animation frame, so a fast stream costs one DOM
// update per frame however many chunks came in. A run keeps going when another chat is
// opened; its events are then applied off screen, and reopening its chat shows it live.
import { errText, visionModels, type Api, type ApprovalDecision, type ChatInput, type PendingApproval, type RunEvent, type SendMode, type Sent, type SessionData } from '../api';
import { itemOfMessage, itemsWithVersions, type VersionChoice } from './history';
import { createPendingStore } from './pending.svelte';
import { applyEvent, continueTurn, newTurn, prettyArgs, waitingCalls, type Item, type Turn } from './turn';

/** What Continue sends after a turn a budget ended (agent.ContinueText). */
export const CONTINUE_TEXT = 'Continue where you left off.';

export type Scheduler = (fn: () => void) => void;

export interface Attachment {
  name: string;
  url: string; // data: URL ("" for a file picked by path)
  /** A file (not a picture) to attach: by its path (the file picker) or its bytes in url (a drop or a paste). */
  file?: boolean;
  path?: string;
  bytes?: number;
  /** Why a file will not be attached (a coded problem: attach.tooBig, attach.link…) and its wording. */
  error?: string;
  detail?: string;
  /** Came in a drop on the page (its bytes), or from the native drop (its path). */
  dropped?: boolean;
  native?: boolean;
  /** A native chip that stands for the page's chip of the same drop. */
  twin?: boolean;
}

/** A message's attachments as chat.Input wants them: pictures, paths, pasted files. */
export function splitAttachments(all: Attachment[]) {
  const images = all.filter((a) => !a.file).map((a) => a.url);
  const files = all.filter((a) => a.file && a.path).map((a) => a.path as string);
  const pasted = all.filter((a) => a.file && !a.path).map((a) => ({ name: a.name, data: a.url }));
  const chips = all.filter((a) => a.file).map((a) => ({ name: a.name, bytes: a.bytes }));
  return { images, files, pasted, chips };
}

/** Per-chunk timing for the benchmark: arrival and the frame that showed it. */
export interface PerfProbe {
  arrived(n: number): void;
  flushed(): void;
}

/**
 * One followed run: Wails may deliver its events out of order, so they are put back in seq
 * order. The backend merges the deltas of a frame into one event, which accounts for the
 * seqs from its firstSeq to its seq.
 */
interface Follower {
  runId: string;
  sessionId: string;
  turn: Turn;
  nextSeq: number;
  early: Map<number, RunEvent>;
  queue: RunEvent[];
  unfollow: (() => void) | null;
  done: boolean;
  /** The user message whose file chips are read back from the chat's file when the run ends. */
  files?: Extract<Item, { kind: 'user' }>;
  /** Picked up mid-run (a call waiting for approval after a reload): its first event sets nextSeq. */
  adopted: boolean;
  /** The run rewrote the chat (regenerate, edit, continue): the chat is read again when it ends, for its versions. */
  reload?: boolean;
}

/** The first seq an event accounts for: a merged delta (firstSeq) covers firstSeq..seq. */
function firstSeq(ev: RunEvent): number {
  const from = ev.firstSeq;
  return typeof from === 'number' && from > 0 && from < ev.seq ? from : ev.seq;
}

export function createChatStore(
  api: Pick<
    Api,
    'send' | 'followRun' | 'stop' | 'denyInstead' | 'continueRun' | 'loadSession' | 'sessionUsage' | 'approve' | 'pendingApprovals' | 'setChatModel'
  > &
    Partial<Pick<Api, 'submit' | 'pendingMessages' | 'editPending' | 'removePending' | 'sendPending'>>,
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
    canSee: [] as string[], // installed models that can see pictures, after a refusal for a blind one
    contextUsed: 0,
    contextLimit: 0,
    lastInput: null as { text: string; images: string[] } | null,
    busy: [] as string[], // sessions with a reply running, shown or not
    asking: [] as string[], // sessions of runs off screen with a call waiting for approval
    model: '', // the chat's own model ('' = the default)
    older: false, // an earlier version is shown
    focus: null as { item: number; seq: number } | null, // an item to scroll to (a search hit)
  });
  let data: SessionData | null = null; // the open chat as loaded, for its versions
  let choice: VersionChoice | null = null;
  const followers = new Map<string, Follower>();
  let active: Follower | null = null; // the run shown in the open chat
  let scheduled = false;
  const idle: (() => void)[] = []; // replyInstead waits here for the stopped run to end
  let generation = 0; // bumps when another chat opens
  const pending = createPendingStore(api); // the open chat's messages waiting for its turn

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
      if (ev.type === 'pending' || ev.type === 'pending_taken' || ev.type === 'pending_dropped') pending.apply(ev);
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
          pending.named(s.sessionId); // its waiting messages are edited under that id
          opts.onChange?.(s.sessionId); // a new chat: list it now, not when the answer ends
        }
      }
      if (ev.type === 'approval') {
        if (ev.state === 'requested') void fillPending(f);
        if (f !== active) syncAsking();
      }
      // /model switched the chat's model: the session holds it now, and so does the window.
      if (ev.type === 'run_finished' && f === active && typeof ev.chatModel === 'string' && ev.chatModel) {
        s.model = ev.chatModel;
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
    part.approval.dir ||= p.dir ?? '';
    part.approval.destructive ||= p.destructive === true;
    part.approval.sandbox ||= p.sandbox ?? '';
    part.approval.sandboxNote ??= p.sandboxNote;
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
      for (const done of idle.splice(0)) done();
      if (f.files && f.sessionId) void readChips(f.sessionId, f.files);
      const next = f.turn.next;
      if (next) void followNext(next.runId, next.text);
      else if (f.turn.newSessionId) void open(f.turn.newSessionId);
      // An adopted run showed only its end, a rewriting one made a version: the chat is on disk now.
      else if ((f.adopted || f.reload) && f.sessionId) void open(f.sessionId, true);
    } else if (f.turn.next) {
      void followUnseen(f.turn.next.runId, f.sessionId); // its chat shows it live when opened
    }
    opts.onChange?.(f.sessionId || s.sessionId);
  }

  function onEvent(f: Follower, ev: RunEvent) {
    if (f.done) return;
    const from = firstSeq(ev);
    opts.probe?.arrived(ev.seq ? ev.seq - from + 1 : 1);
    if (f.nextSeq === 0 && ev.seq) f.nextSeq = from;
    if (!ev.seq) {
      f.queue.push(ev);
    } else if (from === f.nextSeq) {
      f.queue.push(ev);
      f.nextSeq = ev.seq + 1;
      for (let e = f.early.get(f.nextSeq); e; e = f.early.get(f.nextSeq)) {
        f.early.delete(f.nextSeq);
        f.queue.push(e);
        f.nextSeq = e.seq + 1;
      }
    } else if (from > f.nextSeq) {
      f.early.set(from, ev);
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

  async function startRun(start: () => Promise<string>, reload = false, onto?: Turn) {
    const gen = generation;
    s.error = '';
    s.canSee = [];
    let runId: string;
    try {
      runId = await start();
    } catch (err) {
      s.error = errText(err);
      s.canSee = visionModels(err);
      return false;
    }
    const shown = gen === generation;
    // The turn shown until now may have ended (stop and send waits for that) with its last
    // events still waiting for a frame that only drains the shown turn: apply them first.
    if (shown && active) drain(active);
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
      reload,
    };
    if (shown && onto && s.items.includes(onto)) {
      // Continue: the stopped answer goes on in place, not as a second answer below it.
      continueTurn(onto, runId);
      f.turn = onto;
      active = f;
      s.running = runId;
    } else if (shown) {
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

  function input(over: Partial<ChatInput>): ChatInput {
    // The model goes along only to create a new chat with it; a chat that exists answers
    // with the model its session holds (/model and the picker change that).
    return { sessionId: s.sessionId, text: '', images: [], model: s.sessionId ? '' : s.model, ...over };
  }

  /** Back to the current version before the chat changes. */
  function toCurrent() {
    if (choice && data) {
      choice = null;
      s.older = false;
      s.items = itemsWithVersions(data).items;
    }
  }

  /** Follows a run of a chat not shown (a queued turn started off screen). */
  async function followUnseen(runId: string, sessionId: string) {
    const f: Follower = { runId, sessionId, turn: newTurn(runId), nextSeq: 1, early: new Map(), queue: [], unfollow: null, done: false, adopted: false };
    followers.set(runId, f);
    syncBusy();
    f.unfollow = await api.followRun(runId, (ev) => onEvent(f, ev));
    if (f.done) f.unfollow();
  }

  /** A waiting message started the next turn as the shown one ended: it is shown as asked. */
  function followNext(runId: string, text: string) {
    s.items.push({ kind: 'user', key: `u-${runId}`, text, images: [] });
    return startRun(() => Promise.resolve(runId));
  }

  /**
   * Sends while a turn runs (docs/chat.md#while-it-works): the message waits as a steer or
   * a queued turn, or stops the turn and starts its own (mode stop).
   */
  async function submit(text: string, images: Attachment[], mode: SendMode): Promise<boolean> {
    const imgs = splitAttachments(images).images;
    if (!api.submit || !s.sessionId || (!text.trim() && imgs.length === 0)) return false;
    s.error = '';
    let sent: Sent;
    try {
      sent = await api.submit(input({ text, images: imgs, mode }));
    } catch (err) {
      s.error = errText(err);
      return false;
    }
    if (sent.pending) {
      pending.added(sent.pending);
      return true;
    }
    if (!sent.runId) return false;
    return followNext(sent.runId, text); // stop and send, or the turn had ended meanwhile
  }

  async function send(text: string, images: Attachment[] = [], mode?: SendMode): Promise<boolean> {
    if (s.running && mode) return submit(text, images, mode);
    if (s.running) return waitingCalls(s.items).length > 0 ? replyInstead(text, images) : false;
    const { images: imgs, files, pasted, chips } = splitAttachments(images);
    if (!text.trim() && images.length === 0) return false;
    toCurrent();
    s.lastInput = { text, images: imgs };
    s.items.push({ kind: 'user', key: `u-${Date.now()}-${s.items.length}`, text, images: imgs, ...(chips.length ? { files: chips } : {}) });
    s.interrupted = false;
    const attached = files.length || pasted.length ? { files, pasted } : {};
    const ok = await startRun(() => api.send(input({ text, images: imgs, ...attached })));
    // With files, the message's chips get what the backend recorded once the turn ends
    // (size, pages, a refused file's problem).
    if (ok && chips.length) {
      const f = active;
      const item = [...s.items].reverse().find((it) => it.kind === 'user');
      if (f && item?.kind === 'user') f.files = item;
    }
    if (!ok && s.error) s.items.pop();
    return ok;
  }

  /** The last answer is replaced by a new one; the earlier stays as a version (‹ 1/2 ›). */
  async function regenerate() {
    if (s.running || !s.sessionId) return false;
    toCurrent();
    const last = s.items.length - 1;
    if (last >= 0 && s.items[last].kind === 'assistant') s.items.splice(last, 1);
    s.interrupted = false;
    return startRun(() => api.send(input({ again: true })), true);
  }

  /**
   * Answers the calls waiting for approval with a message ("no — do X instead"): one
   * backend call denies them and stops the reply before it asks the model again (no
   * fragment of a new answer), and the message is sent as the next turn, so the model
   * reads the denial and then what the person wants instead.
   */
  async function replyInstead(text: string, images: Attachment[]): Promise<boolean> {
    if (!text.trim() && images.length === 0) return false;
    const runId = s.running;
    const sessionId = s.sessionId;
    if (!sessionId) return false;
    for (const w of waitingCalls(s.items).filter((x) => x.runId === runId)) {
      if (w.part.approval) w.part.approval.sending = true;
    }
    if (s.running === runId) {
      const ended = new Promise<void>((done) => idle.push(done));
      const going = await api.denyInstead(sessionId).catch(() => false);
      if (going) await ended;
    }
    if (s.sessionId !== sessionId || s.running) return false; // the person moved on meanwhile
    return send(text, images);
  }

  /** A failed reply is answered again in place (never a second copy of the question). */
  async function retry() {
    return regenerate();
  }

  /** Asks the question at items[index] again as text: the chat goes on from there; what followed stays as a version. */
  async function edit(index: number, text: string) {
    if (s.running || !s.sessionId || !text.trim()) return false;
    const it = s.items[index];
    if (it?.kind !== 'user' || choice) return false;
    const n = s.items.slice(0, index + 1).filter((x) => x.kind === 'user').length;
    s.items.splice(index);
    s.items.push({ kind: 'user', key: `u-${Date.now()}-${index}`, text, images: [] });
    s.interrupted = false;
    return startRun(() => api.send(input({ text, edit: n })), true);
  }

  /** Lets the stopped answer go on where it stopped. */
  async function resume() {
    if (s.running || !s.sessionId) return false;
    toCurrent();
    const last = s.items[s.items.length - 1];
    const onto = last?.kind === 'assistant' && last.status === 'cancelled' ? last : undefined;
    return startRun(() => api.send(input({ resume: true })), true, onto);
  }

  /** Shows version index (0 = oldest) of the chat from message at on; the last index is the current one. */
  function showVersion(at: number, index: number) {
    if (!data || s.running) return;
    const n = (data.versions ?? []).filter((v) => v.at === at).length;
    if (index < 0 || index > n) return;
    choice = index === n ? null : { at, index };
    s.older = choice !== null;
    s.items = itemsWithVersions(data, choice).items;
  }

  /** Opens chat id scrolled to its stored message index (a search hit). */
  async function openAt(id: string, index: number) {
    await open(id);
    const item = index < 0 ? -1 : itemOfMessage(s.items, index);
    if (item >= 0) s.focus = { item, seq: (s.focus?.seq ?? 0) + 1 };
  }

  /** The model this chat uses from now on ('' = the default). */
  async function setModel(name: string) {
    s.model = name;
    if (!s.sessionId) return true; // the new chat is created with it
    try {
      await api.setChatModel(s.sessionId, name);
      return true;
    } catch (err) {
      s.error = errText(err);
      return false;
    }
  }

  /**
   * Switches the chat to a model that can see pictures (offered after the chat's model
   * refused them); the message stays in the composer to be sent again.
   */
  async function useVisionModel(name: string) {
    if (!(await setModel(`ollama/${name}`))) return false;
    s.error = '';
    s.canSee = [];
    return true;
  }

  async function stop() {
    if (!s.running || !s.sessionId) return false;
    return api.stop(s.sessionId);
  }

  /**
   * Goes on after a turn a budget ended (docs/chat.md#budgets): a new turn, with budgets
   * of its own, that reads the summary. The words are the backend's agent.ContinueText.
   */
  async function goOn() {
    return send(CONTINUE_TEXT);
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
    for (const done of idle.splice(0)) done();
    s.error = '';
    s.lastInput = null;
  }

  /** Sets item's chips to the records of the chat's last message with attachments. */
  async function readChips(id: string, item: Extract<Item, { kind: 'user' }>) {
    const loaded = await api.loadSession(id).catch(() => null);
    const withFiles = [...(loaded?.messages ?? [])].reverse().find((m) => m.role === 'user' && m.attachments?.length);
    if (!withFiles || s.sessionId !== id) return;
    item.files = (withFiles.attachments ?? []).map((a) => ({ name: a.name, file: a.file, bytes: a.bytes, pages: a.pages, mode: a.mode, error: a.error, detail: a.detail }));
  }

  async function open(id: string, quiet = false) {
    leave();
    const gen = generation;
    s.sessionId = id;
    s.loading = !quiet; // reread after a run: keep what is shown until the new items replace it
    try {
      const loaded = await api.loadSession(id);
      if (gen !== generation) return;
      data = loaded;
      choice = null;
      s.older = false;
      s.model = loaded.model ?? '';
      const { items, interrupted } = itemsWithVersions(loaded);
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
      void pending.load(id);
      if (!live) await adoptPending(id, gen);
      const u = await api.sessionUsage(id).catch(() => null);
      s.contextUsed = u?.contextUsed ?? 0;
      s.contextLimit = u?.contextLimit ?? 0;
    } catch (err) {
      s.error = errText(err);
      s.items = [];
      data = null;
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
        approval: {
          state: 'requested',
          scope: '',
          reason: p.reason,
          why: p.why,
          maskedArgs: args,
          dir: p.dir ?? '',
          destructive: p.destructive === true,
          sandbox: p.sandbox ?? '',
          sandboxNote: p.sandboxNote,
          sending: false,
          error: '',
        },
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
    data = null;
    choice = null;
    s.older = false;
    s.model = '';
    s.items = [];
    s.interrupted = false;
    s.contextUsed = 0;
    s.contextLimit = 0;
    void pending.load('');
  }

  /** Sends a held message again; a turn it starts is shown as asked. */
  async function sendPending(id: string) {
    const p = pending.list.find((x) => x.id === id);
    const runId = await pending.send(id);
    if (runId && p && !s.running) await followNext(runId, p.text);
    return !!runId || !pending.error;
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
    get canSee() {
      return s.canSee;
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
      const last = s.items[s.items.length - 1];
      return !s.running && !!s.sessionId && last?.kind === 'assistant' && last.status === 'error';
    },
    /** The item to bring into view (openAt), with a sequence number per request. */
    get focus() {
      return s.focus;
    },
    /** An earlier version of the chat is shown (editing waits for the current one). */
    get older() {
      return s.older;
    },
    /** The chat's own model ('' = the default). */
    get model() {
      return s.model;
    },
    /** The messages waiting for the open chat's turn. */
    pending,
    sendPending,
    send,
    retry,
    regenerate,
    edit,
    resume,
    showVersion,
    setModel,
    useVisionModel,
    openAt,
    stop,
    continueRun,
    goOn,
    open,
    newChat,
    approve,
    pendingChat,
  };
}

export type ChatStore = ReturnType<typeof createChatStore>;
