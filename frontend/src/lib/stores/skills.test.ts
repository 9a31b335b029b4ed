import { describe, expect, it, vi } from 'vitest';
import type { Skill } from '../api';
import { createSkillsStore, missing } from './skills.svelte';

const skill = (over: Partial<Skill> = {}): Skill =>
  ({ name: 'memory', description: 'Remember things.', source: 'builtin', always: false, available: true, enabled: true,
    path: '/ws/.hearth/skills/memory/SKILL.md', location: '.hearth/skills/memory/SKILL.md', ...over }) as Skill;

function fake(list: Skill[]) {
  return {
    listSkills: vi.fn(async () => list),
    setSkillEnabled: vi.fn(async () => {}),
    customizeSkill: vi.fn(async (name: string) => `skills/${name}/SKILL.md`),
  };
}

describe('skills store', () => {
  it('lists skills and says what an unavailable one misses', async () => {
    const api = fake([skill(), skill({ name: 'video', source: 'workspace', available: false, missingBins: ['ffmpeg'], missingEnv: ['VIDEO_KEY'] })]);
    const store = createSkillsStore(api);
    await store.refresh();
    expect(store.list.map((s) => s.name)).toEqual(['memory', 'video']);
    expect(missing(store.list[1])).toBe('bin: ffmpeg, env: VIDEO_KEY');
    expect(missing(store.list[0])).toBe('');
  });

  it('turns a skill off, and back on when the backend refuses', async () => {
    const api = fake([skill()]);
    const store = createSkillsStore(api);
    await store.refresh();
    expect(await store.setEnabled('memory', false)).toBe(true);
    expect(api.setSkillEnabled).toHaveBeenCalledWith('memory', false);
    expect(store.list[0].enabled).toBe(false);
    api.setSkillEnabled.mockRejectedValueOnce('skills: write .hearth/skills.json: read-only file system');
    expect(await store.setEnabled('memory', true)).toBe(false);
    expect(store.list[0].enabled).toBe(false);
    expect(store.error).toMatch(/read-only/);
    expect(await store.setEnabled('nope', true)).toBe(false);
  });

  it('opens a built-in as a copy to customise, and a workspace skill as it is', async () => {
    const open = vi.fn();
    const api = fake([skill(), skill({ name: 'video', source: 'workspace', location: 'skills/video/SKILL.md' })]);
    const store = createSkillsStore(api, { open });
    await store.refresh();
    expect(await store.openSkill('memory')).toBe(true);
    expect(api.customizeSkill).toHaveBeenCalledWith('memory');
    expect(open).toHaveBeenLastCalledWith('skills/memory/SKILL.md');
    expect(store.opened).toBe('skills/memory/SKILL.md');
    expect(await store.openSkill('video')).toBe(true);
    expect(open).toHaveBeenLastCalledWith('skills/video/SKILL.md');
    expect(store.opened).toBe('');
    api.customizeSkill.mockRejectedValueOnce('customize skill "x": no such skill');
    expect(await store.openSkill('x')).toBe(false);
    expect(store.error).toMatch(/no such skill/);
  });

  it('shows a list error', async () => {
    const api = fake([]);
    api.listSkills.mockRejectedValueOnce('agent: no workspace');
    const store = createSkillsStore(api);
    await store.refresh();
    expect(store.error).toBe('agent: no workspace');
  });
});
