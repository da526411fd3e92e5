/**
 * Expensive calls each client may have admitted at once (in flight or waiting in the lane). A client's entry exists
 * only while it holds a call, so the map never holds more addresses than there are calls under way, and nothing
 * about a client outlives its requests (the privacy page promises no stored client addresses).
 */
export interface ClientBudget {
  /** Takes one unit for `client`; false when it already holds `limit`. */
  tryTake(client: string): boolean;
  /** Gives back one unit `client` took. */
  give(client: string): void;
  /** Units `client` holds now. */
  held(client: string): number;
  /** Clients holding at least one unit. */
  readonly clients: number;
}

export function createClientBudget(limit: number): ClientBudget {
  const held = new Map<string, number>();
  return {
    get clients() {
      return held.size;
    },
    held: (client) => held.get(client) ?? 0,
    tryTake(client) {
      const n = held.get(client) ?? 0;
      if (n >= limit) return false;
      held.set(client, n + 1);
      return true;
    },
    give(client) {
      const n = held.get(client) ?? 0;
      if (n <= 0) throw new Error('ClientBudget.give without a matching tryTake');
      if (n === 1) held.delete(client);
      else held.set(client, n - 1);
    },
  };
}
