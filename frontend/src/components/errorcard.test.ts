// The error card of a reply that failed, live and in a chat opened again: a missing Ollama
// model offers its Download; a cloud provider's missing model does not.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/svelte';
import { tick } from 'svelte';
import ChatView from './ChatView.svelte';
import { createChatStore } from '../lib/stores/chat.svelte';
import { createModelsStore } from '../lib/stores/models.svelte';
import { createSessionsStore } from '../lib/stores/sessions.svelte';
import { setLocale } from '../lib/i18n.svelte';
import { fakeApi, fakeStatus } from '../test-fixtures';

afterEach(() => {
  cleanup();
  setLocale('en');
});

const failure = (model: string) => ({
  code: 'model_not_found',
  message: `model ${model} is not installed in Ollama`,
  hint: `model not found — pull it with \`hearth models pull ${model}\``,
  text: { code: 'error.ollama.modelMissing', args: { model } },
  hintText: [{ code: 'error.ollama.modelMissing.hint', args: { model } }],
  detail: `404 Not Found: model '${model}' not found`,
});

async function reopened(model: string) {
  const fake = fakeApi();
  const bare = model.replace(/^[^/]+\//, '');
  fake.mocks.loadSession.mockImplementation(async (id: string) => ({
    id,
    title: 'Plans',
    model,
    messages: [{ role: 'user', content: 'What is on today?', runId: 'r1' }],
    runs: [{ runId: 'r1', status: 'error', error: failure(bare).message, model, failure: failure(bare), final: '', usage: {}, durationMs: 3 }],
    interrupted: [],
    versions: [],
  }) as never);
  const chat = createChatStore(fake.api, { schedule: (fn) => fn() });
  render(ChatView, { props: { chat, sessions: createSessionsStore(fake.api), status: fakeStatus(), models: createModelsStore(fake.api) } });
  await chat.open('s1');
  await tick();
  return screen.getByTestId('error-card');
}

describe('a failed reply, opened again', () => {
  it('a missing Ollama model offers Download, worded in the UI language', async () => {
    const card = await reopened('ollama/gemma3:1b');
    expect(within(card).getByTestId('download-gemma3:1b').textContent).toBeTruthy();
    expect(card.textContent).not.toContain('hearth models pull');
    setLocale('zh-CN');
    await tick();
    expect(screen.getByTestId('error-card').textContent).toContain('Ollama 中没有安装模型 gemma3:1b');
  });

  it('a missing cloud model has no Download: Ollama cannot fetch it', async () => {
    const card = await reopened('openai/gpt-9');
    expect(within(card).queryByRole('button', { name: /Download/ })).toBeNull();
    expect(card.querySelector('[data-testid^="download-"]')).toBeNull();
  });
});
