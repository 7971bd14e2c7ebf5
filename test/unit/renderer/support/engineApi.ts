import { join } from 'node:path';
import type { Api, RequestHandlers } from '../../../../shared/contract/api';
import { dispatchRequest } from '../../../../shared/contract/dispatch';
import type { Result } from '../../../../shared/result';
import { createEngine, type Engine } from '../../../../electron/core/engine';
import { createRequestHandlers } from '../../../../electron/core/createRequestHandlers';
import type { ScenarioHome } from '../../../fixtures/scenarioHome';

/** An answer the engine has given, held back from the page until the test lets it through. */
export interface HeldAnswer {
  readonly request: string;
  release(): void;
}

/**
 * The renderer's Api answered by a real engine over a scenario home, as the web shell answers it, except that the
 * test may hold an answer back: a slow answer overtaken by a newer one is what the stores must drop.
 */
export class EngineApi {
  private holding = false;
  readonly held: HeldAnswer[] = [];

  private readonly handlers: RequestHandlers;

  private constructor(private readonly engine: Engine) {
    this.handlers = createRequestHandlers(engine);
  }

  static async start(home: ScenarioHome): Promise<EngineApi> {
    const engine = await createEngine({
      roots: [{ path: home.root, source: 'CLAUDE_CONFIG_DIR' }],
      dataDir: join(home.tmp, 'data'),
      demoHomeSource: null,
      shell: 'web',
      readOnly: false,
      watch: false,
    });
    await engine.ready;
    return new EngineApi(engine);
  }

  /** Answers given from now on wait in `held` until released. */
  holdAnswers(hold: boolean): void {
    this.holding = hold;
  }

  readonly api: Api = new Proxy({} as Api, {
    get: (_target, name) => {
      if (typeof name !== 'string') return undefined;
      // The stores subscribe to engine events at import; these tests drive the stores by their calls alone.
      if (name.startsWith('on')) return () => () => undefined;
      return async (args: unknown): Promise<Result<unknown>> => {
        const answer = await dispatchRequest(this.handlers, name, args, { readOnly: false });
        if (!this.holding) return answer;
        return new Promise((resolve) => this.held.push({ request: name, release: () => resolve(answer) }));
      };
    },
  });

  dispose(): Promise<void> {
    return this.engine.dispose();
  }
}
