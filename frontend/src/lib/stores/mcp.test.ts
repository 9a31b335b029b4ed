import { describe, expect, it, vi } from 'vitest';
import type { McpServer } from '../api';
import { createMcpStore, emptyDraft, fromDraft, maskPairs, toDraft, transportOf } from './mcp.svelte';

const server = (over: Partial<McpServer> = {}): McpServer =>
  ({
    name: 'files',
    config: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/u'], env: { B: '2', A: '1' }, toolTimeout: 20 },
    transport: 'stdio',
    connected: true,
    tools: 3,
    toolNames: ['mcp_files_read', 'mcp_files_write', 'mcp_files_list'],
    lastError: '',
    since: '2026-11-23T10:00:00Z',
    serverName: 'fs',
    serverVersion: '1.0',
    ...over,
  }) as McpServer;

function fakeMcp(list: McpServer[] = [server()]) {
  return {
    listMcpServers: vi.fn(async () => list),
    saveMcpServer: vi.fn(async () => {}),
    removeMcpServer: vi.fn(async () => {}),
    importClaudeDesktop: vi.fn(async () => ['files']),
    testMcpServer: vi.fn(async () => ({ transport: 'stdio', serverName: 'fs', serverVersion: '1', tools: ['mcp_files_read'], durationMs: 12 })),
    testMcpDraft: vi.fn(async () => ({ transport: 'stdio', serverName: 'fs', serverVersion: '1', tools: [], durationMs: 1 })),
  };
}

describe('MCP drafts', () => {
  it('picks the transport as the backend does', () => {
    expect(transportOf({ command: 'x' })).toBe('stdio');
    expect(transportOf({ url: 'http://h/sse' })).toBe('sse');
    expect(transportOf({ url: 'http://h/sse/?k=1' })).toBe('sse');
    expect(transportOf({ url: 'http://h/mcp' })).toBe('streamableHttp');
    expect(transportOf({ url: 'http://h/sse', type: 'http' })).toBe('streamableHttp');
  });

  it('round-trips a stdio server through the form', () => {
    const d = toDraft(server());
    expect(d).toMatchObject({ name: 'files', transport: 'stdio', args: '-y\n@modelcontextprotocol/server-filesystem\n/home/u', env: 'A=1\nB=2', toolTimeout: 20 });
    const { config, errors } = fromDraft(d, ['files']);
    expect(errors).toEqual({});
    expect(config).toEqual({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/u'], env: { A: '1', B: '2' }, toolTimeout: 20 });
  });

  it('builds an HTTP server with headers, tools and the type only where the URL does not say it', () => {
    const d = { ...emptyDraft(), name: 'remote', transport: 'streamableHttp' as const, url: 'https://mcp.example.com/mcp', headers: 'Authorization: Bearer ${TOKEN}', enabledTools: 'search, fetch' };
    expect(fromDraft(d, []).config).toEqual({ url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${TOKEN}' }, enabledTools: ['search', 'fetch'] });
    expect(fromDraft({ ...d, transport: 'sse' }, []).config.type).toBe('sse');
    expect(fromDraft({ ...d, url: 'https://h/sse' }, []).config.type).toBe('http');
  });

  it('names every bad field', () => {
    const d = { ...emptyDraft(), name: 'files', env: 'NOEQUALS', toolTimeout: -1 };
    const e = fromDraft(d, ['files']).errors;
    expect(e.name).toEqual({ key: 'mcp.err.nameTaken', params: { name: 'files' } });
    expect(e.command.key).toBe('mcp.err.command');
    expect(e.env).toEqual({ key: 'mcp.err.env', params: { line: 'NOEQUALS' } });
    expect(e.toolTimeout.key).toBe('mcp.err.timeout');
    const h = fromDraft({ ...emptyDraft(), transport: 'sse', url: 'ftp://x', headers: 'bad' }, []).errors;
    expect(Object.keys(h).sort()).toEqual(['headers', 'name', 'url']);
  });
});

describe('MCP store', () => {
  it('shows why a pasted block cannot be imported, keeps the text, and clears the message on edit', async () => {
    const api = fakeMcp();
    api.importClaudeDesktop.mockRejectedValueOnce('not valid JSON: unexpected end of JSON input (hint: paste the whole "mcpServers": {…} block)');
    const store = createMcpStore(api);
    store.importText = '{"mcpServers": {';
    expect(await store.importBlock()).toBe(false);
    expect(store.importError).toMatch(/^not valid JSON/);
    expect(store.importText).toBe('{"mcpServers": {');
    expect(api.listMcpServers).not.toHaveBeenCalled();
    store.importText = '{"mcpServers": {}}';
    expect(store.importError).toBe('');
  });

  it('imports a block, lists the servers it added and clears the box', async () => {
    const api = fakeMcp();
    const store = createMcpStore(api);
    store.importText = '{"mcpServers": {"files": {"command": "npx"}}}';
    expect(await store.importBlock()).toBe(true);
    expect(api.importClaudeDesktop).toHaveBeenCalledWith('{"mcpServers": {"files": {"command": "npx"}}}');
    expect(store.imported).toEqual(['files']);
    expect(store.importText).toBe('');
    expect(store.list.map((s) => s.name)).toEqual(['files']);
  });

  it('saves an edited server, and a renamed one under its new name before removing the old', async () => {
    const api = fakeMcp();
    const store = createMcpStore(api);
    await store.refresh();
    store.edit('files');
    store.draft!.name = 'disk';
    store.draft!.toolTimeout = 60;
    expect(await store.save()).toBe(true);
    expect(api.saveMcpServer).toHaveBeenCalledWith('disk', expect.objectContaining({ command: 'npx', toolTimeout: 60 }));
    expect(api.removeMcpServer).toHaveBeenCalledWith('files');
    expect(api.saveMcpServer.mock.invocationCallOrder[0]).toBeLessThan(api.removeMcpServer.mock.invocationCallOrder[0]);
    expect(store.draft).toBeNull();
  });

  it('keeps the form open with field errors, and with the backend error when saving fails', async () => {
    const api = fakeMcp();
    const store = createMcpStore(api);
    await store.refresh();
    store.edit(null);
    expect(await store.save()).toBe(false);
    expect(Object.keys(store.errors).sort()).toEqual(['command', 'name']);
    expect(api.saveMcpServer).not.toHaveBeenCalled();
    store.draft!.name = 'x';
    store.draft!.command = 'run-x';
    api.saveMcpServer.mockRejectedValueOnce('save MCP server: write config: permission denied');
    expect(await store.save()).toBe(false);
    expect(store.saveError).toMatch(/permission denied/);
    expect(store.draft?.name).toBe('x');
  });

  it('removes a server and says so when removing fails', async () => {
    const api = fakeMcp();
    const store = createMcpStore(api);
    await store.refresh();
    expect(await store.remove('files')).toBe(true);
    expect(api.removeMcpServer).toHaveBeenCalledWith('files');
    api.removeMcpServer.mockRejectedValueOnce('remove MCP server: no server named "gone"');
    expect(await store.remove('gone')).toBe(false);
    expect(store.error).toMatch(/no server named/);
    expect(store.removing).toBe('');
  });

  it('tracks a connection test: running, then the tools, or the error', async () => {
    const api = fakeMcp();
    let finish!: (v: unknown) => void;
    api.testMcpServer.mockImplementationOnce(() => new Promise((r) => (finish = r as never)));
    const store = createMcpStore(api);
    const done = store.test('files');
    expect(store.tests.files).toEqual({ running: true, result: null, error: '' });
    finish({ transport: 'stdio', serverName: 'fs', serverVersion: '1', tools: ['mcp_files_read'], durationMs: 5 });
    await done;
    expect(store.tests.files.running).toBe(false);
    expect(store.tests.files.result?.tools).toEqual(['mcp_files_read']);
    api.testMcpServer.mockRejectedValueOnce('MCP server files: exec: "npx": executable file not found in $PATH');
    await store.test('files');
    expect(store.tests.files).toMatchObject({ running: false, result: null, error: expect.stringContaining('not found') });
    store.dismissTest('files');
    expect(store.tests.files).toBeUndefined();
  });

  it('shows a list error', async () => {
    const api = fakeMcp();
    api.listMcpServers.mockRejectedValueOnce('agent: no workspace');
    const store = createMcpStore(api);
    await store.refresh();
    expect(store.error).toBe('agent: no workspace');
    expect(store.loaded).toBe(true);
  });
});

describe('MCP store: testing the form', () => {
  it('tests the unsaved form, shows field errors first, and never saves', async () => {
    const api = { ...fakeMcp(), testMcpDraft: vi.fn(async () => ({ transport: 'sse', serverName: 'r', serverVersion: '', tools: [], durationMs: 3 })) };
    const store = createMcpStore(api);
    await store.refresh();
    store.edit(null);
    store.draft!.transport = 'sse';
    store.draft!.url = 'nope';
    await store.testDraft();
    expect(store.errors.url.key).toBe('mcp.err.url');
    expect(store.errors.name).toBeUndefined();
    expect(api.testMcpDraft).not.toHaveBeenCalled();
    store.draft!.url = 'http://127.0.0.1:8000/sse';
    await store.testDraft();
    expect(api.testMcpDraft).toHaveBeenCalledWith('test', { url: 'http://127.0.0.1:8000/sse' });
    expect(store.draftTest).toMatchObject({ running: false, error: '', result: { tools: [] } });
    api.testMcpDraft.mockRejectedValueOnce('MCP server test: connection refused');
    await store.testDraft();
    expect(store.draftTest?.error).toMatch(/connection refused/);
    store.dismissTest();
    expect(store.draftTest).toBeNull();
    expect(api.saveMcpServer).not.toHaveBeenCalled();
  });
});

describe('maskPairs', () => {
  it('hides values but keeps names, ${VAR} references and blank lines', () => {
    const env = 'API_KEY=sk-live-123\nHOME_DIR=${HOME}\n\nEMPTY=\nstray-secret';
    expect(maskPairs(env, '=')).toBe('API_KEY=••••••••\nHOME_DIR=${HOME}\n\nEMPTY=\n••••••••');
    expect(maskPairs('Authorization: Bearer abc\nX-Token: ${TOKEN}', ':')).toBe('Authorization: ••••••••\nX-Token: ${TOKEN}');
    // The secret of "Bearer ${TOKEN}" is in the environment: shown as written.
    expect(maskPairs('Authorization: Bearer ${TOKEN}', ':')).toBe('Authorization: Bearer ${TOKEN}');
    // "$X" and "{X}" are not references.
    expect(maskPairs('A=$X\nB={X}', '=')).toBe('A=••••••••\nB=••••••••');
    expect(maskPairs('', '=')).toBe('');
  });
});
