// The Settings view's "In the background" section: heartbeat, missed-run policy, close to
// tray and launch at login. Each change is saved at once by its own binding (Settings'
// one save model, lib/stores/settings.svelte.ts); a refused change goes back to the saved
// value and shows the backend's reason on its field; a bad interval stays in its field
// until it is fixed. onResult tells Settings' status line.
import { errText, type Api, type BackgroundSettings } from '../api';
import type { FieldError } from './settings.svelte';

type BackgroundApi = Pick<Api, 'getBackgroundSettings' | 'setHeartbeat' | 'setMissedRuns' | 'setCloseToTray' | 'setLaunchAtLogin'>;

export type BackgroundField = 'heartbeat' | 'missedRuns' | 'closeToTray' | 'launchAtLogin';

export function createBackgroundStore(
  api: BackgroundApi,
  opts: { onResult?: (r: { saved: true } | { failed: string }) => void } = {},
) {
  const s = $state({
    saved: null as BackgroundSettings | null,
    draft: null as BackgroundSettings | null,
    errors: {} as Partial<Record<BackgroundField, FieldError>>,
    /** The field saved last, for a short "Saved" beside it. */
    savedField: '' as BackgroundField | '',
    error: '',
  });

  async function load() {
    try {
      const b = await api.getBackgroundSettings();
      s.saved = { ...b };
      s.draft = { ...b };
      s.error = '';
    } catch (err) {
      s.error = errText(err);
    }
  }

  async function apply(field: BackgroundField, call: () => Promise<void>, keys: (keyof BackgroundSettings)[]) {
    const d = s.draft;
    const saved = s.saved;
    if (!d || !saved) return false;
    delete s.errors[field];
    s.savedField = '';
    try {
      await call();
      for (const k of keys) (saved as unknown as Record<string, unknown>)[k] = d[k];
      s.savedField = field;
      opts.onResult?.({ saved: true });
      return true;
    } catch (err) {
      s.errors[field] = { text: errText(err) };
      for (const k of keys) (d as unknown as Record<string, unknown>)[k] = saved[k];
      opts.onResult?.({ failed: errText(err) });
      return false;
    }
  }

  return {
    get draft() {
      return s.draft;
    },
    get errors() {
      return s.errors;
    },
    get savedField() {
      return s.savedField;
    },
    get error() {
      return s.error;
    },
    load,
    /** Saves heartbeat on/off and interval from the draft (minutes: a whole number ≥ 1). */
    heartbeat() {
      const d = s.draft;
      if (!d) return Promise.resolve(false);
      const n = Number(d.heartbeatMinutes);
      if (!Number.isInteger(n) || n < 1) {
        s.errors.heartbeat = { key: 'background.err.interval' };
        return Promise.resolve(false);
      }
      return apply('heartbeat', () => api.setHeartbeat(d.heartbeatEnabled, n), ['heartbeatEnabled', 'heartbeatMinutes']);
    },
    missedRuns() {
      const d = s.draft;
      return d ? apply('missedRuns', () => api.setMissedRuns(d.missedRuns), ['missedRuns']) : Promise.resolve(false);
    },
    closeToTray() {
      const d = s.draft;
      return d ? apply('closeToTray', () => api.setCloseToTray(d.closeToTray), ['closeToTray']) : Promise.resolve(false);
    },
    launchAtLogin() {
      const d = s.draft;
      return d ? apply('launchAtLogin', () => api.setLaunchAtLogin(d.launchAtLogin), ['launchAtLogin']) : Promise.resolve(false);
    },
  };
}

export type BackgroundStore = ReturnType<typeof createBackgroundStore>;
