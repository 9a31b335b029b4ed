// The history of one memory file (docs/memory.md#history-and-restore): its changes,
// newest first, each with who made it and why; the diff of the one picked; Restore puts
// the file back as it was right after that change (itself a new change, so it can be
// undone the same way). Before it does, Restore shows what it would change in the file as
// it is now (current → that version), which is not the change the version made.
import { errText, type Api, type MemoryRev } from '../api';
import { t, tm } from '../i18n.svelte';

export type MemoryHistoryApi = Pick<Api, 'memoryHistory' | 'memoryDiff' | 'restoreMemory' | 'restorePreview'>;

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

/**
 * The lines as a person reads them: no "@@ -1,3 +1,4 @@" (a gap between two places is
 * a blank "hunk" line, none before the first), no +/- column (the colour and a mark say it).
 */
export function readableLines(lines: readonly DiffLine[]): DiffLine[] {
  const out: DiffLine[] = [];
  for (const l of lines) {
    if (l.kind === 'hunk') {
      if (out.length) out.push({ kind: 'hunk', text: '' });
      continue;
    }
    out.push({ kind: l.kind, text: l.kind === 'meta' ? l.text : l.text.slice(1) });
  }
  return out;
}

// Who made a change and why are recorded in English in the history (they are its commits);
// the window words the ones Hearth itself writes in the UI language. Anything else (Dream's
// own summary, a message from an older Hearth) is shown as recorded.
const AUTHORS: Record<string, string> = {
  agent: 'agent',
  you: 'you',
  consolidation: 'consolidation',
  Dream: 'dream',
  'outside Hearth': 'outside',
  Hearth: 'hearth',
};

/** A change's author in the UI language. */
export function revAuthor(author: string): string {
  return AUTHORS[author] ? t(`moments.history.author.${AUTHORS[author]}`) : author;
}

const WHY: [RegExp, string][] = [
  [/^changed outside Hearth: (?<file>.+)$/, 'outside'],
  [/^edited in the memory sidebar$/, 'editor'],
  [/^onboarding: the first version of the memory and persona files$/, 'onboarding'],
  [/^restore (?<file>\S+) to [0-9a-f]+$/, 'restore'],
  [/^remember: (?<text>.+)$/s, 'remember'],
  [/^\/remember (?<text>.+)$/s, 'remember'],
  [/^consolidated older (chat messages|messages of chat \S+)$/, 'consolidated'],
  [/^(?<tool>[a-z_]+) in chat \S+( \(run \S+\))?$/, 'tool'],
];

/** The first line of a change's message, in the UI language where Hearth wrote it. */
export function revWhy(message: string): string {
  const line = message.split('\n')[0];
  for (const [re, key] of WHY) {
    const m = re.exec(line);
    if (m) return t(`moments.history.why.${key}`, { ...m.groups });
  }
  return line;
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
    /** The change that was newest before the last restore: Undo restores it. */
    undo: '',
    /** The version Restore asks about (its second click restores it); '' when none. */
    asking: '',
    /** What restoring `asking` would change in the file as it is now; null while it loads. */
    preview: null as DiffLine[] | null,
  });
  // Loads are never abandoned for a newer one: a change announced while a load runs
  // asks for one more after it. (Each announcement used to start a load and drop the
  // answer of the one running, so a stream of changes — an outside edit's events, a
  // sync tool — left the view at "Opening…" until they stopped.)
  let running: Promise<void> | null = null;
  let again = false;
  // Whether the person picked a change: until then the newest one is shown.
  let picked = false;

  function load(path: string): Promise<void> {
    if (path !== s.path) {
      s.path = path;
      s.revs = [];
      s.selected = '';
      s.diff = [];
      s.asking = '';
      s.preview = null;
      picked = false;
    }
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await fetchRevs();
        } while (again);
      } finally {
        running = null;
      }
    })();
    return running;
  }

  async function fetchRevs() {
    s.loading = true;
    try {
      const revs = await api.memoryHistory(s.path);
      s.revs = revs;
      s.error = '';
      s.loading = false; // the list is there; the diff follows
      if (s.asking) void previewOf(s.asking); // the file changed: so does what Restore would do
      if (!picked || !revs.some((r) => r.rev === s.selected)) {
        picked = false;
        if (revs.length === 0) {
          s.selected = '';
          s.diff = [];
        } else if (revs[0].rev !== s.selected) {
          await show(revs[0].rev);
        }
      }
    } catch (err) {
      s.error = errText(err);
    } finally {
      s.loading = false;
    }
  }

  /** Shows the diff of rev, which the person picked. */
  function select(rev: string): Promise<void> {
    picked = true;
    if (rev !== s.asking) cancel();
    return show(rev);
  }

  async function show(rev: string) {
    s.selected = rev;
    s.diff = [];
    try {
      const d = await api.memoryDiff(rev, s.path);
      if (s.selected === rev) s.diff = diffLines(d);
    } catch (err) {
      if (s.selected === rev) s.error = errText(err);
    }
  }

  /** Restore's first click: asks, and shows what restoring rev would change now. */
  function ask(rev: string): Promise<void> {
    s.asking = rev;
    s.preview = null;
    return previewOf(rev);
  }

  async function previewOf(rev: string) {
    try {
      const d = await api.restorePreview(rev, s.path);
      if (s.asking === rev) s.preview = diffLines(d);
    } catch (err) {
      if (s.asking === rev) {
        s.error = errText(err);
        s.preview = [];
      }
    }
  }

  /** Leaves Restore's question unanswered. */
  function cancel() {
    s.asking = '';
    s.preview = null;
  }

  async function restore(rev: string, undoing = false) {
    cancel();
    s.restoring = true;
    s.error = '';
    const before = s.revs[0]?.rev ?? '';
    try {
      s.restored = tm(await api.restoreMemory(rev, s.path));
      s.undo = undoing ? '' : before;
      picked = false; // the restore is the newest change: show it
      await load(s.path);
    } catch (err) {
      s.error = errText(err);
    } finally {
      s.restoring = false;
    }
  }

  /** Takes the last restore back: the file as it was after the change newest before it. */
  function undo(): Promise<void> {
    return s.undo ? restore(s.undo, true) : Promise.resolve();
  }

  /** How many changes came after rev (what a restore to it takes back). */
  function later(rev: string): number {
    return Math.max(0, s.revs.findIndex((r) => r.rev === rev));
  }

  return {
    ask,
    cancel,
    get asking() {
      return s.asking;
    },
    get preview() {
      return s.preview;
    },
    get undoable() {
      return s.undo !== '';
    },
    undo,
    later,
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
