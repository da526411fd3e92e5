/**
 * Where the cluster suites run their workers: plain loopback, or one Linux network namespace per host joined to
 * this one by a veth pair (`ip netns`, iproute2), so gateway and workers talk across real network interfaces.
 */
import { execFileSync } from 'node:child_process';

export interface Hosts {
  /** Address worker `i` listens on, as the gateway reaches it. */
  address(i: number): string;
  /** Command prefix that runs a process on host `i`. */
  prefix(i: number): string[];
  teardown(): void;
}

export const loopbackHosts = (): Hosts => ({ address: () => '127.0.0.1', prefix: () => [], teardown: () => {} });

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });

/**
 * `count` namespaces `<tag>h<i>`, each with a veth pair: 10.<net>.<i>.1 here, 10.<net>.<i>.2 inside. Throws the
 * kernel's refusal (the caller skips with it) after removing whatever it created.
 */
export function namespaceHosts(count: number): Hosts {
  // Unique per process: several suites may run on one machine at once.
  const tag = `cl${process.pid % 100_000}`;
  const net = 100 + (process.pid % 100);
  const names = Array.from({ length: count }, (_, i) => `${tag}h${i}`);
  const teardown = () => {
    for (const [i, ns] of names.entries()) {
      try {
        ip('netns', 'del', ns);
      } catch {
        /* not created */
      }
      try {
        ip('link', 'del', `${tag}v${i}`);
      } catch {
        /* gone with the namespace */
      }
    }
  };
  try {
    for (const [i, ns] of names.entries()) {
      const outside = `${tag}v${i}`;
      const inside = `${tag}p${i}`;
      ip('netns', 'add', ns);
      ip('link', 'add', outside, 'type', 'veth', 'peer', 'name', inside);
      ip('link', 'set', inside, 'netns', ns);
      ip('addr', 'add', `10.${net}.${i}.1/24`, 'dev', outside);
      ip('link', 'set', outside, 'up');
      ip('-n', ns, 'addr', 'add', `10.${net}.${i}.2/24`, 'dev', inside);
      ip('-n', ns, 'link', 'set', inside, 'up');
      ip('-n', ns, 'link', 'set', 'lo', 'up');
    }
  } catch (e) {
    teardown();
    throw e;
  }
  return { address: (i) => `10.${net}.${i}.2`, prefix: (i) => ['ip', 'netns', 'exec', names[i] as string], teardown };
}

/** Null when namespaces can be made here, else why not (the suite is skipped with this message). */
export function namespacesRefused(): string | null {
  try {
    namespaceHosts(1).teardown();
    return null;
  } catch (e) {
    const err = (e as { stderr?: Buffer }).stderr?.toString().trim() ?? (e as Error).message;
    return `network namespaces are not allowed here (${err || 'ip netns failed'}): the cross-host cluster suite is skipped; the loopback suite covers the same behaviour`;
  }
}
