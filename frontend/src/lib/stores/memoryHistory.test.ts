import { describe, expect, it, vi } from 'vitest';
import type { MemoryRev } from '../api';
import { createMemoryHistory, diffLines, readableLines, revAuthor, revWhy } from './memoryHistory.svelte';
import { setLocale } from '../i18n.svelte';

const revs = [
  { rev: 'bbbbbbbbbbbb', time: '2026-11-25T10:00:00Z', author: 'Dream', message: 'Dream: merged facts', files: ['memory/MEMORY.md'] },
  { rev: 'aaaaaaaaaaaa', time: '2026-11-25T09:00:00Z', author: 'Hearth', message: 'onboarding', files: ['memory/MEMORY.md'] },
] as MemoryRev[];
const diff = 'diff --git a/memory/MEMORY.md b/memory/MEMORY.md\n--- a/memory/MEMORY.md\n+++ b/memory/MEMORY.md\n@@ -1 +1 @@\n-old\n+new\n';

describe('memory history', () => {
  it('classifies diff lines and hides the headers', () => {
    expect(diffLines(diff).map((l) => l.kind)).toEqual(['hunk', 'del', 'add']);
  });

  it('loads the newest change with its diff, restores and reloads', async () => {
    const api = {
      memoryHistory: vi.fn(async () => revs),
      memoryDiff: vi.fn(async () => diff),
      restoreMemory: vi.fn(async () => ({ code: 'memory.restore.done', args: { files: 'memory/MEMORY.md', rev: 'aaaaaaaaaa' } })),
      restorePreview: vi.fn(async () => ''),
    };
    const h = createMemoryHistory(api);
    await h.load('memory/MEMORY.md');
    expect(h.selected).toBe('bbbbbbbbbbbb');
    expect(api.memoryDiff).toHaveBeenCalledWith('bbbbbbbbbbbb', 'memory/MEMORY.md');
    expect(h.diff.length).toBe(3);
    await h.restore('aaaaaaaaaaaa');
    expect(api.restoreMemory).toHaveBeenCalledWith('aaaaaaaaaaaa', 'memory/MEMORY.md');
    expect(h.restored).toBe('Restored memory/MEMORY.md as it was after that change.'); // no hash in the window
    expect(api.memoryHistory).toHaveBeenCalledTimes(2);
  });

  it('shows a failed restore', async () => {
    const api = {
      memoryHistory: vi.fn(async () => revs),
      memoryDiff: vi.fn(async () => ''),
      restoreMemory: vi.fn(async () => {
        throw { message: 'zzzz: no such revision', code: 'memory.rev.unknown', args: { rev: 'zzzz' } };
      }),
      restorePreview: vi.fn(async () => ''),
    };
    const h = createMemoryHistory(api);
    await h.load('SOUL.md');
    await h.restore('zzzz');
    // A coded error is worded from the catalog, in the UI language.
    expect(h.error).toMatch(/^zzzz: no such revision in the memory history/);
  });

  it('shows the list while changes keep arriving: a load is never dropped for a newer one', async () => {
    const answers: ((r: MemoryRev[]) => void)[] = [];
    const api = {
      memoryHistory: vi.fn(() => new Promise<MemoryRev[]>((ok) => answers.push(ok))),
      memoryDiff: vi.fn(async () => diff),
      restoreMemory: vi.fn(),
      restorePreview: vi.fn(async () => ''),
    };
    const h = createMemoryHistory(api);
    const opened = h.load('memory/MEMORY.md'); // the view opens…
    void h.load('memory/MEMORY.md'); // …while an outside edit's changes are still announced
    void h.load('memory/MEMORY.md');
    expect(api.memoryHistory).toHaveBeenCalledTimes(1); // one load runs; one more is owed
    answers[0](revs.slice(1));
    await vi.waitFor(() => expect(h.revs.length).toBe(1));
    expect(h.loading).toBe(true); // the owed load runs: the list stays shown meanwhile
    await vi.waitFor(() => expect(api.memoryHistory).toHaveBeenCalledTimes(2));
    answers[1](revs); // the outside edit's change has landed
    await opened;
    expect(h.loading).toBe(false);
    expect(h.revs.map((r) => r.rev)).toEqual(['bbbbbbbbbbbb', 'aaaaaaaaaaaa']);
    expect(h.selected).toBe('bbbbbbbbbbbb'); // the newest, followed until the person picks one
    expect(api.memoryHistory).toHaveBeenCalledTimes(2);
  });

  it('keeps the change the person picked when the list reloads', async () => {
    const api = { memoryHistory: vi.fn(async () => revs), memoryDiff: vi.fn(async () => diff), restoreMemory: vi.fn(), restorePreview: vi.fn(async () => '') };
    const h = createMemoryHistory(api);
    await h.load('SOUL.md');
    await h.select('aaaaaaaaaaaa');
    await h.load('SOUL.md');
    expect(h.selected).toBe('aaaaaaaaaaaa');
  });

  it('reads as changed lines: no hunk headers, no +/- column, a gap between places', () => {
    const two = diff + '@@ -9 +9 @@\n ctx\n-gone\n';
    expect(readableLines(diffLines(two))).toEqual([
      { kind: 'del', text: 'old' },
      { kind: 'add', text: 'new' },
      { kind: 'hunk', text: '' },
      { kind: 'ctx', text: 'ctx' },
      { kind: 'del', text: 'gone' },
    ]);
  });

  it('offers Undo after a restore, which restores the change that was newest before it', async () => {
    const api = {
      memoryHistory: vi.fn(async () => revs),
      memoryDiff: vi.fn(async () => diff),
      restoreMemory: vi.fn(async () => ({ code: 'memory.restore.done', args: { files: 'memory/MEMORY.md', rev: 'x' } })),
      restorePreview: vi.fn(async () => ''),
    };
    const h = createMemoryHistory(api);
    await h.load('memory/MEMORY.md');
    expect(h.undoable).toBe(false);
    expect(h.later('aaaaaaaaaaaa')).toBe(1);
    await h.restore('aaaaaaaaaaaa');
    expect(h.undoable).toBe(true);
    await h.undo();
    expect(api.restoreMemory).toHaveBeenLastCalledWith('bbbbbbbbbbbb', 'memory/MEMORY.md');
    expect(h.undoable).toBe(false); // an undo is not undone by the same button
  });

  it('previews a restore against the file as it is now, again when the file changes, and forgets it on another pick', async () => {
    let now = 'new';
    const api = {
      memoryHistory: vi.fn(async () => revs),
      memoryDiff: vi.fn(async () => diff),
      restoreMemory: vi.fn(),
      restorePreview: vi.fn(async () => `@@ -1 +1 @@\n-${now}\n+old\n`),
    };
    const h = createMemoryHistory(api);
    await h.load('memory/MEMORY.md');
    await h.select('aaaaaaaaaaaa');
    const asked = h.ask('aaaaaaaaaaaa');
    expect(h.asking).toBe('aaaaaaaaaaaa');
    expect(h.preview).toBeNull(); // loading: Restore's second click waits for it
    await asked;
    expect(api.restorePreview).toHaveBeenCalledWith('aaaaaaaaaaaa', 'memory/MEMORY.md');
    expect(readableLines(h.preview!)).toEqual([
      { kind: 'del', text: 'new' },
      { kind: 'add', text: 'old' },
    ]);
    now = 'newer'; // an edit lands while Restore asks: the preview follows the file
    await h.load('memory/MEMORY.md');
    await vi.waitFor(() => expect(h.preview?.[1]?.text).toBe('-newer'));
    await h.select('bbbbbbbbbbbb');
    expect(h.asking).toBe('');
    expect(h.preview).toBeNull();
  });

  it('words who and why in the UI language where Hearth wrote them, and leaves the rest as recorded', () => {
    try {
      setLocale('zh-CN');
      expect(revAuthor('outside Hearth')).toBe('Hearth 之外');
      expect(revAuthor('you')).toBe('你');
      expect(revAuthor('someone')).toBe('someone');
      expect(revWhy('changed outside Hearth: memory/MEMORY.md')).toBe('在 Hearth 之外修改：memory/MEMORY.md');
      expect(revWhy('restore memory/MEMORY.md to 0123456789')).toBe('将 memory/MEMORY.md 恢复到较早的版本'); // no hash
      expect(revWhy('write_file in chat s1 (run r1)')).toBe('由 write_file 在对话中写入');
      expect(revWhy('onboarding: the first version of the memory and persona files')).toMatch(/^初始设置/);
      expect(revWhy('Dream: merged facts\nmore')).toBe('Dream: merged facts');
      setLocale('en');
      expect(revWhy('remember: prefers tea')).toBe('remember: prefers tea');
      expect(revWhy('/remember my sister')).toBe('remember: my sister');
      expect(revAuthor('outside Hearth')).toBe('outside Hearth');
    } finally {
      setLocale('en');
    }
  });
});
