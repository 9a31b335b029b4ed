import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { tick } from 'svelte';
import { createChatStore } from './chat.svelte';
import { createPendingStore } from './pending.svelte';
import type { Turn } from './turn';
import Composer from '../../components/Composer.svelte';
import PendingList from '../../components/PendingList.svelte';
import { fakeApi } from '../../test-fixtures';
import type { PendingMessage, RunEvent, Sent } from '../api';

afterEach(cleanup);

const msg = (id: string, mode: 'steer' | 'queue', text: string, held = false): PendingMessage => ({ id, mode, text, at: '', held });

/** A chat with a run going (r1 in s1) over a fake whose Submit answers with sent. */
async function running(sent: Sent) {
  const submit = vi.fn(async () => sent);
  const fake = fakeApi({ submit, pendingMessages: vi.fn(async () => []), removePending: vi.fn(async () => {}) });
  const chat = createChatStore(fake.api, { schedule: (fn) => fn() });
  await chat.send('long task');
  fake.emitRun('r1', 'run_started', { model: 'ollama/qwen3:4b' });
  return { fake, chat, submit };
}

describe('sending while a turn runs', () => {
  it('steers: the message waits, then shows in the turn where it was taken', async () => {
    const { fake, chat, submit } = await running({ pending: msg('p1', 'steer', 'use docs/') });
    expect(await chat.send('use docs/', [], 'steer')).toBe(true);
    expect(submit).toHaveBeenCalledWith(expect.objectContaining({ sessionId: 's1', text: 'use docs/', mode: 'steer' }));
    expect(chat.pending.list).toEqual([msg('p1', 'steer', 'use docs/')]);
    fake.emitRun('r1', 'pending', { id: 'p1', mode: 'steer', text: 'use docs/' }); // the stream says so too: still one
    expect(chat.pending.list).toHaveLength(1);
    fake.emitRun('r1', 'pending_taken', { id: 'p1', mode: 'steer', text: 'use docs/' });
    expect(chat.pending.list).toEqual([]);
    const turn = chat.items[1] as Turn;
    expect(turn.parts).toContainEqual({ kind: 'steer', text: 'use docs/' });
    expect(chat.running).toBe('r1');
  });

  it('queues: the turn it starts is followed when the running one ends', async () => {
    const { fake, chat } = await running({ pending: msg('p2', 'queue', 'then test it') });
    await chat.send('then test it', [], 'queue');
    fake.emitRun('r1', 'pending_taken', { id: 'p2', mode: 'queue', text: 'then test it', nextRunId: 'r2' });
    fake.emitRun('r1', 'run_finished', { status: 'ok', nextRunId: 'r2' });
    await vi.waitFor(() => expect(chat.running).toBe('r2'));
    expect(chat.items.map((i) => i.kind)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(chat.items[2]).toMatchObject({ text: 'then test it' });
    expect(chat.pending.list).toEqual([]);
    fake.emitRun('r2', 'run_started', { seq: 1 }); // each run's stream counts from 1
    fake.emitRun('r2', 'text_delta', { seq: 2, text: 'Tested.' });
    fake.emitRun('r2', 'run_finished', { seq: 3, status: 'ok' });
    expect(chat.running).toBe('');
  });

  it('stops and sends: the new turn is shown at once', async () => {
    const { chat } = await running({ runId: 'r3' });
    expect(await chat.send('do this instead', [], 'stop')).toBe(true);
    expect(chat.running).toBe('r3');
    expect(chat.items[2]).toMatchObject({ kind: 'user', text: 'do this instead' });
  });

  it('stops and sends: the stopped turn ends even when its last events wait for a frame', async () => {
    const frames: (() => void)[] = [];
    const fake = fakeApi({ pendingMessages: vi.fn(async () => []) });
    fake.mocks.submit = vi.fn(async () => {
      fake.emitRun('r1', 'run_finished', { status: 'cancelled' }); // the backend answers once the run has ended
      return { runId: 'r3' };
    });
    (fake.api as { submit: unknown }).submit = fake.mocks.submit;
    const chat = createChatStore(fake.api, { schedule: (fn) => frames.push(fn) });
    await chat.send('long task');
    fake.emitRun('r1', 'run_started', { model: 'ollama/qwen3:4b' });
    fake.emitRun('r1', 'text_delta', { text: 'Once upon' });
    frames.splice(0).forEach((fn) => fn());
    expect(await chat.send('a haiku instead', [], 'stop')).toBe(true);
    expect(chat.items[1]).toMatchObject({ kind: 'assistant', status: 'cancelled' });
    expect(chat.running).toBe('r3');
  });

  it('edits the waiting messages of a chat that was new when its turn started', async () => {
    const { fake, chat } = await running({ pending: msg('p1', 'queue', 'then test it') });
    await chat.send('then test it', [], 'queue');
    expect(await chat.pending.remove('p1')).toBe(true);
    expect(fake.mocks.removePending).toHaveBeenCalledWith('s1', 'p1');
  });

  it('keeps the words when the backend refuses them', async () => {
    const { fake, chat } = await running({});
    fake.mocks.submit.mockRejectedValueOnce(new Error('pictures cannot wait'));
    expect(await chat.send('look', [{ name: 'a.png', url: 'data:image/png;base64,AA==' }], 'queue')).toBe(false);
    expect(chat.error).toContain('pictures cannot wait');
  });
});

describe('the waiting list', () => {
  it('edits, switches, removes and sends a held message again', async () => {
    const api = {
      pendingMessages: vi.fn(async () => [msg('p1', 'queue', 'a'), msg('p2', 'steer', 'b', true)]),
      editPending: vi.fn(async (_s: string, id: string, text: string, mode: string) => msg(id, mode as 'steer', text)),
      removePending: vi.fn(async () => {}),
      sendPending: vi.fn(async () => 'r9'),
    };
    const p = createPendingStore(api);
    await p.load('s1');
    expect(p.list.map((x) => x.id)).toEqual(['p1', 'p2']);
    expect(await p.toggle('p1')).toBe(true);
    expect(api.editPending).toHaveBeenCalledWith('s1', 'p1', 'a', 'steer');
    expect(p.list[0].mode).toBe('steer');
    expect(await p.send('p2')).toBe('r9');
    expect(p.list.map((x) => x.id)).toEqual(['p1']);
    api.removePending.mockRejectedValueOnce(new Error('the message is no longer waiting'));
    expect(await p.remove('p1')).toBe(false);
    expect(p.error).toContain('no longer waiting');
    p.apply({ runId: 'r1', sessionId: 's1', seq: 3, type: 'pending_dropped', id: 'p1' } as RunEvent);
    expect(p.list).toEqual([]);
    p.apply({ runId: 'r1', sessionId: 'other', seq: 4, type: 'pending', id: 'x', mode: 'queue', text: 'x' } as RunEvent);
    expect(p.list).toEqual([]); // another chat's stream
  });

  it('shows each message with its mode, and held ones with Send', async () => {
    const api = {
      pendingMessages: vi.fn(async () => [msg('p1', 'queue', 'later'), msg('p2', 'steer', 'kept', true)]),
      removePending: vi.fn(async () => {}),
    };
    const p = createPendingStore(api);
    await p.load('s1');
    const onSend = vi.fn();
    render(PendingList, { props: { pending: p, onSend } });
    expect(screen.getAllByTestId('pending-mode').map((e) => e.textContent)).toEqual(['Queue', 'Not sent']);
    await fireEvent.click(screen.getByTestId('pending-send'));
    expect(onSend).toHaveBeenCalledWith('p2');
    await fireEvent.click(screen.getAllByTestId('pending-remove')[0]);
    await tick();
    expect(api.removePending).toHaveBeenCalledWith('s1', 'p1');
    expect(screen.getAllByTestId('pending-item')).toHaveLength(1);
  });
});

describe('the composer during a run', () => {
  it('sends in the default mode on Enter, and each key picks its own', async () => {
    const onSend = vi.fn(async () => true);
    render(Composer, { props: { onSend, onStop: vi.fn(), running: true, mode: 'queue' } });
    const box = screen.getByRole('textbox') as HTMLTextAreaElement;
    const send = async (keys: Partial<KeyboardEvent>) => {
      await fireEvent.input(box, { target: { value: 'x' } });
      await fireEvent.keyDown(box, { key: 'Enter', ...keys });
    };
    await send({});
    await send({ ctrlKey: true });
    await send({ altKey: true });
    await send({ ctrlKey: true, shiftKey: true });
    expect(onSend.mock.calls.map((c) => (c as unknown[])[2])).toEqual(['queue', 'steer', 'queue', 'stop']);
    // The choice beside Send is for one message, then back to the default.
    await fireEvent.input(box, { target: { value: 'y' } });
    await fireEvent.change(screen.getByTestId('send-mode'), { target: { value: 'stop' } });
    await fireEvent.click(screen.getByTestId('send-during'));
    await send({});
    expect(onSend.mock.calls.slice(4).map((c) => (c as unknown[])[2])).toEqual(['stop', 'queue']);
  });

  it('keeps Send instead for a call waiting for approval', async () => {
    const onSend = vi.fn(async () => true);
    render(Composer, { props: { onSend, onStop: vi.fn(), running: true, replying: true, mode: 'steer' } });
    const box = screen.getByRole('textbox') as HTMLTextAreaElement;
    await fireEvent.input(box, { target: { value: 'no, this' } });
    await fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith('no, this', []);
  });
});

describe('a queued turn off screen', () => {
  it('is followed, so its chat shows it live when opened', async () => {
    const { fake, chat } = await running({ pending: msg('p2', 'queue', 'next') });
    await chat.send('next', [], 'queue');
    chat.newChat(); // the person went elsewhere; r1 goes on unseen
    fake.emitRun('r1', 'pending_taken', { id: 'p2', mode: 'queue', text: 'next', nextRunId: 'r2' });
    fake.emitRun('r1', 'run_finished', { status: 'ok', nextRunId: 'r2' });
    await vi.waitFor(() => expect(chat.busy).toEqual(['s1']));
    fake.emitRun('r2', 'run_started', { seq: 1 });
    await chat.open('s1');
    expect(chat.running).toBe('r2');
  });
});

describe('a steer in a reopened chat', () => {
  it('is the second question of its run, marked as said meanwhile', async () => {
    const { itemsFromSession } = await import('./history');
    const { items } = itemsFromSession({
      id: 's1', title: '', model: '', interrupted: [], versions: [],
      messages: [
        { runId: 'r1', role: 'user', content: 'find the notes' },
        { runId: 'r1', role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'list_dir', arguments: {} }] },
        { runId: 'r1', role: 'tool', content: 'a.md', toolCallId: 'c1' },
        { runId: 'r1', role: 'user', content: 'look in docs/' },
        { runId: 'r1', role: 'assistant', content: 'Found them in docs/.' },
      ],
      runs: [{ runId: 'r1', status: 'ok', final: 'Found them in docs/.' }],
    } as never);
    expect(items.map((i) => (i.kind === 'user' ? `user${i.steer ? ':steer' : ''}` : 'assistant'))).toEqual(['user', 'assistant', 'user:steer', 'assistant']);
  });
});
