// The smaller moments of issue 30: each as a person meets it in the window.
import { afterEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import StatusBar from './StatusBar.svelte';
import { setLocale } from '../lib/i18n.svelte';
import { createStatusStore } from '../lib/stores/status.svelte';
import { fakeStatus } from '../test-fixtures';

afterEach(() => setLocale('en'));

describe('the footer', () => {
  it('names the open chat’s model, and the default only when the chat follows it', async () => {
    const store = createStatusStore(async () => fakeStatus({ model: 'ollama/qwen3:4b' }));
    await store.refresh();
    const { rerender } = render(StatusBar, { props: { store, chatModel: 'ollama/gemma3:12b' } });
    expect(screen.getByTestId('status-model').textContent).toContain('ollama/gemma3:12b');
    expect(screen.getByTestId('status-model').textContent).not.toContain('qwen3');
    await rerender({ store, chatModel: '' });
    expect(screen.getByTestId('status-model').textContent).toContain('ollama/qwen3:4b');
  });
});
