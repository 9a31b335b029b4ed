// A synthetic chat history for the benchmarks and e2e tests, written as a session file
// (backend/session's JSONL): questions, Markdown answers with lists, tables and code blocks
// in several languages, and tool calls with their results, as real chats have.

const codes = [
  ['python', (i) => `def handle_${i}(items):\n    total = 0\n    for item in items:\n        if item.ok:\n            total += item.size * ${i}\n    return total\n`],
  ['go', (i) => `func Handle${i}(ctx context.Context, xs []int) (int, error) {\n\tsum := 0\n\tfor _, x := range xs {\n\t\tif err := ctx.Err(); err != nil {\n\t\t\treturn 0, fmt.Errorf("handle ${i}: %w", err)\n\t\t}\n\t\tsum += x\n\t}\n\treturn sum, nil\n}\n`],
  ['js', (i) => `export async function load${i}(url) {\n  const res = await fetch(url, { headers: { accept: 'application/json' } });\n  if (!res.ok) throw new Error(\`load ${i}: \${res.status}\`);\n  return (await res.json()).items.filter((x) => x.id > ${i});\n}\n`],
  ['bash', (i) => `for f in logs/*.log; do\n  grep -c "ERROR ${i}" "$f" | awk '{ s += $1 } END { print s }'\ndone\n`],
];

function answer(i) {
  const [lang, code] = codes[i % codes.length];
  const parts = [`### Answer ${i}\n\nUse **this** approach, with \`option_${i}\` set and [the guide](https://example.com/${i}):`];
  parts.push(`1. First step for case ${i}\n2. Second step, *carefully*\n3. Third step:\n   - a nested point\n   - another one`);
  parts.push('```' + lang + '\n' + code(i) + '```');
  if (i % 3 === 0) parts.push(`| name | value | note |\n| --- | --- | --- |\n| alpha | ${i} | first |\n| beta | ${i * 2} | second |\n| gamma | ${i * 3} | third |`);
  if (i % 5 === 0) parts.push('> A quoted remark about case ' + i + ', which spans a line or two of text so that it wraps in the window.');
  parts.push(`That is all for ${i}. `.repeat(1 + (i % 4)));
  return parts.join('\n\n');
}

/** A very long answer of about `tokens` words: paragraphs of 60 words, a code block every 400. */
export function longAnswer(tokens) {
  let s = '';
  for (let i = 0; i < tokens; i++) {
    if (i % 400 === 399) s += '\n\n```js\nconst x = ' + i + ';\n```\n\n';
    else if (i % 60 === 59) s += '.\n\n';
    else s += i % 7 === 0 ? ' **word' + i + '**' : ' word' + i;
  }
  return s;
}

/**
 * The lines of a session file holding `messages` stored messages (user, assistant and tool),
 * ending with the assistant message "Last answer <id>" (followed by `lastTokens` words when
 * given). Every fourth exchange calls tools.
 */
export function historyLines(id, title, messages, lastTokens = 0) {
  const at = (i) => new Date(Date.UTC(2026, 0, 1, 8, 0, 0, i * 1000)).toISOString();
  const lines = [
    { type: 'meta', v: 1, id, title, created: at(0), updated: at(messages + 1), model: 'ollama/qwen3:4b', lastConsolidated: -1, archived: false },
  ];
  let n = 0;
  for (let i = 0; n < messages; i++) {
    const runId = `r${i}`;
    const withTools = i % 4 === 1 && messages - n >= 4;
    lines.push({ type: 'message', at: at(n), runId, role: 'user', content: `Question ${i}: how do I do thing ${i}?` });
    n++;
    if (withTools) {
      const calls = [
        { id: `c${i}a`, name: 'read_file', arguments: { path: `notes/${i}.md` } },
        { id: `c${i}b`, name: 'exec', arguments: { command: `ls -la src/${i}` } },
      ];
      lines.push({ type: 'message', at: at(n), runId, role: 'assistant', content: '', toolCalls: calls });
      n++;
      for (const c of calls) {
        lines.push({ type: 'message', at: at(n), runId, role: 'tool', toolCallId: c.id, toolName: c.name, content: `line 1 of ${c.name} ${i}\nline 2\nline 3` });
        n++;
      }
    }
    const last = n + 1 >= messages;
    lines.push({ type: 'message', at: at(n), runId, role: 'assistant', content: last ? `Last answer ${id}.\n\n` + (lastTokens ? longAnswer(lastTokens) : answer(i)) : answer(i) });
    n++;
    lines.push({ type: 'run', at: at(n), runId, status: 'ok', final: 'x', usage: { promptTokens: 100, completionTokens: 50 }, durationMs: 900 });
  }
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}
