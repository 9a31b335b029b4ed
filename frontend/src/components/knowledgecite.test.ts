// An answer citing a knowledge folder's file, in the chat view: the folders' names are read
// when the view shows, the citation joins the Sources row, a click opens it, and a refusal
// (the file gone, behind a link…) is said in the UI language.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { tick } from 'svelte';
import ChatView from './ChatView.svelte';
import { createChatStore } from '../lib/stores/chat.svelte';
import { createSessionsStore } from '../lib/stores/sessions.svelte';
import { setLocale } from '../lib/i18n.svelte';
import { fakeApi, fakeStatus } from '../test-fixtures';

afterEach(() => {
  cleanup();
  setLocale('en');
});

async function shown(openKnowledge: (place: string) => Promise<void>) {
  const fake = fakeApi();
  const answer = 'Glaze at 1240 degrees [Manuals/kiln.md line 1]; not [Other/x.md line 2].';
  fake.mocks.loadSession.mockImplementation(async (id: string) => ({
    id,
    title: 'Kiln',
    model: 'ollama/gemma3:1b',
    messages: [
      { role: 'user', content: 'What is the glaze firing?', runId: 'r1' },
      { role: 'assistant', content: answer, runId: 'r1' },
    ],
    runs: [{ runId: 'r1', status: 'ok', final: answer, model: 'ollama/gemma3:1b', usage: {}, durationMs: 3 }],
    interrupted: [],
    versions: [],
  }) as never);
  const chat = createChatStore(fake.api, { schedule: (fn) => fn() });
  const knowledgeNames = vi.fn(async () => ['Manuals']);
  render(ChatView, { props: { chat, sessions: createSessionsStore(fake.api), status: fakeStatus(), knowledgeNames, openKnowledge } });
  await chat.open('s1');
  await tick();
  expect(knowledgeNames).toHaveBeenCalledTimes(1);
  return screen.getByTestId('sources');
}

describe('knowledge citations in the chat', () => {
  it('a cited knowledge file is a source; a click opens it at its place', async () => {
    const openKnowledge = vi.fn(async () => {});
    const sources = await shown(openKnowledge);
    expect(within(sources).queryByRole('button', { name: 'Other/x.md line 2' })).toBeNull();
    await fireEvent.click(within(sources).getByRole('button', { name: 'Manuals/kiln.md line 1' }));
    expect(openKnowledge).toHaveBeenCalledWith('Manuals/kiln.md line 1');
    expect(screen.queryByTestId('open-error')).toBeNull();
  });

  it('a refused open says why, in the UI language', async () => {
    const refusal = { message: 'Manuals/kiln.md line 1 is reached through a symbolic link', code: 'knowledge.openLink', args: { place: 'Manuals/kiln.md line 1' } };
    const sources = await shown(async () => {
      throw new Error(JSON.stringify(refusal));
    });
    await fireEvent.click(within(sources).getByRole('button', { name: 'Manuals/kiln.md line 1' }));
    await vi.waitFor(() => expect(screen.getByTestId('open-error').textContent).toContain('which Hearth does not open'));
    setLocale('zh-CN');
    await fireEvent.click(within(sources).getByRole('button', { name: 'Manuals/kiln.md line 1' }));
    await vi.waitFor(() => expect(screen.getByTestId('open-error').textContent).toContain('Hearth 不会打开它'));
  });
});
