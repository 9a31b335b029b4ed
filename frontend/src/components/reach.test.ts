import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import McpView from './McpView.svelte';
import SkillsView from './SkillsView.svelte';
import { createApp } from '../lib/app.svelte';
import { createStatusStore } from '../lib/stores/status.svelte';
import { fakeApi, fakeStatus } from '../test-fixtures';
import type { Api, McpServer, Skill } from '../lib/api';
import { setLocale } from '../lib/i18n.svelte';

function appWith(over: Partial<Api>) {
  const fake = fakeApi(over);
  return createApp(fake.api, createStatusStore(async () => fakeStatus()));
}

const servers = [
  { name: 'notes', config: { command: '/usr/bin/notes-mcp' }, transport: 'stdio', connected: true, tools: 2, toolNames: ['mcp_notes_a', 'mcp_notes_b'], lastError: '', since: '', serverName: 'notes', serverVersion: '1' },
  { name: 'cal', config: { url: 'http://127.0.0.1:9/sse' }, transport: 'sse', connected: false, tools: 0, toolNames: [], lastError: 'connection refused', since: '', serverName: '', serverVersion: '' },
] as McpServer[];

describe('McpView', () => {
  it('shows each server state, its tool count or its last error, and tests a server', async () => {
    const testMcpServer = vi.fn(async () => ({ transport: 'stdio', serverName: 'notes', serverVersion: '1', tools: ['mcp_notes_a', 'mcp_notes_b'], durationMs: 7 }));
    const app = appWith({ listMcpServers: vi.fn(async () => servers), testMcpServer } as Partial<Api>);
    render(McpView, { props: { app } });
    const notes = await screen.findByTestId('mcp-notes');
    expect(notes.dataset.state).toBe('connected');
    expect(within(notes).getByTestId('mcp-tools').textContent).toBe('2 tools');
    const cal = screen.getByTestId('mcp-cal');
    expect(cal.dataset.state).toBe('failed');
    expect(within(cal).getByTestId('mcp-error').textContent).toContain('connection refused');
    expect(within(cal).getByText('SSE')).toBeTruthy();
    await fireEvent.click(within(notes).getByRole('button', { name: 'Test connection' }));
    const result = await within(notes).findByTestId('mcp-test');
    expect(result.textContent).toContain('Connected to notes 1 in 7 ms. It offers 2 tools:');
    expect(testMcpServer).toHaveBeenCalledWith('notes');
  });

  it('reloads on MCP news instead of polling, and stops listening when closed', async () => {
    const setInterval = vi.spyOn(globalThis, 'setInterval');
    const listMcpServers = vi.fn(async () => servers);
    const fake = fakeApi({ listMcpServers } as Partial<Api>);
    const { unmount } = render(McpView, { props: { app: createApp(fake.api, createStatusStore(async () => fakeStatus())) } });
    expect((await screen.findByTestId('mcp-cal')).dataset.state).toBe('failed');
    expect(listMcpServers).toHaveBeenCalledTimes(1);
    // (testing-library's own waiting polls every 50 ms; the view must not poll at all.)
    expect(setInterval.mock.calls.filter(([, ms]) => (ms ?? 0) >= 1000)).toEqual([]);
    setInterval.mockRestore();
    listMcpServers.mockResolvedValueOnce([servers[0], { ...servers[1], connected: true, lastError: '', tools: 1, toolNames: ['mcp_cal_a'] }] as McpServer[]);
    fake.emitMcpChanged('cal');
    await vi.waitFor(() => expect(screen.getByTestId('mcp-cal').dataset.state).toBe('connected'));
    unmount();
    fake.emitMcpChanged('cal');
    expect(listMcpServers).toHaveBeenCalledTimes(2);
  });

  it('explains bad fields in the form and saves nothing until they are fixed', async () => {
    const saveMcpServer = vi.fn(async () => {});
    const app = appWith({ listMcpServers: vi.fn(async () => servers), saveMcpServer } as Partial<Api>);
    render(McpView, { props: { app } });
    await screen.findByTestId('mcp-notes');
    await fireEvent.click(screen.getByRole('button', { name: 'Add server' }));
    const form = screen.getByRole('form', { name: 'New MCP server' });
    await fireEvent.input(within(form).getByLabelText(/^Name/), { target: { value: 'notes' } });
    await fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(within(form).getByText('A server named notes exists already.')).toBeTruthy();
    expect(within(form).getByText('Give the program to run.')).toBeTruthy();
    expect(saveMcpServer).not.toHaveBeenCalled();
    await fireEvent.input(within(form).getByLabelText(/^Name/), { target: { value: 'files' } });
    await fireEvent.input(within(form).getByLabelText(/^Command/), { target: { value: 'npx' } });
    await fireEvent.input(within(form).getByLabelText('Arguments (one per line)'), { target: { value: '-y\nserver-files' } });
    await fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(saveMcpServer).toHaveBeenCalledWith('files', { command: 'npx', args: ['-y', 'server-files'] }));
  });
});

describe('McpView secrets', () => {
  it('keeps env and header values hidden until asked, and saves them unchanged', async () => {
    const saveMcpServer = vi.fn(async () => {});
    const withKeys = [
      { ...servers[0], config: { command: '/usr/bin/notes-mcp', env: { NOTES_KEY: 'sk-live-123', HOME_DIR: '${HOME}' } } },
      { ...servers[1], config: { url: 'http://127.0.0.1:9/sse', headers: { 'X-Ref': '${TOKEN}' } } },
    ] as unknown as McpServer[];
    const app = appWith({ listMcpServers: vi.fn(async () => withKeys), saveMcpServer } as Partial<Api>);
    const { container } = render(McpView, { props: { app } });
    const notes = await screen.findByTestId('mcp-notes');
    await fireEvent.click(within(notes).getByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('form', { name: 'Edit notes' });
    expect(container.textContent).not.toContain('sk-live-123');
    expect(within(form).getByTestId('masked-pairs').textContent).toBe('HOME_DIR=${HOME}\nNOTES_KEY=••••••••');
    await fireEvent.click(within(form).getByRole('button', { name: 'Show values' }));
    const env = within(form).getByLabelText(/^Environment/) as HTMLTextAreaElement;
    expect(env.value).toBe('HOME_DIR=${HOME}\nNOTES_KEY=sk-live-123');
    await fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() =>
      expect(saveMcpServer).toHaveBeenCalledWith('notes', { command: '/usr/bin/notes-mcp', env: { HOME_DIR: '${HOME}', NOTES_KEY: 'sk-live-123' } }),
    );
  });

  it('shows references-only headers as an editable field', async () => {
    const withRef = [{ ...servers[1], config: { url: 'http://127.0.0.1:9/sse', headers: { 'X-Ref': '${TOKEN}' } } }] as unknown as McpServer[];
    const app = appWith({ listMcpServers: vi.fn(async () => withRef) } as Partial<Api>);
    render(McpView, { props: { app } });
    const cal = await screen.findByTestId('mcp-cal');
    await fireEvent.click(within(cal).getByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('form', { name: 'Edit cal' });
    expect(within(form).queryByTestId('masked-pairs')).toBeNull();
    const headers = within(form).getByLabelText(/^Headers/) as HTMLTextAreaElement;
    expect(headers.value).toBe('X-Ref: ${TOKEN}');
    // Typing a new secret does not hide the field under the user's fingers.
    await fireEvent.input(headers, { target: { value: 'X-Ref: ${TOKEN}\nX-Key: abc' } });
    expect(within(form).queryByTestId('masked-pairs')).toBeNull();
    expect((within(form).getByLabelText(/^Headers/) as HTMLTextAreaElement).value).toContain('X-Key: abc');
  });
});

describe('SkillsView', () => {
  it('lists skills with what they miss and turns one off', async () => {
    const setSkillEnabled = vi.fn(async () => {});
    const list = [
      { name: 'memory', description: 'Remember.', source: 'builtin', always: true, available: true, enabled: true, path: '/ws/.hearth/skills/memory/SKILL.md', location: '.hearth/skills/memory/SKILL.md' },
      { name: 'video', description: 'Cut videos.', source: 'workspace', always: false, available: false, missingBins: ['ffmpeg'], enabled: true, path: '/ws/skills/video/SKILL.md', location: 'skills/video/SKILL.md' },
    ] as Skill[];
    const customizeSkill = vi.fn(async (name: string) => `skills/${name}/SKILL.md`);
    const app = appWith({ listSkills: vi.fn(async () => list), setSkillEnabled, customizeSkill } as Partial<Api>);
    render(SkillsView, { props: { app } });
    const video = await screen.findByTestId('skill-video');
    expect(within(video).getByText('Workspace')).toBeTruthy();
    expect(within(video).getByTestId('skill-missing').textContent).toBe('Missing: bin: ffmpeg');
    expect(within(screen.getByTestId('skill-memory')).getByText('Always on')).toBeTruthy();
    await fireEvent.click(screen.getByRole('switch', { name: 'Offer memory to the model' }));
    expect(setSkillEnabled).toHaveBeenCalledWith('memory', false);
    // A built-in opens as a copy in the workspace, in the memory editor.
    await fireEvent.click(within(screen.getByTestId('skill-memory')).getByRole('button', { name: 'Open a copy to customise' }));
    await vi.waitFor(() => expect(app.view).toBe('memory'));
    expect(customizeSkill).toHaveBeenCalledWith('memory');
    expect(app.memory.current).toBe('skills/memory/SKILL.md');
    await fireEvent.click(within(video).getByRole('button', { name: 'Open in editor' }));
    await vi.waitFor(() => expect(app.memory.current).toBe('skills/video/SKILL.md'));
  });
});

describe('McpView in zh-CN', () => {
  // What userError (app_memory.go) sends for `{"fs": {"Command": "npx"}, "web": {"url": "ftp://h"}}`.
  const refused = {
    message:
      'cannot import: fs: key "Command" should be spelled "command": keys are case-sensitive (hint: rename "Command" to "command" in the pasted block and import again; nothing was imported); web: url "ftp://h" is not http(s)',
    code: 'mcp.key.caseIn',
    args: { where: 'fs', key: '"Command"', want: '"command"' },
    problems: [
      {
        text: { code: 'mcp.key.caseIn', args: { where: 'fs', key: '"Command"', want: '"command"' } },
        hint: [{ code: 'mcp.key.caseIn.hint', args: { where: 'fs', key: '"Command"', want: '"command"' } }],
      },
      { text: { code: 'mcp.server.badURL', args: { name: 'web', url: '"ftp://h"' } } },
    ],
  };

  it('says why an import was refused in Chinese, each server on its own line', async () => {
    setLocale('zh-CN');
    try {
      // As Wails' runtime rejects it: new Error(the JSON text userError sends).
      const importClaudeDesktop = vi.fn(async () => Promise.reject(new Error(JSON.stringify(refused))));
      const app = appWith({ listMcpServers: vi.fn(async () => servers), importClaudeDesktop } as Partial<Api>);
      render(McpView, { props: { app } });
      await screen.findByTestId('mcp-notes');
      const box = screen.getByRole('form', { name: '从 Claude Desktop 导入' });
      await fireEvent.input(within(box).getByRole('textbox'), { target: { value: '{"fs": {"Command": "npx"}, "web": {"url": "ftp://h"}}' } });
      await fireEvent.click(within(box).getByRole('button', { name: '导入' }));
      const error = await within(box).findByTestId('import-error');
      expect(error.textContent).toBe(
        'fs：键 "Command" 应写作 "command"：键名区分大小写（在粘贴的内容中把 "Command" 改为 "command"，再重新导入；本次没有导入任何服务器）\n' +
          'web：地址 "ftp://h" 不是 http(s) 地址',
      );
      expect(importClaudeDesktop).toHaveBeenCalledWith('{"fs": {"Command": "npx"}, "web": {"url": "ftp://h"}}');
    } finally {
      setLocale('en');
    }
  });

  it('words a refused save from its code, and keeps the English for a code it does not know', async () => {
    setLocale('zh-CN');
    try {
      const saveMcpServer = vi
        .fn()
        .mockRejectedValueOnce({
          message: 'save MCP server: files: toolTimeout must not be negative',
          code: 'mcp.server.negativeTimeout',
          args: { name: 'files' },
          problems: [{ text: { code: 'mcp.server.negativeTimeout', args: { name: 'files' } } }],
        })
        .mockRejectedValueOnce({ message: 'from a newer backend', code: 'mcp.unknown', problems: [{ text: { code: 'mcp.unknown' } }] });
      const app = appWith({ listMcpServers: vi.fn(async () => servers), saveMcpServer } as Partial<Api>);
      render(McpView, { props: { app } });
      await screen.findByTestId('mcp-notes');
      await fireEvent.click(within(screen.getByTestId('mcp-notes')).getByRole('button', { name: '编辑' }));
      const form = screen.getByRole('form', { name: '编辑 notes' });
      await fireEvent.click(within(form).getByRole('button', { name: '保存' }));
      expect((await within(form).findByRole('alert')).textContent).toBe('files：toolTimeout 不能是负数');
      await fireEvent.click(within(form).getByRole('button', { name: '保存' }));
      await vi.waitFor(() => expect(within(form).getByRole('alert').textContent).toBe('from a newer backend'));
    } finally {
      setLocale('en');
    }
  });
});
