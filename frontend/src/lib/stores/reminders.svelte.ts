// The Reminders view's state: the jobs (soonest first, as the schedule service sorts them), entries
// of jobs.json that could not be read, whether all reminders are paused, and the create
// form with its errors. Background "jobs" events call refresh; calls that overlap a running
// refresh fold into one more, so a burst of events costs two reads, not one per event.
import { errText, type Api, type Job, type JobProblem } from '../api';
import type { Errors } from './settings.svelte';
import { applyPreset, emptyForm, fieldForError, formFromJob, toSpec, validateForm, type Preset, type ReminderForm } from './reminderForm';

type RemindersApi = Pick<
  Api,
  'listJobs' | 'jobProblems' | 'addJob' | 'editJob' | 'removeJob' | 'runJobNow' | 'pauseJob' | 'setRemindersPaused' | 'getBackgroundSettings'
>;

/** The chat a job runs in (schedule.Job.Session). */
export const jobSession = (j: Pick<Job, 'id' | 'sessionId'>) => j.sessionId || `cron:${j.id}`;

export function createRemindersStore(api: RemindersApi, now: () => Date = () => new Date()) {
  const s = $state({
    list: [] as Job[],
    problems: [] as JobProblem[],
    paused: false,
    error: '',
    loaded: false,
    loading: false,
    /** Jobs whose Run now is going on. */
    running: [] as string[],
    /** A job's last action error (Run now, pause, delete), by id. */
    jobErrors: {} as Record<string, string>,
    form: emptyForm(now()),
    /** The form as it started, to tell which fields were edited. */
    initial: emptyForm(now()),
    /** A create was tried: every problem shows, edited or not. */
    tried: false,
    /** Errors from the backend for the form (shown until the field changes). */
    serverErrors: {} as Errors,
    /** The form as it was when the server errors came. */
    serverFor: '',
    saving: false,
    /** The job the form edits; '' when it creates one. */
    editing: '',
  });
  let inFlight: Promise<void> | null = null;
  let again = false;

  async function read() {
    try {
      const [list, paused] = await Promise.all([api.listJobs(), api.getBackgroundSettings().then((b) => b.remindersPaused)]);
      s.list = list ?? [];
      s.paused = paused;
      s.error = '';
      s.problems = (await api.jobProblems().catch(() => [])) ?? [];
    } catch (err) {
      s.error = errText(err);
    } finally {
      s.loaded = true;
    }
  }

  /** Reads the jobs again; concurrent calls share one read and at most one more after it. */
  function refresh(): Promise<void> {
    if (inFlight) {
      again = true;
      return inFlight;
    }
    s.loading = true;
    inFlight = (async () => {
      do {
        again = false;
        await read();
      } while (again);
      inFlight = null;
      s.loading = false;
    })();
    return inFlight;
  }

  const formKey = () => JSON.stringify(s.form);

  /** Client checks first; then the backend's, whose errors land on the same fields. */
  async function add(): Promise<boolean> {
    s.tried = true;
    if (Object.keys(validateForm(s.form, now())).length) return false;
    s.saving = true;
    try {
      if (s.editing) await api.editJob(s.editing, toSpec(s.form));
      else await api.addJob(toSpec(s.form));
      reset();
      await refresh();
      return true;
    } catch (err) {
      const { field, text } = fieldForError(errText(err));
      s.serverErrors = { [field]: { text } };
      s.serverFor = formKey();
      return false;
    } finally {
      s.saving = false;
    }
  }

  function reset() {
    s.form = emptyForm(now());
    s.initial = emptyForm(now());
    s.serverErrors = {};
    s.tried = false;
    s.editing = '';
  }

  /** Opens the form on a job (Edit): the same form, its fields filled. */
  function edit(job: Job) {
    s.form = formFromJob(job, now());
    s.initial = formFromJob(job, now());
    s.serverErrors = {};
    s.tried = false;
    s.editing = job.id;
  }

  /**
   * Opens the form to create: an untouched form takes a fresh default time (an hour from
   * now, when the form opens — not when the window did).
   */
  function openNew() {
    if (s.editing || formKey() === JSON.stringify(s.initial)) reset();
  }

  /** Whether a form field was edited (a problem shows on it only then, or after a try). */
  function edited(field: string): boolean {
    const f = s.form as unknown as Record<string, unknown>;
    const i = s.initial as unknown as Record<string, unknown>;
    if (field === 'every') return f.every !== i.every || f.unit !== i.unit;
    return f[field] !== i[field];
  }

  async function act(id: string, fn: () => Promise<unknown>) {
    delete s.jobErrors[id];
    try {
      await fn();
    } catch (err) {
      s.jobErrors[id] = errText(err);
    }
    await refresh();
  }

  return {
    get list() {
      return s.list;
    },
    get problems() {
      return s.problems;
    },
    get paused() {
      return s.paused;
    },
    get error() {
      return s.error;
    },
    get loaded() {
      return s.loaded;
    },
    get loading() {
      return s.loading;
    },
    get jobErrors() {
      return s.jobErrors;
    },
    get form() {
      return s.form;
    },
    get saving() {
      return s.saving;
    },
    /** The id of the job the form edits, or ''. */
    get editing() {
      return s.editing;
    },
    /** Reminders still to come (or paused, or failed), soonest first. */
    get active() {
      return s.list.filter((j) => !j.done);
    },
    /** One-shots that ran, most recent first. */
    get done() {
      return s.list.filter((j) => j.done).sort((a, b) => String(b.lastRun ?? '').localeCompare(String(a.lastRun ?? '')));
    },
    /**
     * The form's errors: the client's checks on edited fields (all of them once a create was
     * tried), and the backend's until the form changes.
     */
    get errors(): Errors {
      const client = Object.entries(validateForm(s.form, now())).filter(([k]) => s.tried || edited(k));
      const server = s.serverFor === formKey() ? s.serverErrors : {};
      return { ...server, ...Object.fromEntries(client) };
    },
    /** Whether the form can be sent (no client-side problem, shown or not). */
    get valid() {
      return Object.keys(validateForm(s.form, now())).length === 0;
    },
    isRunning(id: string) {
      return s.running.includes(id);
    },
    refresh,
    add,
    edit,
    openNew,
    preset: (p: Preset) => applyPreset(s.form, p, now()),
    resetForm: reset,
    remove: (id: string) => act(id, () => api.removeJob(id)),
    pause: (id: string, paused: boolean) => act(id, () => api.pauseJob(id, paused)),
    /** Runs the job now; resolves when its turn has finished. */
    async runNow(id: string) {
      if (s.running.includes(id)) return;
      s.running.push(id);
      try {
        await act(id, () => api.runJobNow(id));
      } finally {
        s.running = s.running.filter((x) => x !== id);
      }
    },
    async setPaused(paused: boolean) {
      s.paused = paused;
      try {
        await api.setRemindersPaused(paused);
      } catch (err) {
        s.error = errText(err);
      }
      await refresh();
    },
  };
}

export type RemindersStore = ReturnType<typeof createRemindersStore>;
