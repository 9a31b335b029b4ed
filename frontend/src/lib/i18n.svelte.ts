// Every UI string goes through t(): English and Simplified Chinese ship in the binary.
import en from '../i18n/en.json';
import zhCN from '../i18n/zh-CN.json';

export type Locale = 'en' | 'zh-CN';
type Messages = Record<string, string>;

const catalogs: Record<Locale, Messages> = { en, 'zh-CN': zhCN };

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

export const catalogsForTest = catalogs;
