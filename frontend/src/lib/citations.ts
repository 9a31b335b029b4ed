// Citations of files in an answer: the model is asked to cite a passage as [file p. N]
// or [file line N] (backend/attach), and a knowledge folder's as [folder/path line N]
// (backend/recall). Only names of files attached to the chat, or paths whose first part
// is a listed knowledge folder's name, count, so a bracket that merely looks like one is
// left alone.

export interface Citation {
  file: string;
  page?: number;
  line?: number;
  /** As shown: "report.pdf p. 150", "notes.txt line 12". */
  where: string;
  /** A file of a knowledge folder ("Manuals/kiln.md"), not one attached to the chat. */
  knowledge?: boolean;
}

const pattern = /\[([^[\]\n]{1,200}?) (p\.|page|line) (\d{1,7})\]/g;

/**
 * The distinct citations in text, in order of first mention: of the chat's files (their
 * names) and of the knowledge folders named in folders (their base names).
 */
export function citations(text: string, files: readonly string[], folders: readonly string[] = []): Citation[] {
  if (!files.length && !folders.length) return [];
  const out: Citation[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(pattern)) {
    const [, file, kind, n] = m;
    const attached = files.includes(file);
    if (!attached && !inFolder(file, folders)) continue;
    const where = `${file} ${kind === 'line' ? 'line' : 'p.'} ${n}`;
    if (seen.has(where)) continue;
    seen.add(where);
    const c: Citation = kind === 'line' ? { file, line: Number(n), where } : { file, page: Number(n), where };
    if (!attached) c.knowledge = true;
    out.push(c);
  }
  return out;
}

/** Whether path's first part is one of folders and a file follows it. */
function inFolder(path: string, folders: readonly string[]): boolean {
  const i = path.indexOf('/');
  return i > 0 && i < path.length - 1 && folders.includes(path.slice(0, i));
}
