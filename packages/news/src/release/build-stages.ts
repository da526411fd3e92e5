import type { BuildPhase } from './build-options.ts';

/** Wall time and the whole process's CPU (every thread) while one build phase ran. */
export interface PhaseTime {
  readonly wallMs: number;
  readonly cpuMs: number;
}

/**
 * Where a build's time goes, in its progress logs and summary (a 20 GB month builds for hours). `phases`: each
 * phase's wall and process CPU; the read phase's CPU includes the parts indexed beside it. `busyMs`: summed wall
 * time of the work that overlaps (parts indexed at once, the word-count threads), so the sums can pass the elapsed time.
 */
export interface BuildStages {
  readonly phases: Partial<Record<BuildPhase, PhaseTime>>;
  readonly busyMs: {
    /** Each part's own index: suffix sort, text blocks, FM-index, tables and files. */
    readonly index: number;
    /** Each part's headline index. */
    readonly titles: number;
    /** Counting each part's words (on the word-count threads). */
    readonly words: number;
    /** Story clustering and the story files, once every article is read. */
    readonly stories: number;
  };
}

type Busy = { -readonly [K in keyof BuildStages['busyMs']]: number };

/** Collects a build's stage times; `stages()` is a snapshot for a progress record. */
export class StageClock {
  private readonly phases: Partial<Record<BuildPhase, PhaseTime>> = {};
  private readonly busy: Busy = { index: 0, titles: 0, words: 0, stories: 0 };
  private phase: { name: BuildPhase; wall: number; cpu: number } | undefined;

  /** Closes the running phase and starts `name`. */
  enter(name: BuildPhase): void {
    const now = { wall: performance.now(), cpu: cpuMs() };
    if (this.phase) {
      this.phases[this.phase.name] = {
        wallMs: Math.round(now.wall - this.phase.wall),
        cpuMs: Math.round(now.cpu - this.phase.cpu),
      };
    }
    this.phase = { name, ...now };
  }

  add(stage: keyof Busy, ms: number): void {
    this.busy[stage] += ms;
  }

  /** Times `work` into `stage`. */
  async time<T>(stage: keyof Busy, work: () => Promise<T>): Promise<T> {
    const from = performance.now();
    try {
      return await work();
    } finally {
      this.add(stage, performance.now() - from);
    }
  }

  stages(): BuildStages {
    const round = (ms: number) => Math.round(ms * 10) / 10;
    return {
      phases: { ...this.phases },
      busyMs: {
        index: round(this.busy.index),
        titles: round(this.busy.titles),
        words: round(this.busy.words),
        stories: round(this.busy.stories),
      },
    };
  }
}

function cpuMs(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}
