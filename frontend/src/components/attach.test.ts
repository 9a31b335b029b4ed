import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import Composer from './Composer.svelte';
import FileChips from './FileChips.svelte';
import Message from './Message.svelte';
import { splitAttachments, type Attachment } from '../lib/stores/chat.svelte';
import { itemsWithVersions } from '../lib/stores/history';
import { setLocale } from '../lib/i18n.svelte';
import type { DroppedFile, SessionData } from '../lib/api';

afterEach(() => {
  cleanup();
  setLocale('en');
});

describe('attached files', () => {
  it('a chip shows name, size and pages; a refused file shows its coded problem', () => {
    render(FileChips, {
      props: {
        files: [
          { name: 'report.pdf', bytes: 2.5 * (1 << 20), pages: 212, mode: 'searched' },
          { name: 'notes.md', bytes: 46, mode: 'whole' },
          { name: 'vault.pdf', bytes: 10, mode: 'refused', error: 'attach.encrypted' },
        ],
      },
    });
    const chips = screen.getAllByTestId('file-chip');
    expect(chips[0].textContent).toMatch(/report\.pdf\s*2\.5 MB\s*212 pages\s*searched/);
    expect(chips[1].textContent).toMatch(/notes\.md\s*46 bytes/);
    expect(within(chips[2]).getByTestId('file-chip-error').textContent).toContain('encrypted');
  });

  it('a problem code the window does not know shows the backend\'s words', () => {
    render(FileChips, { props: { files: [{ name: 'a.pdf', bytes: 1, mode: 'refused', error: 'attach.slow', detail: 'a.pdf took too long to read' }] } });
    expect(screen.getByTestId('file-chip-error').textContent).toBe('a.pdf took too long to read');
  });

  it('zh-CN has words for every problem code', () => {
    setLocale('zh-CN');
    render(FileChips, { props: { files: [{ name: 'a.bin', bytes: 1, mode: 'refused', error: 'attach.unsupported' }] } });
    expect(screen.getByTestId('file-chip-error').textContent).toContain('无法读取此类文件');
  });

  it('the composer attaches a dropped file and a picked one, and sends them with the message', async () => {
    const onSend = vi.fn(async () => true);
    render(Composer, { props: { onSend, onStop: vi.fn(), onPickFiles: async () => ['/home/me/report.pdf'] } });
    const box = screen.getByRole('textbox');
    const file = new File(['The meeting moved to Thursday.'], 'memo.txt', { type: 'text/plain' });
    await fireEvent.drop(box.closest('.box')!, { dataTransfer: { files: [file] } });
    await vi.waitFor(() => expect(screen.getAllByTestId('file-chip')).toHaveLength(1));
    await fireEvent.click(screen.getByTestId('attach-files'));
    await vi.waitFor(() => expect(screen.getAllByTestId('file-chip')).toHaveLength(2));
    expect(screen.getAllByTestId('file-chip')[1].textContent).toContain('report.pdf');
    await fireEvent.click(screen.getByRole('button', { name: 'Send' })); // no text needed
    expect(onSend).toHaveBeenCalledWith('', [
      { name: 'memo.txt', url: expect.stringMatching(/^data:text\/plain;base64,/), file: true, bytes: 30, dropped: true },
      { name: 'report.pdf', url: '', file: true, path: '/home/me/report.pdf' },
    ]);
    expect(screen.queryAllByTestId('file-chip')).toHaveLength(0);
  });

  /** A Composer whose native drops the test makes (the window's wails:file-drop, checked by the backend). */
  function withNativeDrop(onSend = vi.fn(async (_text: string, _files: Attachment[]) => true)) {
    let native: (files: DroppedFile[]) => void = () => {};
    const fileDrops = vi.fn((fn: (files: DroppedFile[]) => void) => {
      native = fn;
      return () => {};
    });
    render(Composer, { props: { onSend, onStop: vi.fn(), fileDrops } });
    return { onSend, native: (files: Partial<DroppedFile>[]) => native(files as DroppedFile[]), fileDrops };
  }
  const pageDrop = async (target: Element, files: File[]) => fireEvent.drop(target, { dataTransfer: { files, types: ['Files'] } });

  it('a file dropped from the desktop attaches by path, however big, and goes as a picked one', async () => {
    const { onSend, native, fileDrops } = withNativeDrop();
    expect(fileDrops).toHaveBeenCalledTimes(1);
    native([{ path: '/home/me/manual.pdf', name: 'manual.pdf', bytes: 30 << 20 }, { path: '/home/me/cat.png', name: 'cat.png', bytes: 0, picture: true }]);
    await vi.waitFor(() => expect(screen.getAllByTestId('file-chip')).toHaveLength(1)); // the picture comes by the page's drop
    expect(screen.getByTestId('file-chip').textContent).toMatch(/manual\.pdf\s*30\.0 MB/);
    expect(screen.queryByTestId('file-chip-error')).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledWith('', [expect.objectContaining({ name: 'manual.pdf', url: '', file: true, path: '/home/me/manual.pdf' })]);
    expect(splitAttachments(onSend.mock.calls[0][1]).files).toEqual(['/home/me/manual.pdf']);
  });

  it('one desktop drop seen by the page and by the window is one chip, by path, in either order', async () => {
    const { onSend, native } = withNativeDrop();
    const box = screen.getByRole('textbox').closest('.box')!;
    // The page's drop first (its bytes read), then the paths: the path takes the chip's place.
    await pageDrop(box, [new File(['The meeting moved to Thursday.'], 'memo.txt', { type: 'text/plain' })]);
    await vi.waitFor(() => expect(screen.getAllByTestId('file-chip')).toHaveLength(1));
    native([{ path: '/d/memo.txt', name: 'memo.txt', bytes: 30 }]);
    // The paths first, then the page's drop: its file is not read again.
    native([{ path: '/d/big.log', name: 'big.log', bytes: 25 << 20 }]);
    const big = new File(['x'], 'big.log', { type: 'text/plain' });
    Object.defineProperty(big, 'size', { value: 25 << 20 });
    await pageDrop(box, [big]); // its twin is there: nothing to read, no chip "too big to paste"
    expect(screen.getAllByTestId('file-chip')).toHaveLength(2);
    expect(screen.queryByTestId('file-chip-error')).toBeNull(); // not "too big to paste": it goes by path
    await fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    const sent = splitAttachments(onSend.mock.calls[0][1]);
    expect(sent.files).toEqual(['/d/memo.txt', '/d/big.log']);
    expect(sent.pasted).toEqual([]);
  });

  it('a dropped link, folder or pipe shows its problem and is not sent; the message still goes', async () => {
    const { onSend, native } = withNativeDrop();
    native([
      { path: '/d/report.pdf', name: 'report.pdf', bytes: 0, error: 'attach.link', detail: 'report.pdf is a link' },
      { path: '/d/notes', name: 'notes', bytes: 0, error: 'attach.folder', detail: 'notes is a folder' },
      { path: '/d/pipe', name: 'pipe', bytes: 0, error: 'attach.notFile', detail: 'pipe is not a regular file' },
    ]);
    await vi.waitFor(() => expect(screen.getAllByTestId('file-chip-error')).toHaveLength(3));
    const said = screen.getAllByTestId('file-chip-error').map((e) => e.textContent);
    expect(said[0]).toContain('attach the file it points to');
    expect(said[1]).toContain('Settings › Knowledge');
    expect(said[2]).toContain('not a pipe or a device');
    await fireEvent.input(screen.getByRole('textbox'), { target: { value: 'hello' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledWith('hello', []);
  });

  it('a file dropped anywhere on the window attaches, and the page is not left for it', async () => {
    withNativeDrop();
    const ev = new Event('drop', { bubbles: true, cancelable: true }) as DragEvent;
    Object.defineProperty(ev, 'dataTransfer', { value: { files: [new File(['hi'], 'elsewhere.txt', { type: 'text/plain' })], types: ['Files'] } });
    document.body.dispatchEvent(ev);
    expect(ev.defaultPrevented).toBe(true);
    await vi.waitFor(() => expect(screen.getAllByTestId('file-chip')).toHaveLength(1));
    expect(screen.getByTestId('file-chip').textContent).toContain('elsewhere.txt');
  });

  it('a chat opened again shows what its turn told about the files', () => {
    const note = { level: 'info', message: 'notes.txt: whole', code: 'notice.attachWhole', args: { name: 'notes.txt' } };
    const data = {
      id: 's',
      title: '',
      model: '',
      runs: [
        { runId: 'r1', status: 'ok', final: 'Under the pot.', durationMs: 5, notes: [note] },
        { runId: 'r2', status: 'ok', final: 'Yes.', durationMs: 5 },
      ],
      interrupted: [],
      versions: [],
      messages: [
        { role: 'user', content: 'Where is the key?', runId: 'r1', attachments: [{ name: 'notes.txt', bytes: 66, mode: 'whole', file: 'notes.txt' }] },
        { role: 'assistant', content: 'Under the pot.', runId: 'r1' },
        { role: 'user', content: 'Sure?', runId: 'r2' },
        { role: 'assistant', content: 'Yes.', runId: 'r2' },
      ],
    } as unknown as SessionData;
    const { items } = itemsWithVersions(data);
    render(Message, { props: { item: items[1] } });
    expect(screen.getAllByRole('note').map((n) => n.textContent)).toEqual(['notes.txt: whole']);
    cleanup();
    render(Message, { props: { item: items[3] } });
    expect(screen.queryAllByRole('note')).toHaveLength(0);
  });

  it('a removed chip is not sent', async () => {
    const onSend = vi.fn(async () => true);
    render(Composer, { props: { onSend, onStop: vi.fn(), onPickFiles: async () => ['/a/x.txt'] } });
    await fireEvent.click(screen.getByTestId('attach-files'));
    await vi.waitFor(() => expect(screen.getAllByTestId('file-chip')).toHaveLength(1));
    await fireEvent.click(screen.getByRole('button', { name: 'Remove x.txt' }));
    expect(screen.queryAllByTestId('file-chip')).toHaveLength(0);
  });

  it('splits a message into pictures, paths and pasted files', () => {
    const out = splitAttachments([
      { name: 'a.png', url: 'data:image/png;base64,AA' },
      { name: 'b.txt', url: 'data:text/plain;base64,Yg==', file: true, bytes: 1 },
      { name: 'c.pdf', url: '', file: true, path: '/x/c.pdf' },
    ]);
    expect(out).toEqual({
      images: ['data:image/png;base64,AA'],
      files: ['/x/c.pdf'],
      pasted: [{ name: 'b.txt', data: 'data:text/plain;base64,Yg==' }],
      chips: [{ name: 'b.txt', bytes: 1 }, { name: 'c.pdf', bytes: undefined }],
    });
  });

  it('a chat opened again shows its messages\' chips from the records', () => {
    const data = {
      id: 's',
      title: '',
      model: '',
      runs: [],
      interrupted: [],
      versions: [],
      messages: [
        { role: 'user', content: 'Read this', runId: 'r1', attachments: [{ name: 'ledger.txt', bytes: 210661, mode: 'searched', file: 'ledger.txt', passages: 230 }] },
        { role: 'assistant', content: 'Done.', runId: 'r1' },
      ],
    } as unknown as SessionData;
    const { items } = itemsWithVersions(data);
    render(Message, { props: { item: items[0] } });
    expect(screen.getByTestId('file-chip').textContent).toMatch(/ledger\.txt\s*206 KB\s*searched/);
  });
});

describe('citations', () => {
  it('finds the cited places of the chat\'s own files only, once each', async () => {
    const { citations } = await import('../lib/citations');
    const text = 'Paid in amber [ledger.txt line 1950], see also [report.pdf p. 150] and [report.pdf p. 150]; not [other.pdf p. 2] nor [x].';
    expect(citations(text, ['ledger.txt', 'report.pdf'])).toEqual([
      { file: 'ledger.txt', line: 1950, where: 'ledger.txt line 1950' },
      { file: 'report.pdf', page: 150, where: 'report.pdf p. 150' },
    ]);
    expect(citations(text, [])).toEqual([]);
  });

  it('an answer that cites an attached file shows the source under it, and a click opens the file', async () => {
    const { newTurn } = await import('../lib/stores/turn');
    const turn = newTurn('r1');
    turn.status = 'ok';
    turn.parts = [{ kind: 'text', text: 'In amber tokens [ledger.txt line 1950].' }];
    const onOpenFile = vi.fn();
    render(Message, { props: { item: turn, files: ['ledger.txt'], onOpenFile } });
    const sources = screen.getByTestId('sources');
    await fireEvent.click(within(sources).getByRole('button', { name: 'ledger.txt line 1950' }));
    expect(onOpenFile).toHaveBeenCalledWith('ledger.txt', 1950);
  });

  it('finds the cited places of the knowledge folders\' files, by the folder\'s name', async () => {
    const { citations } = await import('../lib/citations');
    const text = 'Glaze at 1240 [Manuals/kilns/kiln.md line 3], see [Manuals/guide.pdf p. 4] and [ledger.txt line 2]; not [Other/x.md line 1], [Manuals/ line 1] nor [Manuals line 1].';
    expect(citations(text, ['ledger.txt'], ['Manuals'])).toEqual([
      { file: 'Manuals/kilns/kiln.md', line: 3, where: 'Manuals/kilns/kiln.md line 3', knowledge: true },
      { file: 'Manuals/guide.pdf', page: 4, where: 'Manuals/guide.pdf p. 4', knowledge: true },
      { file: 'ledger.txt', line: 2, where: 'ledger.txt line 2' },
    ]);
    expect(citations(text, [], [])).toEqual([]);
  });

  it('an answer that cites a knowledge file shows it among the sources, and a click opens it there', async () => {
    const { newTurn } = await import('../lib/stores/turn');
    const turn = newTurn('r2');
    turn.status = 'ok';
    turn.parts = [{ kind: 'text', text: 'Glaze at 1240 degrees [Manuals/kiln.md line 1] and [ledger.txt line 9].' }];
    const onOpenFile = vi.fn();
    const onOpenKnowledge = vi.fn();
    render(Message, { props: { item: turn, files: ['ledger.txt'], onOpenFile, folders: ['Manuals'], onOpenKnowledge } });
    const sources = screen.getByTestId('sources');
    await fireEvent.click(within(sources).getByRole('button', { name: 'Manuals/kiln.md line 1' }));
    expect(onOpenKnowledge).toHaveBeenCalledWith('Manuals/kiln.md line 1', 1);
    expect(onOpenFile).not.toHaveBeenCalled();
    await fireEvent.click(within(sources).getByRole('button', { name: 'ledger.txt line 9' }));
    expect(onOpenFile).toHaveBeenCalledWith('ledger.txt', 9);
  });

  it('a chat with no attachment still shows a knowledge source', async () => {
    const { newTurn } = await import('../lib/stores/turn');
    const turn = newTurn('r3');
    turn.status = 'ok';
    turn.parts = [{ kind: 'text', text: 'See [Manuals/kiln.md p. 2].' }];
    render(Message, { props: { item: turn, folders: ['Manuals'], onOpenKnowledge: vi.fn() } });
    expect(within(screen.getByTestId('sources')).getByRole('button', { name: 'Manuals/kiln.md p. 2' })).toBeTruthy();
  });
});
