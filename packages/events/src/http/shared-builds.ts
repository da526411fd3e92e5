/** One build of a key under way: its write generation, the answer it will give, and how to give it. */
export interface Build<T> {
  readonly gen: number;
  readonly done: Promise<T | undefined>;
  settle(value: T | undefined): void;
}

/**
 * In-flight de-duplication: identical requests arriving while one builds the answer wait for that one instead of
 * all building it (an expired cache entry under load). Only a build that started under the same write generation
 * may answer a waiter: an older one could miss a write the waiter follows.
 */
export class SharedBuilds<T> {
  private readonly running = new Map<string, Build<T>>();

  /**
   * `shared`: the answer of the same-generation build under way. Otherwise `own`: the build this request must settle
   * (and `end`) when it is the first, or undefined when another build (older, or one that gave no answer) runs.
   */
  async join(key: string, gen: number): Promise<{ shared: T } | { own: Build<T> | undefined }> {
    const running = this.running.get(key);
    const shared = running && running.gen === gen ? await running.done : undefined;
    if (shared !== undefined) return { shared };
    if (running) return { own: undefined };
    let settle!: (value: T | undefined) => void;
    const own: Build<T> = {
      gen,
      done: new Promise((r) => {
        settle = r;
      }),
      settle: (v) => settle(v),
    };
    this.running.set(key, own);
    return { own };
  }

  /** The build is over: waiters still waiting get no answer (they build their own), and the key is free again. */
  end(key: string, build: Build<T>): void {
    build.settle(undefined);
    if (this.running.get(key) === build) this.running.delete(key);
  }
}
