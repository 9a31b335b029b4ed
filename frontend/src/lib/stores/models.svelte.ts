// Installed Ollama models and running downloads.
import { errText, type Api, type ModelCheck, type ModelEntry, type Problem, type PullEvent } from '../api';

export interface PullState {
  id: string;
  model: string;
  status: string;
  completed: number;
  total: number;
  done: boolean;
  error: string;
  /** A failure in codes (naming the model) and the provider's own words. */
  why?: Problem;
  detail?: string;
}

export function percent(p: PullState): number {
  if (p.done && !p.error) return 100;
  return p.total > 0 ? Math.min(100, Math.round((p.completed / p.total) * 100)) : 0;
}

export function formatSize(bytes: number): string {
  if (!bytes) return '';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v >= 10 || i === 0 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}

/** Badges shown for a model, in a fixed order. */
export function badges(m: ModelEntry): string[] {
  const caps = m.capabilities ?? [];
  return ['tools', 'vision', 'thinking', 'embedding'].filter((c) => caps.includes(c));
}

/** One badge of a model's fitness check: an i18n key under "fitness.", a tone and the key's parameters. */
export interface FitnessBadge {
  key: string;
  tone: 'good' | 'warn' | 'off';
  params?: Record<string, string | number>;
}

/** The badges of a model's fitness check: the verdict first, then its caveats; none when unchecked. */
export function fitnessBadges(m: ModelEntry): FitnessBadge[] {
  const r = m.fitness;
  if (!r) return [];
  const verdict: FitnessBadge =
    r.verdict === 'good'
      ? { key: 'verdict.good', tone: 'good' }
      : r.verdict === 'text-fallback'
        ? { key: 'verdict.text-fallback', tone: 'warn' }
        : r.verdict === 'check-failed'
          ? { key: 'verdict.check-failed', tone: 'warn' }
          : { key: 'verdict.chat-only', tone: 'off' };
  const out = [verdict];
  for (const c of r.caveats ?? []) out.push({ key: `caveat.${c}`, tone: 'warn', params: { n: r.tokensPerSecond, ctx: r.contextMax } });
  return out;
}

/** Below this a model is a test or toy model (a few hundred MB at most): listed, but last. */
const TINY_BYTES = 300_000_000;

/**
 * The installed models one can chat with, best first: those good with tools (the check said
 * so, or tools were allowed anyway), then those that claim tools but are unchecked or fall
 * back to text, then chat-only ones, then tiny test models. Embedding-only models (or ones
 * named "embed") and models without a chat capability are left out: they cannot answer.
 */
export function chatOrder(list: ModelEntry[]): ModelEntry[] {
  const canChat = (m: ModelEntry) => {
    const caps = m.capabilities ?? [];
    if (caps.includes('completion')) return true;
    if (caps.includes('embedding') || /embed/i.test(m.name)) return false;
    // An older Ollama reports no capabilities: the name is all there is to go by.
    return caps.length === 0;
  };
  const rank = (m: ModelEntry) => {
    if (m.size > 0 && m.size < TINY_BYTES) return 3;
    const verdict = m.fitness?.verdict;
    if (verdict === 'good' || m.toolsAnyway) return 0;
    if (verdict === 'chat-only' || !(m.capabilities ?? []).includes('tools')) return 2;
    return 1;
  };
  return list
    .filter(canChat)
    .map((m) => ({ m, r: rank(m) }))
    .sort((a, b) => a.r - b.r || a.m.name.localeCompare(b.m.name))
    .map((x) => x.m);
}

/** A model's name as the check keys it: "ollama/<name>", with Ollama's implicit ":latest". */
export function checkKey(name: string): string {
  const last = name.slice(name.lastIndexOf('/') + 1);
  return `ollama/${last.includes(':') ? name : `${name}:latest`}`;
}

export function createModelsStore(
  api: Pick<Api, 'listModels' | 'pullModel' | 'followPull' | 'cancelPull' | 'deleteModel' | 'checkModel' | 'onModelChecked' | 'setToolsAnyway'>,
) {
  const s = $state({
    list: [] as ModelEntry[],
    pulls: [] as PullState[],
    error: '',
    loading: false,
    loaded: false,
    checking: [] as string[],
    checkErrors: {} as Record<string, string>,
  });

  /** Shows a new check result on its model's row. */
  function apply(r: ModelCheck) {
    const m = s.list.find((x) => checkKey(x.name) === r.model);
    if (m) m.fitness = r;
  }

  /** Runs the fitness check of a model now; the row shows "Checking…" until it ends. */
  async function check(name: string) {
    if (s.checking.includes(name)) return false;
    s.checking.push(name);
    delete s.checkErrors[name];
    try {
      apply(await api.checkModel(name));
      return true;
    } catch (err) {
      s.checkErrors[name] = errText(err);
      return false;
    } finally {
      s.checking = s.checking.filter((x) => x !== name);
    }
  }

  /** Offers a model tools whatever its check said (on), or stops it; the row follows. */
  async function setToolsAnyway(name: string, on: boolean) {
    delete s.checkErrors[name];
    try {
      await api.setToolsAnyway(name, on);
      const m = s.list.find((x) => x.name === name);
      if (m) m.toolsAnyway = on;
      return true;
    } catch (err) {
      s.checkErrors[name] = errText(err);
      return false;
    }
  }

  /** Follows the checks the app runs by itself; returns the unsubscribe. */
  function follow() {
    return api.onModelChecked(apply);
  }

  async function refresh() {
    s.loading = true;
    try {
      s.list = (await api.listModels()) ?? [];
      s.error = '';
    } catch (err) {
      s.error = errText(err);
    } finally {
      s.loading = false;
      s.loaded = true;
    }
  }

  function onProgress(p: PullState, ev: PullEvent) {
    // Events may arrive out of order: nothing moves a finished pull or its bar backwards.
    if (p.done) return;
    if (ev.status) p.status = ev.status;
    if (ev.total && ev.total !== p.total) {
      p.total = ev.total;
      p.completed = 0;
    }
    if (ev.completed) p.completed = Math.max(p.completed, ev.completed);
    if (ev.done) {
      p.done = true;
      p.error = ev.error ?? '';
      p.why = ev.why;
      p.detail = ev.detail;
      if (!p.error) {
        // A success answers the failures before it (of any model) and any of its own model:
        // an old error no longer stands above a download that worked.
        const at = s.pulls.indexOf(p);
        s.pulls = s.pulls.filter((x, i) => x === p || !(x.done && x.error && (i < at || x.model === p.model)));
        s.error = '';
        void refresh();
      }
    }
  }

  async function pull(name: string) {
    name = name.trim();
    if (!name) return false;
    try {
      const id = await api.pullModel(name);
      // A new try replaces the failed or cancelled one of the same model.
      s.pulls = s.pulls.filter((x) => !(x.model === name && x.done && x.error));
      s.error = '';
      s.pulls.push({ id, model: name, status: '', completed: 0, total: 0, done: false, error: '' });
      const p = s.pulls[s.pulls.length - 1];
      let off: (() => void) | null = null;
      off = await api.followPull(id, (ev) => {
        onProgress(p, ev);
        if (ev.done) off?.();
      });
      if (p.done) off();
      return true;
    } catch (err) {
      s.error = errText(err);
      return false;
    }
  }

  async function cancel(id: string) {
    return api.cancelPull(id);
  }

  function dismiss(id: string) {
    s.pulls = s.pulls.filter((p) => p.id !== id);
  }

  async function remove(name: string) {
    try {
      await api.deleteModel(name);
      await refresh();
      return true;
    } catch (err) {
      s.error = errText(err);
      return false;
    }
  }

  return {
    get list() {
      return s.list;
    },
    get pulls() {
      return s.pulls;
    },
    get error() {
      return s.error;
    },
    get loading() {
      return s.loading;
    },
    get loaded() {
      return s.loaded;
    },
    get checking() {
      return s.checking;
    },
    get checkErrors() {
      return s.checkErrors;
    },
    refresh,
    check,
    setToolsAnyway,
    follow,
    pull,
    cancel,
    dismiss,
    remove,
  };
}

export type ModelsStore = ReturnType<typeof createModelsStore>;
