// A clicked source: a line citation goes to the read-only view, a page or an unwired view
// to the system's viewer, and a refusal is kept for the chat until the next click.
import { describe, expect, it, vi } from 'vitest';
import { CitedOpener, type CitedWiring } from './citedOpen.svelte';
import type { FileView } from './api';

const view: FileView = { name: 'a.txt', kind: 'text', line: 3, first: 1, lines: ['x'], total: 1, cut: 0 };
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('CitedOpener', () => {
  it('shows a line citation in the view and a page in the system viewer', async () => {
    const show = vi.fn();
    const w: CitedWiring = {
      sessionId: 's1',
      openFile: vi.fn(async () => {}),
      viewFile: vi.fn(async () => view),
      view: { show },
    };
    const o = new CitedOpener(() => w);
    o.file('a.txt', 3);
    expect(w.viewFile).toHaveBeenCalledWith('s1', 'a.txt', 3);
    expect(show.mock.calls[0][0]).toBe('a.txt line 3');
    expect(w.openFile).not.toHaveBeenCalled();
    await show.mock.calls[0][2]();
    expect(w.openFile).toHaveBeenCalledWith('s1', 'a.txt');
    o.file('r.pdf');
    expect(w.openFile).toHaveBeenLastCalledWith('s1', 'r.pdf');
  });

  it('keeps a refusal until the next click, and does nothing without a chat', async () => {
    const openKnowledge = vi.fn(async () => {
      throw new Error('the file has other hard links');
    });
    let w: CitedWiring = { openKnowledge };
    const o = new CitedOpener(() => w);
    o.knowledge('Manuals/kiln.md', 2); // no viewKnowledge: the system's viewer
    await settle();
    expect(o.error).toContain('hard links');
    w = { openKnowledge: vi.fn(async () => {}) };
    o.knowledge('Manuals/kiln.md');
    expect(o.error).toBe('');
    const openFile = vi.fn(async () => {});
    new CitedOpener(() => ({ openFile })).file('a.txt', 1);
    expect(openFile).not.toHaveBeenCalled();
  });
});
