import type { Status } from './lib/api';

/** A healthy backend status; override fields per test. */
export function fakeStatus(over: Partial<Status> = {}): Status {
  return {
    version: '0.1.0',
    configFile: '/home/u/.config/hearth/config.json',
    configError: '',
    configWarnings: [],
    workspace: '/home/u/.local/share/hearth/workspace',
    workspaceError: '',
    dataDir: '/home/u/.local/share/hearth',
    stateDir: '/home/u/.local/state/hearth',
    model: 'ollama/qwen3:4b',
    modelProvider: 'ollama',
    modelConfigured: true,
    modelProblem: '',
    ollamaHost: 'http://127.0.0.1:11434',
    ollamaReachable: true,
    ollamaVersion: '0.17.4',
    ollamaError: '',
    ...over,
  };
}
