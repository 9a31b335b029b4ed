import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import KnowledgeSection from './KnowledgeSection.svelte';
import { createApp } from '../../lib/app.svelte';
import { createStatusStore } from '../../lib/stores/status.svelte';
import { fakeApi, fakeStatus } from '../../test-fixtures';
import type { Api, KnowledgeFolder } from '../../lib/api';
import { setLocale } from '../../lib/i18n.svelte';

function folder(over: Partial<KnowledgeFolder> = {}): KnowledgeFolder {
  return {
    id: 'a1', path: '/home/u/Notes', name: 'Notes', mode: 'always', added: '2026-12-07T10:00:00Z', files: 120, skipped: 3,
    reasons: { type: 2, link: 1 }, updating: false, indexed: '2026-12-07T10:00:05Z', lastChange: '', watch: 'watching', writable: false, ...over,
  };
}

function appWith(over: Partial<Api>) {
  return createApp(fakeApi(over).api, createStatusStore(async () => fakeStatus()));
}

describe('KnowledgeSection', () => {
  it('lists folders with their mode, files and skipped by reason, and a problem', async () => {
    setLocale('en');
    const listKnowledge = vi.fn(async () => [
      folder(),
      folder({ id: 'b2', path: '/media/usb/docs', name: 'docs', mode: 'ask', files: 0, skipped: 0, reasons: {}, problem: { code: 'knowledge.problem.missing', args: { path: '/media/usb/docs' } } }),
    ]);
    render(KnowledgeSection, { props: { app: appWith({ listKnowledge } as Partial<Api>) } });
    const rows = await screen.findAllByTestId('knowledge-folder');
    expect(rows).toHaveLength(2);
    const status = within(rows[0]).getByTestId('knowledge-status').textContent ?? '';
    expect(status).toContain('120 files');
    expect(status).toContain('3 skipped (other kinds 2, links 1)');
    expect((within(rows[0]).getByRole('combobox') as HTMLSelectElement).value).toBe('always');
    expect((within(rows[1]).getByRole('combobox') as HTMLSelectElement).value).toBe('ask');
    expect(within(rows[1]).getByTestId('knowledge-problem').textContent).toContain('/media/usb/docs is gone');
  });

  it('adds a chosen folder, polls while it updates, changes a mode and removes', async () => {
    setLocale('en');
    let list: KnowledgeFolder[] = [];
    const listKnowledge = vi.fn(async () => list);
    const chooseFolder = vi.fn(async () => '/home/u/Notes');
    const addKnowledge = vi.fn(async (path: string) => {
      list = [folder({ path, updating: true, files: 0, skipped: 0, reasons: {} })];
      return list[0];
    });
    const setKnowledgeMode = vi.fn(async () => {});
    const removeKnowledge = vi.fn(async () => {
      list = [];
    });
    render(KnowledgeSection, { props: { app: appWith({ listKnowledge, chooseFolder, addKnowledge, setKnowledgeMode, removeKnowledge } as Partial<Api>) } });
    expect(await screen.findByTestId('knowledge-empty')).toBeTruthy();
    await fireEvent.click(screen.getByTestId('knowledge-add'));
    expect(await screen.findByText('Updating…')).toBeTruthy();
    expect(addKnowledge).toHaveBeenCalledWith('/home/u/Notes', 'always');
    list = [folder()];
    await vi.waitFor(() => expect(screen.queryByText('Updating…')).toBeNull(), { timeout: 15000 });
    const row = screen.getByTestId('knowledge-folder');
    await fireEvent.change(within(row).getByRole('combobox'), { target: { value: 'ask' } });
    expect(setKnowledgeMode).toHaveBeenCalledWith('/home/u/Notes', 'ask');
    await fireEvent.click(within(row).getByRole('button', { name: 'Remove Notes (its files stay)' }));
    expect(removeKnowledge).toHaveBeenCalledWith('/home/u/Notes');
    expect(await screen.findByTestId('knowledge-empty')).toBeTruthy();
  });

  it('lets the tools change a folder only when ticked, off by default', async () => {
    setLocale('en');
    let list = [folder()];
    const listKnowledge = vi.fn(async () => list);
    const setKnowledgeWritable = vi.fn(async (_p: string, on: boolean) => {
      list = [folder({ writable: on })];
    });
    render(KnowledgeSection, { props: { app: appWith({ listKnowledge, setKnowledgeWritable } as Partial<Api>) } });
    const box = (await screen.findByTestId('knowledge-writable')) as HTMLInputElement;
    expect(box.checked).toBe(false);
    expect(screen.getByText('May change files')).toBeTruthy();
    await fireEvent.click(box);
    expect(setKnowledgeWritable).toHaveBeenCalledWith('/home/u/Notes', true);
    await vi.waitFor(() => expect((screen.getByTestId('knowledge-writable') as HTMLInputElement).checked).toBe(true));
  });

  it('says why a folder was refused, and reads the list only once when nothing updates', async () => {
    setLocale('zh-CN');
    const listKnowledge = vi.fn(async () => [folder()]);
    const addKnowledge = vi.fn(async () => {
      throw 'the folder /x does not exist';
    });
    render(KnowledgeSection, { props: { app: appWith({ listKnowledge, chooseFolder: vi.fn(async () => '/x'), addKnowledge } as Partial<Api>) } });
    await screen.findAllByTestId('knowledge-folder');
    expect(screen.getByText('每条消息')).toBeTruthy();
    await fireEvent.click(screen.getByTestId('knowledge-add'));
    expect((await screen.findByRole('alert')).textContent).toContain('/x does not exist');
    expect(listKnowledge).toHaveBeenCalledTimes(2); // on open, after the refusal; no polling
    setLocale('en');
  });
});
