// The chat list: newest first, filtered by the search box (Ctrl+K).
import { errText, type Api, type SessionSummary } from '../api';

export function sortNewest(list: SessionSummary[]): SessionSummary[] {
  return [...list].sort((a, b) => String(b.updated).localeCompare(String(a.updated)));
}

/** Matches every word of query against the title (case-insensitive). */
export function matches(s: SessionSummary, query: string): boolean {
  const title = (s.title || '').toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => title.includes(w));
}

export function createSessionsStore(
  api: Pick<Api, 'listSessions' | 'renameSession' | 'deleteSession' | 'exportSession'>,
) {
  const s = $state({ list: [] as SessionSummary[], query: '', error: '', loaded: false });

  async function refresh() {
    try {
      s.list = sortNewest((await api.listSessions()) ?? []).filter((x) => !x.archived);
      s.error = '';
    } catch (err) {
      s.error = errText(err);
    } finally {
      s.loaded = true;
    }
  }

  async function rename(id: string, title: string) {
    try {
      await api.renameSession(id, title.trim());
      await refresh();
      return true;
    } catch (err) {
      s.error = errText(err);
      return false;
    }
  }

  async function remove(id: string) {
    try {
      await api.deleteSession(id);
      await refresh();
      return true;
    } catch (err) {
      s.error = errText(err);
      return false;
    }
  }

  /** Exports through the save dialog; returns the path written, '' when cancelled. */
  async function exportTo(id: string, format: 'markdown' | 'json', dialogTitle = 'Export chat') {
    const title = s.list.find((x) => x.id === id)?.title ?? '';
    try {
      return await api.exportSession(id, title, format, dialogTitle);
    } catch (err) {
      s.error = errText(err);
      return '';
    }
  }

  return {
    get list() {
      return s.list;
    },
    get filtered() {
      return s.query ? s.list.filter((x) => matches(x, s.query)) : s.list;
    },
    get query() {
      return s.query;
    },
    set query(q: string) {
      s.query = q;
    },
    get error() {
      return s.error;
    },
    get loaded() {
      return s.loaded;
    },
    refresh,
    rename,
    remove,
    exportTo,
  };
}

export type SessionsStore = ReturnType<typeof createSessionsStore>;
