import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import EgressLog from './EgressLog.svelte';
import SandboxStatus from './SandboxStatus.svelte';
import { createApp } from '../lib/app.svelte';
import { createStatusStore } from '../lib/stores/status.svelte';
import { fakeApi, fakeStatus } from '../test-fixtures';
import { setLocale } from '../lib/i18n.svelte';

describe('EgressLog', () => {
  it('reads the egress log when opened and marks refused connections', async () => {
    const egressLog = vi.fn(async () => [
      { time: '2026-11-25T10:40:02Z', host: 'api.openai.com:443', purpose: 'model provider openai', refused: true },
      { time: '2026-11-25T10:39:00Z', host: '127.0.0.1:11434', purpose: 'model provider ollama', local: true },
      { time: '2026-11-25T10:38:00Z', host: 'api.example.com:443', via: '127.0.0.1:3128', purpose: 'web_search' },
    ]);
    const { api } = fakeApi({ egressLog });
    const app = createApp(api, createStatusStore(async () => fakeStatus()));
    const { container } = render(EgressLog, { props: { app } });
    expect(egressLog).not.toHaveBeenCalled();
    const details = container.querySelector('details') as HTMLDetailsElement;
    details.open = true;
    await fireEvent(details, new Event('toggle'));
    await waitFor(() => expect(screen.getByText('api.openai.com:443')).toBeTruthy());
    expect(screen.getByText('refused (local-only)')).toBeTruthy();
    expect(screen.getByText('local')).toBeTruthy();
    expect(screen.getByText('via proxy 127.0.0.1:3128')).toBeTruthy();
    expect(container.querySelectorAll('tr.refused').length).toBe(1);
  });
});

describe('SandboxStatus', () => {
  it('shows how commands are confined, and warns without a sandbox', async () => {
    const { api } = fakeApi();
    const status = createStatusStore(async () =>
      fakeStatus({
        sandbox: { mode: 'none', landlockABI: 0, namespaces: false, summary: 'none', warning: 'commands run with your full rights' },
        localOnly: true,
      }),
    );
    await status.refresh();
    const app = createApp(api, status);
    render(SandboxStatus, { props: { app } });
    expect(screen.getByText('none')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('full rights');
    expect(screen.getByText(/cannot cut commands off/)).toBeTruthy();
  });

  it('words the summary and the warning in the UI language', async () => {
    const { api } = fakeApi();
    const status = createStatusStore(async () =>
      fakeStatus({
        sandbox: {
          mode: 'landlock',
          landlockABI: 7,
          namespaces: true,
          summary: 'Landlock ABI 7 with user, PID, mount and network namespaces',
          summaryMessage: { code: 'sandbox.landlock.namespaces', args: { abi: '7' } },
          warning: 'the sandbox is switched off (tools.exec.sandbox): commands run with your full rights',
          warningMessage: { code: 'sandbox.off.warning' },
        },
      }),
    );
    await status.refresh();
    setLocale('zh-CN');
    try {
      render(SandboxStatus, { props: { app: createApp(api, status) } });
      expect(screen.getByText('Landlock ABI 7，并使用用户、PID、挂载和网络命名空间')).toBeTruthy();
      expect(screen.getByRole('alert').textContent).toBe('沙箱已关闭（tools.exec.sandbox）：命令以你的全部权限运行');
      expect(document.body.textContent).not.toContain('namespaces');
    } finally {
      setLocale('en');
    }
  });
});
