import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { EditorView } from '@codemirror/view';
import MemoryTab from './MemoryTab.svelte';
import MemoryView from './MemoryView.svelte';
import { createApp } from '../lib/app.svelte';
import { createStatusStore } from '../lib/stores/status.svelte';
import { fakeMemory, hashOf } from '../lib/stores/memory-fixture';
import { fakeApi, fakeStatus } from '../test-fixtures';
// The editor and the merge view load CodeMirror with a dynamic import (their own chunk in
// the app). Loaded here first, so a test waits for a cached module, not for the first
// transform of CodeMirror, which under load outlasts vi.waitFor's one second.
import '../lib/editor';
import '../lib/merge';

const M = 'memory/MEMORY.md';

// Queries here avoid *ByRole on the whole page: for every candidate element (and its text)
// a role query asks jsdom's getComputedStyle whether it is hidden, ~10 ms a call, more with
// CodeMirror's theme in the document, so one query on the page took seconds under load,
// longer than the one-second window of vi.waitFor. The unsaved mark is found by its label,
// the Save button by its text.

// jsdom lays nothing out; CodeMirror measures text ranges for the cursor and selection.
Range.prototype.getClientRects ??= function () {
  return [] as unknown as DOMRectList;
};
Range.prototype.getBoundingClientRect ??= function () {
  return new DOMRect();
};

function setup(files: Record<string, string> = { [M]: '# Memory\n- likes tea\n', 'memory/HISTORY.md': '[2026-11-20 09:00] Went sailing.\n', 'SOUL.md': 'Kind.\n' }) {
  const mem = fakeMemory(files);
  const fake = fakeApi(mem.api as never);
  const status = createStatusStore(async () => fakeStatus());
  const app = createApp(fake.api, status);
  return { mem, app };
}

/** The CodeMirror view inside el (the editor, or the merge view's panes in order). */
function views(el: HTMLElement = document.body): EditorView[] {
  return [...el.querySelectorAll<HTMLElement>('.cm-editor')].map((e) => EditorView.findFromDOM(e)!);
}

function type(view: EditorView, text: string) {
  view.dispatch({ changes: { from: view.state.doc.length, insert: text }, userEvent: 'input.type' });
}

async function openInView(files?: Record<string, string>) {
  const s = setup(files);
  render(MemoryView, { props: { app: s.app } });
  await s.app.memory.open(M);
  await vi.waitFor(() => expect(views().length).toBe(1));
  return { ...s, editor: () => views()[0] };
}

describe('MemoryTab', () => {
  it('shows the files in groups and opens one in the main view', async () => {
    const { app } = setup({ ...{ [M]: 'm', 'memory/HISTORY.md': 'h', 'memory/2026-11-23.md': 'd', 'SOUL.md': 's', 'skills/git/SKILL.md': 'g' } });
    render(MemoryTab, { props: { app } });
    const tree = await screen.findByRole('navigation', { name: 'Memory files' });
    await within(tree).findByRole('button', { name: 'SOUL.md' });
    expect([...tree.querySelectorAll('summary')].map((s) => s.textContent?.replace(/\s+/g, ' ').trim())).toEqual([
      'Memory 2',
      'Daily notes 1',
      'Persona 1',
      'Skills 1',
    ]);
    await fireEvent.click(within(tree).getByRole('button', { name: '2026-11-23' }));
    expect(app.view).toBe('memory');
    expect(app.memory.current).toBe('memory/2026-11-23.md');
    await vi.waitFor(() => expect(app.memory.doc?.loaded).toBe(true));
    app.memory.edit('memory/2026-11-23.md', 'd, edited');
    await vi.waitFor(() => expect(within(tree).getByLabelText('Unsaved changes')).toBeTruthy());
  });

  it("opens today's daily note, which need not exist yet", async () => {
    const { app } = setup({ [M]: 'm' });
    render(MemoryTab, { props: { app } });
    await fireEvent.click(await screen.findByRole('button', { name: "Today's note" }));
    const d = new Date();
    const pad = (n: number) => String(n).padStart(2, '0');
    const want = `memory/${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}.md`;
    expect(app.view).toBe('memory');
    expect(app.memory.current).toBe(want);
    await vi.waitFor(() => expect(app.memory.doc?.loaded).toBe(true));
    expect(app.memory.doc?.text ?? '').toBe('');
  });

  it('searches memory and says when it is keyword-only, with source, date, snippet and mode', async () => {
    const { mem, app } = setup();
    mem.api.searchMemory.mockResolvedValue({
      hits: [{ id: 'c1', source: 'memory/HISTORY.md', title: 'HISTORY.md', date: '2026-11-20', snippet: 'Went sailing with Anna.', score: 0.9, mode: 'keyword' }],
      mode: 'keyword',
      note: 'keyword search: no embedding model is set (agents.defaults.embeddingModel)',
    } as never);
    render(MemoryTab, { props: { app } });
    const box = screen.getByRole('searchbox', { name: 'Search memory…' });
    await fireEvent.input(box, { target: { value: 'sailing' } });
    await fireEvent.keyDown(box, { key: 'Enter' });
    const hits = await screen.findByRole('list', { name: 'Memory search results' });
    expect(mem.api.searchMemory).toHaveBeenCalledWith('sailing', 8);
    const mode = screen.getByTestId('recall-mode');
    expect(mode.textContent?.trim()).toBe('Keyword search only');
    expect(mode.title).toContain('no embedding model is set');
    const hit = within(hits).getByRole('button');
    expect(hit.textContent).toContain('HISTORY.md');
    expect(hit.textContent).toContain('2026-11-20');
    expect(hit.textContent).toContain('Went sailing with Anna.');
    expect(hit.textContent).toContain('keyword');
    await fireEvent.click(hit);
    expect(app.memory.current).toBe('memory/HISTORY.md');
    expect(app.view).toBe('memory');
  });
});

describe('MemoryView', () => {
  it('edits in CodeMirror, marks the file dirty and saves with Ctrl+S', async () => {
    const { mem, editor } = await openInView();
    expect(editor().state.doc.toString()).toBe('# Memory\n- likes tea\n');
    expect(screen.getByTestId('memory-state').textContent).toBe('Saved');
    expect((screen.getByText('Save', { selector: 'button' }) as HTMLButtonElement).disabled).toBe(true);
    type(editor(), '- sister: 3 May\n');
    await vi.waitFor(() => expect(screen.getByLabelText('Unsaved changes')).toBeTruthy());
    expect(screen.getByTestId('memory-state').textContent).toBe('Unsaved changes');
    await fireEvent.keyDown(window, { key: 's', ctrlKey: true });
    await vi.waitFor(() => expect(mem.disk.get(M)).toBe('# Memory\n- likes tea\n- sister: 3 May\n'));
    expect(mem.api.saveMemoryFile).toHaveBeenCalledWith(M, '# Memory\n- likes tea\n- sister: 3 May\n', hashOf('# Memory\n- likes tea\n'));
    await vi.waitFor(() => expect(screen.getByTestId('memory-state').textContent).toBe('Saved'));
    expect(screen.queryByLabelText('Unsaved changes')).toBeNull();
  });

  it('reloads the open file when the agent changes it', async () => {
    const { mem, editor } = await openInView();
    mem.write(M, '# Memory\n- likes tea\n- sister: 3 May\n');
    await vi.waitFor(() => expect(editor().state.doc.toString()).toBe('# Memory\n- likes tea\n- sister: 3 May\n'));
    expect(screen.getByTestId('memory-state').textContent).toBe('Updated from disk');
  });

  it('keeps a dirty draft when the file changes on disk, and merges through the conflict view', async () => {
    const { mem, app, editor } = await openInView({ [M]: 'a\n' });
    type(editor(), 'mine\n');
    mem.write(M, 'a\ntheirs\n');
    const banner = await screen.findByTestId('memory-disk-changed');
    expect(editor().state.doc.toString()).toBe('a\nmine\n'); // not clobbered
    await fireEvent.click(within(banner).getByRole('button', { name: 'Compare and merge' }));
    const conflict = await screen.findByTestId('memory-conflict');
    await vi.waitFor(() => expect(views(conflict).length).toBe(2));
    const [theirs, mine] = views(conflict);
    expect(theirs.state.doc.toString()).toBe('a\ntheirs\n');
    expect(theirs.state.readOnly).toBe(true);
    expect(mine.state.doc.toString()).toBe('a\nmine\n');
    // Merge by editing the right side, then save against the new hash.
    mine.dispatch({ changes: { from: 2, insert: 'theirs\n' } });
    await fireEvent.click(within(conflict).getByRole('button', { name: 'Save merged' }));
    await vi.waitFor(() => expect(mem.disk.get(M)).toBe('a\ntheirs\nmine\n'));
    expect(mem.api.saveMemoryFile).toHaveBeenLastCalledWith(M, 'a\ntheirs\nmine\n', hashOf('a\ntheirs\n'));
    await vi.waitFor(() => expect(screen.queryByTestId('memory-conflict')).toBeNull());
    await vi.waitFor(() => expect(views().length).toBe(1));
    expect(views()[0].state.doc.toString()).toBe('a\ntheirs\nmine\n');
    expect(app.memory.doc?.status).toBe('clean');
  });

  it('shows a refused save as a conflict; keep mine and take theirs resolve it', async () => {
    const { mem, app, editor } = await openInView({ [M]: 'a\n' });
    type(editor(), 'mine\n');
    mem.disk.set(M, 'theirs\n'); // written with no event seen yet
    await fireEvent.click(screen.getByText('Save', { selector: 'button' }));
    const conflict = await screen.findByTestId('memory-conflict');
    expect(conflict.textContent).toContain('MEMORY.md was changed by someone else');
    await fireEvent.click(within(conflict).getByRole('button', { name: 'Keep mine' }));
    await vi.waitFor(() => expect(mem.disk.get(M)).toBe('a\nmine\n'));
    await vi.waitFor(() => expect(screen.queryByTestId('memory-conflict')).toBeNull());

    await vi.waitFor(() => expect(views().length).toBe(1));
    type(views()[0], 'again\n');
    mem.disk.set(M, 'other\n');
    await app.memory.save();
    const again = await screen.findByTestId('memory-conflict');
    await fireEvent.click(within(again).getByRole('button', { name: 'Take theirs' }));
    await vi.waitFor(() => expect(views().length).toBe(1));
    expect(views()[0].state.doc.toString()).toBe('other\n');
    expect(mem.disk.get(M)).toBe('other\n');
    expect(app.memory.doc?.status).toBe('clean');
  });
});
