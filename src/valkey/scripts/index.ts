// The foundation's public API for Lua scripts (pinned in the working agreement).
export { luaScript, loadLuaScript, ScriptCheckError, type LuaScript } from './script.js';
export { evalScript, isServerReply } from './eval.js';
export { checkDeclaredKeys, type ScriptFinding } from './check.js';
