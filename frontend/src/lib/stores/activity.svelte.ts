// The Activity view's audit log (docs/design/safety-defaults.md#audit-log): every tool call, newest first, filtered by
// tool, chat, failure and day. It is read again when a run finishes while the view
// has been opened.
import { errText, type Api, type AuditEntry, type AuditFilter } from '../api';

export interface ActivityFilters {
  tool: string;
  session: string;
  failed: boolean;
  /** A local day as YYYY-MM-DD, or '' for every day kept. */
  day: string;
}

/** How many entries the view reads at most (the newest). */
export const ACTIVITY_LIMIT = 500;

export const noFilters = (): ActivityFilters => ({ tool: '', session: '', failed: false, day: '' });

/** The backend's filter for the view's filters: a day is local midnight to midnight. */
export function toAuditFilter(f: ActivityFilters, limit = ACTIVITY_LIMIT): AuditFilter {
  const out: AuditFilter = { limit };
  if (f.tool) out.tool = f.tool;
  if (f.session) out.sessionId = f.session;
  if (f.failed) out.failed = true;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(f.day);
  if (m) {
    const start = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
    const end = new Date(start);
    end.setDate(end.getDate() + 1);
    out.since = start.toISOString();
    out.until = end.toISOString();
  }
  return out;
}

/** Entries newest first (the log is oldest first). */
export function newestFirst(entries: AuditEntry[]): AuditEntry[] {
  return [...entries].sort((a, b) => Date.parse(String(b.time)) - Date.parse(String(a.time)));
}

/** A stable key of an entry (a call id is unique within its run). */
export const entryKey = (e: AuditEntry) => `${e.run}\u0000${e.callId}\u0000${String(e.time)}`;

export function createActivityStore(api: Pick<Api, 'activity'>) {
  const s = $state({
    entries: [] as AuditEntry[],
    filters: noFilters(),
    loading: false,
    loaded: false,
    error: '',
    open: '' as string, // the expanded entry's key
    tools: [] as string[],
    sessions: [] as string[],
  });
  let generation = 0;

  function remember(entries: AuditEntry[]) {
    const tools = new Set(s.tools);
    const sessions = new Set(s.sessions);
    for (const e of entries) {
      if (e.tool) tools.add(e.tool);
      if (e.session) sessions.add(e.session);
    }
    s.tools = [...tools].sort();
    s.sessions = [...sessions];
  }

  async function refresh() {
    const gen = ++generation;
    s.loading = true;
    try {
      const got = await api.activity(toAuditFilter(s.filters));
      if (gen !== generation) return;
      s.entries = newestFirst(got);
      remember(got);
      s.error = '';
    } catch (err) {
      if (gen === generation) s.error = errText(err);
    } finally {
      if (gen === generation) {
        s.loading = false;
        s.loaded = true;
      }
    }
  }

  function setFilters(patch: Partial<ActivityFilters>) {
    Object.assign(s.filters, patch);
    return refresh();
  }

  return {
    get entries() {
      return s.entries;
    },
    get filters() {
      return s.filters;
    },
    get loading() {
      return s.loading;
    },
    get loaded() {
      return s.loaded;
    },
    get error() {
      return s.error;
    },
    /** Tools and chats seen in the log, for the filter menus. */
    get tools() {
      return s.tools;
    },
    get sessions() {
      return s.sessions;
    },
    get filtered() {
      const f = s.filters;
      return !!(f.tool || f.session || f.failed || f.day);
    },
    isOpen: (e: AuditEntry) => s.open === entryKey(e),
    toggle(e: AuditEntry) {
      s.open = s.open === entryKey(e) ? '' : entryKey(e);
    },
    refresh,
    setFilters,
    clear: () => setFilters(noFilters()),
    /** A run finished: read the log again if the view was opened. */
    runFinished() {
      if (s.loaded) void refresh();
    },
  };
}

export type ActivityStore = ReturnType<typeof createActivityStore>;
