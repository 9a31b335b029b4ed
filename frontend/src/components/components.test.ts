import { beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { tick } from 'svelte';
import Composer from './Composer.svelte';
import Message from './Message.svelte';
import ConfigProblems from './ConfigProblems.svelte';
import ToolCard from './ToolCard.svelte';
import SettingsView from './SettingsView.svelte';
import ModelsView from './ModelsView.svelte';
import { createApp } from '../lib/app.svelte';
import { createStatusStore } from '../lib/stores/status.svelte';
import { newTurn } from '../lib/stores/turn';
import { setLocale } from '../lib/i18n.svelte';
import { fakeApi, fakeStatus } from '../test-fixtures';

describe('Composer', () => {
  it('sends on Enter, keeps Shift+Enter for a new line, and clears the box', async () => {
    const onSend = vi.fn(async () => true);
    render(Composer, { props: { onSend, onStop: vi.fn(), hint: 'Enter sends' } });
    const box = screen.getByRole('textbox') as HTMLTextAreaElement;
    await fireEvent.input(box, { target: { value: 'hello' } });
    await fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(onSend).not.toHaveBeenCalled();
    await fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith('hello', []);
    await tick();
    expect(box.value).toBe('');
  });

  it('offers slash commands and completes the chosen one', async () => {
    const onSend = vi.fn(async () => true);
    render(Composer, { props: { onSend, onStop: vi.fn() } });
    const box = screen.getByRole('textbox') as HTMLTextAreaElement;
    await fireEvent.input(box, { target: { value: '/st' } });
    const list = screen.getByRole('listbox', { name: 'Commands' });
    expect(within(list).getAllByRole('option').map((o) => o.textContent?.trim().split(/\s/)[0])).toEqual(['/stop', '/status']);
    await fireEvent.keyDown(box, { key: 'ArrowDown' });
    await fireEvent.keyDown(box, { key: 'Tab' });
    expect(box.value).toBe('/status');
    await fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith('/status', []);
  });

  it('offers the memory commands the backend answers: /remember and /memory', async () => {
    render(Composer, { props: { onSend: vi.fn(), onStop: vi.fn() } });
    const box = screen.getByRole('textbox') as HTMLTextAreaElement;
    await fireEvent.input(box, { target: { value: '/' } });
    const names = () => within(screen.getByRole('listbox', { name: 'Commands' })).getAllByRole('option').map((o) => o.textContent?.trim().split(/\s/)[0]);
    expect(names()).toEqual(['/new', '/stop', '/model', '/remember', '/memory', '/status', '/help']);
    await fireEvent.input(box, { target: { value: '/re' } });
    expect(names()).toEqual(['/remember']);
    expect(screen.getByRole('option').textContent).toContain('save a fact to long-term memory');
  });

  it('shows Stop while a reply runs', async () => {
    const onStop = vi.fn();
    render(Composer, { props: { onSend: vi.fn(), onStop, running: true } });
    await fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(onStop).toHaveBeenCalled();
  });

  it('attaches a pasted image and sends it', async () => {
    const onSend = vi.fn(async () => true);
    render(Composer, { props: { onSend, onStop: vi.fn() } });
    const box = screen.getByRole('textbox');
    const file = new File([new Uint8Array([137, 80, 78, 71])], 'shot.png', { type: 'image/png' });
    await fireEvent.paste(box, { clipboardData: { files: [file] } });
    await vi.waitFor(() => expect(screen.getByAltText('shot.png')).toBeTruthy());
    await fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledWith('', [{ name: 'shot.png', url: expect.stringMatching(/^data:image\/png;base64,/) }]);
  });
});

describe('ToolCard and Message', () => {
  it('a tool card shows name, arguments and duration, and expands to the result', async () => {
    render(ToolCard, {
      props: { part: { kind: 'tool', callId: 'c1', name: 'read_file', args: '{\n  "path": "notes.md"\n}', result: 'line one\nline two', ok: true, durationMs: 14 } },
    });
    const card = screen.getByTestId('tool-card');
    expect(card.textContent).toContain('read_file');
    expect(card.textContent).toContain('14 ms');
    expect(card.textContent).toContain('line one line two');
    await fireEvent.click(within(card).getByRole('button'));
    expect(card.querySelector('pre.result')?.textContent).toBe('line one\nline two');
  });

  it('a tool local-only mode turned off says so and where to turn it on, not "unknown tool"', async () => {
    const part = {
      kind: 'tool' as const, callId: 'c1', name: 'web_fetch', args: '{"url":"https://example.com/"}', ok: false, durationMs: 0,
      result: 'Error: web_fetch is off in local-only mode: nothing leaves this machine. Turn local-only mode off in Settings › Tools & approvals to use it.',
      why: { code: 'tool.off.localOnly', args: { tool: 'web_fetch' } },
    };
    render(ToolCard, { props: { part } });
    let preview = screen.getByTestId('tool-preview').textContent ?? '';
    expect(preview).toContain('web_fetch is off in local-only mode');
    expect(preview).toContain('Settings › Tools & approvals');
    expect(preview).not.toContain('unknown tool');
    cleanup();
    setLocale('zh-CN');
    try {
      render(ToolCard, { props: { part } });
      preview = screen.getByTestId('tool-preview').textContent ?? '';
      expect(preview).toContain('web_fetch 在仅本地模式下已关闭');
      expect(preview).toContain('工具与审批');
    } finally {
      setLocale('en');
    }
  });

  it('an error card shows the hint and a Retry on the last reply', async () => {
    const turn = newTurn('r1');
    turn.status = 'error';
    turn.parts.push({ kind: 'error', code: 'unreachable', message: 'Ollama is not reachable', hint: 'start it with ollama serve' });
    render(Message, { props: { item: turn, last: true, canRetry: true } });
    const card = screen.getByTestId('error-card');
    expect(card.textContent).toContain('start it with ollama serve');
    // Answered by the chat's one handler (ChatView), by its action and the message's key.
    const retry = within(card).getByRole('button', { name: 'Retry' });
    expect(retry.dataset.action).toBe('retry');
    expect(retry.closest<HTMLElement>('[data-key]')?.dataset.key).toBe(turn.key);
  });

  it('words an error card and a slash reply in the UI language, the cause beside it', () => {
    const turn = newTurn('r1');
    turn.status = 'error';
    turn.parts.push(
      { kind: 'reply', text: 'Stopped.', lines: [{ code: 'slash.stopped' }] },
      {
        kind: 'error', code: 'model', message: 'model "x/y": unknown provider', hint: 'check agents.defaults.model',
        worded: { code: 'error.model.resolve', args: { model: 'x/y', detail: 'unknown provider' } },
        hints: [{ code: 'error.model.resolve.hint' }],
      },
      {
        kind: 'error', code: 'unreachable', message: 'cannot reach Ollama at http://h: refused', hint: 'start it',
        worded: { code: 'error.ollama.unreachable', args: { host: 'http://h' } }, hints: [{ code: 'error.hint.ollamaDown' }],
        detail: 'refused',
      },
    );
    setLocale('zh-CN');
    try {
      render(Message, { props: { item: turn } });
      expect(screen.getByTestId('command-reply').textContent).toBe('已停止。');
      const [first, second] = screen.getAllByTestId('error-card');
      expect(within(first).getByTestId('error-text').textContent).toBe('模型“x/y”：unknown provider');
      expect(within(first).getByTestId('error-hint').textContent).toContain('/model 换一个模型');
      expect(within(second).getByTestId('error-text').textContent).toBe('无法访问 http://h 上的 Ollama');
      expect(second.textContent).toContain('refused'); // the cause, in its own words
      expect(within(second).getByTestId('error-hint').textContent).toBe('Ollama 没有运行——用“启动 Ollama”启动它，或从系统中启动'); // the window names its button, not a command
    } finally {
      setLocale('en');
    }
  });

  it('folds reasoning and counts tokens', () => {
    const turn = newTurn('r1');
    turn.status = 'ok';
    turn.parts.push({ kind: 'reasoning', text: 'hmm' }, { kind: 'text', text: 'Answer **here**' });
    turn.promptTokens = 12;
    turn.completionTokens = 3;
    render(Message, { props: { item: turn } });
    expect(document.querySelector('details')?.open).toBe(false);
    expect(screen.getByText('here').tagName).toBe('STRONG');
    expect(screen.getByTestId('reply-tokens').textContent).toBe('12 in · 3 out');
  });

  it("shows a slash command's reply as text, placeholders and line breaks kept", () => {
    const turn = newTurn('r2');
    turn.status = 'ok';
    turn.command = 'model';
    turn.parts.push({ kind: 'text', text: 'Model: ollama/qwen3:4b\nSwitch with /model <provider>/<model>, e.g. /model ollama/qwen3:4b.' });
    render(Message, { props: { item: turn } });
    const reply = screen.getByTestId('command-reply');
    expect(reply.textContent).toBe('Model: ollama/qwen3:4b\nSwitch with /model <provider>/<model>, e.g. /model ollama/qwen3:4b.');
    expect(reply.querySelector('provider')).toBeNull();
  });
});

describe('ConfigProblems', () => {
  it('lists what is wrong with config.json problem by problem, in the UI language', () => {
    const status = fakeStatus({
      configError: 'config /c.json:3:20: agents.defaults.temperature: must be between 0 and 2, got 7 (hint: …)',
      configProblems: [
        {
          key: 'agents.defaults.temperature', line: 3, column: 20, msg: 'must be between 0 and 2, got 7', hint: 'use a number from 0 to 2',
          why: { text: { code: 'config.between', args: { low: '0', high: '2', got: '7' } }, hint: [{ code: 'config.hint.temperature' }] },
        },
        { key: 'x', msg: 'an old problem without codes', hint: 'fix x' },
      ] as never,
    });
    setLocale('zh-CN');
    try {
      render(ConfigProblems, { props: { status } });
      const items = screen.getByTestId('config-problems').querySelectorAll('li');
      expect(items[0].textContent).toContain('第 3 行，第 20 列');
      expect(items[0].textContent).toContain('应在 0 到 2 之间，实际为 7');
      expect(items[0].textContent).toContain('使用工具时 0.3 比较合适');
      expect(items[1].textContent).toContain('an old problem without codes');
      expect(items[1].textContent).toContain('fix x');
    } finally {
      setLocale('en');
    }
  });
});

function appWith(over = {}) {
  const fake = fakeApi(over);
  const status = createStatusStore(async () => fakeStatus());
  return { fake, app: createApp(fake.api, status) };
}

describe('SettingsView', () => {
  beforeEach(() => localStorage.removeItem('hearth.settingsSection'));
  const section = (name: string) => fireEvent.click(screen.getByRole('tab', { name }));

  it('shows the sections, remembers the one shown, and saves a change at once', async () => {
    const { fake, app } = appWith();
    const view = render(SettingsView, { props: { app } });
    const tabs = screen.getAllByRole('tab').map((t) => t.textContent);
    expect(tabs).toEqual(['General', 'Models & providers', 'Tools & approvals', 'Background', 'Channels', 'Memory', 'Knowledge', 'About']);
    const theme = (await screen.findByLabelText('Theme')) as HTMLSelectElement;
    theme.value = 'dark';
    await fireEvent.change(theme);
    await vi.waitFor(() => expect(fake.mocks.saveSettings).toHaveBeenCalled());
    expect(fake.mocks.saveSettings.mock.calls[0][0].theme).toBe('dark');
    await vi.waitFor(() => expect(screen.getByTestId('settings-status').textContent).toBe('Saved'));
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    await section('Memory');
    view.unmount();
    render(SettingsView, { props: { app } });
    expect(screen.getByRole('tab', { name: 'Memory' }).getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByLabelText(/Messages a chat keeps/)).toBeTruthy();
  });

  it('saves how long a chat idles before it is compacted, 0 turning it off', async () => {
    const { fake, app } = appWith();
    render(SettingsView, { props: { app } });
    await section('Memory');
    const idle = (await screen.findByLabelText(/Minutes a chat rests/)) as HTMLInputElement;
    expect(idle.value).toBe('10');
    await fireEvent.input(idle, { target: { value: '0' } });
    await fireEvent.change(idle);
    await vi.waitFor(() => expect(fake.mocks.saveSettings).toHaveBeenCalled());
    expect(fake.mocks.saveSettings.mock.calls[0][0].idleCompactMinutes).toBe(0);
  });

  it('explains a bad value inline, marks its section, and saves once it is fixed', async () => {
    const { fake, app } = appWith();
    render(SettingsView, { props: { app } });
    await section('Models & providers');
    const temp = (await screen.findByLabelText('Temperature')) as HTMLInputElement;
    await fireEvent.input(temp, { target: { value: '9' } });
    await fireEvent.change(temp);
    expect(screen.getByText('Use a number from 0 to 2')).toBeTruthy();
    await vi.waitFor(() => expect(screen.getByTestId('settings-status').dataset.state).toBe('invalid'));
    expect(screen.getByRole('tab', { name: /Models & providers/ }).querySelector('.mark')).toBeTruthy();
    expect(fake.mocks.saveSettings).not.toHaveBeenCalled();
    await fireEvent.input(temp, { target: { value: '0.6' } });
    await fireEvent.change(temp);
    await vi.waitFor(() => expect(fake.mocks.saveSettings).toHaveBeenCalled());
    expect(fake.mocks.saveSettings.mock.calls[0][0].temperature).toBe(0.6);
    await vi.waitFor(() => expect(screen.getByTestId('settings-status').textContent).toBe('Saved'));
  });

  it('adds a custom provider and checks its name and URL once they are left', async () => {
    const { app } = appWith();
    render(SettingsView, { props: { app } });
    await section('Models & providers');
    await fireEvent.click(await screen.findByRole('button', { name: 'Add an OpenAI-compatible provider' }));
    expect(screen.queryByText('Use a short name without spaces or /, e.g. groq')).toBeNull();
    const [name] = screen.getAllByLabelText('Name');
    await fireEvent.change(name);
    expect(screen.getByText('Use a short name without spaces or /, e.g. groq')).toBeTruthy();
    const url = screen.getByPlaceholderText('http://localhost:8080/v1');
    await fireEvent.change(url);
    expect(screen.getAllByText('Use an http(s) URL, e.g. http://localhost:8080/v1').length).toBe(1);
  });
});

describe('ModelsView', () => {
  it('lists models with badges and confirms before deleting', async () => {
    const { fake, app } = appWith({
      listModels: async () => [
        { name: 'qwen3:4b', size: 2497293918, family: 'qwen3', parameterSize: '4.0B', quantization: 'Q4_K_M', contextLength: 40960, capabilities: ['completion', 'tools', 'thinking'] },
      ],
    });
    render(ModelsView, { props: { app } });
    const row = await screen.findByTestId('model-qwen3:4b');
    expect(row.textContent).toContain('2.5 GB · qwen3 · 4.0B · Q4_K_M · 40960 context');
    expect(within(row).getByText('tools')).toBeTruthy();
    await fireEvent.click(within(row).getByRole('button', { name: 'Delete' }));
    expect(row.textContent).toContain('Delete qwen3:4b?');
    expect(fake.mocks.deleteModel).not.toHaveBeenCalled();
    await fireEvent.click(within(row).getAllByRole('button', { name: 'Delete' })[0]);
    expect(fake.mocks.deleteModel).toHaveBeenCalledWith('qwen3:4b');
  });
});
