import type { Status } from './lib/api';

/** A healthy backend status; override fields per test. */
export function fakeStatus(over: Partial<Status> = {}): Status {
  return {
    version: '0.1.0',
    configFile: '/home/u/.config/hearth/config.json',
    configError: '',
    configWarnings: [],
    workspace: '/home/u/.local/share/hearth/workspace',
    workspaceError: '',
    dataDir: '/home/u/.local/share/hearth',
    memoryStateDir: '/home/u/.local/share/hearth/workspaces/0123456789ab',
    stateDir: '/home/u/.local/state/hearth',
    model: 'ollama/qwen3:4b',
    modelProvider: 'ollama',
    modelConfigured: true,
    modelProblem: '',
    ollamaHost: 'http://127.0.0.1:11434',
    ollamaReachable: true,
    ollamaVersion: '0.17.4',
    ollamaError: '',
    ollamaEngine: { startable: false, byHearth: false, managed: false },
    embeddingModel: 'ollama/nomic-embed-text',
    recall: 'hybrid',
    sandbox: { mode: 'landlock', landlockABI: 7, namespaces: true, summary: 'Landlock (ABI 7) with namespaces' },
    localOnly: false,
    ...over,
  };
}

import { vi, type Mock } from 'vitest';
import type { Api, RunEvent } from './lib/api';
import { fakeMemory } from './lib/stores/memory-fixture';

/** A fake of lib/api's `api`: every binding is a vi.fn; runs are driven with emitRun. */
export function fakeApi(over: Partial<Api> = {}) {
  const runs = new Map<string, (ev: RunEvent) => void>();
  const pulls = new Map<string, (ev: import('./lib/api').PullEvent) => void>();
  const listeners: BackgroundListeners = { background: new Set(), open: new Set(), newChat: new Set(), quickAsk: new Set() };
  const checked = new Set<(r: import('./lib/api').ModelCheck) => void>();
  const mcpNews = new Set<(server: string) => void>();
  const api = {
    status: vi.fn(async () => fakeStatus()),
    send: vi.fn(async () => 'r1'),
    followRun: vi.fn(async (id: string, fn: (ev: RunEvent) => void) => {
      runs.set(id, fn);
      return () => runs.delete(id);
    }),
    stop: vi.fn(async () => true),
    denyInstead: vi.fn(async () => true),
    continueRun: vi.fn(async () => 'r2'),
    listSessions: vi.fn(async () => []),
    loadSession: vi.fn(async (id: string) => ({ id, title: '', model: '', messages: [], runs: [], interrupted: [], versions: [] })),
    renameSession: vi.fn(async () => {}),
    deleteSession: vi.fn(async () => {}),
    setChatModel: vi.fn(async () => {}),
    searchChats: vi.fn(async () => []),
    exportSession: vi.fn(async () => '/tmp/chat.md'),
    sessionUsage: vi.fn(async () => ({ promptTokens: 0, completionTokens: 0, contextUsed: 0, contextLimit: 0 })),
    listModels: vi.fn(async () => []),
    pullModel: vi.fn(async () => 'p1'),
    followPull: vi.fn(async (id: string, fn: (ev: import('./lib/api').PullEvent) => void) => {
      pulls.set(id, fn);
      return () => pulls.delete(id);
    }),
    cancelPull: vi.fn(async () => true),
    deleteModel: vi.fn(async () => {}),
    checkModel: vi.fn(async (name: string) => fakeCheck({ model: `ollama/${name}` })),
    setToolsAnyway: vi.fn(async () => {}),
    onModelChecked: vi.fn((fn: (r: import('./lib/api').ModelCheck) => void) => {
      checked.add(fn);
      return () => void checked.delete(fn);
    }),
    getSettings: vi.fn(async () => fakeSettings()),
    saveSettings: vi.fn(async () => ({ saved: true, problems: [] })),
    startOllama: vi.fn(async () => '0.17.4'),
    firstRun: vi.fn(async () => ({
      ollamaHost: 'http://127.0.0.1:11434',
      ollamaRunning: true,
      ollamaInstalled: true,
      ollamaError: '',
      models: ['qwen3:4b'],
      chatModels: ['qwen3:4b'],
      modelInstalled: true,
      model: 'ollama/qwen3:4b',
      suggestedModel: 'qwen3:4b',
      workspace: '/home/u/ws',
    })),
    chooseFolder: vi.fn(async () => ''),
    chooseFiles: vi.fn(async () => [] as string[]),
    openAttachment: vi.fn(async () => {}),
    viewAttachment: vi.fn(async () => ({ name: '', kind: 'text', line: 1, first: 1, lines: [''], total: 1, cut: 0 }) as import('./lib/api').FileView),
    onFileDrop: vi.fn(() => () => {}),
    listKnowledge: vi.fn(async () => [] as import('./lib/api').KnowledgeFolder[]),
    addKnowledge: vi.fn(async () => ({}) as import('./lib/api').KnowledgeFolder),
    removeKnowledge: vi.fn(async () => {}),
    setKnowledgeMode: vi.fn(async () => {}),
    setKnowledgeWritable: vi.fn(async () => {}),
    openKnowledge: vi.fn(async () => {}),
    viewKnowledge: vi.fn(async () => ({ name: '', kind: 'text', line: 1, first: 1, lines: [''], total: 1, cut: 0 }) as import('./lib/api').FileView),
    onMcpChange: vi.fn((fn: (server: string) => void) => {
      mcpNews.add(fn);
      return () => void mcpNews.delete(fn);
    }),
    ...fakeMemory().api,
    approve: vi.fn(async () => {}),
    pendingApprovals: vi.fn(async () => [] as import('./lib/api').PendingApproval[]),
    activity: vi.fn(async () => [] as import('./lib/api').AuditEntry[]),
    egressLog: vi.fn(async () => [] as import('./lib/api').EgressEntry[]),
    approvalRules: vi.fn(async () => ({ mode: 'risky', always: [], ask: [], never: [] })),
    setApprovalMode: vi.fn(async () => {}),
    setToolApproval: vi.fn(async () => {}),
    secretStorage: vi.fn(async () => 'config'),
    plainKeys: vi.fn(async (): Promise<import('./lib/api').PlainKeyReport> => ({ plain: [], keyring: false, fileMode: '0600', private: true, configFile: '/home/u/.config/hearth/config.json' })),
    moveKeyToKeyring: vi.fn(async () => {}),
    ...fakeReminderApi(listeners),
    ...fakeChannelsApi(),
    ...over,
  };
  let seq = 0;
  return {
    api: api as unknown as Api,
    mocks: api as unknown as { [K in keyof Api]: Mock<Api[K]> },
    /** Delivers an event of run id as the backend would. */
    emitRun(id: string, type: RunEvent['type'], fields: Record<string, unknown> = {}) {
      runs.get(id)?.({ runId: id, sessionId: 's1', seq: ++seq, type, ...fields } as RunEvent);
    },
    emitPull(id: string, ev: Partial<import('./lib/api').PullEvent>) {
      pulls.get(id)?.({ pullId: id, model: '', status: '', done: false, ...ev });
    },
    /** Delivers a "background" event (or "session:open" / "session:new") as background.go would. */
    emitBackground(ev: Partial<import('./lib/api').BackgroundEvent>) {
      for (const fn of listeners.background) fn({ kind: 'jobs', title: '', text: '', ...ev });
    },
    /** Delivers a "models:checked" event (a background fitness check) as core.Desktop would. */
    emitModelChecked(r: import('./lib/api').ModelCheck) {
      for (const fn of checked) fn(r);
    },
    /** Delivers an "mcp:changed" event (a server's state changed) as background.go would. */
    emitMcpChanged(server: string) {
      for (const fn of mcpNews) fn(server);
    },
    emitOpenSession(id: string) {
      for (const fn of listeners.open) fn(id);
    },
    emitNewSession() {
      for (const fn of listeners.newChat) fn();
    },
    /** The tray's Quick ask opening (true) or the window leaving it (false). */
    emitQuickAsk(open: boolean) {
      for (const fn of listeners.quickAsk) fn(open);
    },
  };
}

/** A fitness check result (fitness.Result): a good tool caller unless overridden. */
export function fakeCheck(over: Partial<import('./lib/api').ModelCheck> = {}): import('./lib/api').ModelCheck {
  return {
    model: 'ollama/qwen3:4b',
    digest: 'sha256:abc',
    toolCalls: 'structured',
    restraint: true,
    stopsAfterResult: true,
    contextMax: 40960,
    tokensPerSecond: 21.5,
    verdict: 'good',
    caveats: [],
    advice: 'good for tools',
    notes: [],
    checkedAt: '2026-05-01T10:00:00Z',
    durationMs: 9000,
    version: 1,
    ...over,
  } as unknown as import('./lib/api').ModelCheck;
}

export function fakeSettings() {
  return {
    ollamaHost: '',
    ollamaStart: '',
    ollamaKeepRunning: false,
    openai: { name: '', apiBase: 'https://api.openai.com/v1', apiKey: '', keySet: false, clearKey: false },
    custom: [],
    model: 'ollama/qwen3:4b',
    embeddingModel: 'ollama/nomic-embed-text',
    fallbacks: [],
    contextTokens: 8192,
    maxTokens: 2048,
    temperature: 0.3,
    maxToolIterations: 40,
    maxTurnMinutes: 10,
    execEnabled: true,
    webOffline: false,
    localOnly: false,
    workspace: '/home/u/ws',
    restrictToWorkspace: true,
    allowedPaths: [],
    theme: 'system',
    language: 'auto',
    memoryWindow: 100,
    idleCompactMinutes: 10,
    recallEnabled: true,
  } as unknown as import('./lib/api').Settings;
}

/** Who listens to the background events of one fakeApi. */
interface BackgroundListeners {
  background: Set<(ev: import('./lib/api').BackgroundEvent) => void>;
  open: Set<(id: string) => void>;
  newChat: Set<() => void>;
  quickAsk: Set<(open: boolean) => void>;
}

export function fakeBackgroundSettings(
  over: Partial<import('./lib/api').BackgroundSettings> = {},
): import('./lib/api').BackgroundSettings {
  return {
    heartbeatEnabled: true,
    heartbeatMinutes: 30,
    missedRuns: 'catchup',
    closeToTray: true,
    launchAtLogin: false,
    remindersPaused: false,
    ...over,
  };
}

/** The reminders and background bindings of fakeApi. */
function fakeReminderApi(listeners: BackgroundListeners) {
  const on = <T>(set: Set<T>) =>
    vi.fn((fn: T) => {
      set.add(fn);
      return () => void set.delete(fn);
    });
  return {
    listJobs: vi.fn(async () => []),
    jobProblems: vi.fn(async () => []),
    addJob: vi.fn(async (spec: import('./lib/api').JobSpec) => ({ id: 'j1', ...spec }) as import('./lib/api').Job),
    editJob: vi.fn(async (id: string, spec: import('./lib/api').JobSpec) => ({ id, ...spec }) as import('./lib/api').Job),
    removeJob: vi.fn(async () => {}),
    runJobNow: vi.fn(async () => {}),
    pauseJob: vi.fn(async () => {}),
    setRemindersPaused: vi.fn(async () => {}),
    getBackgroundSettings: vi.fn(async () => fakeBackgroundSettings()),
    setHeartbeat: vi.fn(async () => {}),
    setMissedRuns: vi.fn(async () => {}),
    setCloseToTray: vi.fn(async () => {}),
    setLaunchAtLogin: vi.fn(async () => {}),
    backgroundNotices: vi.fn(async () => [] as import('./lib/api').Notice[]),
    dismissNotice: vi.fn(async () => {}),
    answerMissed: vi.fn(async () => {}),
    onBackground: on(listeners.background),
    onOpenSession: on(listeners.open),
    onNewSession: on(listeners.newChat),
    takeNavigation: vi.fn(async () => ({ kind: '' }) as import('../wailsjs/go/models').event.Nav),
    onQuickAsk: on(listeners.quickAsk),
    quickAskDone: vi.fn(async () => {}),
    quickAskOpen: vi.fn(async () => false),
  };
}

/** Telegram as the channels service reports it (off, no token, nobody paired unless overridden). */
export function fakeTelegram(over: Partial<import('./lib/api').TelegramStatus> = {}): import('./lib/api').TelegramStatus {
  return { enabled: false, hasToken: false, state: 'off', paired: [], requests: [], groups: false, notifyIn: 'desktop', ...over };
}

// Settings › Channels' bindings: each change is accepted; Status says off.
function fakeChannelsApi() {
  return {
    channelsStatus: vi.fn(async () => ({ telegram: fakeTelegram() })),
    setTelegramToken: vi.fn(async () => {}),
    setTelegram: vi.fn(async () => {}),
    pairingCode: vi.fn(async () => '482913'),
    allowPeer: vi.fn(async () => {}),
    removePeer: vi.fn(async () => {}),
  };
}
