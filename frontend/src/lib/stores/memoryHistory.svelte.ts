// The history of one memory file (docs/memory.md#history-and-restore): its changes,
// newest first, each with who made it and why; the diff of the one picked; Restore puts
// the file back as it was right after that change (itself a new change, so it can be
// undone the same way).
import { errText, type Api, type MemoryRev } from '../api';
import { tm } from '../i18n.svelte';

export type MemoryHistoryApi = Pick<Api, 'memoryHistory' | 'memoryDiff' | 'restoreMemory'>;

/** One line of a unified diff, classified for colouring. */
export interface DiffLine {
  kind: 'add' | 'del' | 'hunk' | 'meta' | 'ctx';
  text: string;
}

export function diffLines(diff: string): DiffLine[] {
  const out: DiffLine[] = [];
  for (const text of diff.replace(/\n$/, '').split('\n')) {
    if (text === '') continue;
    let kind: DiffLine['kind'] = 'ctx';
    if (/^(diff |index |--- |\+\+\+ |new file|deleted file)/.test(text)) kind = 'meta';
    else if (text.startsWith('@@')) kind = 'hunk';
    else if (text.startsWith('+')) kind = 'add';
    else if (text.startsWith('-')) kind = 'del';
    out.push({ kind, text });
  }
  return out.filter((l) => l.kind !== 'meta');
}

export function createMemoryHistory(api: MemoryHistoryApi) {
  const s = $state({
    path: '',
    revs: [] as MemoryRev[],
    loading: false,
    error: '',
    selected: '',
    diff: [] as DiffLine[],
    restoring: false,
    /** What the last restore said (shown once), worded in the UI language. */
    restored: '',
  });
  let seq = 0;

  async function load(path: string) {
    const my = ++seq;
    s.path = path;
    s.loading = true;
    s.error = '';
    try {
      const revs = await api.memoryHistory(path);
      if (my !== seq) return;
      s.revs = revs;
      if (!revs.some((r) => r.rev === s.selected)) {
        s.selected = '';
        s.diff = [];
      }
      if (!s.selected && revs.length > 0) await select(revs[0].rev);
    } catch (err) {
      if (my === seq) s.error = errText(err);
    } finally {
      if (my === seq) s.loading = false;
    }
  }

  async function select(rev: string) {
    s.selected = rev;
    try {
      const d = await api.memoryDiff(rev, s.path);
      if (s.selected === rev) s.diff = diffLines(d);
    } catch (err) {
      s.error = errText(err);
    }
  }

  async function restore(rev: string) {
    s.restoring = true;
    s.error = '';
    try {
      s.restored = tm(await api.restoreMemory(rev, s.path));
      s.selected = '';
      await load(s.path);
    } catch (err) {
      s.error = errText(err);
    } finally {
      s.restoring = false;
    }
  }

  return {
    get path() {
      return s.path;
    },
    get revs() {
      return s.revs;
    },
    get loading() {
      return s.loading;
    },
    get error() {
      return s.error;
    },
    get selected() {
      return s.selected;
    },
    get diff() {
      return s.diff;
    },
    get restoring() {
      return s.restoring;
    },
    get restored() {
      return s.restored;
    },
    load,
    select,
    restore,
  };
}

export type MemoryHistoryStore = ReturnType<typeof createMemoryHistory>;
