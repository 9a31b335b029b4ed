// Which messages of a long chat are rendered: the first window, adding earlier ones as the
// view nears the top, and keeping the view still meanwhile.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { tick } from 'svelte';
import ChatView from '../components/ChatView.svelte';
import Markdown from '../components/Markdown.svelte';
import type { SessionData } from './api';
import { earlierIndex, firstIndex, itemLines, keepAnchor, LAZY_BLOCKS, MAX_ITEMS, MIN_ITEMS, SCREEN_LINES, wantsEarlier } from './chatWindow';
import { createChatStore } from './stores/chat.svelte';
import { createSessionsStore } from './stores/sessions.svelte';
import { newTurn, type Item } from './stores/turn';
import { fakeApi, fakeStatus } from '../test-fixtures';

// What is tested here is which messages and blocks are rendered, not their Markdown:
// marked and DOMPurify cost a few milliseconds a block in jsdom (DOMPurify parses every
// block into a document of its own), tens of milliseconds under load, seconds for the
// hundreds of blocks these tests render. Each block is a paragraph of its plain text here;
// lib/markdown.test.ts tests the real rendering.
vi.mock('./markdown', async (real) => ({
  ...(await real<typeof import('./markdown')>()),
  renderMarkdown: (text: string) => `<p>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`,
}));

const user = (text: string): Item => ({ kind: 'user', key: `u-${text}`, text, images: [] });
function answer(lines: number, key = `a${lines}`): Item {
  const t = newTurn(key, key);
  t.status = 'ok';
  t.parts.push({ kind: 'text', text: Array.from({ length: lines }, (_, i) => `line ${i}`).join('\n') });
  return t;
}

describe('chat window', () => {
  it('guesses lines from the text: newlines, long lines, tool cards', () => {
    expect(itemLines(user('hi'))).toBe(3);
    expect(itemLines(user('x'.repeat(180)))).toBe(5); // wraps twice
    expect(itemLines(answer(10))).toBe(12);
    const t = newTurn('r', 'r');
    t.parts.push({ kind: 'tool', callId: 'c', name: 'exec', args: '{}', result: 'ok' }, { kind: 'text', text: 'done' });
    expect(itemLines(t)).toBe(2 + 3 + 1);
  });

  it('opens with about two screens from the end, however long the chat', () => {
    const items = Array.from({ length: 2000 }, (_, i) => (i % 2 ? answer(18) : user(`q${i}`)));
    const from = firstIndex(items);
    const lines = items.slice(from).reduce((s, it) => s + itemLines(it), 0);
    expect(lines).toBeGreaterThanOrEqual(2 * SCREEN_LINES);
    expect(lines - itemLines(items[from])).toBeLessThan(2 * SCREEN_LINES);
    expect(items.length - from).toBeLessThan(12);
    expect(firstIndex(items.slice(0, 500))).toBe(500 - (items.length - from)); // the same for a shorter chat
  });

  it('renders a few items at least and a bounded number at most', () => {
    expect(firstIndex([answer(500), user('a'), answer(500)])).toBe(0); // a short chat is whole
    const huge = Array.from({ length: 10 }, () => answer(400));
    expect(firstIndex(huge)).toBe(10 - MIN_ITEMS);
    const tiny = Array.from({ length: 300 }, (_, i) => user(`${i}`));
    expect(earlierIndex(tiny, 300, 10 * SCREEN_LINES)).toBe(300 - MAX_ITEMS);
    expect(earlierIndex(tiny, 3, SCREEN_LINES)).toBe(0);
    expect(firstIndex([])).toBe(0);
  });

  it('adds earlier items only when some are left and less than a screen is above the view', () => {
    expect(wantsEarlier({ scrollTop: 100, clientHeight: 800 }, 10)).toBe(true);
    expect(wantsEarlier({ scrollTop: 900, clientHeight: 800 }, 10)).toBe(false);
    expect(wantsEarlier({ scrollTop: 0, clientHeight: 800 }, 0)).toBe(false);
  });

  it('keeps the anchor where it was on screen after items come in above it', async () => {
    let top = 120;
    const scroller = { scrollTop: 50 };
    const anchor = { isConnected: true, getBoundingClientRect: () => ({ top }) };
    await keepAnchor(scroller, anchor, async () => {
      top += 640; // 640 px of messages inserted above pushed it down
    });
    expect(scroller.scrollTop).toBe(690);
    await keepAnchor(scroller, null, async () => {}); // nothing rendered yet: nothing to keep
    expect(scroller.scrollTop).toBe(690);

    // onlyAbove: content added inside the view (the anchor is below its top) scrolls nothing.
    const view = { scrollTop: 0, getBoundingClientRect: () => ({ top: 46 }) };
    await keepAnchor(view, anchor, async () => void (top += 300), true);
    expect(view.scrollTop).toBe(0);
    top = 10;
    await keepAnchor(view, anchor, async () => void (top += 300), true);
    expect(view.scrollTop).toBe(300);
  });
});

function longSession(n: number): SessionData {
  const messages: SessionData['messages'] = [];
  const runs: SessionData['runs'] = [];
  for (let i = 0; i < n; i += 2) {
    messages.push({ role: 'user', content: `Question ${i}`, runId: `r${i}` } as SessionData['messages'][number]);
    messages.push({ role: 'assistant', content: `Answer ${i}\n\nin two paragraphs`, runId: `r${i}` } as SessionData['messages'][number]);
    runs.push({ runId: `r${i}`, status: 'ok' } as SessionData['runs'][number]);
  }
  return { id: 'long', title: 'Long', model: '', messages, runs, interrupted: [] } as unknown as SessionData;
}

/**
 * jsdom lays nothing out: the scroller reports the height of a window and where it is, and
 * each message is 100 px tall, placed one below the other.
 */
function fakeLayout(el: HTMLElement) {
  let top = 0;
  const msgs = () => [...el.querySelectorAll('[data-testid^="msg-"]')];
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    const i = msgs().indexOf(this);
    return { top: i * 100 - top, bottom: i * 100 + 100 - top, left: 0, right: 0, width: 0, height: 100, x: 0, y: 0 } as DOMRect;
  });
  Object.defineProperty(el, 'clientHeight', { configurable: true, get: () => 800 });
  Object.defineProperty(el, 'scrollHeight', { configurable: true, get: () => el.querySelectorAll('[data-testid^="msg-"]').length * 100 });
  Object.defineProperty(el, 'scrollTop', { configurable: true, get: () => top, set: (v: number) => (top = Math.max(0, v)) });
}

/** Renders the chat view (with fakeLayout) and opens the chat "long" in it. */
async function openLong(fake: ReturnType<typeof fakeApi>) {
  const chat = createChatStore(fake.api, { schedule: (fn) => fn() });
  render(ChatView, { props: { chat, sessions: createSessionsStore(fake.api), status: fakeStatus() } });
  const scroller = screen.getByTestId('messages');
  fakeLayout(scroller);
  await chat.open('long');
  await tick();
  const count = () => scroller.querySelectorAll('[data-testid^="msg-"]').length;
  return { chat, scroller, count };
}

/**
 * The "Show N earlier messages" button. Found by its class: a query by role computes the
 * accessible name of every element of a long chat, seconds of CPU on a loaded machine.
 */
const earlier = () => document.querySelector<HTMLButtonElement>('button.earlier');

describe('a long chat in the chat view', () => {
  afterEach(() => vi.restoreAllMocks());

  it('renders its latest messages only, and earlier ones as the view is scrolled to the top', async () => {
    const { scroller, count } = await openLong(fakeApi({ loadSession: async () => longSession(2000) }));
    expect(screen.getByText('Answer 1998')).toBeTruthy();
    const first = count();
    expect(first).toBeGreaterThanOrEqual(MIN_ITEMS);
    expect(first).toBeLessThanOrEqual(20);
    expect(screen.queryByText('Question 0')).toBeNull();
    expect(earlier()?.textContent?.trim()).toBe(`Show ${2000 - first} earlier messages`);

    // At the top: a screen of earlier messages comes in, and once rendered (100 px each
    // here) the view is still, so no more come in until it is scrolled up again.
    scroller.scrollTop = 0;
    await fireEvent.scroll(scroller);
    await waitFor(() => expect(count()).toBeGreaterThan(first));
    const second = count();
    expect(scroller.scrollTop).toBe((second - first) * 100); // what was on screen stays there
    await new Promise((r) => setTimeout(r, 50));
    expect(count()).toBe(second);

    // The button adds them as well (keyboard users).
    await fireEvent.click(earlier()!);
    await waitFor(() => expect(count()).toBeGreaterThan(second));
  });

  it('scrolling to the top again and again reaches the first message', async () => {
    // 60 messages take several steps (about ten items each); more would only add
    // rendering time, which under load ran past the test's timeout.
    const { scroller, count } = await openLong(fakeApi({ loadSession: async () => longSession(60) }));
    for (let i = 0; i < 100 && !screen.queryByText('Question 0'); i++) {
      const n = count();
      scroller.scrollTop = 0;
      await fireEvent.scroll(scroller);
      await waitFor(() => expect(count()).toBeGreaterThan(n));
    }
    expect(screen.getByText('Question 0')).toBeTruthy();
    expect(count()).toBe(60);
    expect(earlier()).toBeNull();
  });

  it('a new message goes at the end without dropping what is rendered; another chat starts afresh', async () => {
    const { chat, scroller, count } = await openLong(fakeApi({ loadSession: async (id: string) => (id === 'long' ? longSession(400) : longSession(4)) }));
    const before = count();
    const top = scroller.querySelector('[data-testid^="msg-"]');
    await chat.send('one more');
    await tick();
    expect(count()).toBe(before + 2); // the question and its running answer
    expect(scroller.querySelector('[data-testid^="msg-"]')).toBe(top); // the same element, kept

    await chat.open('short');
    await tick();
    expect(count()).toBe(4);
    expect(earlier()).toBeNull();
  });
});

describe('a long answer from history', () => {
  const paragraphs = (n: number) => Array.from({ length: n }, (_, i) => `Paragraph ${i} in plain words.`).join('\n\n');

  it('renders its last blocks at once and the earlier ones over the next frames', async () => {
    // The frames are driven by hand: each one adds LAZY_BLOCKS however slow the machine
    // is (waiting for them in real time failed under load, one frame short).
    vi.useFakeTimers({ toFake: ['requestAnimationFrame', 'setTimeout'] });
    try {
      const { container } = render(Markdown, { props: { text: paragraphs(100) } });
      const blocks = () => container.querySelectorAll('.block').length;
      expect(blocks()).toBe(LAZY_BLOCKS);
      expect(container.textContent).toContain('Paragraph 99');
      expect(container.textContent).not.toContain('Paragraph 0 ');
      for (const want of [2 * LAZY_BLOCKS, 3 * LAZY_BLOCKS, 100]) {
        vi.advanceTimersToNextFrame(); // the frame is painted…
        vi.runOnlyPendingTimers(); // …and the work queued after it runs
        await tick();
        expect(blocks()).toBe(want);
      }
      expect(container.querySelector('.block')?.textContent?.trim()).toBe('Paragraph 0 in plain words.');
    } finally {
      vi.useRealTimers();
    }
  });

  it('renders a streaming answer, and a short one, whole', () => {
    const streamed = render(Markdown, { props: { text: paragraphs(100), streaming: true } });
    expect(streamed.container.querySelectorAll('.block').length).toBe(100);
    const short = render(Markdown, { props: { text: paragraphs(LAZY_BLOCKS) } });
    expect(short.container.querySelectorAll('.block').length).toBe(LAZY_BLOCKS);
  });
});

describe('message controls', () => {
  it('one handler on the list answers every message: copy, edit and send again, regenerate', async () => {
    const fake = fakeApi();
    const data = {
      id: 'c',
      title: 'Two',
      model: '',
      messages: [
        { role: 'user', content: 'First?', runId: 'r1' },
        { role: 'assistant', content: 'First answer', runId: 'r1' },
        { role: 'user', content: 'Second?', runId: 'r2' },
        { role: 'assistant', content: 'Second answer', runId: 'r2' },
      ],
      runs: [
        { runId: 'r1', status: 'ok', usage: { promptTokens: 1, completionTokens: 1 }, durationMs: 1 },
        { runId: 'r2', status: 'ok', usage: { promptTokens: 1, completionTokens: 1 }, durationMs: 1 },
      ],
      interrupted: [],
    } as unknown as SessionData;
    fake.mocks.loadSession.mockResolvedValue(data);
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const chat = createChatStore(fake.api, { schedule: (fn) => fn() });
    render(ChatView, { props: { chat, sessions: createSessionsStore(fake.api), status: fakeStatus() } });
    await chat.open('c');
    await tick();
    const [q1] = screen.getAllByTestId('msg-user');
    // The messages hold plain buttons; nothing of theirs listens.
    await fireEvent.click(q1.querySelector<HTMLElement>('[data-action="copy"]')!);
    expect(writeText).toHaveBeenCalledWith('First?');
    expect(q1.querySelector('[data-action="copy"]')!.textContent).toBe('Copied');
    await fireEvent.click(screen.getAllByTestId('msg-assistant')[0].querySelector<HTMLElement>('[data-action="copy"]')!);
    expect(writeText).toHaveBeenLastCalledWith('First answer');
    // Only the last answer offers Regenerate.
    expect(screen.getAllByTestId('regenerate')).toHaveLength(1);
    await fireEvent.click(screen.getAllByTestId('msg-user')[0].querySelector<HTMLElement>('[data-action="edit"]')!);
    const box = (await screen.findByTestId('edit-box')) as HTMLTextAreaElement;
    expect(box.value).toBe('First?');
    await fireEvent.input(box, { target: { value: 'First, again?' } });
    await fireEvent.keyDown(box, { key: 'Enter' });
    expect(fake.mocks.send).toHaveBeenLastCalledWith(expect.objectContaining({ sessionId: 'c', text: 'First, again?', edit: 1 }));
    expect(screen.queryByTestId('edit-box')).toBeNull();

    cleanup();
    const again = createChatStore(fake.api, { schedule: (fn) => fn() });
    render(ChatView, { props: { chat: again, sessions: createSessionsStore(fake.api), status: fakeStatus() } });
    await again.open('c');
    await tick();
    await fireEvent.click(screen.getByTestId('regenerate'));
    expect(fake.mocks.send).toHaveBeenLastCalledWith(expect.objectContaining({ sessionId: 'c', again: true }));
  });
});

describe('a reply a budget ended', () => {
  it('says which budget and offers Continue, which sends a new turn', async () => {
    const fake = fakeApi();
    fake.mocks.loadSession.mockResolvedValue({
      id: 'c',
      title: 'Loop',
      model: '',
      messages: [
        { role: 'user', content: 'Keep going', runId: 'r1' },
        { role: 'assistant', content: 'Did half; half is left.', runId: 'r1' },
      ],
      runs: [{ runId: 'r1', status: 'ok', usage: { promptTokens: 1, completionTokens: 1 }, durationMs: 1, limit: 'time' }],
      interrupted: [],
    } as unknown as SessionData);
    const chat = createChatStore(fake.api, { schedule: (fn) => fn() });
    render(ChatView, { props: { chat, sessions: createSessionsStore(fake.api), status: fakeStatus() } });
    await chat.open('c');
    await tick();
    const bar = screen.getByTestId('budget-ended');
    expect(bar.textContent).toContain('time limit');
    await fireEvent.click(bar.querySelector('button')!);
    expect(fake.mocks.send).toHaveBeenLastCalledWith(expect.objectContaining({ sessionId: 'c', text: 'Continue where you left off.' }));
  });
});
