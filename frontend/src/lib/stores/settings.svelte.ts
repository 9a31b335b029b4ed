// The Settings view's one save model: a change is saved as soon as it is made — a switch
// or a list at once, a typed value when the field is left or Enter is pressed. A value
// that is not right stays in its field with what to do, is not saved, and keeps nothing
// else from saving; it is saved as soon as it is fixed. Nothing typed is lost, not even
// when the view is left and opened again. One status line says what happened.
import { errText, type Api, type Settings } from '../api';

/** A field's problem: an i18n key with its parameters, or a message from the backend. */
export interface FieldError {
  key?: string;
  params?: Record<string, string | number>;
  text?: string;
}

export type Errors = Record<string, FieldError>;

/** What the status line says: saving, saved (now), a value waits to be fixed, or the save failed. */
export type SaveState =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved'; later: boolean; at: number }
  | { kind: 'invalid'; fields: string[] }
  | { kind: 'failed'; text: string };

/** The parts of Settings saved as one: a field, or a provider with its URL and key. */
export type Group = keyof Settings;

const isURL = (s: string) => {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
};

/** Client-side checks, mirroring config.Validate for what the view edits. */
export function validate(s: Settings): Errors {
  const e: Errors = {};
  const modelOK = (m: string) => /^(ollama|openai|custom\.[^/\s]+)\/\S+/.test(m.trim());
  if (!modelOK(s.model)) e.model = { key: 'settings.err.model' };
  if (s.embeddingModel.trim() && !modelOK(s.embeddingModel)) e.embeddingModel = { key: 'settings.err.model' };
  const int = (field: keyof Settings, v: number, min: number, max = Infinity) => {
    if (!Number.isInteger(v) || v < min || v > max)
      e[field] = { key: max === Infinity ? 'settings.err.min' : 'settings.err.range', params: { min, max } };
  };
  int('contextTokens', s.contextTokens, 512);
  int('maxTokens', s.maxTokens, 1);
  if (!e.contextTokens && !e.maxTokens && s.maxTokens >= s.contextTokens)
    e.maxTokens = { key: 'settings.err.maxTokens', params: { max: s.contextTokens } };
  if (typeof s.temperature !== 'number' || !(s.temperature >= 0 && s.temperature <= 2))
    e.temperature = { key: 'settings.err.range', params: { min: 0, max: 2 } };
  int('maxToolIterations', s.maxToolIterations, 1, 1000);
  if (s.maxTurnMinutes !== undefined) int('maxTurnMinutes', s.maxTurnMinutes, 1, 1440);
  if (s.memoryWindow !== undefined) int('memoryWindow', s.memoryWindow, 2);
  if (s.idleCompactMinutes !== undefined) int('idleCompactMinutes', s.idleCompactMinutes, 0);
  const host = s.ollamaHost.trim();
  if (host && /\s/.test(host)) e.ollamaHost = { key: 'settings.err.host' };
  if (s.openai.apiBase.trim() && !isURL(s.openai.apiBase.trim())) e['openai.apiBase'] = { key: 'settings.err.url' };
  const names = new Set<string>();
  s.custom.forEach((c, i) => {
    const n = c.name.trim();
    if (!n || /[/\s]/.test(n)) e[`custom.${i}.name`] = { key: 'settings.err.name' };
    else if (names.has(n)) e[`custom.${i}.name`] = { key: 'settings.err.nameTaken' };
    names.add(n);
    if (!isURL(c.apiBase.trim())) e[`custom.${i}.apiBase`] = { key: 'settings.err.url' };
  });
  if (!s.workspace.trim()) e.workspace = { key: 'settings.err.workspace' };
  return e;
}

/** Maps a config.json key from the backend onto the view's field. */
export function fieldFor(configKey: string, s: Settings): string {
  const direct: Record<string, string> = {
    'providers.ollama.host': 'ollamaHost',
    'providers.ollama.start': 'ollamaStart',
    'providers.ollama.keepRunning': 'ollamaKeepRunning',
    'providers.openai.apiBase': 'openai.apiBase',
    'providers.openai.apiKey': 'openai.apiBase',
    'agents.defaults.workspace': 'workspace',
    'agents.defaults.recallBlock.enabled': 'recallEnabled',
    'tools.allowedPaths': 'allowedPaths',
    'tools.exec.enabled': 'execEnabled',
    'tools.web.offline': 'webOffline',
    'tools.restrictToWorkspace': 'restrictToWorkspace',
    localOnly: 'localOnly',
    'ui.theme': 'theme',
    'ui.language': 'language',
  };
  if (direct[configKey]) return direct[configKey];
  if (configKey.startsWith('memory.')) return configKey; // MemorySettings names its fields so
  const ad = configKey.match(/^agents\.defaults\.(\w+)/);
  if (ad) return ad[1];
  const cu = configKey.match(/^providers\.custom\.([^.]+)(?:\.(\w+))?/);
  if (cu) {
    const i = s.custom.findIndex((c) => c.name.trim() === cu[1]);
    return `custom.${i < 0 ? 0 : i}.${cu[2] ?? 'name'}`;
  }
  return '_form';
}

/** The group a field's error belongs to ('custom.0.name' → 'custom'). */
export function groupOf(field: string): Group | '' {
  const g = field.split('.')[0];
  return g === '_form' ? '' : (g as Group);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const copy = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));

/** The groups of draft that differ from saved. */
export function pendingGroups(draft: Settings, saved: Settings): Group[] {
  return (Object.keys(draft) as Group[]).filter((g) => !same(draft[g], saved[g]));
}

/**
 * What can be saved now: saved with every changed group of draft that is valid. A
 * change that breaks a rule across fields (a context size below the reply limit) is
 * left out too, the one just made first.
 */
export function saveable(draft: Settings, saved: Settings, last: Group | '' = ''): Settings {
  const bad = new Set(Object.keys(validate(draft)).map(groupOf));
  const was = new Set(Object.keys(validate(saved)));
  const cand = copy(saved);
  const take = pendingGroups(draft, saved).filter((g) => !bad.has(g));
  for (const g of take) (cand as unknown as Record<string, unknown>)[g] = copy(draft[g]);
  for (let i = 0; i <= take.length; i++) {
    const fresh = Object.keys(validate(cand)).filter((k) => !was.has(k));
    if (fresh.length === 0) break;
    const own = fresh.map(groupOf).find((g) => g && take.includes(g));
    const undo = own || (last && take.includes(last) ? last : take[take.length - 1]);
    if (!undo) break;
    (cand as unknown as Record<string, unknown>)[undo] = copy(saved[undo]);
    take.splice(take.indexOf(undo), 1);
  }
  return cand;
}

/** The settings as the backend keeps them after a save: keys are never sent back. */
function afterSave(s: Settings): Settings {
  const out = copy(s);
  for (const c of out.custom) {
    c.keySet = (c.keySet || !!c.apiKey) && !c.clearKey;
    c.apiKey = '';
    c.clearKey = false;
  }
  out.openai.keySet = (out.openai.keySet || !!out.openai.apiKey) && !out.openai.clearKey;
  out.openai.apiKey = '';
  out.openai.clearKey = false;
  return out;
}

export function createSettingsStore(
  api: Pick<Api, 'getSettings' | 'saveSettings'>,
  onSaved?: (s: Settings) => void,
  opts: { now?: () => number } = {},
) {
  const now = opts.now ?? Date.now;
  const st = $state({
    draft: null as Settings | null,
    saved: null as Settings | null,
    serverErrors: {} as Errors,
    /** Fields of a new custom provider are checked once they were left (not while empty). */
    touched: [] as string[],
    state: { kind: 'idle' } as SaveState,
    error: '',
  });
  let running: Promise<boolean> | null = null;
  let again = false;

  async function load() {
    try {
      const s = await api.getSettings();
      s.custom ??= [];
      s.allowedPaths ??= [];
      s.fallbacks ??= [];
      // A value not saved yet (a bad one waiting to be fixed) survives leaving the view.
      const old = st.draft && st.saved ? pendingGroups(st.draft, st.saved) : [];
      const draft = copy(s);
      for (const g of old) (draft as unknown as Record<string, unknown>)[g] = copy(st.draft![g]);
      st.saved = s;
      st.draft = draft;
      st.error = '';
    } catch (err) {
      st.error = errText(err);
    }
  }

  function visibleErrors(): Errors {
    if (!st.draft) return {};
    const all = validate(st.draft);
    for (const k of Object.keys(all)) if (k.startsWith('custom.') && !st.touched.includes(k)) delete all[k];
    return { ...all, ...st.serverErrors };
  }

  function refreshState() {
    if (!st.draft || !st.saved || st.state.kind === 'saving') return;
    const waiting = pendingGroups(st.draft, st.saved);
    if (waiting.length && Object.keys(visibleErrors()).some((k) => waiting.includes(groupOf(k) as Group))) {
      st.state = { kind: 'invalid', fields: Object.keys(visibleErrors()) };
    } else if (st.state.kind === 'invalid') {
      st.state = { kind: 'idle' };
    }
  }

  /**
   * Saves what can be saved of the draft. field is the one just changed (it is now
   * checked even if it is a new provider's); the save runs once at a time, and a change
   * made meanwhile is saved right after.
   */
  async function commit(field = ''): Promise<boolean> {
    if (field && !st.touched.includes(field)) st.touched.push(field);
    const g = groupOf(field);
    if (g) for (const k of Object.keys(st.serverErrors)) if (groupOf(k) === g) delete st.serverErrors[k];
    if (running) {
      again = true;
      return running;
    }
    running = run(g);
    try {
      return await running;
    } finally {
      running = null;
      if (again) {
        again = false;
        void commit();
      }
    }
  }

  async function run(last: Group | ''): Promise<boolean> {
    const d = st.draft;
    const saved = st.saved;
    if (!d || !saved) return false;
    const cand = saveable(d, saved, last);
    if (same(cand, saved)) {
      refreshState();
      return false;
    }
    st.state = { kind: 'saving' };
    try {
      const res = await api.saveSettings(copy(cand));
      if (!res.saved) {
        const errs: Errors = {};
        for (const p of res.problems ?? []) {
          errs[fieldFor(p.key ?? '', d)] = { text: p.hint ? `${p.msg} — ${p.hint}` : p.msg };
        }
        st.serverErrors = { ...st.serverErrors, ...errs };
        st.state = { kind: 'invalid', fields: Object.keys(errs) };
        return false;
      }
      const kept = afterSave(cand);
      st.saved = kept;
      // The draft drops the keys just stored, as the backend will never send them again.
      for (const k of ['openai', 'custom'] as const) {
        if (same(d[k], cand[k])) (d as unknown as Record<string, unknown>)[k] = copy(kept[k]);
      }
      st.state = { kind: 'saved', later: !!res.notice, at: now() };
      st.error = '';
      refreshState();
      onSaved?.(kept);
      return true;
    } catch (err) {
      st.state = { kind: 'failed', text: errText(err) };
      return false;
    }
  }

  return {
    get draft() {
      return st.draft;
    },
    get errors(): Errors {
      return visibleErrors();
    },
    /** Groups changed and not saved (a bad value waits to be fixed, or a save runs). */
    get pending(): Group[] {
      return st.draft && st.saved ? pendingGroups(st.draft, st.saved) : [];
    },
    get state(): SaveState {
      return st.state;
    },
    get error() {
      return st.error;
    },
    /** Another part of Settings (background, approvals) saved or failed: the one status line says so. */
    report(r: { saved: true } | { failed: string }) {
      st.state = 'saved' in r ? { kind: 'saved', later: false, at: now() } : { kind: 'failed', text: r.failed };
    },
    load,
    commit,
  };
}

export type SettingsStore = ReturnType<typeof createSettingsStore>;
