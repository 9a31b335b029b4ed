import { afterEach, describe, expect, it } from 'vitest';
import { errText } from './api';
import { setLocale } from './i18n.svelte';

// userError (app_memory.go) sends a coded error as JSON text; Wails' runtime rejects the
// call with new Error(that text).
const wire = (e: object) => new Error(JSON.stringify(e));

describe('errText', () => {
  afterEach(() => setLocale('en'));

  it('words a coded error from the JSON text the runtime rejects with', () => {
    setLocale('zh-CN');
    const err = wire({ message: 'save MCP server: fs: toolTimeout must not be negative', code: 'mcp.server.negativeTimeout', args: { name: 'fs' } });
    expect(errText(err)).toBe('fs：toolTimeout 不能是负数');
    setLocale('en');
    expect(errText(err)).toBe('fs: toolTimeout must not be negative');
  });

  it('says each listed problem on its own line with its hint', () => {
    setLocale('zh-CN');
    const err = wire({
      message: 'cannot import: nothing to import (hint: …); b: json: bad',
      code: 'mcp.import.empty',
      problems: [{ text: { code: 'mcp.import.empty' }, hint: [{ code: 'mcp.import.empty.hint' }] }, { text: { code: 'mcp.server.unreadable', args: { name: 'b', error: 'json: bad' } } }],
    });
    expect(errText(err)).toBe('没有可导入的内容（请粘贴 Claude Desktop 配置中的 "mcpServers" 部分）\nb：无法读取这一项：json: bad');
    setLocale('en');
    expect(errText(err)).toBe('nothing to import (hint: paste the "mcpServers" block of a Claude Desktop config)\nb: json: bad');
  });

  it('keeps the English when a code is unknown, and plain errors as they are', () => {
    expect(errText(wire({ message: 'from a newer backend', code: 'x.unknown', problems: [{ text: { code: 'x.unknown' } }] }))).toBe('from a newer backend');
    expect(errText(new Error('plain'))).toBe('plain');
    expect(errText('{"not": "coded"}')).toBe('{"not": "coded"}');
    expect(errText(new Error('{broken'))).toBe('{broken');
    expect(errText('text')).toBe('text');
  });
});
