// The approval state of tool calls in the chat (docs/design/safety-defaults.md#approval): a card appears when the gate
// asks, carries the reason and masked arguments, resolves on the gate's answer, and comes
// back after a reload for calls that still wait.
import { describe, expect, it } from 'vitest';
import { createChatStore } from './chat.svelte';
import { applyEvent, newTurn, waitingCalls, type Part, type Turn } from './turn';
import { fakeApi } from '../../test-fixtures';
import type { PendingApproval, RunEvent } from '../api';

type ToolPart = Extract<Part, { kind: 'tool' }>;
const ev = (seq: number, type: RunEvent['type'], f: Record<string, unknown> = {}) =>
  ({ runId: 'r1', sessionId: 's1', seq, type, ...f }) as RunEvent;
const pending = (over: Partial<PendingApproval> = {}): PendingApproval => ({
  runId: 'r1',
  sessionId: 's1',
  callId: 'c1',
  tool: 'exec',
  args: { command: 'curl -H "Authorization: ***" example.org' },
  reason: 'It runs a shell command on this computer.',
  why: { code: 'gate.why.exec' },
  since: '2026-11-23T10:00:00Z',
  ...over,
});
const flush = () => new Promise((r) => setTimeout(r, 0));

describe('approval events in a turn', () => {
  it('marks the call requested, then allowed or denied with the scope', () => {
    const t = newTurn('r1');
    applyEvent(t, ev(1, 'tool_call', { callId: 'c1', name: 'exec', args: { command: 'ls' } }));
    applyEvent(t, ev(2, 'approval', { callId: 'c1', state: 'requested' }));
    const part = t.parts[0] as ToolPart;
    expect(part.approval).toMatchObject({ state: 'requested', scope: '', sending: false });
    expect(waitingCalls([t])).toEqual([{ runId: 'r1', part }]);
    part.approval!.reason = 'It runs a shell command on this computer.';
    applyEvent(t, ev(3, 'approval', { callId: 'c1', state: 'denied', scope: 'user' }));
    expect(part.approval).toMatchObject({ state: 'denied', scope: 'user', reason: 'It runs a shell command on this computer.' });
    expect(waitingCalls([t])).toEqual([]);
  });

  it('ignores approvals of unknown calls and unknown states', () => {
    const t = newTurn('r1');
    applyEvent(t, ev(1, 'tool_call', { callId: 'c1', name: 'exec', args: {} }));
    applyEvent(t, ev(2, 'approval', { callId: 'nope', state: 'requested' }));
    applyEvent(t, ev(3, 'approval', { callId: 'c1', state: 'maybe' }));
    expect((t.parts[0] as ToolPart).approval).toBeUndefined();
  });
});

describe('chat store approvals', () => {
  function setup(list: PendingApproval[] = [pending()]) {
    const fake = fakeApi();
    fake.mocks.pendingApprovals.mockImplementation(async () => list);
    const frames: (() => void)[] = [];
    const chat = createChatStore(fake.api, { schedule: (fn) => frames.push(fn) });
    const frame = () => frames.splice(0).forEach((f) => f());
    return { fake, chat, frame };
  }

  it('shows the card with the reason and masked arguments, answers, and resolves on the event', async () => {
    const { fake, chat, frame } = setup();
    await chat.send('fetch it');
    fake.emitRun('r1', 'run_started');
    fake.emitRun('r1', 'tool_call', { callId: 'c1', name: 'exec', args: { command: 'curl -H "Authorization: sk-secret" example.org' } });
    fake.emitRun('r1', 'approval', { callId: 'c1', state: 'requested' });
    frame();
    await flush();
    expect(chat.waiting).toHaveLength(1);
    const a = chat.waiting[0].part.approval!;
    expect(a.reason).toBe('It runs a shell command on this computer.');
    expect(a.why).toEqual({ code: 'gate.why.exec' });
    expect(a.maskedArgs).toContain('Authorization: ***');
    expect(a.maskedArgs).not.toContain('sk-secret');

    expect(await chat.approve('r1', 'c1', 'once')).toBe(true);
    expect(fake.mocks.approve).toHaveBeenCalledWith('r1', 'c1', 'once');
    expect(chat.waiting[0].part.approval!.sending).toBe(true);
    // A second click while the answer travels is not sent again.
    expect(await chat.approve('r1', 'c1', 'deny')).toBe(false);
    expect(fake.mocks.approve).toHaveBeenCalledTimes(1);

    fake.emitRun('r1', 'approval', { callId: 'c1', state: 'allowed', scope: 'once' });
    fake.emitRun('r1', 'tool_result', { callId: 'c1', name: 'exec', ok: true, content: 'done', durationMs: 5 });
    frame();
    expect(chat.waiting).toHaveLength(0);
    const part = (chat.items[1] as Turn).parts[0] as ToolPart;
    expect(part).toMatchObject({ result: 'done', ok: true, approval: { state: 'allowed', scope: 'once' } });
  });

  it('a message typed while a card waits denies the call and stops the reply in one call, then is sent next', async () => {
    const { fake, chat, frame } = setup([pending({ destructive: true, dir: '/home/me' })]);
    await chat.send('tidy up');
    fake.emitRun('r1', 'run_started');
    fake.emitRun('r1', 'tool_call', { callId: 'c1', name: 'exec', args: { command: 'rm -r old' } });
    fake.emitRun('r1', 'approval', { callId: 'c1', state: 'requested', destructive: true, dir: '/home/me' });
    frame();
    await flush();
    expect(chat.waiting[0].part.approval).toMatchObject({ destructive: true, dir: '/home/me' });
    fake.mocks.denyInstead.mockImplementationOnce(async () => {
      fake.emitRun('r1', 'approval', { callId: 'c1', state: 'denied', scope: 'user' });
      fake.emitRun('r1', 'run_finished', { status: 'cancelled' });
      return true;
    });
    const sent = chat.send('no — move it to ~/Archive instead');
    await flush();
    frame();
    expect(await sent).toBe(true);
    // One backend call: the deny and the stop together, before any model request (a
    // deny first would let the model start a new answer under the denied card).
    expect(fake.mocks.denyInstead).toHaveBeenCalledWith('s1');
    expect(fake.mocks.approve).not.toHaveBeenCalled();
    expect(fake.mocks.stop).not.toHaveBeenCalled();
    const turn = chat.items[1] as Turn;
    expect(turn.parts.filter((p) => p.kind === 'text')).toEqual([]);
    expect(fake.mocks.send).toHaveBeenLastCalledWith(expect.objectContaining({ text: 'no — move it to ~/Archive instead' }));
    const users = chat.items.filter((it) => it.kind === 'user').map((it) => (it as { text: string }).text);
    expect(users).toEqual(['tidy up', 'no — move it to ~/Archive instead']);
  });

  it('keeps the card open with the error when the backend refuses the answer', async () => {
    const { fake, chat, frame } = setup();
    fake.mocks.approve.mockRejectedValueOnce('no approval is waiting for that call');
    await chat.send('x');
    fake.emitRun('r1', 'tool_call', { callId: 'c1', name: 'exec', args: {} });
    fake.emitRun('r1', 'approval', { callId: 'c1', state: 'requested' });
    frame();
    expect(await chat.approve('r1', 'c1', 'always')).toBe(false);
    const a = chat.waiting[0].part.approval!;
    expect(a).toMatchObject({ sending: false, error: 'no approval is waiting for that call' });
  });

  it('falls back to the call arguments when the pending list cannot be read', async () => {
    const { fake, chat, frame } = setup();
    fake.mocks.pendingApprovals.mockRejectedValue('gone');
    await chat.send('x');
    fake.emitRun('r1', 'tool_call', { callId: 'c1', name: 'exec', args: { command: 'ls' } });
    fake.emitRun('r1', 'approval', { callId: 'c1', state: 'requested' });
    frame();
    await flush();
    const p = chat.waiting[0].part;
    expect(p.approval!.maskedArgs).toBe('');
    expect(p.args).toContain('"command": "ls"');
  });

  it('restores a waiting call after a reload and follows its run to the end', async () => {
    const { fake, chat, frame } = setup([pending({ runId: 'r7', callId: 'c9' }), pending({ sessionId: 'other', runId: 'r8' })]);
    expect(await chat.pendingChat()).toBe('s1');
    await chat.open('s1');
    expect(chat.running).toBe('r7');
    expect(chat.waiting).toHaveLength(1);
    expect(chat.waiting[0]).toMatchObject({ runId: 'r7', part: { name: 'exec', callId: 'c9' } });
    expect(chat.waiting[0].part.approval).toMatchObject({ reason: 'It runs a shell command on this computer.', state: 'requested' });
    expect(fake.mocks.followRun).toHaveBeenCalledWith('r7', expect.any(Function));

    // The run goes on from wherever it was: its first event sets the order.
    fake.mocks.loadSession.mockClear();
    fake.emitRun('r7', 'approval', { callId: 'c9', state: 'denied', scope: 'user' });
    frame();
    expect(chat.waiting).toHaveLength(0);
    fake.emitRun('r7', 'run_finished', { status: 'ok' });
    frame();
    expect(chat.running).toBe('');
    // The whole turn is read back from disk.
    expect(fake.mocks.loadSession).toHaveBeenCalledWith('s1');
  });

  it('does not restore calls of other chats', async () => {
    const { chat } = setup([pending({ sessionId: 'other' })]);
    await chat.open('s1');
    expect(chat.running).toBe('');
    expect(chat.waiting).toHaveLength(0);
  });
});

describe('a call waiting in another chat', () => {
  it('is listed until that chat is opened or the call is answered', async () => {
    const fake = fakeApi();
    fake.mocks.pendingApprovals.mockImplementation(async () => [pending()]);
    const chat = createChatStore(fake.api, { schedule: (fn) => fn() });
    await chat.send('run it');
    fake.emitRun('r1', 'run_started');
    chat.newChat(); // the run goes on off screen
    fake.emitRun('r1', 'tool_call', { callId: 'c1', name: 'exec', args: {} });
    fake.emitRun('r1', 'approval', { callId: 'c1', state: 'requested' });
    expect(chat.asking).toEqual(['s1']);
    await chat.open('s1');
    expect(chat.asking).toEqual([]);
    expect(chat.waiting).toHaveLength(1);
    chat.newChat();
    expect(chat.asking).toEqual(['s1']);
    fake.emitRun('r1', 'approval', { callId: 'c1', state: 'allowed', scope: 'once' });
    expect(chat.asking).toEqual([]);
  });
});
