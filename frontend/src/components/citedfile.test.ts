// A line citation clicked under an answer opens the file read-only in Hearth's own view,
// scrolled to the cited line with that line marked; a button hands it to the system's
// viewer instead, Esc closes it, and a page citation (a PDF) still goes to the system's
// viewer. The words follow the UI language.
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { tick } from 'svelte';
import ChatView from './ChatView.svelte';
import { createChatStore } from '../lib/stores/chat.svelte';
import { createSessionsStore } from '../lib/stores/sessions.svelte';
import { setLocale } from '../lib/i18n.svelte';
import { fakeApi, fakeStatus } from '../test-fixtures';
import type { FileView } from '../lib/api';

afterEach(() => {
  cleanup();
  setLocale('en');
  vi.restoreAllMocks();
});

const ledger: FileView = {
  name: 'ledger.txt',
  kind: 'text',
  line: 1950,
  first: 1001,
  lines: Array.from({ length: 2000 }, (_, i) => (i + 1001 === 1950 ? 'The toll is paid in amber.' : `row ${i + 1001}`)),
  total: 30000,
  cut: 2,
};

async function shown(props: Record<string, unknown>) {
  const fake = fakeApi();
  const answer = 'Paid in amber [ledger.txt line 1950], see [report.pdf p. 3] and [Manuals/kiln.md line 2].';
  fake.mocks.loadSession.mockImplementation(async (id: string) => ({
    id,
    title: 'Toll',
    model: 'ollama/gemma3:1b',
    messages: [
      {
        role: 'user',
        content: 'Where is the toll paid?',
        runId: 'r1',
        attachments: [
          { name: 'ledger.txt', file: 'ledger.txt', kind: 'text', mode: 'searched', bytes: 9 },
          { name: 'report.pdf', file: 'report.pdf', kind: 'pdf', mode: 'whole', bytes: 9, pages: 4 },
        ],
      },
      { role: 'assistant', content: answer, runId: 'r1' },
    ],
    runs: [{ runId: 'r1', status: 'ok', final: answer, model: 'ollama/gemma3:1b', usage: {}, durationMs: 3 }],
    interrupted: [],
    versions: [],
  }) as never);
  const chat = createChatStore(fake.api, { schedule: (fn) => fn() });
  render(ChatView, { props: { chat, sessions: createSessionsStore(fake.api), status: fakeStatus(), knowledgeNames: async () => ['Manuals'], ...props } });
  await chat.open('s1');
  await tick();
  await tick();
  return screen.getByTestId('sources');
}

describe('a cited file in Hearth\'s own view', () => {
  it('opens at the cited line, marked and scrolled to, read-only, with what it leaves out said', async () => {
    const scrolled: Element[] = [];
    // jsdom lays nothing out and has no scrollIntoView: record whom it is asked of.
    const had = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollIntoView');
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    onTestFinished(() => {
      if (had) Object.defineProperty(Element.prototype, 'scrollIntoView', had);
      else delete (Element.prototype as Partial<Element>).scrollIntoView;
    });
    const viewFile = vi.fn(async () => ledger);
    const openFile = vi.fn(async () => {});
    const sources = await shown({ viewFile, openFile });
    await fireEvent.click(within(sources).getByRole('button', { name: 'ledger.txt line 1950' }));
    const dialog = await screen.findByRole('dialog', { name: 'ledger.txt line 1950, read-only' });
    expect(viewFile).toHaveBeenCalledWith('s1', 'ledger.txt', 1950);
    expect(openFile).not.toHaveBeenCalled();
    const marked = dialog.querySelectorAll('[data-found="true"]');
    expect(marked).toHaveLength(1);
    expect(marked[0].getAttribute('data-line')).toBe('1950');
    expect(marked[0].textContent).toContain('The toll is paid in amber.');
    await vi.waitFor(() => expect(scrolled).toContain(marked[0]));
    expect(dialog.querySelector('[data-line="1001"]')?.textContent).toContain('row 1001');
    expect(dialog.textContent).toContain('lines 1001–3000 of 30000');
    expect(dialog.textContent).toContain('2 long lines cut here');
    expect(dialog.querySelector('textarea, input, [contenteditable="true"]')).toBeNull();
  });

  it('Esc closes it, and the focus goes back to the source', async () => {
    const sources = await shown({ viewFile: vi.fn(async () => ledger), openFile: vi.fn(async () => {}) });
    const source = within(sources).getByRole('button', { name: 'ledger.txt line 1950' });
    source.focus(); // as a click focuses it in the window
    await fireEvent.click(source);
    const dialog = await screen.findByTestId('cited-file');
    expect(document.activeElement).toBe(dialog);
    await fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByTestId('cited-file')).toBeNull();
    // The source clicked has the focus again.
    expect(document.activeElement).toBe(source);
  });

  it('keeps Tab inside the view while it is open', async () => {
    const sources = await shown({ viewFile: vi.fn(async () => ledger), openFile: vi.fn(async () => {}) });
    const source = within(sources).getByRole('button', { name: 'ledger.txt line 1950' });
    source.focus();
    await fireEvent.click(source);
    const dialog = await screen.findByTestId('cited-file');
    const system = within(dialog).getByRole('button', { name: "Open in the system's viewer" });
    // The text is the last stop, so the keyboard can scroll it.
    const text = within(dialog).getByRole('region', { name: "The file's text (arrow keys scroll)" });
    expect(text.tabIndex).toBe(0);
    // Shift+Tab from the view itself goes round to its last stop, not back to the chat.
    await fireEvent.keyDown(dialog, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(text);
    await fireEvent.keyDown(text, { key: 'Tab' });
    expect(document.activeElement).toBe(system);
    await fireEvent.keyDown(system, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(text);
    // Focus that found its way out (a stray click) comes back in with the next Tab.
    source.focus();
    await fireEvent.keyDown(source, { key: 'Tab' });
    expect(document.activeElement).toBe(system);
    // Closed, Tab is the chat's again.
    await fireEvent.keyDown(dialog, { key: 'Escape' });
    source.focus();
    const tab = new KeyboardEvent('keydown', { key: 'Tab', bubbles: true, cancelable: true });
    source.dispatchEvent(tab);
    expect(tab.defaultPrevented).toBe(false);
  });

  it('the person can overrule it: the system\'s viewer opens the file and the view closes', async () => {
    const openFile = vi.fn(async () => {});
    const sources = await shown({ viewFile: vi.fn(async () => ledger), openFile });
    await fireEvent.click(within(sources).getByRole('button', { name: 'ledger.txt line 1950' }));
    await fireEvent.click(await screen.findByRole('button', { name: 'Open in the system\'s viewer' }));
    expect(openFile).toHaveBeenCalledWith('s1', 'ledger.txt');
    await vi.waitFor(() => expect(screen.queryByTestId('cited-file')).toBeNull());
  });

  it('a PDF page still opens in the system\'s viewer; a knowledge file opens in the view', async () => {
    const openFile = vi.fn(async () => {});
    const viewFile = vi.fn(async () => ledger);
    const viewKnowledge = vi.fn(async (): Promise<FileView> => ({ name: 'kiln.md', kind: 'markdown', line: 2, first: 1, lines: ['# Kiln', 'Fire at 1240.'], total: 2, cut: 0 }));
    const openKnowledge = vi.fn(async () => {});
    const sources = await shown({ viewFile, openFile, viewKnowledge, openKnowledge });
    await fireEvent.click(within(sources).getByRole('button', { name: 'report.pdf p. 3' }));
    expect(openFile).toHaveBeenCalledWith('s1', 'report.pdf');
    expect(viewFile).not.toHaveBeenCalled();
    expect(screen.queryByTestId('cited-file')).toBeNull();
    await fireEvent.click(within(sources).getByRole('button', { name: 'Manuals/kiln.md line 2' }));
    const dialog = await screen.findByTestId('cited-file');
    expect(viewKnowledge).toHaveBeenCalledWith('Manuals/kiln.md line 2');
    expect(openKnowledge).not.toHaveBeenCalled();
    expect(dialog.querySelector('[data-found="true"]')?.textContent).toContain('Fire at 1240.');
    expect(dialog.textContent).toContain('2 lines');
  });

  it('a refused view says why under the chat, in the UI language', async () => {
    setLocale('zh-CN');
    const refusal = { message: 'ledger.txt has been replaced by a symbolic link', code: 'attach.view.link', args: { file: 'ledger.txt' } };
    const sources = await shown({
      viewFile: async () => {
        throw new Error(JSON.stringify(refusal));
      },
      openFile: vi.fn(async () => {}),
    });
    await fireEvent.click(within(sources).getByRole('button', { name: 'ledger.txt line 1950' }));
    await vi.waitFor(() => expect(screen.getByTestId('open-error').textContent).toContain('已被替换为符号链接'));
    expect(screen.queryByTestId('cited-file')).toBeNull();
  });

  it('speaks Chinese', async () => {
    setLocale('zh-CN');
    const sources = await shown({ viewFile: vi.fn(async () => ledger), openFile: vi.fn(async () => {}) });
    await fireEvent.click(within(sources).getByRole('button', { name: 'ledger.txt line 1950' }));
    const dialog = await screen.findByRole('dialog', { name: 'ledger.txt line 1950（只读）' });
    expect(within(dialog).getByRole('button', { name: '用系统查看器打开' })).toBeTruthy();
    expect(dialog.textContent).toContain('第 1001–3000 行，共 30000 行');
    expect(within(dialog).getByRole('button', { name: '关闭（Esc）' })).toBeTruthy();
  });
});

describe('a cited file the system cannot open', () => {
  it('says why inside the view, which stays open', async () => {
    const refusal = { message: 'no viewer', code: 'knowledge.openNoViewer', args: { path: '/home/u/ledger.txt' } };
    const openFile = vi.fn(async () => {
      throw new Error(JSON.stringify(refusal));
    });
    const sources = await shown({ viewFile: vi.fn(async () => ledger), openFile });
    await fireEvent.click(within(sources).getByRole('button', { name: 'ledger.txt line 1950' }));
    const dialog = await screen.findByTestId('cited-file');
    await fireEvent.click(within(dialog).getByRole('button', { name: "Open in the system's viewer" }));
    await vi.waitFor(() => expect(within(dialog).getByRole('alert').textContent).toContain('there is no viewer here to open /home/u/ledger.txt'));
    expect(screen.getByTestId('cited-file')).toBe(dialog);
  });
});
