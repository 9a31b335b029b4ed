// A fake of the memory bindings over an in-memory disk with the backend's
// compare-and-swap rule (backend/memory Store.Save), for store and component tests.
import { vi } from 'vitest';
import type { MemoryFileInfo, MemoryResults } from '../api';

export const hashOf = (text: string) => (text === '' ? '' : `h${text.length}:${text}`);

const kindOf = (p: string) =>
  p === 'memory/MEMORY.md'
    ? 'memory'
    : p === 'memory/HISTORY.md'
      ? 'history'
      : /^memory\/\d{4}-\d{2}-\d{2}\.md$/.test(p)
        ? 'daily'
        : p.startsWith('skills/')
          ? 'skill'
          : 'persona';

const nameOf = (p: string) =>
  p.startsWith('memory/') ? p.slice(7).replace(/^(\d{4}-\d{2}-\d{2})\.md$/, '$1') : p.replace(/\/SKILL\.md$/, '');

export function fakeMemory(initial: Record<string, string> = {}) {
  const disk = new Map<string, string>(Object.entries(initial));
  let listener: ((name: string) => unknown) | null = null;
  // The store's handling of each reported change, so a test can await it (no polling
  // with a deadline: under load a deadline is what fails, not the store).
  const pending: unknown[] = [];
  const notify = (p: string) => {
    const r = listener?.(p);
    pending.push(r);
    return r;
  };
  const api = {
    listMemoryFiles: vi.fn(async (): Promise<MemoryFileInfo[]> =>
      [...disk.keys()].map(
        (p) =>
          ({ name: nameOf(p), path: p, kind: kindOf(p), size: disk.get(p)!.length, modTime: '', hash: hashOf(disk.get(p)!) }) as MemoryFileInfo,
      ),
    ),
    readMemoryFile: vi.fn(async (p: string) => {
      const c = disk.get(p);
      return { path: p, content: c ?? '', hash: hashOf(c ?? ''), modTime: '', exists: c !== undefined } as never;
    }),
    saveMemoryFile: vi.fn(async (p: string, content: string, expected: string) => {
      const cur = disk.get(p) ?? '';
      if (hashOf(cur) !== expected && cur !== content) {
        return { saved: false, hash: '', conflict: { mine: content, theirs: cur, theirsHash: hashOf(cur) } } as never;
      }
      disk.set(p, content);
      notify(p); // the backend reports its own writes too
      return { saved: true, hash: hashOf(content) } as never;
    }),
    searchMemory: vi.fn(
      async (): Promise<MemoryResults> =>
        ({ hits: [], mode: 'keyword', note: 'keyword search: no embedding model is set' }) as unknown as MemoryResults,
    ),
    onMemoryChange: vi.fn((fn: (name: string) => unknown) => {
      listener = fn;
      return () => {
        listener = null;
      };
    }),
  };
  return {
    api,
    disk,
    /** Another writer (the agent, a hand edit) changes a file, and the change is reported. */
    write(p: string, content: string) {
      disk.set(p, content);
      notify(p);
    },
    /** Resolves once the store has handled every change reported so far. */
    async settled() {
      while (pending.length) await pending.shift();
    },
  };
}
