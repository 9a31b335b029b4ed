// Settings › Models: the fallbacks are an ordered list: added, moved and removed, each
// change handed on at once.
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import FallbackList from './FallbackList.svelte';

const shown = () => screen.queryAllByTestId('fallback').map((li) => li.querySelector('code')!.textContent);

describe('FallbackList', () => {
  it('adds, reorders and removes fallbacks', async () => {
    const onchange = vi.fn();
    render(FallbackList, { props: { items: ['ollama/qwen3:1.7b'], onchange } });
    const input = screen.getByPlaceholderText('ollama/qwen3:1.7b');
    await fireEvent.input(input, { target: { value: ' openai/gpt-4o-mini ' } });
    await fireEvent.keyDown(input, { key: 'Enter' });
    expect(shown()).toEqual(['ollama/qwen3:1.7b', 'openai/gpt-4o-mini']);
    expect(onchange).toHaveBeenLastCalledWith(['ollama/qwen3:1.7b', 'openai/gpt-4o-mini']);

    await fireEvent.click(screen.getAllByText('↑')[1]);
    expect(shown()).toEqual(['openai/gpt-4o-mini', 'ollama/qwen3:1.7b']);
    expect(onchange).toHaveBeenLastCalledWith(['openai/gpt-4o-mini', 'ollama/qwen3:1.7b']);

    await fireEvent.click(screen.getAllByText('✕')[0]);
    expect(shown()).toEqual(['ollama/qwen3:1.7b']);
    expect(onchange).toHaveBeenCalledTimes(3);
  });

  it('ignores an empty or repeated model', async () => {
    const onchange = vi.fn();
    render(FallbackList, { props: { items: ['ollama/a'], onchange } });
    const input = screen.getByPlaceholderText('ollama/qwen3:1.7b');
    for (const v of ['  ', 'ollama/a']) {
      await fireEvent.input(input, { target: { value: v } });
      await fireEvent.keyDown(input, { key: 'Enter' });
    }
    expect(shown()).toEqual(['ollama/a']);
    expect(onchange).not.toHaveBeenCalled();
    expect((screen.getByText('↑') as HTMLButtonElement).disabled).toBe(true);
  });
});
