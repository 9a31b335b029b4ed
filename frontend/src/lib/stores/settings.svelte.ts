// The Settings view's draft: checked as it is edited (messages beside each field), then
// saved through the backend, whose own problems land on the same fields.
import { errText, type Api, type Settings } from '../api';

/** A field's problem: an i18n key with its parameters, or a message from the backend. */
export interface FieldError {
  key?: string;
  params?: Record<string, string | number>;
  text?: string;
}

export type Errors = Record<string, FieldError>;

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
  if (!(s.temperature >= 0 && s.temperature <= 2)) e.temperature = { key: 'settings.err.range', params: { min: 0, max: 2 } };
  int('maxToolIterations', s.maxToolIterations, 1, 1000);
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
    'providers.openai.apiBase': 'openai.apiBase',
    'agents.defaults.workspace': 'workspace',
    'tools.allowedPaths': 'allowedPaths',
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

export function createSettingsStore(api: Pick<Api, 'getSettings' | 'saveSettings'>, onSaved?: (s: Settings) => void) {
  const st = $state({
    draft: null as Settings | null,
    saved: '' as string, // JSON of the last loaded/saved settings, for the dirty check
    serverErrors: {} as Errors,
    saving: false,
    message: '',
    error: '',
  });

  async function load() {
    try {
      const s = await api.getSettings();
      s.custom ??= [];
      s.allowedPaths ??= [];
      st.draft = s;
      st.saved = JSON.stringify(s);
      st.serverErrors = {};
      st.error = '';
    } catch (err) {
      st.error = errText(err);
    }
  }

  async function save() {
    const d = st.draft;
    if (!d || Object.keys(validate(d)).length > 0) return false;
    st.saving = true;
    st.message = '';
    st.serverErrors = {};
    try {
      const plain = JSON.parse(JSON.stringify(d)) as Settings;
      const res = await api.saveSettings(plain);
      if (!res.saved) {
        const errs: Errors = {};
        for (const p of res.problems ?? []) {
          errs[fieldFor(p.key ?? '', d)] = { text: p.hint ? `${p.msg} (${p.hint})` : p.msg };
        }
        st.serverErrors = errs;
        return false;
      }
      for (const c of plain.custom) {
        c.keySet = c.keySet || !!c.apiKey;
        c.apiKey = '';
      }
      plain.openai.keySet = plain.openai.keySet || !!plain.openai.apiKey;
      plain.openai.apiKey = '';
      st.draft = plain;
      st.saved = JSON.stringify(plain);
      st.message = res.notice ? 'savedLater' : 'saved';
      onSaved?.(plain);
      return true;
    } catch (err) {
      st.error = errText(err);
      return false;
    } finally {
      st.saving = false;
    }
  }

  return {
    get draft() {
      return st.draft;
    },
    get errors(): Errors {
      return st.draft ? { ...validate(st.draft), ...st.serverErrors } : {};
    },
    get dirty() {
      return !!st.draft && JSON.stringify(st.draft) !== st.saved;
    },
    get saving() {
      return st.saving;
    },
    get message() {
      return st.message;
    },
    get error() {
      return st.error;
    },
    clearServerError(field: string) {
      delete st.serverErrors[field];
    },
    load,
    save,
  };
}

export type SettingsStore = ReturnType<typeof createSettingsStore>;
