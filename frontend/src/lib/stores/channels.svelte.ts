// Settings › Channels: the Telegram channel's state, read every two seconds while the
// section is open (a connection, a pairing or a request shows without a reload), and the
// person's changes, each saved at once by its own binding. A refused change shows the
// backend's reason beside what it was about and the next reading puts the switches back.
import { errText, type Api, type TelegramStatus } from '../api';
import { t } from '../i18n.svelte';

type ChannelsApi = Pick<Api, 'channelsStatus' | 'setTelegramToken' | 'setTelegram' | 'pairingCode' | 'allowPeer' | 'removePeer'>;

/** Where an error shows: the token, the switches, pairing, a peer's row, adding by id. */
export type ChannelsField = 'token' | 'switches' | 'pair' | 'peers' | 'add';

/** The switches SetTelegram takes together. */
export interface ChannelSwitches {
  enabled: boolean;
  groups: boolean;
  notifyIn: string;
}

/** A Telegram user id: digits (the bot shows a stranger's in their pairing request). */
export const isUserId = (id: string) => /^\d{1,20}$/.test(id);

export function createChannelsStore(
  api: ChannelsApi,
  opts: { onResult?: (r: { saved: true } | { failed: string }) => void; pollMs?: number } = {},
) {
  const s = $state({
    status: null as TelegramStatus | null,
    draft: null as ChannelSwitches | null,
    error: '',
    errors: {} as Partial<Record<ChannelsField, string>>,
    /** What a call is under way for (a field, or a peer id), to disable its button. */
    busy: '',
    /** The code PairingCode returned, until Status shows it gone (used or expired). */
    code: '',
    codeSeen: false,
  });
  let timer: ReturnType<typeof setInterval> | undefined;

  const switchesOf = (t: TelegramStatus): ChannelSwitches => ({ enabled: t.enabled, groups: t.groups, notifyIn: t.notifyIn || 'desktop' });

  async function load() {
    try {
      const tg = (await api.channelsStatus()).telegram;
      s.status = tg;
      // A switch being saved keeps what the person chose until the answer comes.
      if (s.busy !== 'switches') s.draft = switchesOf(tg);
      if (s.code && tg.code === s.code) s.codeSeen = true;
      else if (s.code && s.codeSeen) (s.code = ''), (s.codeSeen = false);
      s.error = '';
    } catch (err) {
      s.error = errText(err);
    }
  }

  async function act(field: ChannelsField, busy: string, call: () => Promise<unknown>): Promise<boolean> {
    delete s.errors[field];
    s.busy = busy;
    try {
      await call();
      opts.onResult?.({ saved: true });
      return true;
    } catch (err) {
      s.errors[field] = errText(err);
      opts.onResult?.({ failed: errText(err) });
      return false;
    } finally {
      s.busy = '';
      await load();
    }
  }

  return {
    get status() {
      return s.status;
    },
    get draft() {
      return s.draft;
    },
    get error() {
      return s.error;
    },
    get errors() {
      return s.errors;
    },
    get busy() {
      return s.busy;
    },
    /** The open pairing code and when it stops working ('' while none). */
    get code(): { code: string; expires: string } {
      const tg = s.status;
      if (tg?.code) return { code: tg.code, expires: tg.codeExpires ?? '' };
      return { code: s.code, expires: '' };
    },
    paired: () => s.status?.paired ?? [],
    requests: () => s.status?.requests ?? [],
    load,
    /** Reads the state now and every pollMs until stop(). */
    start() {
      if (timer) return;
      void load();
      timer = setInterval(() => void load(), opts.pollMs ?? 2000);
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
    saveToken(token: string) {
      const tk = token.trim();
      if (!tk) return Promise.resolve(false);
      return act('token', 'token', () => api.setTelegramToken(tk));
    },
    removeToken() {
      return act('token', 'token', () => api.setTelegramToken(''));
    },
    /** Saves the draft's switches (on/off, group chats, notify in). */
    saveSwitches() {
      const d = s.draft;
      if (!d) return Promise.resolve(false);
      return act('switches', 'switches', () => api.setTelegram(d.enabled, d.groups, d.notifyIn));
    },
    pair() {
      return act('pair', 'pair', async () => {
        s.code = await api.pairingCode();
        s.codeSeen = false;
      });
    },
    allow(id: string) {
      return act('peers', id, () => api.allowPeer(id));
    },
    /** Takes a paired user off the list, or declines a request. */
    remove(id: string) {
      return act('peers', id, () => api.removePeer(id));
    },
    /** Allows a user id typed by hand. */
    addById(id: string) {
      const v = id.trim();
      if (!isUserId(v)) {
        s.errors.add = t('channels.add.bad');
        return Promise.resolve(false);
      }
      return act('add', 'add', () => api.allowPeer(v));
    },
  };
}

export type ChannelsStore = ReturnType<typeof createChannelsStore>;
