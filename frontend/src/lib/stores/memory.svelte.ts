// The memory sidebar (docs/design/memory.md#editing): the workspace's memory and persona files, the documents
// open in the editor, and recall search. Saves are compare-and-swap: each document keeps
// the hash of the text it was read from, and the backend refuses a save when the file
// changed since — then the document holds both versions until the person resolves them.
// An unsaved draft is kept per file, so moving between files loses nothing.
import { errText, type Api, type MemoryFileInfo, type MemoryResults } from '../api';

/**
 * clean: as on disk · dirty: unsaved edits · saving: a save is in flight ·
 * conflict: a save was refused, both versions wait for a choice ·
 * reloaded: clean, just replaced by a newer version from disk (the agent or a hand edit).
 */
export type DocStatus = 'clean' | 'dirty' | 'saving' | 'conflict' | 'reloaded';

export interface Conflict {
  mine: string;
  theirs: string;
  theirsHash: string;
}

export interface MemoryDoc {
  path: string;
  loaded: boolean;
  exists: boolean;
  /** The text on disk when last read or saved, and its hash (what a save must quote). */
  base: string;
  baseHash: string;
  /** The editor's text. */
  text: string;
  status: DocStatus;
  /** A newer version found on disk while the document was dirty (nothing was clobbered). */
  disk: { content: string; hash: string } | null;
  conflict: Conflict | null;
  /** Bumps whenever text is replaced from outside the editor (reload, take theirs, keep mine). */
  version: number;
  error: string;
}

export type MemoryApi = Pick<
  Api,
  'listMemoryFiles' | 'readMemoryFile' | 'saveMemoryFile' | 'searchMemory' | 'onMemoryChange'
>;

/** Hits asked of one recall search. */
export const SEARCH_K = 8;

/** The sidebar's groups, in order, and the file kinds each holds (memory.FileInfo.kind). */
export const groups = [
  { id: 'memory', kinds: ['memory', 'history'] },
  { id: 'daily', kinds: ['daily'] },
  { id: 'persona', kinds: ['persona'] },
  { id: 'skill', kinds: ['skill'] },
] as const;

export function grouped(files: MemoryFileInfo[]) {
  return groups
    .map((g) => ({ id: g.id, files: files.filter((f) => (g.kinds as readonly string[]).includes(f.kind)) }))
    .filter((g) => g.files.length > 0);
}

/**
 * The catalog key of what the editor says of a document. A file that does not exist yet
 * (today's note before its first save) is never "Saved": it says it is created on save.
 */
export function statusKey(d: MemoryDoc): string {
  if (!d.loaded) return 'memory.loading';
  if (!d.exists && (d.status === 'clean' || d.status === 'reloaded')) return 'memory.status.new';
  return `memory.status.${d.status}`;
}

function newDoc(path: string): MemoryDoc {
  return {
    path,
    loaded: false,
    exists: false,
    base: '',
    baseHash: '',
    text: '',
    status: 'clean',
    disk: null,
    conflict: null,
    version: 0,
    error: '',
  };
}

export function createMemoryStore(api: MemoryApi) {
  const s = $state({
    files: [] as MemoryFileInfo[],
    loaded: false,
    listError: '',
    current: '',
    /** A line to show in the current file (a search hit), with a number per request. */
    line: null as { path: string; line: number; seq: number } | null,
    /** A file whose history was asked for from elsewhere (a Dream pass in Activity). */
    history: '',
    docs: {} as Record<string, MemoryDoc>,
    query: '',
    results: null as MemoryResults | null,
    searching: false,
    searchError: '',
  });
  // Bookkeeping that the view never shows: not reactive.
  let off: (() => void) | null = null;
  const checkSeq: Record<string, number> = {};
  const recheck = new Set<string>();
  let searchSeq = 0;

  function watch() {
    // The handler's promise goes back to the caller: the app ignores it, a test
    // awaits it instead of polling against a clock.
    if (!off && api.onMemoryChange) off = api.onMemoryChange((name) => changed(name));
  }

  async function refresh() {
    watch();
    try {
      s.files = (await api.listMemoryFiles()) ?? [];
      s.listError = '';
    } catch (err) {
      s.listError = errText(err);
    } finally {
      s.loaded = true;
    }
  }

  /** Opens path in the editor; with line (1-based), shows that line marked (a search hit). */
  async function open(path: string, line?: number) {
    watch();
    s.current = path;
    s.line = line ? { path, line, seq: (s.line?.seq ?? 0) + 1 } : null;
    if (s.docs[path]?.loaded) {
      // A draft or a clean copy: pick up a change that happened while it was not shown.
      void check(path);
      return;
    }
    s.docs[path] = newDoc(path);
    const d = s.docs[path];
    try {
      const f = await api.readMemoryFile(path);
      d.base = d.text = f.content;
      d.baseHash = f.hash;
      d.exists = f.exists;
      d.loaded = true;
      d.version++;
    } catch (err) {
      d.error = errText(err);
    }
  }

  function edit(path: string, text: string) {
    const d = s.docs[path];
    if (!d?.loaded || text === d.text) return;
    d.text = text;
    if (d.status === 'conflict' || d.status === 'saving') return;
    if (text !== d.base) {
      d.status = 'dirty';
    } else if (d.disk) {
      reloadFromDisk(d); // back to the old text, and a newer one waits: take it
    } else {
      d.status = 'clean';
    }
  }

  function reloadFromDisk(d: MemoryDoc) {
    if (!d.disk) return;
    d.base = d.text = d.disk.content;
    d.baseHash = d.disk.hash;
    d.exists = d.disk.hash !== '';
    d.disk = null;
    d.status = 'reloaded';
    d.version++;
  }

  async function saveAs(d: MemoryDoc, text: string, expected: string): Promise<boolean> {
    const before = d.status;
    d.status = 'saving';
    d.error = '';
    try {
      const r = await api.saveMemoryFile(d.path, text, expected);
      if (r.saved) {
        d.base = text;
        d.baseHash = r.hash;
        d.exists = true;
        d.conflict = null;
        d.disk = null;
        d.status = d.text === text ? 'clean' : 'dirty';
        void refresh();
        return true;
      }
      d.conflict = r.conflict ?? { mine: text, theirs: '', theirsHash: '' };
      d.disk = null;
      d.status = 'conflict';
      return false;
    } catch (err) {
      d.error = errText(err);
      d.status = before === 'conflict' ? 'conflict' : d.text === d.base ? 'clean' : 'dirty';
      return false;
    } finally {
      if (recheck.delete(d.path)) void check(d.path);
    }
  }

  /** Saves the document (Ctrl+S); in a conflict it saves the merged text against theirs. */
  async function save(path: string = s.current): Promise<boolean> {
    const d = s.docs[path];
    if (!d?.loaded || d.status === 'saving') return false;
    if (d.status === 'conflict') return saveMerged(path);
    if (d.status !== 'dirty') return true;
    return saveAs(d, d.text, d.baseHash);
  }

  /** Conflict: the text as the person had it wins over the file's newer version. */
  async function keepMine(path: string = s.current) {
    const d = s.docs[path];
    if (!d?.conflict) return false;
    d.text = d.conflict.mine;
    d.version++;
    return saveAs(d, d.text, d.conflict.theirsHash);
  }

  /** Conflict: the merged text (edited beside theirs) is saved against the newer version. */
  async function saveMerged(path: string = s.current) {
    const d = s.docs[path];
    if (!d?.conflict || d.status === 'saving') return false;
    return saveAs(d, d.text, d.conflict.theirsHash);
  }

  /** Conflict: the file's version replaces the draft; nothing is written. */
  function takeTheirs(path: string = s.current) {
    const d = s.docs[path];
    if (!d?.conflict) return;
    d.disk = { content: d.conflict.theirs, hash: d.conflict.theirsHash };
    d.conflict = null;
    reloadFromDisk(d);
    d.status = 'clean';
  }

  /** Dirty and changed on disk: show both versions side by side to merge. */
  function compare(path: string = s.current) {
    const d = s.docs[path];
    if (!d?.disk) return;
    d.conflict = { mine: d.text, theirs: d.disk.content, theirsHash: d.disk.hash };
    d.disk = null;
    d.status = 'conflict';
  }

  /** Dirty and changed on disk: drop the draft and load the file's version. */
  function discard(path: string = s.current) {
    const d = s.docs[path];
    if (d?.disk) reloadFromDisk(d);
  }

  /** A file changed on disk (the agent, a consolidation, a hand edit, or this window's save). */
  async function changed(path: string) {
    void refresh();
    if (s.docs[path]?.loaded) await check(path);
  }

  async function check(path: string) {
    const d = s.docs[path];
    if (!d?.loaded) return;
    if (d.status === 'saving') {
      recheck.add(path); // the save's answer decides; look again after it
      return;
    }
    const seq = (checkSeq[path] = (checkSeq[path] ?? 0) + 1);
    let f;
    try {
      f = await api.readMemoryFile(path);
    } catch {
      return; // the next change or save reports it
    }
    if (seq !== checkSeq[path]) return; // a newer look is under way
    if ((d.status as DocStatus) === 'saving') {
      // A save started while reading: its answer decides.
      recheck.add(path);
      return;
    }
    if (d.status === 'conflict' && d.conflict) {
      // Resolve against what the file holds now.
      if (f.hash !== d.conflict.theirsHash) d.conflict = { ...d.conflict, theirs: f.content, theirsHash: f.hash };
      return;
    }
    if (f.hash === d.baseHash) {
      d.disk = null; // e.g. our own save's echo, or a change undone
      return;
    }
    d.disk = { content: f.content, hash: f.hash };
    if (d.status !== 'dirty') reloadFromDisk(d);
  }

  async function search(query: string) {
    s.query = query;
    const seq = ++searchSeq;
    if (!query.trim()) {
      s.results = null;
      s.searchError = '';
      s.searching = false;
      return;
    }
    s.searching = true;
    try {
      const r = await api.searchMemory(query, SEARCH_K);
      if (seq !== searchSeq) return;
      s.results = r;
      s.searchError = '';
    } catch (err) {
      if (seq !== searchSeq) return;
      s.searchError = errText(err);
      s.results = null;
    } finally {
      if (seq === searchSeq) s.searching = false;
    }
  }

  return {
    get files() {
      return s.files;
    },
    get loaded() {
      return s.loaded;
    },
    get listError() {
      return s.listError;
    },
    get current() {
      return s.current;
    },
    /** Opens path with its history shown (the changes a Dream pass made). */
    openHistory(path: string) {
      s.history = path;
      void open(path);
    },
    /** Whether path's history was asked for; asking again needs openHistory again. */
    takeHistory(path: string): boolean {
      if (s.history !== path) return false;
      s.history = '';
      return true;
    },
    /** The line to show in path, if a search asked for one. */
    lineIn(path: string): { line: number; seq: number } | null {
      return s.line?.path === path ? { line: s.line.line, seq: s.line.seq } : null;
    },
    /** The document shown in the editor, if any. */
    get doc(): MemoryDoc | undefined {
      return s.docs[s.current];
    },
    docOf(path: string): MemoryDoc | undefined {
      return s.docs[path];
    },
    /** Whether path has edits not saved yet (the tree's marker). */
    unsaved(path: string): boolean {
      const st = s.docs[path]?.status;
      return st === 'dirty' || st === 'conflict' || st === 'saving';
    },
    get query() {
      return s.query;
    },
    get results() {
      return s.results;
    },
    get searching() {
      return s.searching;
    },
    get searchError() {
      return s.searchError;
    },
    refresh,
    open,
    edit,
    save,
    keepMine,
    saveMerged,
    takeTheirs,
    compare,
    discard,
    changed,
    search,
    dispose() {
      off?.();
      off = null;
    },
  };
}

export type MemoryStore = ReturnType<typeof createMemoryStore>;
