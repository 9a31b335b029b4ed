// Every UI string goes through t(): English and Simplified Chinese ship in the binary.
// Each locale is a folder of catalogs, one per area (src/i18n/<locale>/<area>.json), merged
// here, so a feature adds its own file instead of editing a shared one. The backend's
// catalogs (backend/i18n/catalog/<locale>/<area>.json, also embedded by Go for the tray and
// notifications) are merged in too: what the backend says arrives as a code with arguments
// (a Message) and is worded here with tm().
export type Locale = 'en' | 'zh-CN';
type Messages = Record<string, string>;

const files = import.meta.glob<Messages>(['../i18n/*/*.json', '../../../backend/i18n/catalog/*/*.json'], {
  eager: true,
  import: 'default',
});

/** Merges per-area catalog files into one catalog per locale; a key defined twice is a bug. */
export function mergeCatalogs(found: Record<string, Messages>): Record<string, Messages> {
  const out: Record<string, Messages> = {};
  for (const [path, messages] of Object.entries(found).sort(([a], [b]) => a.localeCompare(b))) {
    const m = path.match(/([^/]+)\/[^/]+\.json$/);
    if (!m) continue;
    const cat = (out[m[1]] ??= {});
    for (const [k, v] of Object.entries(messages)) {
      if (k in cat) console.warn(`i18n: ${k} defined twice (${path})`);
      cat[k] = v;
    }
  }
  return out;
}

const merged = mergeCatalogs(files);
const catalogs: Record<Locale, Messages> = { en: merged.en ?? {}, 'zh-CN': merged['zh-CN'] ?? {} };

/** Picks a shipped locale for a setting ("auto" follows the system language). */
export function resolveLocale(setting: string, systemLanguages: readonly string[]): Locale {
  if (setting === 'en' || setting === 'zh-CN') return setting;
  for (const lang of systemLanguages) {
    if (lang.toLowerCase().startsWith('zh')) return 'zh-CN';
    if (lang.toLowerCase().startsWith('en')) return 'en';
  }
  return 'en';
}

const state = $state({ locale: resolveLocale('auto', globalThis.navigator?.languages ?? []) as Locale });

export function setLocale(locale: Locale): void {
  state.locale = locale;
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
}

export function locale(): Locale {
  return state.locale;
}

/** Translates key, filling {name} placeholders; a missing key falls back to English, then the key. */
export function t(key: string, params: Record<string, string | number> = {}): string {
  const template = catalogs[state.locale][key] ?? catalogs.en[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

/** What the backend says: a catalog code and its arguments (backend/i18n.Message). */
export interface Message {
  code?: string;
  args?: Record<string, string>;
  /** placeholders filled with messages worded here and joined as the language joins a list */
  lists?: Record<string, Message[] | null>;
}

/** Words a backend message in the UI language; `english` (the text the backend sent beside
 * the code) stands in for a message without a code or with a code this build does not know. */
export function tm(m: Message | null | undefined, english = ''): string {
  if (!m?.code || !(m.code in catalogs.en)) return english || (m?.code ?? '');
  const args: Record<string, string> = { ...(m.args ?? {}) };
  for (const [k, ms] of Object.entries(m.lists ?? {})) args[k] = (ms ?? []).map((x) => tm(x)).join(t('i18n.listSeparator'));
  // A backend message the terminal words with a command ("run `ollama serve`") has a
  // window wording ("<code>.window") that names the button or view instead.
  const own = `${m.code}.window`;
  return t(own in catalogs.en ? own : m.code, args);
}

export const catalogsForTest = catalogs;
