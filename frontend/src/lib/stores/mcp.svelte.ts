// MCP servers (docs/design/extensions.md#mcp-servers): the configured servers with their live state, the editor for one
// server, a pasted Claude Desktop block to import, and connection tests.
import { errText, type Api, type McpConfig, type McpServer, type McpTest } from '../api';

export type Transport = 'stdio' | 'streamableHttp' | 'sse';

/** The editor's form: list fields are text, one entry a line. */
export interface McpDraft {
  /** the server's name before editing; '' for a new server */
  original: string;
  name: string;
  transport: Transport;
  command: string;
  args: string;
  env: string;
  url: string;
  headers: string;
  enabledTools: string;
  toolTimeout: number | null;
  /** the saved entry's type, kept when the transport stays the same */
  type: string;
}

/** A form problem: an i18n key with its parameters. */
export interface McpFieldError {
  key: string;
  params?: Record<string, string | number>;
}

export interface TestState {
  running: boolean;
  result: McpTest | null;
  error: string;
}

/** How config.MCPServer picks its transport (backend/mcp TransportOf). */
export function transportOf(c: McpConfig): Transport {
  switch ((c.type ?? '').toLowerCase()) {
    case 'stdio':
      return 'stdio';
    case 'sse':
      return 'sse';
    case 'http':
    case 'streamablehttp':
    case 'streamable-http':
    case 'streamable_http':
      return 'streamableHttp';
  }
  if (c.command) return 'stdio';
  if (/\/sse$/.test((c.url ?? '').split('?')[0].replace(/\/+$/, ''))) return 'sse';
  return 'streamableHttp';
}

const pairs = (m: Record<string, string> | undefined, sep: string) =>
  Object.entries(m ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}${sep}${v}`)
    .join('\n');

// A value that takes its secret from an environment variable (${VAR}, also inside
// "Bearer ${TOKEN}") holds none itself.
const reference = /\$\{[A-Za-z_][A-Za-z0-9_]*\}/;

/** maskPairs hides the values of NAME=value (or Name: value) lines, keeping the names and
 * ${VAR} references, so keys and tokens are not shown on screen until asked for. Every
 * hidden value looks the same: its length is not shown either. */
export function maskPairs(text: string, sep: '=' | ':'): string {
  return text
    .split('\n')
    .map((line) => {
      const i = line.indexOf(sep);
      if (i < 0) return line.trim() ? '••••••••' : line;
      const value = line.slice(i + 1).trim();
      if (!value || reference.test(value)) return line;
      return line.slice(0, i + 1) + (sep === ':' ? ' ' : '') + '••••••••';
    })
    .join('\n');
}

export function emptyDraft(): McpDraft {
  return { original: '', name: '', transport: 'stdio', command: '', args: '', env: '', url: '', headers: '', enabledTools: '', toolTimeout: null, type: '' };
}

export function toDraft(s: McpServer): McpDraft {
  const c = s.config ?? {};
  return {
    original: s.name,
    name: s.name,
    transport: transportOf(c),
    command: c.command ?? '',
    args: (c.args ?? []).join('\n'),
    env: pairs(c.env, '='),
    url: c.url ?? '',
    headers: pairs(c.headers, ': '),
    enabledTools: (c.enabledTools ?? []).join('\n'),
    toolTimeout: c.toolTimeout || null,
    type: c.type ?? '',
  };
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

function parsePairs(text: string, sep: string, field: string, errors: Record<string, McpFieldError>) {
  const out: Record<string, string> = {};
  for (const l of lines(text)) {
    const i = l.indexOf(sep);
    if (i <= 0) {
      errors[field] ??= { key: `mcp.err.${field}`, params: { line: l } };
      continue;
    }
    out[l.slice(0, i).trim()] = l.slice(i + 1).trim();
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * Turns the form into a config entry, or says what is wrong field by field. taken are the
 * names of the other servers.
 */
export function fromDraft(d: McpDraft, taken: string[]): { config: McpConfig; errors: Record<string, McpFieldError> } {
  const errors: Record<string, McpFieldError> = {};
  const name = d.name.trim();
  if (!name) errors.name = { key: 'mcp.err.name' };
  else if (name !== d.original && taken.includes(name)) errors.name = { key: 'mcp.err.nameTaken', params: { name } };
  const c: McpConfig = {};
  if (d.transport === 'stdio') {
    c.command = d.command.trim();
    if (!c.command) errors.command = { key: 'mcp.err.command' };
    const args = lines(d.args);
    if (args.length) c.args = args;
    c.env = parsePairs(d.env, '=', 'env', errors);
    if (d.type && transportOf({ type: d.type }) === 'stdio') c.type = d.type;
  } else {
    c.url = d.url.trim();
    if (!/^https?:\/\/\S+$/.test(c.url)) errors.url = { key: 'mcp.err.url' };
    c.headers = parsePairs(d.headers, ':', 'headers', errors);
    // Keep the saved type when it still names this transport; otherwise say it only
    // where the URL alone would not pick it.
    if (d.type && transportOf({ type: d.type }) === d.transport) c.type = d.type;
    else if (transportOf({ url: c.url }) !== d.transport) c.type = d.transport === 'sse' ? 'sse' : 'http';
  }
  const tools = d.enabledTools
    .split(/[\n,]/)
    .map((t) => t.trim())
    .filter(Boolean);
  if (tools.length) c.enabledTools = tools;
  const timeout = d.toolTimeout;
  if (timeout !== null && (timeout as unknown) !== '') {
    if (!Number.isInteger(timeout) || timeout < 0) errors.toolTimeout = { key: 'mcp.err.timeout' };
    else if (timeout > 0) c.toolTimeout = timeout;
  }
  for (const k of Object.keys(c) as (keyof McpConfig)[]) if (c[k] === undefined) delete c[k];
  return { config: c, errors };
}

type McpApi = Pick<
  Api,
  'listMcpServers' | 'saveMcpServer' | 'removeMcpServer' | 'importClaudeDesktop' | 'testMcpServer' | 'testMcpDraft'
>;

export function createMcpStore(api: McpApi) {
  const s = $state({
    list: [] as McpServer[],
    loaded: false,
    loading: false,
    error: '',
    draft: null as McpDraft | null,
    errors: {} as Record<string, McpFieldError>,
    saveError: '',
    saving: false,
    importText: '',
    importError: '',
    imported: [] as string[],
    importing: false,
    removing: '',
    tests: {} as Record<string, TestState>,
    draftTest: null as TestState | null,
  });

  /** Reads the servers' state; quiet (a poll) leaves the loading flag alone. */
  async function refresh(quiet = false) {
    if (!quiet) s.loading = true;
    try {
      s.list = (await api.listMcpServers()) ?? [];
      s.error = '';
    } catch (err) {
      s.error = errText(err);
    } finally {
      if (!quiet) s.loading = false;
      s.loaded = true;
    }
  }

  function edit(name: string | null) {
    const server = name ? s.list.find((x) => x.name === name) : undefined;
    s.draft = server ? toDraft(server) : emptyDraft();
    s.errors = {};
    s.saveError = '';
    s.draftTest = null;
  }

  function cancelEdit() {
    s.draft = null;
    s.errors = {};
    s.saveError = '';
    s.draftTest = null;
  }

  /** Tests the form as it stands, without saving it. */
  async function testDraft() {
    const d = s.draft;
    if (!d) return;
    const { config, errors } = fromDraft(d, s.list.map((x) => x.name));
    // A name taken by another server does not stop a test.
    delete errors.name;
    s.errors = errors;
    if (Object.keys(errors).length) return;
    s.draftTest = { running: true, result: null, error: '' };
    try {
      const result = await api.testMcpDraft(d.name.trim() || 'test', config);
      s.draftTest = { running: false, result, error: '' };
    } catch (err) {
      s.draftTest = { running: false, result: null, error: errText(err) };
    }
  }

  /** Saves the draft (a renamed server is saved under its new name, then the old one removed). */
  async function save() {
    const d = s.draft;
    if (!d) return false;
    const { config, errors } = fromDraft(d, s.list.map((x) => x.name));
    s.errors = errors;
    if (Object.keys(errors).length) return false;
    const name = d.name.trim();
    s.saving = true;
    s.saveError = '';
    try {
      await api.saveMcpServer(name, config);
      if (d.original && d.original !== name) await api.removeMcpServer(d.original);
      delete s.tests[name];
      s.draft = null;
      s.draftTest = null;
      await refresh();
      return true;
    } catch (err) {
      s.saveError = errText(err);
      return false;
    } finally {
      s.saving = false;
    }
  }

  async function remove(name: string) {
    s.removing = name;
    try {
      await api.removeMcpServer(name);
      delete s.tests[name];
      if (s.draft?.original === name) s.draft = null;
      await refresh();
      return true;
    } catch (err) {
      s.error = errText(err);
      return false;
    } finally {
      s.removing = '';
    }
  }

  /** Imports the pasted Claude Desktop block; on success the box is cleared. */
  async function importBlock() {
    s.importing = true;
    s.imported = [];
    try {
      const names = (await api.importClaudeDesktop(s.importText)) ?? [];
      s.importError = '';
      s.imported = names;
      s.importText = '';
      for (const n of names) delete s.tests[n];
      await refresh();
      return true;
    } catch (err) {
      s.importError = errText(err);
      return false;
    } finally {
      s.importing = false;
    }
  }

  async function test(name: string) {
    s.tests[name] = { running: true, result: null, error: '' };
    try {
      const result = await api.testMcpServer(name);
      s.tests[name] = { running: false, result, error: '' };
    } catch (err) {
      s.tests[name] = { running: false, result: null, error: errText(err) };
    }
  }

  /** Hides a test result: a server's, or the form's when name is omitted. */
  function dismissTest(name?: string) {
    if (name === undefined) s.draftTest = null;
    else delete s.tests[name];
  }

  return {
    get list() {
      return s.list;
    },
    get loaded() {
      return s.loaded;
    },
    get loading() {
      return s.loading;
    },
    get error() {
      return s.error;
    },
    get draft() {
      return s.draft;
    },
    get errors() {
      return s.errors;
    },
    get saveError() {
      return s.saveError;
    },
    get saving() {
      return s.saving;
    },
    get importText() {
      return s.importText;
    },
    set importText(v: string) {
      s.importText = v;
      s.importError = '';
    },
    get importError() {
      return s.importError;
    },
    get imported() {
      return s.imported;
    },
    get importing() {
      return s.importing;
    },
    get removing() {
      return s.removing;
    },
    get tests() {
      return s.tests;
    },
    /** the editor's test of the unsaved form */
    get draftTest() {
      return s.draftTest;
    },
    refresh,
    edit,
    cancelEdit,
    save,
    remove,
    importBlock,
    test,
    testDraft,
    dismissTest,
  };
}

export type McpStore = ReturnType<typeof createMcpStore>;
