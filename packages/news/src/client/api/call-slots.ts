/**
 * At most `slots` calls of one kind in flight from this page; the others wait their turn in arrival order.
 *
 * Why: the gateway admits a few expensive calls per client address at once (GATEWAY_EXPENSIVE_PER_CLIENT, 6 by
 * default) and answers the next with 429. A search step asks for one documents page per shard it touches, beside
 * the estimate and the timeline; sent all at once they overran that budget on a loaded machine (issue 29 bug 11).
 */
export interface CallSlots {
  run<T>(call: () => Promise<T>): Promise<T>;
}

export function callSlots(slots: number): CallSlots {
  let free = slots;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next === undefined) free++;
    else next();
  };
  return {
    async run(call) {
      if (free > 0) free--;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await call();
      } finally {
        release();
      }
    },
  };
}
