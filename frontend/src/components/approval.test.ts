// The approval card in a chat message, the Activity view and Settings › Approvals.
import { describe, expect, it, vi, type Mock } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { tick } from 'svelte';
import Message from './Message.svelte';
import ActivityView from './ActivityView.svelte';
import SettingsView from './SettingsView.svelte';
import { createApp } from '../lib/app.svelte';
import { createStatusStore } from '../lib/stores/status.svelte';
import { newTurn, type Turn } from '../lib/stores/turn';
import { fakeApi, fakeStatus } from '../test-fixtures';
import { setLocale } from '../lib/i18n.svelte';
import { argLabel } from '../lib/approval';

function waitingTurn(): Turn {
  const turn = newTurn('r1');
  turn.parts.push({
    kind: 'tool',
    callId: 'c1',
    name: 'exec',
    args: '{"command": "rm -rf build"}',
    approval: { state: 'requested', scope: '', reason: 'It runs a shell command on this computer.', why: { code: 'gate.why.exec' }, maskedArgs: '{"command": "rm -rf build", "env": {"KEY": "***"}}', sending: false, error: '' },
  });
  return turn;
}

describe('approval card', () => {
  it('shows tool, reason and masked arguments; each button answers; Allow once has the focus', async () => {
    const onApprove = vi.fn();
    render(Message, { props: { item: waitingTurn(), onApprove } });
    const card = screen.getByTestId('approval-card');
    expect(within(card).getByText('Allow exec?')).toBeTruthy();
    expect(within(card).getByText('It runs a shell command on this computer.')).toBeTruthy();
    expect(within(card).getByText('rm -rf build')).toBeTruthy();
    expect(card.textContent).toContain('"KEY": "***"');
    await tick();
    expect(document.activeElement?.textContent).toBe('Allow once');
    for (const [name, d] of [
      ['Allow once', 'once'],
      ['Allow for this chat', 'chat'],
      ['Deny', 'deny'],
    ]) {
      await fireEvent.click(within(card).getByRole('button', { name }));
      expect(onApprove).toHaveBeenLastCalledWith('r1', 'c1', d);
    }
    // Always allowing exec warns first and needs a second click.
    onApprove.mockClear();
    await fireEvent.click(within(card).getByRole('button', { name: 'Always allow this tool' }));
    expect(onApprove).not.toHaveBeenCalled();
    expect(within(card).getByTestId('approval-always-warning').textContent).toContain('every shell command');
    await fireEvent.click(within(card).getByRole('button', { name: 'Yes, always allow exec' }));
    expect(onApprove).toHaveBeenLastCalledWith('r1', 'c1', 'always');
  });

  it('marks a destructive call, shows where it runs and what the sandbox allows, and has no default', async () => {
    const turn = waitingTurn();
    const a = (turn.parts[0] as Extract<Turn['parts'][number], { kind: 'tool' }>).approval!;
    a.destructive = true;
    a.dir = '/home/me/Downloads';
    a.sandbox = 'may write only in the workspace and /tmp; no network';
    (document.activeElement as HTMLElement | null)?.blur();
    render(Message, { props: { item: turn, onApprove: vi.fn() } });
    const card = screen.getByTestId('approval-card');
    await tick();
    expect(within(card).getByTestId('approval-destructive').textContent).toBe('Destructive');
    expect(within(card).getByTestId('approval-dir').textContent).toContain('/home/me/Downloads');
    expect(within(card).getByTestId('approval-sandbox').textContent).toContain('no network');
    expect(card.querySelector('button.primary')).toBeNull();
    expect(card.contains(document.activeElement)).toBe(false);
    expect(card.textContent).toContain('No default');
  });

  it('becomes a tool card saying how it was decided', async () => {
    const turn = waitingTurn();
    const part = turn.parts[0] as Extract<Turn['parts'][number], { kind: 'tool' }>;
    part.approval!.state = 'denied';
    part.approval!.scope = 'user';
    part.result = 'Error: denied by the user — do not retry this call';
    part.ok = false;
    render(Message, { props: { item: turn } });
    expect(screen.queryByTestId('approval-card')).toBeNull();
    expect(screen.getByTestId('approval-state').textContent).toBe('denied');
  });
});

describe('what the backend says, in zh-CN', () => {
  it('words the reason, a refusal and a notice from their codes', () => {
    setLocale('zh-CN');
    try {
      const waiting = waitingTurn();
      const a = (waiting.parts[0] as Extract<Turn['parts'][number], { kind: 'tool' }>).approval!;
      a.sandbox = "Sandboxed (landlock): writes only in ~/ws; Hearth's own folders hidden; no network (tools.exec.network is off).";
      a.sandboxNote = { code: 'gate.sandbox.on', args: { mode: 'landlock', where: '~/ws' } };
      render(Message, { props: { item: waiting } });
      expect(within(screen.getByTestId('approval-card')).getByText('它会在这台电脑上运行 shell 命令。')).toBeTruthy();
      expect(screen.getByTestId('approval-sandbox').textContent).toBe(
        '允许后： 在沙箱中运行（landlock）：只能写入 ~/ws；Hearth 自己的文件夹不可见；不能联网（tools.exec.network 已关闭）。',
      );
      const turn = newTurn('r2');
      turn.parts.push(
        {
          kind: 'tool',
          callId: 'c2',
          name: 'exec',
          args: '{}',
          result: 'Error: the user does not allow exec (tools.approval.never) — do not retry this call',
          ok: false,
          why: { code: 'gate.refused.never', args: { tool: 'exec' } },
        },
        { kind: 'notice', level: 'warning', message: 'The model tiny cannot see images; they were left out.', code: 'notice.noImages', args: { model: 'tiny' } },
        { kind: 'notice', level: 'info', message: 'Plain English from an older backend' },
        {
          kind: 'notice',
          level: 'info',
          message: "Left out to fit the model's context window (4096 tokens): the recalled memory.",
          code: 'notice.fit.leftOut',
          args: { limit: '4096' },
          lists: { parts: [{ code: 'notice.fit.recall' }], too: null, advice: null },
        },
      );
      render(Message, { props: { item: turn } });
      expect(screen.getByTestId('tool-preview').textContent).toBe('未运行：exec 被设置为从不允许（设置 › 工具与审批）。');
      expect(screen.getByText('模型 tiny 无法查看图片，图片已被略去。')).toBeTruthy();
      expect(screen.getByText('Plain English from an older backend')).toBeTruthy();
      expect(screen.getByText('为放进模型的上下文窗口（4096 个 token），省略了：回忆起的记忆。')).toBeTruthy();
    } finally {
      setLocale('en');
    }
  });
});

describe("a tool's argument names", () => {
  it('labels a built-in tool\'s arguments in the UI language and keeps an MCP tool\'s as named', () => {
    setLocale('zh-CN');
    try {
      const turn = waitingTurn();
      const part = turn.parts[0] as Extract<Turn['parts'][number], { kind: 'tool' }>;
      part.approval!.maskedArgs = '{"command": "ls", "working_dir": "/tmp", "timeout": 30, "shiny_new": 1}';
      const mcp = newTurn('r3');
      mcp.parts.push({
        kind: 'tool',
        callId: 'c3',
        name: 'mcp_files_read',
        args: '{"path": "/etc/hosts"}',
        approval: { state: 'requested', scope: '', reason: '', maskedArgs: '', sending: false, error: '' },
      });
      render(Message, { props: { item: turn } });
      const names = [...screen.getByTestId('approval-card').querySelectorAll('dt')].map((d) => [d.textContent, d.title]);
      expect(names).toEqual([
        ['命令', 'command'],
        ['工作文件夹', 'working_dir'],
        ['超时（秒）', 'timeout'],
        ['shiny_new', ''],
      ]);
      document.body.innerHTML = '';
      render(Message, { props: { item: mcp } });
      expect([...screen.getByTestId('approval-card').querySelectorAll('dt')].map((d) => d.textContent)).toEqual(['path']);
    } finally {
      setLocale('en');
    }
  });

  it('has a label in both languages for every argument of the built-in tools', () => {
    const builtin: Record<string, string[]> = {
      exec: ['command', 'working_dir', 'timeout'],
      read_file: ['path', 'offset', 'limit'],
      write_file: ['path', 'content'],
      edit_file: ['path', 'old_text', 'new_text', 'replace_all'],
      list_dir: ['path', 'recursive', 'max_entries'],
      glob: ['pattern', 'path'],
      grep: ['pattern', 'path', 'glob', 'output_mode', 'context', 'case_insensitive'],
      web_fetch: ['url', 'max_chars'],
      web_search: ['query', 'count'],
      memory_search: ['query', 'also', 'k', 'skip'],
      remember: ['text'],
      spawn: ['task', 'label'],
      cron: ['action', 'message', 'name', 'at', 'every_seconds', 'cron_expr', 'tz', 'id'],
      message: ['content'],
    };
    for (const locale of ['en', 'zh-CN'] as const) {
      setLocale(locale);
      for (const [tool, args] of Object.entries(builtin)) {
        for (const a of args) expect(argLabel(tool, a), `${locale} ${tool}.${a}`).not.toBe(a);
      }
    }
    setLocale('en');
    expect(argLabel('exec', 'command')).toBe('Command');
    expect(argLabel('mcp_x_y', 'command')).toBe('command');
    expect(argLabel('exec', 'nope')).toBe('nope');
  });
});

describe('Activity view', () => {
  it('lists calls newest first and opens one to its arguments', async () => {
    const fake = fakeApi();
    fake.mocks.activity.mockResolvedValue([
      { time: '2026-11-23T10:00:00Z', session: 's1', run: 'r1', callId: 'r1-1', tool: 'exec', args: { command: 'rm x' }, approval: 'denied', asked: true, ok: false, durationMs: 0, resultSize: 52, error: 'Error: denied by the user' },
      { time: '2026-11-23T10:01:00Z', session: 's1', run: 'r1', callId: 'r1-2', tool: 'exec', args: { command: 'echo hi' }, approval: 'once', asked: true, ok: true, durationMs: 4, resultSize: 3 },
    ]);
    const app = createApp(fake.api, createStatusStore(async () => fakeStatus()));
    render(ActivityView, { props: { app } });
    await vi.waitFor(() => expect(screen.getAllByTestId('activity-row')).toHaveLength(2));
    const rows = screen.getAllByTestId('activity-row');
    expect(rows.map((r) => r.dataset.approval)).toEqual(['once', 'denied']);
    expect(rows[1].textContent).toContain('denied');
    await fireEvent.click(within(rows[1]).getAllByRole('button')[0]);
    expect(rows[1].textContent).toContain('rm x');
    expect(rows[1].textContent).toContain('Error: denied by the user');
    expect(screen.getByTestId('activity-count').textContent).toContain('2 calls');

    await fireEvent.change(screen.getByRole('combobox', { name: 'Tool' }), { target: { value: 'exec' } });
    expect(fake.mocks.activity).toHaveBeenLastCalledWith({ limit: 500, tool: 'exec' });
  });
});

describe('Settings › Approvals', () => {
  it('changes the mode and a tool rule at once and says where keys are kept', async () => {
    const fake = fakeApi();
    fake.mocks.approvalRules.mockResolvedValue({ mode: 'risky', always: ['exec'], ask: [], never: [] });
    const app = createApp(fake.api, createStatusStore(async () => fakeStatus()));
    localStorage.setItem('hearth.settingsSection', 'tools');
    render(SettingsView, { props: { app } });
    const section = await screen.findByTestId('approval-settings');
    await fireEvent.click(within(section).getByRole('radio', { name: /Ask every time/ }));
    expect(fake.mocks.setApprovalMode).toHaveBeenCalledWith('ask');
    // Settings' one status line says it was saved.
    await vi.waitFor(() => expect(screen.getByTestId('settings-status').dataset.state).toBe('saved'));
    await fireEvent.change(within(section).getByRole('combobox', { name: 'Rule for exec' }), { target: { value: 'never' } });
    expect(fake.mocks.setToolApproval).toHaveBeenCalledWith('exec', 'never');
    await fireEvent.input(within(section).getByRole('combobox', { name: 'Tool name' }), { target: { value: 'web_fetch' } });
    await fireEvent.click(within(section).getByRole('button', { name: 'Add rule' }));
    expect(fake.mocks.setToolApproval).toHaveBeenLastCalledWith('web_fetch', 'always');
    // Where keys are kept is said beside them, under Models & providers.
    await fireEvent.click(screen.getByRole('tab', { name: 'Models & providers' }));
    await vi.waitFor(() => expect(screen.getByTestId('key-storage').textContent).toMatch(/config\.json/));
  });
});

describe('approval card focus', () => {
  it('leaves the focus in a half-written message', async () => {
    const box = document.createElement('textarea');
    document.body.append(box);
    box.value = 'and then';
    box.focus();
    render(Message, { props: { item: waitingTurn(), onApprove: vi.fn() } });
    await tick();
    expect(document.activeElement).toBe(box);
    box.remove();
  });
});

describe('approval card in a window that shrinks', () => {
  it('brings itself back into view when the chat box changes size while it waits', async () => {
    const observers: { cb: ResizeObserverCallback; targets: Element[]; disconnect: Mock<() => void> }[] = [];
    class FakeObserver {
      o: (typeof observers)[number];
      constructor(cb: ResizeObserverCallback) {
        this.o = { cb, targets: [], disconnect: vi.fn() };
        observers.push(this.o);
      }
      observe(el: Element) {
        this.o.targets.push(el);
      }
      unobserve() {}
      disconnect() {
        this.o.disconnect();
      }
    }
    vi.stubGlobal('ResizeObserver', FakeObserver);
    vi.stubGlobal('requestAnimationFrame', (f: FrameRequestCallback) => (f(0), 1));
    vi.stubGlobal('cancelAnimationFrame', () => {});
    const scrolled = vi.fn();
    const had = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = function (this: Element, arg?: boolean | ScrollIntoViewOptions) {
      scrolled(this, arg);
    };
    const chat = document.createElement('div');
    chat.style.overflowY = 'auto';
    document.body.append(chat);
    const rect = (top: number, height: number) => ({ top, bottom: top + height, height, left: 0, right: 600, width: 600, x: 0, y: top }) as DOMRect;
    chat.getBoundingClientRect = () => rect(0, 700);
    let cardAt = 400;
    try {
      const { unmount } = render(Message, { target: chat, props: { item: waitingTurn(), onApprove: vi.fn() } });
      const card = screen.getByTestId('approval-card');
      card.getBoundingClientRect = () => rect(cardAt, 250);
      await tick();
      const watch = observers.find((o) => o.targets.includes(chat));
      expect(watch, 'the chat box is observed').toBeTruthy();
      watch!.cb([], {} as ResizeObserver); // in view at 700 px high: left where it is
      expect(scrolled).not.toHaveBeenCalled();
      // The window shrinks to 450: the chat box is 330 px high, the card below its edge.
      chat.getBoundingClientRect = () => rect(0, 330);
      watch!.cb([], {} as ResizeObserver);
      expect(scrolled).toHaveBeenLastCalledWith(card, { block: 'end' });
      // Shorter still than the card: its command at the top.
      chat.getBoundingClientRect = () => rect(0, 200);
      cardAt = 150;
      watch!.cb([], {} as ResizeObserver);
      expect(scrolled).toHaveBeenLastCalledWith(card.querySelector('.args'), { block: 'start' });
      unmount();
      expect(watch!.disconnect).toHaveBeenCalled();
    } finally {
      Element.prototype.scrollIntoView = had;
      vi.unstubAllGlobals();
      chat.remove();
    }
  });
});

describe('chat keys while a call waits', () => {
  it('Enter in the empty message box allows once; Esc stops the reply', async () => {
    const { default: ChatView } = await import('./ChatView.svelte');
    const { createChatStore } = await import('../lib/stores/chat.svelte');
    const { createSessionsStore } = await import('../lib/stores/sessions.svelte');
    const fake = fakeApi();
    const chat = createChatStore(fake.api, { schedule: (fn) => fn() });
    render(ChatView, { props: { chat, sessions: createSessionsStore(fake.api), status: fakeStatus() } });
    await chat.send('do it');
    fake.emitRun('r1', 'run_started');
    fake.emitRun('r1', 'tool_call', { callId: 'c1', name: 'exec', args: { command: 'ls' } });
    fake.emitRun('r1', 'approval', { callId: 'c1', state: 'requested' });
    await tick();
    await screen.findByTestId('approval-card');
    const box = screen.getByRole('textbox', { name: 'Message Hearth…' });
    box.focus();
    await fireEvent.keyDown(box, { key: 'Enter' });
    expect(fake.mocks.approve).toHaveBeenCalledWith('r1', 'c1', 'once');
    expect(fake.mocks.send).toHaveBeenCalledTimes(1); // Enter did not send a message
    await fireEvent.keyDown(box, { key: 'Escape' });
    expect(fake.mocks.stop).toHaveBeenCalledWith('s1');
  });
});
