// What the reminders scheduler told while the window was not looking (reminders.Notice): reminders
// missed while Hearth was closed, each caught up or skipped, and a damaged jobs file. The
// window reads them when it loads and again on every "notice" or "jobs" background event, so
// one raised at start, before the window listened, still shows; they stay until dismissed.
import { errText, type Api, type Notice } from '../api';

type NoticesApi = Pick<Api, 'backgroundNotices' | 'dismissNotice' | 'answerMissed'>;

export function createNoticesStore(api: NoticesApi) {
  const s = $state({ list: [] as Notice[], error: '', loaded: false });
  let inFlight: Promise<void> | null = null;
  let again = false;

  async function read() {
    try {
      s.list = await api.backgroundNotices();
      s.error = '';
    } catch (err) {
      s.error = errText(err);
    } finally {
      s.loaded = true;
    }
  }

  /** Reads them again; overlapping calls share one read and at most one more after it. */
  function refresh(): Promise<void> {
    if (inFlight) {
      again = true;
      return inFlight;
    }
    inFlight = (async () => {
      do {
        again = false;
        await read();
      } while (again);
      inFlight = null;
    })();
    return inFlight;
  }

  /** Dismisses notices at once in the window, then in the backend. */
  async function dismiss(...ids: string[]) {
    s.list = s.list.filter((n) => !ids.includes(n.id));
    try {
      for (const id of ids) await api.dismissNotice(id);
    } catch (err) {
      s.error = errText(err);
    }
    await refresh();
  }

  /** Answers a reminder that asks about its missed run: run it once now, or skip it. */
  async function answer(id: string, run: boolean) {
    const n = s.list.find((x) => x.id === id);
    if (n) n.outcome = run ? 'running' : 'skipped';
    try {
      await api.answerMissed(id, run);
    } catch (err) {
      s.error = errText(err);
    }
    await refresh();
  }

  return {
    answer,
    /** Newest first. */
    get list() {
      return s.list;
    },
    get missed() {
      return s.list.filter((n) => n.kind === 'missed');
    },
    get jobsFile() {
      return s.list.filter((n) => n.kind === 'jobsFile');
    },
    get count() {
      return s.list.length;
    },
    get error() {
      return s.error;
    },
    get loaded() {
      return s.loaded;
    },
    refresh,
    dismiss,
  };
}

export type NoticesStore = ReturnType<typeof createNoticesStore>;
