// The messages waiting for the open chat's turn (docs/chat.md#while-it-works): sent
// while a turn runs as a steer or a queued turn, editable until a run takes them, held
// after a stop or a restart. The run's stream keeps the list current (pending,
// pending_taken, pending_dropped); the backend's list is read when the chat opens.
import { errText, type Api, type PendingMessage, type RunEvent } from '../api';

export function createPendingStore(api: Partial<Pick<Api, 'pendingMessages' | 'editPending' | 'removePending' | 'sendPending'>>) {
  const s = $state({ sessionId: '', list: [] as PendingMessage[], error: '' });
  let gen = 0;

  function upsert(p: PendingMessage) {
    const i = s.list.findIndex((x) => x.id === p.id);
    if (i >= 0) s.list[i] = { ...s.list[i], ...p };
    else s.list.push(p);
  }

  function drop(id: string) {
    s.list = s.list.filter((x) => x.id !== id);
  }

  async function call<T>(fn: () => Promise<T>): Promise<T | undefined> {
    s.error = '';
    try {
      return await fn();
    } catch (err) {
      s.error = errText(err);
      return undefined;
    }
  }

  return {
    get list() {
      return s.list;
    },
    get error() {
      return s.error;
    },
    /** Reads chat id's waiting messages (none for a new chat). */
    async load(id: string) {
      const g = ++gen;
      s.sessionId = id;
      s.list = [];
      s.error = '';
      if (!id || !api.pendingMessages) return;
      const list = await call(() => api.pendingMessages!(id));
      if (g === gen && list) s.list = list;
    },
    /** A new chat got its id as its first run started; the list is kept. */
    named(id: string) {
      if (!s.sessionId) s.sessionId = id;
    },
    /** A message the backend took to wait (Submit's answer). */
    added(p: PendingMessage) {
      upsert(p);
    },
    /** Follows the open chat's run stream. */
    apply(ev: RunEvent) {
      if (ev.sessionId && s.sessionId && ev.sessionId !== s.sessionId) return;
      const id = String(ev.id ?? '');
      if (ev.type === 'pending') {
        upsert({ id, mode: ev.mode === 'queue' ? 'queue' : 'steer', text: String(ev.text ?? ''), at: '', held: ev.held === true });
      } else if (ev.type === 'pending_taken' || ev.type === 'pending_dropped') {
        drop(id);
      }
    },
    async edit(id: string, text: string, mode: 'steer' | 'queue') {
      if (!text.trim() || !api.editPending) return false;
      const p = await call(() => api.editPending!(s.sessionId, id, text, mode));
      if (p) upsert(p);
      return !!p;
    },
    /** Steer becomes queue and back. */
    async toggle(id: string) {
      const p = s.list.find((x) => x.id === id);
      return p ? this.edit(id, p.text, p.mode === 'steer' ? 'queue' : 'steer') : false;
    },
    async remove(id: string) {
      if (!api.removePending) return false;
      const ok = (await call(() => api.removePending!(s.sessionId, id).then(() => true))) ?? false;
      if (ok) drop(id);
      return ok;
    },
    /** Sends a held message again: the run it started ('' when it waits for the running turn). */
    async send(id: string): Promise<string> {
      if (!api.sendPending) return '';
      const runId = await call(() => api.sendPending!(s.sessionId, id));
      if (runId) drop(id);
      else if (runId === '') {
        const p = s.list.find((x) => x.id === id);
        if (p) upsert({ ...p, held: false });
      }
      return runId ?? '';
    },
  };
}

export type PendingStore = ReturnType<typeof createPendingStore>;
