import { endQuietlyOnBrokenPipe } from './brokenPipe';
import { runCli } from './main';

endQuietlyOnBrokenPipe(process.stdout, (code) => process.exit(code));
const exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  entryScript: process.argv[1],
});
process.exitCode = exitCode;
