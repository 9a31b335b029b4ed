// A turn a budget ended (docs/chat.md#budgets): the answer names the budget, live and
// when the chat is opened again, and Continue sends a new turn that goes on.
import { describe, expect, it, vi } from 'vitest';
import { CONTINUE_TEXT, createChatStore } from './chat.svelte';
import type { Turn } from './turn';
import { fakeApi } from '../../test-fixtures';
import type { SessionData } from '../api';

function summedUp(limit: string): SessionData {
  return {
    id: 'c',
    title: 'Loop',
    model: '',
    messages: [
      { role: 'user', content: 'Keep listing', runId: 'r1' },
      { role: 'assistant', content: 'Listed twice; reading is left.', runId: 'r1' },
    ],
    runs: [{ runId: 'r1', status: 'ok', final: 'Listed twice; reading is left.', usage: { promptTokens: 10, completionTokens: 4 }, durationMs: 1500, limit }],
    interrupted: [],
  } as unknown as SessionData;
}

describe('budgets', () => {
  it('marks the answer with its budget when the chat is opened again', async () => {
    const fake = fakeApi({ loadSession: async () => summedUp('time') });
    const chat = createChatStore(fake.api);
    await chat.open('c');
    expect((chat.items[1] as Turn).limit).toBe('time');
  });

  it('marks the live answer from run_finished and Continue sends a new turn', async () => {
    const fake = fakeApi({ loadSession: async () => summedUp('') });
    const chat = createChatStore(fake.api);
    await chat.open('c');
    expect((chat.items[1] as Turn).limit).toBeUndefined();
    fake.mocks.send.mockResolvedValueOnce('r2');
    await chat.send('read them too');
    fake.emitRun('r2', 'run_started', { seq: 1, model: 'ollama/qwen3:4b' });
    fake.emitRun('r2', 'notice', { seq: 2, level: 'warning', code: 'notice.toolRounds', args: { n: '40' }, message: 'Reached the limit' });
    fake.emitRun('r2', 'text_delta', { seq: 3, text: 'Read ten of twenty.' });
    fake.emitRun('r2', 'run_finished', { seq: 4, status: 'ok', durationMs: 100, sessionId: 'c', limit: 'toolRounds' });
    const turn = chat.items[3] as Turn;
    await vi.waitFor(() => expect(turn.limit).toBe('toolRounds'));
    await vi.waitFor(() => expect(chat.running).toBeFalsy());
    fake.mocks.send.mockResolvedValueOnce('r3');
    expect(await chat.goOn()).toBe(true);
    expect(fake.mocks.send).toHaveBeenLastCalledWith(expect.objectContaining({ sessionId: 'c', text: CONTINUE_TEXT }));
  });
});
