import { describe, expect, it } from 'vitest';
import { createChatStore } from './chat.svelte';
import { applyEvent, linesText, newTurn, turnText, type Turn } from './turn';
import { setLocale, tm, type Message } from '../i18n.svelte';
import { itemsFromSession } from './history';
import { fakeApi } from '../../test-fixtures';
import type { RunEvent } from '../api';

const ev = (seq: number, type: RunEvent['type'], f: Record<string, unknown> = {}) =>
  ({ runId: 'r1', sessionId: 's1', seq, type, ...f }) as RunEvent;

describe('turn assembly', () => {
  it('joins deltas, folds reasoning apart, pairs tool calls with results, counts tokens', () => {
    const t = newTurn('r1');
    const evs = [
      ev(1, 'run_started', { model: 'ollama/qwen3:4b' }),
      ev(2, 'reasoning_delta', { text: 'Let me ' }),
      ev(3, 'reasoning_delta', { text: 'look.' }),
      ev(4, 'tool_call', { callId: 'c1', name: 'list_dir', args: { path: '.' } }),
      ev(5, 'tool_result', { callId: 'c1', name: 'list_dir', ok: true, content: 'a.txt\nb.txt', durationMs: 12 }),
      ev(6, 'usage', { promptTokens: 300, completionTokens: 20, contextUsed: 320, contextLimit: 8192 }),
      ev(7, 'text_delta', { text: 'Two ' }),
      ev(8, 'text_delta', { text: 'files.' }),
      ev(8, 'text_delta', { text: 'DUPLICATE' }),
      ev(9, 'usage', { promptTokens: 350, completionTokens: 5, contextUsed: 355, contextLimit: 8192 }),
      ev(10, 'run_finished', { status: 'ok', final: 'Two files.', durationMs: 900 }),
    ];
    for (const e of evs) applyEvent(t, e);
    expect(t.parts.map((p) => p.kind)).toEqual(['reasoning', 'tool', 'text']);
    expect(t.parts[0]).toMatchObject({ text: 'Let me look.' });
    expect(t.parts[1]).toMatchObject({ name: 'list_dir', ok: true, durationMs: 12, result: 'a.txt\nb.txt' });
    expect((t.parts[1] as { args: string }).args).toContain('"path": "."');
    expect(turnText(t)).toBe('Two files.');
    expect(t).toMatchObject({ status: 'ok', completionTokens: 25, promptTokens: 650, contextUsed: 355, durationMs: 900 }); // summed, as stored
  });

  it('keeps an error with its hint', () => {
    const t = newTurn('r1');
    applyEvent(t, ev(1, 'error', { code: 'unreachable', message: 'Ollama is not reachable', hint: 'start it' }));
    applyEvent(t, ev(2, 'run_finished', { status: 'error' }));
    expect(t.parts[0]).toEqual({ kind: 'error', code: 'unreachable', message: 'Ollama is not reachable', hint: 'start it' });
    expect(t.status).toBe('error');
  });

  it('keeps the codes of an error, its hints and its detail, and worded them in the UI language', () => {
    const t = newTurn('r1');
    applyEvent(t, ev(1, 'error', {
      code: 'unreachable', message: 'cannot reach Ollama at http://h: dial tcp: refused', hint: 'Ollama is not running',
      text: { code: 'error.ollama.unreachable', args: { host: 'http://h' } },
      hintText: [{ code: 'error.hint.ollamaDown' }], detail: 'dial tcp: refused',
    }));
    expect(t.parts[0]).toMatchObject({ worded: { code: 'error.ollama.unreachable', args: { host: 'http://h' } },
      hints: [{ code: 'error.hint.ollamaDown', args: {} }], detail: 'dial tcp: refused' });
    try {
      setLocale('zh-CN');
      expect(tm((t.parts[0] as { worded: Message }).worded)).toBe('无法访问 http://h 上的 Ollama');
      expect(linesText((t.parts[0] as { hints: Message[] }).hints, 'x')).toContain('Ollama');
    } finally {
      setLocale('en');
    }
  });

  it('takes a slash reply whole, one message a line, and words it in the UI language', () => {
    const t = newTurn('r1');
    applyEvent(t, ev(1, 'text_delta', {
      text: 'Model: ollama/x\nSwitch with /model <provider>/<model>, e.g. /model ollama/qwen3:4b.',
      lines: [{ code: 'slash.model', args: { model: 'ollama/x' } }, { code: 'slash.model.usage' }],
    }));
    expect(t.parts).toHaveLength(1);
    expect(t.parts[0]).toMatchObject({ kind: 'reply' });
    expect(turnText(t)).toBe('Model: ollama/x\nSwitch with /model <provider>/<model>, e.g. /model ollama/qwen3:4b.');
    try {
      setLocale('zh-CN');
      expect(turnText(t)).toBe('模型：ollama/x\n用 /model <provider>/<model> 切换，例如 /model ollama/qwen3:4b。');
    } finally {
      setLocale('en');
    }
    // A code this build does not know: the English the backend sent.
    const u = newTurn('r2');
    applyEvent(u, ev(1, 'text_delta', { text: 'Hello', lines: [{ code: 'slash.nope' }] }));
    expect(turnText(u)).toBe('Hello');
  });
});

describe('chat store', () => {
  function setup() {
    const fake = fakeApi();
    const frames: (() => void)[] = [];
    const chat = createChatStore(fake.api, { schedule: (fn) => frames.push(fn) });
    const frame = () => frames.splice(0).forEach((f) => f());
    return { fake, chat, frames, frame };
  }

  it('applies a burst of chunks in one frame', async () => {
    const { fake, chat, frames, frame } = setup();
    expect(await chat.send('hello')).toBe(true);
    expect(fake.mocks.send).toHaveBeenCalledWith({ sessionId: '', text: 'hello', images: [], model: '' });
    fake.emitRun('r1', 'run_started', { model: 'm' });
    for (let i = 0; i < 50; i++) fake.emitRun('r1', 'text_delta', { text: `w${i} ` });
    expect(frames.length).toBe(1);
    const turn = chat.items[1] as Turn;
    expect(turnText(turn)).toBe('');
    frame();
    expect(turnText(turn)).toMatch(/^w0 w1 .* w49 $/);
    expect(chat.running).toBe('r1');
    expect(chat.sessionId).toBe('s1');
    fake.emitRun('r1', 'run_finished', { status: 'ok' });
    frame();
    expect(chat.running).toBe('');
  });

  it('/model switches the chat the window shows and sends: the session holds the model', async () => {
    const { fake, chat, frame } = setup();
    await chat.send('hello');
    fake.emitRun('r1', 'run_started', { model: 'ollama/qwen3:4b' });
    fake.emitRun('r1', 'run_finished', { status: 'ok' });
    frame();
    fake.mocks.send.mockResolvedValueOnce('r2');
    await chat.send('/model ollama/small:1b');
    fake.emitRun('r2', 'run_started', { command: 'model', model: 'ollama/qwen3:4b', seq: 1 });
    fake.emitRun('r2', 'run_finished', { status: 'ok', chatModel: 'ollama/small:1b', seq: 2 });
    frame();
    expect(chat.model).toBe('ollama/small:1b');
    // The next message names no model of its own: the session's answers it.
    fake.mocks.send.mockResolvedValueOnce('r3');
    await chat.send('and now?');
    expect(fake.mocks.send).toHaveBeenLastCalledWith({ sessionId: 's1', text: 'and now?', images: [], model: '' });
  });

  it('creates a new chat with its picked model in the one call that sends', async () => {
    const { fake, chat, frame } = setup();
    await chat.setModel('ollama/small:1b');
    await chat.send('hello');
    expect(fake.mocks.send).toHaveBeenCalledWith({ sessionId: '', text: 'hello', images: [], model: 'ollama/small:1b' });
    fake.emitRun('r1', 'run_started', { model: 'ollama/small:1b' });
    fake.emitRun('r1', 'run_finished', { status: 'ok' });
    frame();
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.mocks.setChatModel).not.toHaveBeenCalled();
  });

  it('stops the running reply and retries after an error', async () => {
    const { fake, chat, frame } = setup();
    await chat.send('long one');
    fake.emitRun('r1', 'run_started');
    frame();
    expect(await chat.stop()).toBe(true);
    expect(fake.mocks.stop).toHaveBeenCalledWith('s1');
    fake.emitRun('r1', 'error', { code: 'unreachable', message: 'down', hint: 'start it' });
    fake.emitRun('r1', 'run_finished', { status: 'error' });
    frame();
    expect(chat.canRetry).toBe(true);
    fake.mocks.send.mockResolvedValueOnce('r9');
    await chat.retry();
    // A retry answers the same question again: it is not sent a second time.
    expect(fake.mocks.send).toHaveBeenLastCalledWith({ sessionId: 's1', text: '', images: [], model: '', again: true });
    expect(chat.items.filter((i) => i.kind === 'user')).toHaveLength(1);
    expect(chat.items.filter((i) => i.kind === 'assistant')).toHaveLength(1);
  });

  it('offers the installed models that see pictures when the chat\'s model refused them, and switches on a click', async () => {
    const { fake, chat } = setup();
    const refusal = JSON.stringify({ message: 'qwen3 cannot see pictures', code: 'picture.noVision', args: { model: 'ollama/qwen3:4b', models: 'llava:7b, gemma3:4b' } });
    fake.mocks.send.mockRejectedValueOnce(refusal);
    expect(await chat.send('what is this?', [{ name: 'a.png', dataUrl: 'data:image/png;base64,AAAA' } as never])).toBe(false);
    expect(chat.canSee).toEqual(['llava:7b', 'gemma3:4b']);
    expect(chat.error).not.toBe('');
    expect(await chat.useVisionModel('gemma3:4b')).toBe(true);
    expect(chat.model).toBe('ollama/gemma3:4b');
    expect(chat.canSee).toEqual([]);
    expect(chat.error).toBe('');
    // Any other refusal offers nothing.
    fake.mocks.send.mockRejectedValueOnce('model "x" not found');
    await chat.send('hi');
    expect(chat.canSee).toEqual([]);
  });

  it('puts the message back when sending fails', async () => {
    const { fake, chat } = setup();
    fake.mocks.send.mockRejectedValueOnce('model "x" not found');
    expect(await chat.send('hi')).toBe(false);
    expect(chat.items).toHaveLength(0);
    expect(chat.error).toContain('not found');
  });

  it('keeps a run going off screen and shows it live when its chat is opened again', async () => {
    const { fake, chat, frame } = setup();
    await chat.send('one');
    fake.emitRun('r1', 'run_started');
    fake.emitRun('r1', 'text_delta', { text: 'Hel' });
    frame();
    chat.newChat();
    expect(chat.items).toHaveLength(0);
    expect(chat.running).toBe('');
    expect(chat.busy).toEqual(['s1']);
    fake.emitRun('r1', 'text_delta', { text: 'lo' });
    frame();
    expect(chat.items).toHaveLength(0);
    // On disk: the question and a partial answer of the same run.
    fake.mocks.loadSession.mockResolvedValueOnce({
      id: 's1',
      title: 'one',
      model: 'm',
      messages: [
        { role: 'user', content: 'one', runId: 'r1' },
        { role: 'assistant', content: 'Hel', runId: 'r1' },
      ],
      runs: [],
      interrupted: ['r1'],
    } as never);
    await chat.open('s1');
    expect(chat.running).toBe('r1');
    expect(chat.interrupted).toBe(false);
    expect(chat.items.map((i) => i.kind)).toEqual(['user', 'assistant']);
    expect(turnText(chat.items[1] as Turn)).toBe('Hello');
    fake.emitRun('r1', 'text_delta', { text: '!' });
    fake.emitRun('r1', 'run_finished', { status: 'ok' });
    frame();
    expect(turnText(chat.items[1] as Turn)).toBe('Hello!');
    expect(chat.running).toBe('');
    expect(chat.busy).toEqual([]);
  });

  it('opens a stored chat with its tool calls, runs and an interrupted turn to continue', async () => {
    const { fake, chat } = setup();
    fake.mocks.loadSession.mockResolvedValueOnce({
      id: 's1',
      title: 't',
      model: 'm',
      messages: [
        { role: 'user', content: 'list', images: ['iVBORw0KGgo='] },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'list_dir', arguments: '{"path":"."}' }], runId: 'r1' },
        { role: 'tool', content: 'a.txt', toolCallId: 'c1', runId: 'r1' },
        { role: 'assistant', content: 'One file.', runId: 'r1' },
        { role: 'user', content: 'more' },
        { role: 'assistant', content: 'Part', runId: 'r2' },
      ],
      runs: [{ runId: 'r1', status: 'ok', final: 'One file.', usage: { promptTokens: 10, completionTokens: 3 }, durationMs: 50 }],
      interrupted: ['r2'],
    } as never);
    await chat.open('s1');
    expect(chat.items.map((i) => i.kind)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect((chat.items[0] as { images: string[] }).images[0]).toMatch(/^data:image\/png;base64,/);
    const t1 = chat.items[1] as Turn;
    expect(t1.parts.map((p) => p.kind)).toEqual(['tool', 'text']);
    expect(t1.parts[0]).toMatchObject({ result: 'a.txt', ok: true });
    expect(t1.completionTokens).toBe(3);
    expect((chat.items[3] as Turn).status).toBe('interrupted');
    expect(chat.interrupted).toBe(true);
    await chat.continueRun();
    expect(fake.mocks.continueRun).toHaveBeenCalledWith('s1');
    expect(chat.running).toBe('r2');
  });

  it('history keeps an errored run that wrote no answer, after its question', () => {
    const { items } = itemsFromSession({
      id: 's',
      title: '',
      model: '',
      messages: [
        { role: 'user', content: 'x', runId: 'r1' },
        { role: 'user', content: 'y', runId: 'r2' },
        { role: 'assistant', content: 'fine', runId: 'r2' },
      ],
      runs: [
        { runId: 'r1', status: 'error', error: "model 'q' not found", final: '', usage: {}, durationMs: 3 },
        { runId: 'r2', status: 'ok', final: 'fine', usage: {}, durationMs: 3 },
      ],
      interrupted: [],
    } as never);
    expect(items.map((i) => i.kind)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect((items[1] as Turn).parts[0]).toMatchObject({ kind: 'error', message: "model 'q' not found" });
    expect((items[1] as Turn).status).toBe('error');
  });

  it('a chat opened again shows the error card it showed live: code, wording, hint and model', () => {
    const failure = {
      code: 'model_not_found',
      message: 'model qwen3:4b is not installed in Ollama',
      hint: 'model not found',
      text: { code: 'error.ollama.modelMissing', args: { model: 'qwen3:4b' } },
      hintText: [{ code: 'error.ollama.modelMissing.hint', args: { model: 'qwen3:4b' } }],
      detail: '404 Not Found',
    };
    const live = newTurn('r1', 'r1');
    applyEvent(live, ev(1, 'run_started', { model: 'ollama/qwen3:4b' }));
    applyEvent(live, ev(2, 'error', failure));
    applyEvent(live, ev(3, 'run_finished', { status: 'error' }));
    const { items } = itemsFromSession({
      id: 's',
      title: '',
      model: 'ollama/qwen3:4b',
      messages: [{ role: 'user', content: 'x', runId: 'r1' }],
      runs: [{ runId: 'r1', status: 'error', error: failure.message, model: 'ollama/qwen3:4b', failure, final: '', usage: {}, durationMs: 3 }],
      interrupted: [],
    } as never);
    const again = items[1] as Turn;
    expect(again.parts).toEqual(live.parts);
    expect(again.model).toBe('ollama/qwen3:4b');
    expect(again.status).toBe('error');
  });
});

describe('event order', () => {
  // A chat that sent a message, its frames held, and a way to deliver the run's events.
  async function sentRun() {
    const fake = fakeApi();
    const frames: (() => void)[] = [];
    const chat = createChatStore(fake.api, { schedule: (fn) => frames.push(fn) });
    await chat.send('list');
    const deliver = (seq: number, type: RunEvent['type'], f: Record<string, unknown> = {}) =>
      (fake.api.followRun as unknown as { mock: { calls: [string, (e: RunEvent) => void][] } }).mock.calls[0][1]({
        runId: 'r1',
        sessionId: 's1',
        seq,
        type,
        ...f,
      } as RunEvent);
    return { chat, frames, deliver };
  }
  it('puts events that Wails delivered out of order back in seq order', async () => {
    const { chat, frames, deliver } = await sentRun();
    deliver(1, 'run_started');
    deliver(4, 'text_delta', { text: ' holds' });
    deliver(2, 'text_delta', { text: 'Your' });
    deliver(5, 'run_finished', { status: 'ok' });
    deliver(3, 'text_delta', { text: ' workspace' });
    deliver(3, 'text_delta', { text: ' again' });
    frames.splice(0).forEach((f) => f());
    const turn = chat.items[1] as Turn;
    expect(turnText(turn)).toBe('Your workspace holds');
    expect(turn.status).toBe('ok');
    expect(chat.running).toBe('');
  });
  it('applies a merged delta (firstSeq..seq) once, in its place among the others', async () => {
    const { chat, frames, deliver } = await sentRun();
    deliver(1, 'run_started');
    deliver(2, 'reasoning_delta', { text: 'hm' });
    // Seqs 3–5 merged, delivered after 6–7 (merged too) and the tool call at 8.
    deliver(7, 'text_delta', { text: ' holds', firstSeq: 6 });
    deliver(8, 'tool_call', { callId: 'c1', name: 'read_file', args: {} });
    frames.splice(0).forEach((f) => f());
    let turn = chat.items[1] as Turn;
    expect(turn.parts.map((p) => p.kind)).toEqual(['reasoning']); // waits for 3..5
    deliver(5, 'text_delta', { text: 'Your workspace', firstSeq: 3 });
    deliver(5, 'text_delta', { text: 'Your workspace', firstSeq: 3 }); // a duplicate
    deliver(9, 'run_finished', { status: 'ok' });
    frames.splice(0).forEach((f) => f());
    turn = chat.items[1] as Turn;
    expect(turn.parts.map((p) => p.kind)).toEqual(['reasoning', 'text', 'tool']);
    expect(turnText(turn)).toBe('Your workspace holds');
    expect(turn.seq).toBe(9);
    expect(turn.status).toBe('ok');
    expect(chat.running).toBe('');
  });
});
