// The window side of background work (background.go): a "background" event refreshes the
// Reminders view (kind "jobs") or, when a reminder, the heartbeat, the message tool or a
// helper reached a chat, the chat list and that chat if it is open; "session:open" (a
// clicked notification) opens a chat; "session:new" (the tray's New chat) starts one. A
// "notice" or "jobs" event reads the notices again (missed reminders, a damaged jobs file).
// A page that loads after such a click missed its event: the backend keeps the move
// (app_nav.go) and the page takes it once it listens.
import type { BackgroundEvent } from './api';
import type { event } from '../../wailsjs/go/models';
import type { AppCtx } from './app.svelte';

type Ctx = Pick<AppCtx, 'api' | 'reminders' | 'notices' | 'sessions' | 'chat' | 'openChat' | 'newChat'>;

const reachesAChat = new Set<BackgroundEvent['kind']>(['message', 'reminder', 'reminderAnswer', 'heartbeat', 'subagent']);

export function onBackgroundEvent(app: Ctx, ev: BackgroundEvent): void {
  if (ev.kind === 'notice' || ev.kind === 'jobs') void app.notices.refresh();
  if (ev.kind === 'jobs') {
    // The view reads the jobs when it opens; until then there is nothing to refresh. A
    // change during that first read is read again after it (the read may predate it).
    if (app.reminders.loaded || app.reminders.loading) void app.reminders.refresh();
    return;
  }
  if (!reachesAChat.has(ev.kind)) return;
  void app.sessions.refresh();
  // The open chat shows the new turn; a turn of the window's own stays as it streams.
  if (ev.sessionId && app.chat.sessionId === ev.sessionId && !app.chat.running) void app.chat.open(ev.sessionId);
}

/** Makes a move the backend asked for: open a chat or start one. */
function navigate(app: Ctx, nav: event.Nav | null | undefined): void {
  if (nav?.kind === 'openChat' && nav.sessionId) app.openChat(nav.sessionId);
  else if (nav?.kind === 'newChat') app.newChat();
}

/** Forgets the kept move once its event has been followed, so that it is made once. */
function forgetNavigation(app: Ctx): void {
  void app.api.takeNavigation().catch(() => {});
}

/**
 * Subscribes to the three events, then reads the notices and makes the move a click
 * before this page listened asked for; returns the unsubscribe.
 */
export function listenBackground(app: Ctx): () => void {
  const offs = [
    app.api.onBackground((ev) => onBackgroundEvent(app, ev)),
    app.api.onOpenSession((id) => {
      if (id) app.openChat(id);
      forgetNavigation(app);
    }),
    app.api.onNewSession(() => {
      app.newChat();
      forgetNavigation(app);
    }),
  ];
  // After subscribing: a notice raised or a click made in between is seen by one or the
  // other (a move seen by both is made twice to the same chat).
  void app.notices.refresh();
  void app.api
    .takeNavigation()
    .then((nav) => navigate(app, nav))
    .catch(() => {});
  return () => offs.forEach((off) => off());
}
