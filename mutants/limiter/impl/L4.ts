// L4 limiter.host_clock: the client sends the application host's clock and the script uses it
// instead of Valkey TIME.
import { replaceOnce, type LimiterPatch } from '../../../src/systems/limiter/patch.js';

const TIME_LINES = "local t = redis.call('TIME')\nlocal now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)\n";

const patch: LimiterPatch = {
  transformSource: (src) => replaceOnce(replaceOnce(src, 'if #ARGV ~= 3 * n then', 'if #ARGV ~= 3 * n + 1 then'), TIME_LINES, 'local now = tonumber(ARGV[#ARGV])\n'),
  wrapCall: (call) => (client, script, keys, args) => call(client, script, keys, [...args, Date.now()]),
};
export default patch;
