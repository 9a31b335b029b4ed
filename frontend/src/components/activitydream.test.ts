// A Dream pass in the Activity view: it has no chat to open (its session is "dream");
// what it offers is the history of each file it changed.
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import ActivityView from './ActivityView.svelte';
import MemoryView from './MemoryView.svelte';
import { createApp } from '../lib/app.svelte';
import { createStatusStore } from '../lib/stores/status.svelte';
import { fakeMemory } from '../lib/stores/memory-fixture';
import { fakeApi, fakeStatus } from '../test-fixtures';
import { dateTime } from '../lib/datetime';
import { setLocale } from '../lib/i18n.svelte';

// jsdom lays nothing out; CodeMirror measures text ranges.
Range.prototype.getClientRects ??= function () {
  return [] as unknown as DOMRectList;
};
Range.prototype.getBoundingClientRect ??= function () {
  return new DOMRect();
};

describe('Activity › a Dream pass', () => {
  it('offers the history of the files it changed, not a chat', async () => {
    const mem = fakeMemory({ 'memory/MEMORY.md': '- Lives in Lisbon.\n', 'USER.md': 'Ana.\n' });
    const fake = fakeApi(mem.api as never);
    const rev = { rev: 'a1b2c3d4e5f6', time: '2026-11-27T03:00:00Z', author: 'dream', message: 'dream: moved the city to MEMORY.md', files: ['memory/MEMORY.md'] };
    Object.assign(fake.api, {
      memoryHistory: vi.fn(async () => [rev]),
      memoryDiff: vi.fn(async () => '@@ -0,0 +1 @@\n+- Lives in Lisbon.\n'),
    });
    fake.mocks.activity.mockResolvedValue([
      { time: '2026-11-27T03:00:00Z', session: 'dream', run: 'dream-20261127T030000', callId: '', tool: 'dream', args: { files: ['memory/MEMORY.md', 'USER.md'], edits: 2, tokens: 900 }, approval: 'auto', ok: true, durationMs: 5000, resultSize: 0 },
      { time: '2026-11-27T02:00:00Z', session: 's1', run: 'r1', callId: 'r1-1', tool: 'exec', args: { command: 'ls' }, approval: 'auto', ok: true, durationMs: 3, resultSize: 10 },
    ]);
    const app = createApp(fake.api, createStatusStore(async () => fakeStatus()));
    render(ActivityView, { props: { app } });
    await vi.waitFor(() => expect(screen.getAllByTestId('activity-row')).toHaveLength(2));
    const [dream, exec] = screen.getAllByTestId('activity-row');
    // The tool call of a chat still opens its chat (one row is open at a time)…
    await fireEvent.click(within(exec).getAllByRole('button')[0]);
    expect(within(exec).getByRole('button', { name: /^Open the chat/ })).toBeTruthy();
    // …the Dream pass does not.
    await fireEvent.click(within(dream).getAllByRole('button')[0]);
    expect(within(dream).queryByRole('button', { name: /Open the chat/ })).toBeNull();
    const buttons = within(dream).getAllByRole('button', { name: /^History of / });
    expect(buttons.map((b) => b.textContent)).toEqual(['History of MEMORY.md', 'History of USER.md']);

    await fireEvent.click(buttons[0]);
    expect(app.view).toBe('memory');
    expect(app.tab).toBe('memory');
    expect(app.memory.current).toBe('memory/MEMORY.md');
    render(MemoryView, { props: { app } });
    const list = await screen.findByRole('list', { name: 'Changes of this file, newest first' });
    await vi.waitFor(() => expect(list.textContent).toContain('dream: moved the city to MEMORY.md'));
    expect(fake.api.memoryHistory).toHaveBeenCalledWith('memory/MEMORY.md');
  });

  it("dates a file's changes in the UI language (zh-CN), not the system's", async () => {
    setLocale('zh-CN');
    try {
      const mem = fakeMemory({ 'memory/MEMORY.md': '- Lives in Lisbon.\n' });
      const fake = fakeApi(mem.api as never);
      const rev = { rev: 'a1b2c3d4e5f6', time: '2026-11-27T03:00:00Z', author: 'dream', message: 'dream: moved the city', files: ['memory/MEMORY.md'] };
      Object.assign(fake.api, { memoryHistory: vi.fn(async () => [rev]), memoryDiff: vi.fn(async () => '') });
      const app = createApp(fake.api, createStatusStore(async () => fakeStatus()));
      app.openMemoryHistory('memory/MEMORY.md');
      render(MemoryView, { props: { app } });
      const list = await screen.findByRole('list', { name: '此文件的更改，最新的在前' });
      const said = dateTime(new Date(rev.time), 'zh-CN');
      expect(said).toMatch(/^2026年11月2\d日 \d\d:00$/);
      await vi.waitFor(() => expect(list.textContent).toContain(said));
      expect(list.textContent).not.toMatch(/AM|PM|Nov/);
    } finally {
      setLocale('en');
    }
  });
});
