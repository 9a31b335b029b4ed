// The sections of Settings and which fields each holds (for the mark on a section whose
// value waits to be fixed).
import type { Group } from '../../lib/stores/settings.svelte';

export const SECTIONS = ['general', 'models', 'tools', 'background', 'channels', 'memory', 'knowledge', 'about'] as const;
export type Section = (typeof SECTIONS)[number];

const fields: Record<Section, Group[]> = {
  general: ['theme', 'language', 'workspace'],
  models: ['model', 'fallbacks', 'contextTokens', 'maxTokens', 'temperature', 'maxToolIterations', 'maxTurnMinutes', 'ollamaHost', 'openai', 'custom'],
  tools: ['execEnabled', 'webOffline', 'localOnly', 'restrictToWorkspace', 'allowedPaths'],
  background: [],
  channels: [],
  memory: ['embeddingModel', 'memoryWindow', 'idleCompactMinutes', 'recallEnabled', 'memory'],
  knowledge: [],
  about: [],
};

/** The section that holds a field's group. */
export function sectionOf(group: Group | ''): Section | '' {
  for (const s of SECTIONS) if (group && fields[s].includes(group)) return s;
  return '';
}

const KEY = 'hearth.settingsSection';

/** The section shown last (kept across views and restarts). */
export function lastSection(): Section {
  const v = globalThis.localStorage?.getItem(KEY) ?? '';
  return (SECTIONS as readonly string[]).includes(v) ? (v as Section) : 'general';
}

export function rememberSection(s: Section) {
  globalThis.localStorage?.setItem(KEY, s);
}
