import { describe, expect, it } from 'vitest';
import { parser } from '@lezer/markdown';
import { frontMatter } from './frontmatter';

const names = (doc: string) => {
  const out: string[] = [];
  parser.configure([frontMatter]).parse(doc).iterate({ enter: (n) => void out.push(n.name) });
  return out;
};

describe('a skill’s front matter in the editor', () => {
  const skill = '---\nname: weather\ndescription: Look up the weather\n---\n# Weather\n\nSay it plainly.\n';

  it('is one metadata block, not a heading', () => {
    const n = names(skill);
    expect(n).toContain('FrontMatter');
    expect(n).not.toContain('SetextHeading2');
    expect(n).toContain('ATXHeading1'); // the body is Markdown as before
  });

  it('is only at the very start; a rule later stays a rule, text over --- a heading', () => {
    expect(names('Intro\n\n---\n\nafter\n')).not.toContain('FrontMatter');
    expect(names('Title\n---\n')).toContain('SetextHeading2');
    expect(names('---\nname: half typed\n')).toContain('FrontMatter');
  });
});
