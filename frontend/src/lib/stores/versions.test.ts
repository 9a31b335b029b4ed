// Versions of a chat: a regenerated answer and an edited question stay browsable (‹ 1/2 ›),
// edit-and-resend and Continue after Stop go through the store to the backend.
import { describe, expect, it, vi } from 'vitest';
import { createChatStore } from './chat.svelte';
import { itemsWithVersions } from './history';
import { turnText, type Turn } from './turn';
import { fakeApi } from '../../test-fixtures';
import type { SessionData } from '../api';

type Msg = SessionData['messages'][number];
const u = (content: string, runId: string) => ({ role: 'user', content, runId }) as Msg;
const a = (content: string, runId: string) => ({ role: 'assistant', content, runId }) as Msg;
const ok = (runId: string, status = 'ok') => ({ runId, status, usage: { promptTokens: 5, completionTokens: 2 } }) as SessionData['runs'][number];

/** "Hi" → "Hello"; "Joke?" answered twice (the first answer is a version), then the joke question edited. */
function chatWithVersions(): SessionData {
  return {
    id: 'c',
    title: 'Jokes',
    model: 'ollama/llama3.2:1b',
    messages: [u('Hi', 'r1'), a('Hello', 'r1'), u('Joke?', 'r2'), a('Joke two', 'r3')],
    runs: [ok('r1'), ok('r3')],
    interrupted: [],
    versions: [{ at: 3, messages: [a('Joke one', 'r2')], runs: [ok('r2')] }],
  } as unknown as SessionData;
}

const texts = (items: ReturnType<typeof itemsWithVersions>['items']) =>
  items.map((i) => (i.kind === 'user' ? `Q:${i.text}` : `A:${turnText(i as Turn)}`)).join(' | ');

describe('chat versions', () => {
  it('shows the current version with a pager where earlier ones depart, and an earlier one on request', () => {
    const data = chatWithVersions();
    const cur = itemsWithVersions(data).items;
    expect(texts(cur)).toBe('Q:Hi | A:Hello | Q:Joke? | A:Joke two');
    expect(cur[3].pager).toEqual({ at: 3, index: 1, total: 2 });
    expect(cur[0].pager ?? cur[1].pager ?? cur[2].pager).toBeUndefined();
    const old = itemsWithVersions(data, { at: 3, index: 0 }).items;
    expect(texts(old)).toBe('Q:Hi | A:Hello | Q:Joke? | A:Joke one');
    expect(old[3].pager).toEqual({ at: 3, index: 0, total: 2 });
  });

  it('puts the pager of an edited question on the question', () => {
    const data = {
      ...chatWithVersions(),
      messages: [u('Hi', 'r1'), a('Hello', 'r1'), u('Pun?', 'r4'), a('Pun', 'r4')],
      runs: [ok('r1'), ok('r4')],
      versions: [{ at: 2, messages: [u('Joke?', 'r2'), a('Joke one', 'r2')], runs: [ok('r2')] }],
    } as unknown as SessionData;
    const cur = itemsWithVersions(data).items;
    expect(cur[2].pager).toEqual({ at: 2, index: 1, total: 2 });
    expect(texts(itemsWithVersions(data, { at: 2, index: 0 }).items)).toBe('Q:Hi | A:Hello | Q:Joke? | A:Joke one');
  });

  it('a failed answer that was answered again keeps the failure as the earlier version', () => {
    const data = {
      id: 'f',
      title: '',
      model: '',
      messages: [u('Hi', 'r1'), a('Hello', 'r2')],
      runs: [ok('r2')],
      interrupted: [],
      versions: [{ at: 1, messages: [], runs: [{ runId: 'r1', status: 'error', error: 'Ollama is down' }] }],
    } as unknown as SessionData;
    const cur = itemsWithVersions(data).items;
    expect(texts(cur)).toBe('Q:Hi | A:Hello');
    expect(cur[1].pager?.total).toBe(2);
    const old = itemsWithVersions(data, { at: 1, index: 0 }).items;
    expect(old).toHaveLength(2);
    expect((old[1] as Turn).status).toBe('error');
    expect(old[1].pager).toEqual({ at: 1, index: 0, total: 2 });
  });

  it('shows an answer that went on after Stop as one answer', () => {
    const data = {
      id: 's',
      title: '',
      model: '',
      messages: [u('Story', 'r1'), a('Once upon a time', 'r1'), a('there was a fox.', 'r2')],
      runs: [ok('r1', 'cancelled'), ok('r2')],
      interrupted: [],
      versions: [],
    } as unknown as SessionData;
    const items = itemsWithVersions(data).items;
    expect(texts(items)).toBe('Q:Story | A:Once upon a time there was a fox.');
    expect((items[1] as Turn).status).toBe('ok');
  });

  it('regenerates, edits, continues and browses through the store', async () => {
    const fake = fakeApi({ loadSession: vi.fn(async () => chatWithVersions()) });
    const chat = createChatStore(fake.api, { schedule: (fn) => fn() });
    await chat.open('c');
    expect(chat.model).toBe('ollama/llama3.2:1b');
    chat.showVersion(3, 0);
    expect(chat.older).toBe(true);
    expect(turnText(chat.items[3] as Turn)).toBe('Joke one');
    chat.showVersion(3, 1);
    expect(chat.older).toBe(false);

    fake.mocks.send.mockResolvedValueOnce('r5');
    await chat.regenerate();
    expect(fake.mocks.send).toHaveBeenLastCalledWith({ sessionId: 'c', text: '', images: [], model: '', again: true });
    expect(chat.items).toHaveLength(4); // the old answer made way for the running one
    expect((chat.items[3] as Turn).runId).toBe('r5');
    fake.emitRun('r5', 'run_finished', { status: 'ok', sessionId: 'c', seq: 1 });
    await Promise.resolve();
    expect(fake.mocks.loadSession).toHaveBeenCalledTimes(2); // read again for its versions

    await chat.open('c');
    fake.mocks.send.mockResolvedValueOnce('r6');
    await chat.edit(2, 'Pun?');
    expect(fake.mocks.send).toHaveBeenLastCalledWith({ sessionId: 'c', text: 'Pun?', images: [], model: '', edit: 2 });
    expect(chat.items.map((i) => i.kind)).toEqual(['user', 'assistant', 'user', 'assistant']);
    fake.emitRun('r6', 'run_finished', { status: 'cancelled', sessionId: 'c', seq: 1 });

    await chat.open('c');
    fake.mocks.send.mockResolvedValueOnce('r7');
    await chat.resume();
    expect(fake.mocks.send).toHaveBeenLastCalledWith({ sessionId: 'c', text: '', images: [], model: '', resume: true });

    // A search hit on the answer (message 3) brings its item into view.
    await chat.openAt('c', 3);
    expect(chat.focus?.item).toBe(3);
    await chat.openAt('c', 2);
    expect(chat.focus?.item).toBe(2);

    await chat.setModel('ollama/qwen3:4b');
    expect(fake.mocks.setChatModel).toHaveBeenCalledWith('c', 'ollama/qwen3:4b');
  });
});

describe('token counts under a reply', () => {
  it('are the sum of both runs when a stopped answer went on, as shown live', () => {
    const data = {
      id: 's',
      title: '',
      model: '',
      messages: [u('Story?', 'r1'), a('Once upon', 'r1'), a('a time.', 'r2')],
      runs: [
        { runId: 'r1', status: 'cancelled', usage: { promptTokens: 400, completionTokens: 10 }, durationMs: 1500 },
        { runId: 'r2', status: 'ok', usage: { promptTokens: 700, completionTokens: 5 }, durationMs: 500 },
      ],
      interrupted: [],
    } as unknown as SessionData;
    const items = itemsWithVersions(data).items;
    expect(items).toHaveLength(2);
    const turn = items[1] as Turn;
    expect(turnText(turn)).toBe('Once upon a time.');
    expect([turn.promptTokens, turn.completionTokens, turn.durationMs]).toEqual([1100, 15, 2000]);
  });
});
