import type { Api, RequestHandlers } from '../../../../shared/contract/api';
import { dispatchRequest } from '../../../../shared/contract/dispatch';
import { subscriberName } from '../../../../shared/contract/events';
import type { Result } from '../../../../shared/result';
import type { Engine } from '../../../../electron/core/engine';
import { createRequestHandlers } from '../../../../electron/core/createRequestHandlers';
import type { ScenarioHome } from '../../../fixtures/scenarioHome';
import { createTestEngine } from '../../../fixtures/testEngine';

/** An answer the engine has given, held back from the page until the test lets it through. */
export interface HeldAnswer {
  readonly request: string;
  release(): void;
}

/**
 * The renderer's Api answered by a real engine over a scenario home, with its events, as the web shell answers it,
 * except that the test may hold an answer back: a slow answer overtaken by a newer one is what the stores must drop.
 */
export class EngineApi {
  private holding = false;
  readonly held: HeldAnswer[] = [];

  private readonly handlers: RequestHandlers;

  /** The page's event listeners by subscriber name (`onSearchHits`…), fed by the engine as the web shell feeds them. */
  private readonly listeners = new Map<string, ((payload: unknown) => void)[]>();
  private readonly stopEvents: () => void;

  private constructor(readonly engine: Engine) {
    this.handlers = createRequestHandlers(engine);
    this.stopEvents = engine.subscribe((event, payload) => {
      for (const listener of this.listeners.get(subscriberName(event)) ?? []) listener(payload);
    });
  }

  static async start(home: ScenarioHome): Promise<EngineApi> {
    const engine = await createTestEngine(home, { shell: 'web' });
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
      if (name.startsWith('on')) {
        return (listener: (payload: unknown) => void) => {
          this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
          return () =>
            this.listeners.set(
              name,
              (this.listeners.get(name) ?? []).filter((known) => known !== listener),
            );
        };
      }
      return async (args: unknown): Promise<Result<unknown>> => {
        const answer = await dispatchRequest(this.handlers, name, args, { readOnly: false });
        if (!this.holding) return answer;
        return new Promise((resolve) => this.held.push({ request: name, release: () => resolve(answer) }));
      };
    },
  });

  dispose(): Promise<void> {
    this.stopEvents();
    return this.engine.dispose();
  }
}
