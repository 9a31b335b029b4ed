// API keys that config.json holds in plain text (docs/design/safety-defaults.md#secrets). The Settings view shows a
// warning beside each one and, when the system keyring answers, a Move to keyring button.
// Nothing moves unless the user presses it.
import { errText, type Api, type PlainKeyReport } from '../api';

export function createPlainKeysStore(api: Pick<Api, 'plainKeys' | 'moveKeyToKeyring'>) {
  const st = $state({
    report: null as PlainKeyReport | null,
    moving: '', // the provider being moved
    moved: '', // the provider last moved, for the confirmation
    errors: {} as Record<string, string>, // per provider
  });

  async function load() {
    try {
      st.report = await api.plainKeys();
    } catch {
      st.report = null; // nothing to warn about that we can know
    }
  }

  async function move(provider: string) {
    st.moving = provider;
    st.moved = '';
    delete st.errors[provider];
    try {
      await api.moveKeyToKeyring(provider);
      st.moved = provider;
      await load();
      return true;
    } catch (err) {
      st.errors[provider] = errText(err);
      return false;
    } finally {
      st.moving = '';
    }
  }

  return {
    /** The plain-text entry of provider ("openai", "custom.<name>", "web.search"), if any. */
    plain(provider: string) {
      return st.report?.plain?.find((k) => k.provider === provider);
    },
    get keyring() {
      return !!st.report?.keyring;
    },
    get fileMode() {
      return st.report?.fileMode ?? '';
    },
    get configFile() {
      return st.report?.configFile || 'config.json';
    },
    get private() {
      return !!st.report?.private;
    },
    get moving() {
      return st.moving;
    },
    get moved() {
      return st.moved;
    },
    error(provider: string) {
      return st.errors[provider] ?? '';
    },
    load,
    move,
  };
}

export type PlainKeysStore = ReturnType<typeof createPlainKeysStore>;
