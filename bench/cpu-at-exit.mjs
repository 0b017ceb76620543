// Preloaded (node --import) by bench/cli.bench.ts: at exit, the process's own CPU on stderr, past
// the CLI's output wrapper (writeSync), as one line the bench reads back.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  const c = process.cpuUsage();
  writeSync(2, `\nfencecheck-bench-cpu-us ${c.user + c.system}\n`);
});
