// The smaller moments of issue 30: each as a person meets it in the window.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import StatusBar from './StatusBar.svelte';
import Message from './Message.svelte';
import SessionList from './SessionList.svelte';
import SettingsView from './SettingsView.svelte';
import ActivityView from './ActivityView.svelte';
import RemindersView from './RemindersView.svelte';
import MemoryHistory from './MemoryHistory.svelte';
import { localInput } from '../lib/stores/reminderForm';
import { createApp } from '../lib/app.svelte';
import { setLocale } from '../lib/i18n.svelte';
import { createStatusStore } from '../lib/stores/status.svelte';
import { itemsFromSession } from '../lib/stores/history';
import { fakeApi, fakeStatus } from '../test-fixtures';

function appWith(over = {}) {
  const fake = fakeApi(over);
  return { fake, app: createApp(fake.api, createStatusStore(async () => fakeStatus())) };
}

afterEach(() => setLocale('en'));

describe('the footer', () => {
  it('names the open chat’s model, and the default only when the chat follows it', async () => {
    const store = createStatusStore(async () => fakeStatus({ model: 'ollama/qwen3:4b' }));
    await store.refresh();
    const { rerender } = render(StatusBar, { props: { store, chatModel: 'ollama/gemma3:12b' } });
    expect(screen.getByTestId('status-model').textContent).toContain('ollama/gemma3:12b');
    expect(screen.getByTestId('status-model').textContent).not.toContain('qwen3');
    await rerender({ store, chatModel: '' });
    expect(screen.getByTestId('status-model').textContent).toContain('ollama/qwen3:4b');
  });
});

describe('a reminder’s chat', () => {
  const stored = (id: string, channel?: string) =>
    ({
      id,
      title: 'Stretch',
      model: '',
      messages: [
        { role: 'user', content: 'Time to stretch', runId: 'r1' },
        { role: 'assistant', content: 'Stand up and stretch.', runId: 'r1' },
        { role: 'user', content: 'done, thanks', runId: 'r2' },
      ],
      runs: [
        { runId: 'r1', status: 'ok', final: 'Stand up and stretch.', usage: {}, durationMs: 3, channel },
        { runId: 'r2', status: 'ok', final: '', usage: {}, durationMs: 3 },
      ],
      interrupted: [],
    }) as never;

  it('shows the reminder’s words as a reminder, and what the person typed as their own', () => {
    const { items } = itemsFromSession(stored('cron:a1', 'cron'));
    render(Message, { props: { item: items[0] } });
    expect(screen.getByTestId('msg-reminder').textContent).toContain('Reminder');
    expect(screen.getByTestId('msg-reminder').textContent).toContain('Time to stretch');
    expect(screen.queryByTestId('msg-user')).toBeNull();
    expect(items[2]).toMatchObject({ kind: 'user', text: 'done, thanks' });
    expect((items[2] as { reminder?: boolean }).reminder).toBeFalsy();
  });

  it('is said so in zh-CN too, and a window chat’s message stays a bubble', () => {
    setLocale('zh-CN');
    const { items } = itemsFromSession(stored('s1'));
    expect((items[0] as { reminder?: boolean }).reminder).toBeFalsy();
    const r = itemsFromSession(stored('s2', 'cron')).items[0];
    render(Message, { props: { item: r } });
    expect(screen.getByTestId('msg-reminder').textContent).toContain('提醒');
  });

  it('is marked in the chat list', async () => {
    const { app } = appWith({
      listSessions: async () => [
        { id: 'cron:a1', title: 'Stretch', created: '2026-01-01T09:00:00Z', updated: '2026-01-01T09:00:00Z', model: '', messages: 2, archived: false, interrupted: false },
        { id: 's1', title: 'Plain', created: '2026-01-01T09:00:00Z', updated: '2026-01-01T09:00:00Z', model: '', messages: 2, archived: false, interrupted: false },
      ],
    });
    await app.sessions.refresh();
    render(SessionList, { props: { app } });
    const marks = screen.getAllByTestId('session-reminder');
    expect(marks).toHaveLength(1);
    expect(marks[0].closest('button')?.textContent).toContain('Stretch');
  });
});

describe('Settings › the Ollama host', () => {
  it('shows the host in effect, not 127.0.0.1, while the field is empty', async () => {
    const fake = fakeApi();
    const app = createApp(fake.api, createStatusStore(async () => fakeStatus({ ollamaHost: 'http://10.0.0.5:11434' })));
    await app.status.refresh();
    render(SettingsView, { props: { app } });
    await fireEvent.click(screen.getByRole('tab', { name: 'Models & providers' }));
    const field = (await screen.findByTestId('ollama-host')) as HTMLInputElement;
    expect(field.placeholder).toBe('http://10.0.0.5:11434');
    expect(screen.getByTestId('ollama-host-effect').textContent).toBe('In effect: http://10.0.0.5:11434');
  });
});

describe('Activity › Network', () => {
  const poll = (time: string, over = {}) => ({ time, host: '127.0.0.1:11434', purpose: 'Ollama check', local: true, ...over });

  it('folds the app’s own status checks into one row, keeps the rest, and sits in the page', async () => {
    const egressLog = vi.fn(async () => [
      poll('2026-11-25T10:00:00Z'),
      { time: '2026-11-25T10:00:03Z', host: 'api.example.com:443', purpose: 'web_search' },
      poll('2026-11-25T10:00:05Z'),
      poll('2026-11-25T10:00:10Z'),
      poll('2026-11-25T10:00:12Z', { host: 'api.openai.com:443', local: false, refused: true }),
    ]);
    const { app } = appWith({ egressLog });
    const { container } = render(ActivityView, { props: { app } });
    const details = container.querySelector('details.egress') as HTMLDetailsElement;
    // Inside the page's padded content, after the filters, not beside them.
    expect(details.closest('.content')).toBeTruthy();
    const filters = container.querySelector('.filters')!;
    expect(filters.compareDocumentPosition(details) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    details.open = true;
    await fireEvent(details, new Event('toggle'));
    await vi.waitFor(() => expect(screen.getAllByTestId('egress-row')).toHaveLength(3));
    expect(screen.getByTestId('egress-folded').textContent).toContain('3 times');
    expect(screen.getByText('api.example.com:443')).toBeTruthy();
    expect(container.querySelectorAll('tr.refused')).toHaveLength(1); // a refusal is never folded
  });
});

describe('the reminder form an empty list opens', () => {
  afterEach(() => vi.useRealTimers());

  it('offers a time an hour from when it opens, not from when Hearth started', async () => {
    const started = new Date(2026, 11, 7, 8, 0, 0);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(started);
    const { app } = appWith({ listJobs: vi.fn(async () => []) });
    const later = new Date(2026, 11, 7, 15, 30, 0);
    vi.setSystemTime(later);
    const { container } = render(RemindersView, { props: { app } });
    const field = (await vi.waitFor(() => {
      const el = container.querySelector('[data-testid="date-field"]') as HTMLElement | null;
      if (!el) throw new Error('no form yet');
      return el;
    })) as HTMLElement;
    // The fields in English order (month/day/year hour:minute) read an hour from now.
    const want = localInput(new Date(later.getTime() + 3600_000)); // YYYY-MM-DDTHH:MM:SS
    const shown = () => [...field.querySelectorAll('input')].map((i) => i.value);
    await vi.waitFor(() => expect(shown().slice(0, 5)).toEqual([want.slice(5, 7), want.slice(8, 10), want.slice(0, 4), want.slice(11, 13), want.slice(14, 16)]));
  });
});

describe('memory History', () => {
  const revs = [
    { rev: 'bbbbbbbbbbbbbbbb', time: '2026-11-25T10:00:00Z', author: 'Dream', message: 'Dream: merged facts', files: ['memory/MEMORY.md'] },
    { rev: 'aaaaaaaaaaaaaaaa', time: '2026-11-25T09:00:00Z', author: 'Hearth', message: 'onboarding', files: ['memory/MEMORY.md'] },
  ];
  const diff = 'diff --git a/memory/MEMORY.md b/memory/MEMORY.md\n--- a/memory/MEMORY.md\n+++ b/memory/MEMORY.md\n@@ -1 +1 @@\n-old fact\n+new fact\n';

  it('shows readable changes, says what Restore would do, and offers Undo after it', async () => {
    const restoreMemory = vi.fn(async () => ({ code: 'memory.restore.done', args: { files: 'memory/MEMORY.md', rev: 'aaaaaaaaaa' } }));
    // The version 'onboarding' added "old fact" (its own change); since then the file got
    // "new fact" and "- a cat": restoring it now would take both back.
    const ownDiff = '@@ -0,0 +1 @@\n+old fact\n';
    const memoryDiff = vi.fn(async (rev: string) => (rev === 'aaaaaaaaaaaaaaaa' ? ownDiff : diff));
    const restorePreview = vi.fn(async () => '@@ -1,2 +1 @@\n-new fact\n-- a cat\n+old fact\n');
    const { app } = appWith({ memoryHistory: vi.fn(async () => revs), memoryDiff, restoreMemory, restorePreview });
    const { container } = render(MemoryHistory, { props: { app, path: 'memory/MEMORY.md' } });
    await vi.waitFor(() => expect(container.querySelector('.diff')?.textContent).toContain('new fact'));
    const shown = container.querySelector('.history')!.textContent!;
    expect(shown).not.toMatch(/@@|bbbbbbbb|aaaaaaaa|\+new|-old/);
    await fireEvent.click(screen.getByText('onboarding'));
    await vi.waitFor(() => expect((container.querySelector('.bar button') as HTMLButtonElement).disabled).toBe(false));
    await fireEvent.click(container.querySelector('.bar button')!);
    expect(restoreMemory).not.toHaveBeenCalled(); // it says first what it would do
    expect(screen.getByTestId('memory-restore-what').textContent).toContain('takes back the 1 later change');
    // …and what it would change in the file as it is now, not the version's own change.
    expect(restorePreview).toHaveBeenCalledWith('aaaaaaaaaaaaaaaa', 'memory/MEMORY.md');
    const preview = await vi.waitFor(() => {
      const el = screen.getByTestId('memory-restore-preview');
      if (!el.querySelector('span.add')) throw new Error('no preview yet');
      return el;
    });
    expect([...preview.querySelectorAll('span.del')].map((e) => e.textContent)).toEqual(['new fact', '- a cat']);
    expect([...preview.querySelectorAll('span.add')].map((e) => e.textContent)).toEqual(['old fact']);
    expect(preview.textContent).not.toMatch(/@@/);
    expect(container.querySelector('[aria-label="What this change did"]')).toBeNull();
    await fireEvent.click(screen.getByTestId('memory-restore-confirm'));
    expect(restoreMemory).toHaveBeenCalledWith('aaaaaaaaaaaaaaaa', 'memory/MEMORY.md');
    await vi.waitFor(() => expect(screen.getByTestId('memory-restored').textContent).toContain('as it was after that change'));
    await fireEvent.click(screen.getByTestId('memory-undo'));
    expect(restoreMemory).toHaveBeenLastCalledWith('bbbbbbbbbbbbbbbb', 'memory/MEMORY.md');
  });
});
