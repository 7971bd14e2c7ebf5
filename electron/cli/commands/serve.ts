import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { findAppRoot } from '../../core/appRoot';
import { bundledScanWorkerScript } from '../../core/catalog/scanWorkerScript';
import { createEngine } from '../../core/engine';
import { configRootsFromEnv } from '../../core/layout/configRoots';
import { defaultDataDir } from '../../core/home/dataDir';
import { TOKEN_PATTERN } from '../../../shared/contract/webShellAccess';
import { createAccessToken, isLoopbackHost } from '../../server/requestAuth';
import { WebShellServer } from '../../server/WebShellServer';
import { relaunchForAllocator, shouldRelaunchForAllocator, stopWhenParentIsGone } from '../allocatorRelaunch';
import { CliError, type CliIo } from '../cliIo';

export const DEFAULT_PORT = 7420;

/** A token set in the environment must be at least as long as a generated one (24 random bytes, base64url). */
const MIN_TOKEN_LENGTH = 32;

/**
 * The access token: `CCMEM_SERVE_TOKEN` when set, so a restarted server (an upgrade, a supervisor's restart) keeps
 * the pages already open working; otherwise a fresh random one. The environment, not an option: a command line is
 * visible to every user of the machine.
 */
function accessTokenFrom(env: NodeJS.ProcessEnv): string {
  const given = env.CCMEM_SERVE_TOKEN;
  if (given === undefined || given === '') return createAccessToken();
  if (given.length < MIN_TOKEN_LENGTH || !TOKEN_PATTERN.test(given))
    throw new CliError(`CCMEM_SERVE_TOKEN must be ${MIN_TOKEN_LENGTH} to 256 characters of A-Z, a-z, 0-9, - and _`, 2);
  return given;
}

export interface RunningServe {
  readonly url: string;
  readonly stop: () => Promise<void>;
}

/** The options and the token, checked: a mistake in them throws a `CliError`. */
function servingOptions(argv: readonly string[], env: NodeJS.ProcessEnv) {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'read-only': { type: 'boolean', default: false },
    },
    strict: true,
  });
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new CliError(`--port must be a number from 0 to 65535, not ${values.port}`, 2);
  return { values, port, host: values.host ?? '127.0.0.1', token: accessTokenFrom(env) };
}

/** Starts the web shell; resolves once it listens. The caller decides how long it runs. */
export async function startServe(argv: readonly string[], io: CliIo): Promise<RunningServe> {
  const { values, port, host, token } = servingOptions(argv, io.env);
  const appRoot = findAppRoot(import.meta.dirname);
  const staticDir = appRoot ? join(appRoot, 'out', 'renderer') : null;
  if (!staticDir || !existsSync(join(staticDir, 'index.html'))) {
    throw new CliError('The web UI is not built yet: run `npm run build` in the checkout first.');
  }
  const demoDir = appRoot ? join(appRoot, 'resources', 'demo-home') : null;
  const engine = await createEngine({
    roots: configRootsFromEnv(io.env),
    dataDir: defaultDataDir(io.env),
    demoHomeSource: demoDir && existsSync(demoDir) ? demoDir : null,
    shell: 'web',
    readOnly: values['read-only'],
    watch: true,
    catalogScanWorker: bundledScanWorkerScript(import.meta.dirname),
  });
  const server = new WebShellServer({
    handlers: engine.handlers,
    subscribe: (sink) => engine.subscribe(sink),
    staticDir,
    token,
    host,
    port,
    readOnly: values['read-only'],
  });
  let address;
  try {
    address = await server.start();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    await engine.dispose();
    if (code === 'EADDRINUSE') throw new CliError(`Port ${port} is in use; choose another with --port`);
    if (code === 'EADDRNOTAVAIL') throw new CliError(`Cannot bind ${host}: no such address on this machine`);
    throw error;
  }
  if (!isLoopbackHost(host)) {
    io.stderr(`warning: serving beyond this machine on ${host}; anyone who has the URL below can read your Claude Code memory.\n`);
  }
  io.stdout(
    `Claude Memory Manager is serving ${configRootsFromEnv(io.env)
      .map((r) => r.path)
      .join(', ')}${values['read-only'] ? ' (read-only)' : ''}\n`,
  );
  io.stdout(`Open: ${address.url}\n`);
  // The page answers at once; changes are followed once the watcher has scanned the home, which on a big one takes a while.
  // A server stopped before the scan ends says nothing: the start then settles because it was cancelled.
  let stopped = false;
  void engine.ready.then(
    () => {
      if (!stopped) io.stdout('Following changes to the home.\n');
    },
    (error: unknown) => {
      if (!stopped) io.stderr(`warning: cannot follow changes to the home: ${error instanceof Error ? error.message : String(error)}\n`);
    },
  );
  return {
    url: address.url,
    stop: async () => {
      stopped = true;
      await server.close();
      await engine.dispose();
    },
  };
}

/** `ccmem serve [--port P] [--host H] [--read-only]`: runs until interrupted. */
export async function runServe(argv: readonly string[], io: CliIo): Promise<number> {
  if (shouldRelaunchForAllocator(io.env, io.entryScript)) {
    // A mistake in the options or the token is said here, before a second process starts.
    servingOptions(argv, io.env);
    return relaunchForAllocator(io.entryScript as string, ['serve', ...argv], io.env);
  }
  const running = await startServe(argv, io);
  let stopWatchingParent = (): void => undefined;
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    stopWatchingParent = stopWhenParentIsGone(io.env, stop);
  });
  stopWatchingParent();
  await running.stop();
  return 0;
}
