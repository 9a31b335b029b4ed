import { describe, expect, it, vi } from 'vitest';
import { render, screen, fireEvent, within } from '@testing-library/svelte';
import { tick } from 'svelte';

import App from '../App.svelte';
import { createStatusStore } from '../lib/stores/status.svelte';
import { fakeApi, fakeSettings, fakeStatus } from '../test-fixtures';

// The tray's Quick ask as the window shows it: "quickask:open" covers the window with the
// small view; one question goes out as a new chat and its answer streams in; Open in
// Hearth opens that chat in the full window, Esc just puts the window back.
async function openQuickAsk(over: Parameters<typeof fakeApi>[0] = {}) {
  localStorage.setItem('hearth.firstRunDone', '1');
  const fake = fakeApi(over);
  const store = createStatusStore(vi.fn(async () => fakeStatus()));
  render(App, { props: { store, api: fake.api } });
  await tick();
  fake.emitQuickAsk(true);
  await tick();
  return fake;
}

const flush = () => new Promise((r) => requestAnimationFrame(() => r(null)));

describe('Quick ask', () => {
  it('asks one question in a new chat and opens it in the full window', async () => {
    const fake = await openQuickAsk();
    const view = screen.getByTestId('quick-ask');
    const box = within(view).getByTestId('quick-input') as HTMLTextAreaElement;
    expect(document.activeElement).toBe(box);
    await fireEvent.input(box, { target: { value: 'How long do eggs boil?' } });
    await fireEvent.keyDown(box, { key: 'Enter' });
    expect(fake.mocks.send).toHaveBeenCalledWith(expect.objectContaining({ sessionId: '', text: 'How long do eggs boil?' }));
    await tick();
    expect(within(view).getByTestId('quick-question').textContent).toBe('How long do eggs boil?');
    fake.emitRun('r1', 'run_started', { sessionId: 'q1', model: 'qwen3:4b' });
    fake.emitRun('r1', 'text_delta', { sessionId: 'q1', text: 'About **seven** minutes.' });
    fake.emitRun('r1', 'run_finished', { sessionId: 'q1', status: 'ok' });
    await flush();
    await tick();
    const answer = within(view).getByTestId('quick-answer');
    expect(answer.textContent).toContain('About seven minutes.');
    expect(answer.querySelector('strong')?.textContent).toBe('seven');
    await fireEvent.click(within(view).getByRole('button', { name: 'Open in Hearth' }));
    expect(fake.mocks.quickAskDone).toHaveBeenCalledWith(true);
    expect(screen.queryByTestId('quick-ask')).toBeNull();
    expect(fake.mocks.loadSession).toHaveBeenCalledWith('q1');
  });

  it('a reply a budget ended offers Continue, which goes on in the same chat', async () => {
    const fake = await openQuickAsk();
    const view = screen.getByTestId('quick-ask');
    const box = within(view).getByTestId('quick-input') as HTMLTextAreaElement;
    await fireEvent.input(box, { target: { value: 'Tidy my notes' } });
    await fireEvent.keyDown(box, { key: 'Enter' });
    fake.emitRun('r1', 'run_started', { sessionId: 'q1', model: 'qwen3:4b' });
    fake.emitRun('r1', 'text_delta', { sessionId: 'q1', text: 'Tidied half; half is left.' });
    fake.emitRun('r1', 'run_finished', { sessionId: 'q1', status: 'ok', limit: 'toolRounds' });
    await flush();
    await tick();
    expect(within(view).getByTestId('quick-limit').textContent).toContain('tool steps');
    await fireEvent.click(within(view).getByRole('button', { name: 'Continue' }));
    expect(fake.mocks.send).toHaveBeenLastCalledWith(expect.objectContaining({ sessionId: 'q1', text: 'Continue where you left off.' }));
  });

  it('Esc puts the window back without opening anything or stopping the chat underneath', async () => {
    const fake = await openQuickAsk();
    await fireEvent.keyDown(screen.getByTestId('quick-input'), { key: 'Escape' });
    expect(fake.mocks.quickAskDone).toHaveBeenCalledWith(false);
    expect(fake.mocks.stop).not.toHaveBeenCalled();
    expect(screen.queryByTestId('quick-ask')).toBeNull();
    expect(screen.getByRole('heading', { name: 'New chat' })).toBeTruthy();
  });

  it('answers a tool approval in the box, on the same card as the chat', async () => {
    const fake = await openQuickAsk();
    fake.mocks.pendingApprovals.mockResolvedValue([
      { runId: 'r1', callId: 'c1', sessionId: 'q1', tool: 'exec', args: { command: 'ls ~/Notes' }, reason: 'It runs a shell command on this computer.', dir: '/home/me' },
    ] as never);
    const view = screen.getByTestId('quick-ask');
    await fireEvent.input(within(view).getByTestId('quick-input'), { target: { value: 'What is in my notes folder?' } });
    await fireEvent.keyDown(within(view).getByTestId('quick-input'), { key: 'Enter' });
    fake.emitRun('r1', 'run_started', { sessionId: 'q1', model: 'qwen3:4b' });
    fake.emitRun('r1', 'tool_call', { sessionId: 'q1', callId: 'c1', name: 'exec', args: { command: 'ls ~/Notes' } });
    fake.emitRun('r1', 'approval', { sessionId: 'q1', callId: 'c1', state: 'requested' });
    await flush();
    const card = await within(view).findByTestId('approval-card');
    expect(card.dataset.tool).toBe('exec');
    expect((await within(card).findByTestId('approval-dir')).textContent).toContain('/home/me');
    const buttons = within(card).getAllByRole('button').map((b) => b.textContent);
    expect(buttons).toEqual(['Allow once', 'Allow for this chat', 'Always allow this tool', 'Deny']);
    // The card has the focus (Enter allows once), not the chat underneath.
    expect(document.activeElement?.textContent).toBe('Allow once');
    await fireEvent.click(within(card).getByRole('button', { name: 'Deny' }));
    expect(fake.mocks.approve).toHaveBeenCalledWith('r1', 'c1', 'deny');
    fake.emitRun('r1', 'approval', { sessionId: 'q1', callId: 'c1', state: 'denied', scope: 'user' });
    fake.emitRun('r1', 'text_delta', { sessionId: 'q1', text: 'Then I will not look.' });
    fake.emitRun('r1', 'run_finished', { sessionId: 'q1', status: 'ok' });
    await flush();
    await tick();
    expect(within(view).queryByTestId('approval-card')).toBeNull();
    expect(within(view).getByTestId('quick-answer').textContent).toContain('Then I will not look.');
  });

  it('with a card waiting, Enter in the box answers it as Send instead does; Ctrl+Enter still steers', async () => {
    const submit = vi.fn(async (input: { mode?: string; text: string }) => ({
      pending: { id: `p-${input.mode}`, mode: input.mode as 'steer', text: input.text, at: '', held: false },
    }));
    const fake = await openQuickAsk({ submit, pendingMessages: vi.fn(async () => []) } as never);
    fake.mocks.pendingApprovals.mockResolvedValue([
      { runId: 'r1', callId: 'c1', sessionId: 'q1', tool: 'exec', args: { command: 'rm -r ~/Downloads/old' }, reason: 'It runs a shell command on this computer.', dir: '/home/me' },
    ] as never);
    const view = screen.getByTestId('quick-ask');
    await fireEvent.input(within(view).getByTestId('quick-input'), { target: { value: 'Clean my downloads' } });
    await fireEvent.keyDown(within(view).getByTestId('quick-input'), { key: 'Enter' });
    fake.emitRun('r1', 'run_started', { sessionId: 'q1', model: 'qwen3:4b' });
    fake.emitRun('r1', 'tool_call', { sessionId: 'q1', callId: 'c1', name: 'exec', args: { command: 'rm -r ~/Downloads/old' } });
    fake.emitRun('r1', 'approval', { sessionId: 'q1', callId: 'c1', state: 'requested' });
    await flush();
    await within(view).findByTestId('approval-card');
    const more = within(view).getByTestId('quick-more') as HTMLTextAreaElement;
    await fireEvent.input(more, { target: { value: 'keep the old folder' } });
    await fireEvent.keyDown(more, { key: 'Enter', ctrlKey: true });
    expect(submit).toHaveBeenCalledWith(expect.objectContaining({ sessionId: 'q1', text: 'keep the old folder', mode: 'steer' }));
    expect(fake.mocks.denyInstead).not.toHaveBeenCalled();
    await fireEvent.input(more, { target: { value: 'just list it instead' } });
    await fireEvent.keyDown(more, { key: 'Enter' });
    await vi.waitFor(() => expect(fake.mocks.denyInstead).toHaveBeenCalledWith('q1'));
    expect(submit).toHaveBeenCalledTimes(1);
  });

  it('the mode beside Send sends in the mode chosen there', async () => {
    const submit = vi.fn(async (input: { mode?: string; text: string }) => ({
      pending: { id: `p-${input.mode}`, mode: input.mode as 'queue', text: input.text, at: '', held: false },
    }));
    const fake = await openQuickAsk({ submit, pendingMessages: vi.fn(async () => []) } as never);
    const view = screen.getByTestId('quick-ask');
    await fireEvent.input(within(view).getByTestId('quick-input'), { target: { value: 'Sort my downloads' } });
    await fireEvent.keyDown(within(view).getByTestId('quick-input'), { key: 'Enter' });
    fake.emitRun('r1', 'run_started', { sessionId: 'q1', model: 'qwen3:4b' });
    await flush();
    await tick();
    const picker = within(view).getByTestId('quick-send-mode') as HTMLSelectElement;
    expect(picker.value).toBe('steer');
    picker.value = 'queue';
    await fireEvent.change(picker);
    await fireEvent.input(within(view).getByTestId('quick-more'), { target: { value: 'then empty the bin' } });
    await fireEvent.click(within(view).getByTestId('quick-send-more'));
    expect(submit).toHaveBeenCalledWith(expect.objectContaining({ sessionId: 'q1', text: 'then empty the bin', mode: 'queue' }));
  });

  it('stays live while the answer runs: a message steers in the default mode, waits in view, shows where taken', async () => {
    const submit = vi.fn(async (input: { mode?: string; text: string }) => ({
      pending: { id: `p-${input.mode}`, mode: input.mode as 'steer' | 'queue', text: input.text, at: '', held: false },
    }));
    const fake = await openQuickAsk({ submit, pendingMessages: vi.fn(async () => []), removePending: vi.fn(async () => {}) } as never);
    const view = screen.getByTestId('quick-ask');
    await fireEvent.input(within(view).getByTestId('quick-input'), { target: { value: 'Sort my downloads' } });
    await fireEvent.keyDown(within(view).getByTestId('quick-input'), { key: 'Enter' });
    fake.emitRun('r1', 'run_started', { sessionId: 'q1', model: 'qwen3:4b' });
    fake.emitRun('r1', 'tool_call', { sessionId: 'q1', callId: 'c1', name: 'list_dir', args: { path: '~/Downloads' } });
    await flush();
    await tick();
    const more = within(view).getByTestId('quick-more') as HTMLTextAreaElement;
    await fireEvent.input(more, { target: { value: 'only the PDFs' } });
    await fireEvent.keyDown(more, { key: 'Enter' });
    expect(submit).toHaveBeenCalledWith(expect.objectContaining({ sessionId: 'q1', text: 'only the PDFs', mode: 'steer' }));
    expect(fake.mocks.stop).not.toHaveBeenCalled();
    await tick();
    expect(more.value).toBe('');
    const waiting = within(view).getByTestId('pending');
    expect(within(waiting).getByTestId('pending-mode').textContent).toBe('Steer');
    expect(waiting.textContent).toContain('only the PDFs');
    // Alt+Enter queues, whatever the default.
    await fireEvent.input(more, { target: { value: 'then empty the bin' } });
    await fireEvent.keyDown(more, { key: 'Enter', altKey: true });
    expect(submit).toHaveBeenLastCalledWith(expect.objectContaining({ sessionId: 'q1', text: 'then empty the bin', mode: 'queue' }));
    await tick();
    expect(within(view).getAllByTestId('pending-item')).toHaveLength(2);
    // Removing a waiting message names the chat Quick ask started.
    await fireEvent.click(within(view).getAllByTestId('pending-remove')[1]);
    expect(fake.mocks.removePending).toHaveBeenCalledWith('q1', 'p-queue');
    // The run takes the steer at its next safe point: it shows in the answer there.
    fake.emitRun('r1', 'text_delta', { sessionId: 'q1', text: 'Looking.' });
    fake.emitRun('r1', 'pending_taken', { sessionId: 'q1', id: 'p-steer', mode: 'steer', text: 'only the PDFs' });
    fake.emitRun('r1', 'text_delta', { sessionId: 'q1', text: 'Moved 3 PDFs.' });
    await flush();
    await tick();
    expect(within(view).queryByTestId('pending')).toBeNull();
    const answer = within(view).getByTestId('quick-answer');
    expect(within(answer).getByTestId('quick-steer').textContent).toContain('only the PDFs');
    expect(answer.textContent).toMatch(/Looking\.[\s\S]*only the PDFs[\s\S]*Moved 3 PDFs\./);
    fake.emitRun('r1', 'run_finished', { sessionId: 'q1', status: 'ok' });
    await flush();
    await tick();
    expect(within(view).queryByTestId('quick-more')).toBeNull();
  });

  it('sends while it works in the mode Settings chose (ui.sendDuringRun); a stop and send shows its own question', async () => {
    const submit = vi.fn(async () => ({ runId: 'r2' }));
    const fake = await openQuickAsk({ submit, getSettings: vi.fn(async () => ({ ...fakeSettings(), sendDuringRun: 'stop' })) } as never);
    await flush();
    const view = screen.getByTestId('quick-ask');
    await fireEvent.input(within(view).getByTestId('quick-input'), { target: { value: 'Write a long poem' } });
    await fireEvent.keyDown(within(view).getByTestId('quick-input'), { key: 'Enter' });
    fake.emitRun('r1', 'run_started', { sessionId: 'q1', model: 'qwen3:4b' });
    fake.emitRun('r1', 'text_delta', { sessionId: 'q1', text: 'Roses are' });
    await flush();
    await tick();
    await fireEvent.input(within(view).getByTestId('quick-more'), { target: { value: 'a haiku instead' } });
    await fireEvent.click(within(view).getByTestId('quick-send-more'));
    expect(submit).toHaveBeenCalledWith(expect.objectContaining({ sessionId: 'q1', text: 'a haiku instead', mode: 'stop' }));
    fake.emitRun('r1', 'run_finished', { sessionId: 'q1', status: 'stopped' });
    await vi.waitFor(() => expect(fake.mocks.followRun).toHaveBeenCalledWith('r2', expect.any(Function)));
    fake.emitRun('r2', 'run_started', { sessionId: 'q1', model: 'qwen3:4b', seq: 1 }); // each run's stream counts from 1
    fake.emitRun('r2', 'text_delta', { sessionId: 'q1', text: 'Old pond, a frog', seq: 2 });
    await flush();
    await tick();
    expect(within(view).getByTestId('quick-question').textContent).toBe('a haiku instead');
    expect(within(view).getByTestId('quick-answer').textContent).toContain('Old pond, a frog');
    expect(within(view).getByTestId('quick-answer').textContent).not.toContain('Roses are');
  });

  it('opens the box when the page loads after the tray chose Quick ask (the event came too early)', async () => {
    localStorage.setItem('hearth.firstRunDone', '1');
    const fake = fakeApi();
    fake.mocks.quickAskOpen.mockResolvedValue(true);
    const store = createStatusStore(vi.fn(async () => fakeStatus()));
    render(App, { props: { store, api: fake.api } });
    const view = await screen.findByTestId('quick-ask');
    expect(within(view).getByTestId('quick-input')).toBeTruthy();
    await fireEvent.keyDown(within(view).getByTestId('quick-input'), { key: 'Escape' });
    expect(fake.mocks.quickAskDone).toHaveBeenCalledWith(false);
  });

  it('stays the full window when the backend is not in Quick ask', async () => {
    localStorage.setItem('hearth.firstRunDone', '1');
    const fake = fakeApi();
    const store = createStatusStore(vi.fn(async () => fakeStatus()));
    render(App, { props: { store, api: fake.api } });
    await tick();
    await vi.waitFor(() => expect(fake.mocks.quickAskOpen).toHaveBeenCalled());
    await tick();
    expect(screen.queryByTestId('quick-ask')).toBeNull();
  });

  it('leaves when the backend puts the window back (the tray opened the full window)', async () => {
    const fake = await openQuickAsk();
    fake.emitQuickAsk(false);
    await tick();
    expect(screen.queryByTestId('quick-ask')).toBeNull();
    expect(fake.mocks.quickAskDone).not.toHaveBeenCalled();
  });
});
