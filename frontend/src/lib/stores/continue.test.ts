// Continue after Stop: the answer goes on in place while it streams (no seam, no second
// answer below it), and its time and tokens are those of both runs.
import { describe, expect, it, vi } from 'vitest';
import { createChatStore } from './chat.svelte';
import { turnText, type Turn } from './turn';
import { fakeApi } from '../../test-fixtures';
import type { SessionData } from '../api';

function stopped(): SessionData {
  return {
    id: 'c',
    title: 'Story',
    model: '',
    messages: [
      { role: 'user', content: 'Tell a story', runId: 'r1' },
      { role: 'assistant', content: 'Once upon a', runId: 'r1' },
    ],
    runs: [{ runId: 'r1', status: 'cancelled', final: 'Once upon a', usage: { promptTokens: 10, completionTokens: 4 }, durationMs: 1500 }],
    interrupted: [],
  } as unknown as SessionData;
}

describe('Continue', () => {
  it('streams into the stopped answer and counts both runs', async () => {
    const fake = fakeApi({ loadSession: async () => stopped() });
    const chat = createChatStore(fake.api);
    await chat.open('c');
    expect(chat.items).toHaveLength(2);
    fake.mocks.send.mockResolvedValueOnce('r2');
    await chat.resume();
    expect(chat.items).toHaveLength(2); // no second answer under the stopped one
    fake.emitRun('r2', 'run_started', { seq: 1, model: 'ollama/qwen3:4b' });
    fake.emitRun('r2', 'text_delta', { seq: 2, text: 'time' });
    fake.emitRun('r2', 'text_delta', { seq: 3, text: ' there was a fox.' });
    fake.emitRun('r2', 'usage', { seq: 4, promptTokens: 12, completionTokens: 6 });
    const turn = chat.items[1] as Turn;
    await vi.waitFor(() => expect(turnText(turn)).toBe('Once upon a time there was a fox.'));
    expect(turn.status).toBe('running');
    expect(turn.parts.filter((p) => p.kind === 'text')).toHaveLength(1);
    fake.emitRun('r2', 'run_finished', { seq: 5, status: 'ok', durationMs: 2500, sessionId: 'c' });
    await vi.waitFor(() => expect(turn.durationMs).toBe(4000));
    expect(turn.promptTokens).toBe(22);
    expect(turn.completionTokens).toBe(10);
  });
});
