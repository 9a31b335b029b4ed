// Everything a view needs, built once: the stores over the API and the navigation state.
// Views and sidebar tabs receive it as their `app` prop.
import { api as realApi, type Api, type SendMode, type Settings } from './api';
import { setLocale, resolveLocale } from './i18n.svelte';
import { createActivityStore } from './stores/activity.svelte';
import { createApprovalsStore } from './stores/approvals.svelte';
import { createChatStore, type PerfProbe } from './stores/chat.svelte';
import { createMemoryStore } from './stores/memory.svelte';
import { createEngineStore } from './stores/engine.svelte';
import { createModelsStore } from './stores/models.svelte';
import { createNoticesStore } from './stores/notices.svelte';
import { createRemindersStore } from './stores/reminders.svelte';
import { createSessionsStore } from './stores/sessions.svelte';
import { createSettingsStore } from './stores/settings.svelte';
import { createStatusStore, type StatusStore } from './stores/status.svelte';

export function applyAppearance(s: Pick<Settings, 'theme' | 'language'> & { systemLanguage?: string }) {
  if (typeof document === 'undefined') return;
  const root = document.documentElement;
  const forced = s.theme === 'light' || s.theme === 'dark';
  if (forced) root.dataset.theme = s.theme;
  else delete root.dataset.theme;
  // Native parts the page's CSS does not paint (a <select>'s popup, scrollbars) take the
  // page's colour scheme from the root element and the color-scheme meta tag: both name the
  // chosen theme, or a dark window would open light popups.
  const scheme = forced ? s.theme : 'light dark';
  root.style.setProperty('color-scheme', scheme);
  document.querySelector('meta[name="color-scheme"]')?.setAttribute('content', scheme);
  // "auto" means what the backend read from the locale variables (the tray speaks it too);
  // the web view's own languages only where the backend did not say.
  const system = s.systemLanguage ? [s.systemLanguage] : (globalThis.navigator?.languages ?? []);
  setLocale(resolveLocale(s.language || 'auto', system));
}

/** The mode Enter sends in while a turn runs (ui.sendDuringRun); steer unless set. */
export function sendModeOf(s: { sendDuringRun?: string }): SendMode {
  return s.sendDuringRun === 'queue' || s.sendDuringRun === 'stop' ? s.sendDuringRun : 'steer';
}

export function createApp(api: Api = realApi, status?: StatusStore, probe?: PerfProbe) {
  const nav = $state({ view: 'chat', tab: 'sessions', searchFocus: 0, sendMode: 'steer' as SendMode });
  const statusStore = status ?? createStatusStore(api.status);
  const sessions = createSessionsStore(api);
  const activity = createActivityStore(api);
  const chat = createChatStore(api, {
    onChange: () => {
      void sessions.refresh();
      void statusStore.refresh();
      activity.runFinished();
    },
    probe,
  });
  const models = createModelsStore(api);
  const engine = createEngineStore(api, statusStore, () => void models.refresh());
  const memory = createMemoryStore(api);
  const reminders = createRemindersStore(api);
  const settings = createSettingsStore(api, (s) => {
    applyAppearance(s);
    nav.sendMode = sendModeOf(s);
    void statusStore.refresh();
  });

  return {
    api,
    status: statusStore,
    engine,
    sessions,
    chat,
    models,
    reminders,
    notices: createNoticesStore(api),
    settings,
    memory,
    activity,
    approvals: createApprovalsStore(api),
    get view() {
      return nav.view;
    },
    get tab() {
      return nav.tab;
    },
    /** What Enter does with a message sent while a turn runs. */
    get sendMode() {
      return nav.sendMode;
    },
    /** Follows the settings read at start. */
    applySettings(s: { sendDuringRun?: string }) {
      nav.sendMode = sendModeOf(s);
    },
    /** Bumps when Ctrl+K asks for the chat search box. */
    get searchFocus() {
      return nav.searchFocus;
    },
    go(view: string) {
      nav.view = view;
    },
    showTab(tab: string) {
      nav.tab = tab;
    },
    openChat(id: string) {
      nav.view = 'chat';
      void chat.open(id);
    },
    /** The memory files view on path, its history shown. */
    openMemoryHistory(path: string) {
      nav.view = 'memory';
      nav.tab = 'memory';
      memory.openHistory(path);
    },
    newChat() {
      nav.view = 'chat';
      chat.newChat();
    },
    search() {
      nav.tab = 'sessions';
      nav.searchFocus++;
    },
  };
}

export type AppCtx = ReturnType<typeof createApp>;
