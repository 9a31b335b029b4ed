// Skills (docs/design/extensions.md#skills): built-in and workspace SKILL.md files with their availability, what
// they miss, and whether the model is offered them.
import { errText, type Api, type Skill } from '../api';

export interface SkillsOptions {
  /** Opens a workspace file (skills/<name>/SKILL.md) in the memory editor. */
  open?: (location: string) => void;
}

/** What an unavailable skill lacks, as words: "bin: ffmpeg, env: KEY". */
export function missing(s: Skill): string {
  return [...(s.missingBins ?? []).map((b) => `bin: ${b}`), ...(s.missingEnv ?? []).map((e) => `env: ${e}`)].join(', ');
}

export function createSkillsStore(api: Pick<Api, 'listSkills' | 'setSkillEnabled' | 'customizeSkill'>, opts: SkillsOptions = {}) {
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

  /**
   * "Open in editor": a workspace skill opens as it is; a built-in is first copied to
   * skills/<name>/SKILL.md, a copy to customise that then replaces the built-in.
   */
  async function openSkill(name: string) {
    const was = s.list.find((x) => x.name === name);
    try {
      const location = await api.customizeSkill(name);
      s.error = '';
      s.opened = was?.source === 'builtin' ? location : '';
      opts.open?.(location);
      if (was?.source === 'builtin') void refresh();
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
    /** Where the last built-in opened was copied to ('' for none). */
    get opened() {
      return s.opened;
    },
    refresh,
    setEnabled,
    openSkill,
  };
}

export type SkillsStore = ReturnType<typeof createSkillsStore>;
