// Skills (docs/design/extensions.md#skills): built-in and workspace SKILL.md files with their availability, what
// they miss, and whether the model is offered them.
import { errText, type Api, type Skill } from '../api';

export interface SkillsOptions {
  /**
   * Opens a SKILL.md in the editor. The memory sidebar's editor is wired in here; until it
   * is, openSkill only records the path, which the view shows.
   */
  open?: (path: string) => void;
}

/** What an unavailable skill lacks, as words: "bin: ffmpeg, env: KEY". */
export function missing(s: Skill): string {
  return [...(s.missingBins ?? []).map((b) => `bin: ${b}`), ...(s.missingEnv ?? []).map((e) => `env: ${e}`)].join(', ');
}

export function createSkillsStore(api: Pick<Api, 'listSkills' | 'setSkillEnabled'>, opts: SkillsOptions = {}) {
  const s = $state({ list: [] as Skill[], loaded: false, loading: false, error: '', busy: '', opened: '' });

  async function refresh() {
    s.loading = true;
    try {
      s.list = (await api.listSkills()) ?? [];
      s.error = '';
    } catch (err) {
      s.error = errText(err);
    } finally {
      s.loading = false;
      s.loaded = true;
    }
  }

  /** Turns a skill on or off; the switch shows the new state at once and goes back on failure. */
  async function setEnabled(name: string, enabled: boolean) {
    const skill = s.list.find((x) => x.name === name);
    if (!skill) return false;
    const was = skill.enabled;
    skill.enabled = enabled;
    s.busy = name;
    try {
      await api.setSkillEnabled(name, enabled);
      s.error = '';
      return true;
    } catch (err) {
      skill.enabled = was;
      s.error = errText(err);
      return false;
    } finally {
      s.busy = '';
    }
  }

  /** "Open in the editor": hands the SKILL.md path to the editor (see SkillsOptions.open). */
  function openSkill(path: string) {
    s.opened = path;
    opts.open?.(path);
  }

  return {
    get list() {
      return s.list;
    },
    get loaded() {
      return s.loaded;
    },
    get loading() {
      return s.loading;
    },
    get error() {
      return s.error;
    },
    get busy() {
      return s.busy;
    },
    /** the path last asked to open */
    get opened() {
      return s.opened;
    },
    refresh,
    setEnabled,
    openSkill,
  };
}

export type SkillsStore = ReturnType<typeof createSkillsStore>;
